//! `hypermut testgen`: decide every mutant, write a killing test for each killed one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use hypermut_aig::aiger::{write_aiger, AigerFormat};
use hypermut_aig::blast::{blast, BlastOptions};
use hypermut_aig::Lit;
use hypermut_aig::{write_witness, Witness};
use hypermut_hyper::{extract_test, range_check, Blocked, HyperError, MutantProduct, Test};
use hypermut_ir::System;
use hypermut_mutate::{make_controllable, Mutant, NdSource};
use hypermut_prove::bmc::{check_bound, Bmc};
use hypermut_prove::{witness_circuit, Certificate, Engine, Ic3, Verdict};

use super::suite::{build_suite, describe, SuiteReport};
use crate::files::{append_line, write_atomic};
use crate::model::{
    load, location, model_hash, smv_source_check, text_hash, ModelArgs, MutantArgs,
};

/// Options of `hypermut testgen`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub select: MutantArgs,
    /// BMC bound: the deepest frame searched for a killing test.
    #[arg(long, default_value_t = 20)]
    pub bound: usize,
    /// Worker threads (default: number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Directory for `summary.json`, `results.jsonl` and the tests.
    #[arg(long, default_value = "hypermut-out")]
    pub out: PathBuf,
    /// Time limit per mutant, in seconds, for BMC and IC3 together.
    #[arg(long, default_value_t = 60.0, value_parser = parse_seconds)]
    pub timeout: f64,
    /// Only search for killing tests (BMC to `--bound`); do not try to prove equivalence.
    #[arg(long)]
    pub no_prove: bool,
    /// Continue an interrupted run in `--out`: mutants already decided are not redone.
    #[arg(long, conflicts_with = "fresh")]
    pub resume: bool,
    /// Discard earlier results in `--out` and start over.
    #[arg(long)]
    pub fresh: bool,
    /// Decide only the slice `i` of `n` (1 ≤ i ≤ n: the mutants whose id is `i - 1` modulo
    /// `n`), e.g. `--shard 2/8`; `hypermut merge` combines the slices.
    #[arg(long, value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Also report weak killing (some output or latch differs) per mutant in `suite.json`.
    #[arg(long)]
    pub weak: bool,
}

/// A deterministic slice of the mutants: those whose id is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which slice (0-based; `--shard` counts from 1).
    pub index: usize,
    /// Number of slices.
    pub count: usize,
}

impl Shard {
    /// Whether mutant `id` belongs to this slice.
    pub fn contains(&self, id: usize) -> bool {
        id % self.count == self.index
    }
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("expected a number of seconds >= 0, found `{text}`")),
    }
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| format!("expected `i/n`, e.g. `0/4`, found `{text}`"))?;
    let index: usize = i
        .trim()
        .parse()
        .map_err(|_| format!("`{i}` is not a number"))?;
    let count: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("`{n}` is not a number"))?;
    if count == 0 || index == 0 || index > count {
        return Err(format!(
            "expected `i/n` with 1 <= i <= n, found `{index}/{count}`"
        ));
    }
    Ok(Shard {
        index: index - 1,
        count,
    })
}

/// What a results directory was produced from; a resumed run must match it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// Hash of the model's sources.
    pub model_hash: String,
    /// BMC bound.
    pub bound: usize,
    /// Hash of the mutant list (id, operator, location, replacement): results of another
    /// operator set must not be resumed.
    #[serde(default)]
    pub mutants_hash: String,
    /// The slice decided here (all mutants if absent).
    pub shard: Option<Shard>,
}

/// The outcome for one mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// A test distinguishes mutant and original.
    Killed,
    /// Proven to behave like the original on every input sequence.
    Equivalent,
    /// Not killed within the bound, not proven equivalent.
    Unknown,
    /// The mutant could not be built or its verdict could not be confirmed.
    Error,
    /// The mutant is not a valid model: it assigns a value outside a variable's range in some
    /// state (NuSMV rejects such models).
    Invalid,
}

/// Sizes of a product circuit.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ProductSize {
    /// Inputs (shared by both copies).
    pub inputs: usize,
    /// Latches in total.
    pub latches: usize,
    /// Latches shared by both copies.
    pub shared_latches: usize,
    /// Latches duplicated because they lie in the mutation's fan-out (counted once).
    pub duplicated_latches: usize,
    /// AND gates.
    pub ands: usize,
}

/// One line of `results.jsonl` and one entry of `summary.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MutantRecord {
    /// Mutant id.
    pub id: usize,
    /// Operator name.
    pub operator: String,
    /// `file:line:col` of the mutated expression.
    pub location: String,
    /// Original text.
    pub original: String,
    /// Replacement text.
    pub replacement: String,
    /// Verdict.
    pub outcome: Outcome,
    /// Frame of the first differing output (killed mutants).
    pub depth: Option<usize>,
    /// Test file, relative to the output directory (killed mutants).
    pub test: Option<String>,
    /// Certificate circuit (Certifaiger format, over the product of `hypermut product`),
    /// relative to the output directory (mutants proved equivalent by IC3).
    #[serde(default)]
    pub certificate: Option<String>,
    /// Why the verdict is what it is.
    pub reason: String,
    /// Product size.
    pub product: ProductSize,
    /// Wall-clock time for this mutant, in milliseconds.
    pub millis: u64,
    /// The killing test sets nd values: applying it requires control of the model's
    /// nondeterminism.
    #[serde(default)]
    pub requires_nd_control: bool,
    /// AND gates of the original model (after the nd transformation), for ΔGates.
    #[serde(default)]
    pub ands_orig: Option<usize>,
    /// AND gates of the conditional mutant (after the nd transformation), for ΔGates.
    #[serde(default)]
    pub ands_cm: Option<usize>,
    /// What decided the verdict: `bmc`, `ic3`, `static` (structural check) or `range`
    /// (validity check).
    #[serde(default)]
    pub engine: Option<String>,
}

/// `summary.json`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Summary {
    /// Model path as given.
    pub model: String,
    /// Hash of the model's sources.
    pub model_hash: String,
    /// BMC bound used.
    pub bound: usize,
    /// Number of mutants.
    pub mutants: usize,
    /// Killed mutants.
    pub killed: usize,
    /// Equivalent mutants.
    pub equivalent: usize,
    /// Mutants without a verdict.
    pub unknown: usize,
    /// Mutants that are not valid models.
    pub invalid: usize,
    /// Mutants that failed.
    pub errors: usize,
    /// Per-mutant records, by id.
    pub results: Vec<MutantRecord>,
}

/// A test file: the test plus what it belongs to.
#[derive(Serialize)]
struct TestFile<'a> {
    model: &'a str,
    model_hash: &'a str,
    operator: &'a str,
    location: &'a str,
    original: &'a str,
    replacement: &'a str,
    inputs: Vec<String>,
    outputs: Vec<String>,
    /// Controllable nondeterminism: nd input name → what it resolves.
    nd: BTreeMap<String, String>,
    /// Says whether applying the test needs control of the nd values.
    note: &'static str,
    /// How the test kills the mutant.
    kill: &'static str,
    #[serde(flatten)]
    test: &'a Test,
}

struct Ctx<'a> {
    sys: &'a System,
    model: String,
    hash: String,
    bound: usize,
    timeout: Duration,
    prove: bool,
    out: &'a Path,
    ands_orig: Option<usize>,
    /// SMV: the front-end options a mutant's edited source is re-read with.
    smv_recheck: Option<hypermut_smv::SmvOptions>,
}

fn decide(ctx: &Ctx, m: &Mutant) -> MutantRecord {
    let start = Instant::now();
    let mut rec = MutantRecord {
        id: m.id,
        operator: m.operator.name().into(),
        location: location(ctx.sys, m),
        original: m.original.clone(),
        replacement: m.replacement.clone(),
        outcome: Outcome::Error,
        depth: None,
        test: None,
        certificate: None,
        reason: String::new(),
        product: ProductSize::default(),
        millis: 0,
        ands_orig: ctx.ands_orig,
        ands_cm: None,
        engine: None,
        requires_nd_control: false,
    };
    match decide_inner(ctx, m, &mut rec) {
        Ok(()) => {}
        Err(e) => {
            rec.outcome = match e.downcast_ref::<HyperError>() {
                Some(HyperError::InvalidMutant(_)) => Outcome::Invalid,
                _ => Outcome::Error,
            };
            rec.reason = format!("{e:#}");
        }
    }
    rec.millis = start.elapsed().as_millis() as u64;
    rec
}

/// Why the SMV front-end rejects the mutant's edited source, if it does (NuSMV would reject
/// that model too, e.g. a `case` left without a branch for some values).
fn rejected_source(ctx: &Ctx, m: &Mutant) -> Option<String> {
    let options = ctx.smv_recheck.as_ref()?;
    let src = hypermut_mutate::mutant_source(ctx.sys, m).ok()?;
    match hypermut_smv::parse_smv_with(&src.name, &src.text, options) {
        Ok(_) => None,
        Err(e) => Some(format!(
            "the mutated source is not a valid model: {}",
            e.to_string().lines().next().unwrap_or("")
        )),
    }
}

fn decide_inner(ctx: &Ctx, m: &Mutant, rec: &mut MutantRecord) -> Result<()> {
    let start = Instant::now();
    if let Some(reason) = rejected_source(ctx, m) {
        rec.outcome = Outcome::Invalid;
        rec.engine = Some("static".into());
        rec.reason = reason;
        return Ok(());
    }
    let mp = MutantProduct::build(ctx.sys, m)?;
    let p = &mp.product;
    rec.product = ProductSize {
        inputs: p.aig.inputs.len(),
        latches: p.aig.latches.len(),
        shared_latches: p.shared_latches,
        duplicated_latches: p.duplicated_latches,
        ands: p.aig.num_ands(),
    };
    rec.ands_cm = Some(mp.blasted.aig.num_ands());
    if let Some(var) = out_of_range(&mp)? {
        rec.outcome = Outcome::Invalid;
        rec.engine = Some("range".into());
        rec.reason = format!(
            "the mutant can assign a value outside the range of {var} (NuSMV rejects such models)"
        );
        return Ok(());
    }
    if !p.observable || p.aig.bad.first().map(|b| b.lit) == Some(Lit::FALSE) {
        rec.outcome = Outcome::Equivalent;
        rec.engine = Some("static".into());
        rec.reason =
            "the mutation leaves the circuit unchanged or reaches no output (structural check)"
                .into();
        return Ok(());
    }
    let remaining = |start: Instant| ctx.timeout.saturating_sub(start.elapsed());
    let mut bmc = Bmc {
        max_bound: ctx.bound,
        time_limit: Some(remaining(start)),
    };
    let bmc_verdict = bmc.check(&p.aig);
    rec.engine = Some("bmc".into());
    let verdict = match bmc_verdict {
        Verdict::Unknown(_) if ctx.prove && !remaining(start).is_zero() => {
            rec.engine = Some("ic3".into());
            Ic3::new(Some(remaining(start))).check(&p.aig)
        }
        v => v,
    };
    match verdict {
        Verdict::Unsafe(w) => record_kill(ctx, m, &mp, &w, rec)?,
        Verdict::Safe(cert) => {
            rec.outcome = Outcome::Equivalent;
            rec.reason = match &cert {
                Certificate::Invariant { clauses } => {
                    let name = format!("certificates/mutant-{}.aig", m.id);
                    let circuit = witness_circuit(&p.aig, &cert)
                        .map_err(|e| anyhow!("certificate circuit: {e}"))?;
                    write_atomic(
                        &ctx.out.join(&name),
                        &write_aiger(&circuit, AigerFormat::Binary),
                    )?;
                    rec.certificate = Some(name);
                    format!(
                        "IC3: inductive invariant of {} clauses, re-checked by a separate SAT solver",
                        clauses.len()
                    )
                }
                Certificate::Trivial => "the kill property is constant false".into(),
                Certificate::KInduction { k, .. } => format!("k-induction at depth {k}"),
            };
        }
        Verdict::Unknown(r) => {
            rec.outcome = Outcome::Unknown;
            rec.reason = r;
        }
    }
    Ok(())
}

/// Turns a witness of the kill property into a test replayed on the word-level model, writes
/// the test and the witness, and fills in `rec`.
fn record_kill(
    ctx: &Ctx,
    m: &Mutant,
    mp: &MutantProduct,
    w: &Witness,
    rec: &mut MutantRecord,
) -> Result<()> {
    let test = extract_test(&mp.conditional, &mp.nd, &mp.blasted, w)
        .context("the counterexample does not replay on the word-level model")?;
    let name = format!("tests/mutant-{}.json", m.id);
    let sys = &mp.conditional.system;
    let file = TestFile {
        model: &ctx.model,
        model_hash: &ctx.hash,
        operator: m.operator.name(),
        location: &rec.location,
        original: &m.original,
        replacement: &m.replacement,
        inputs: sys
            .vars
            .iter()
            .enumerate()
            .filter(|(i, v)| {
                v.role == hypermut_ir::Role::Input && !mp.nd.iter().any(|n| n.var.0 as usize == *i)
            })
            .map(|(_, v)| v.name.clone())
            .collect(),
        nd: mp
            .nd
            .iter()
            .map(|n| (sys.var(n.var).name.clone(), describe_nd(sys, &n.source)))
            .collect(),
        outputs: sys.outputs.iter().map(|o| o.name.clone()).collect(),
        note: if test.requires_nd_control {
            "requires control of nondeterminism: apply the nd values of every frame as well"
        } else {
            "deterministic: the inputs alone reproduce the expected outputs"
        },
        kill: match test.blocked {
            None => "the mutant's outputs differ from the expected ones in the last frame",
            Some(Blocked::Mutant) => {
                "the mutant's constraints (INIT/INVAR/TRANS) forbid the last step, which the \
                 original takes with the expected outputs"
            }
            Some(Blocked::Original) => {
                "the original's constraints (INIT/INVAR/TRANS) forbid the last step, which the \
                 mutant takes: the original has no expected outputs there"
            }
        },
        test: &test,
    };
    write_atomic(
        &ctx.out.join(&name),
        serde_json::to_string_pretty(&file)?.as_bytes(),
    )?;
    write_atomic(
        &ctx.out.join(format!("witnesses/mutant-{}.wit", m.id)),
        write_witness(w).as_bytes(),
    )?;
    rec.outcome = Outcome::Killed;
    rec.depth = Some(test.depth);
    rec.requires_nd_control = test.requires_nd_control;
    rec.test = Some(name);
    rec.reason = format!(
        "counterexample at depth {}, replayed on the model",
        w.depth()
    );
    Ok(())
}

/// What an nd input resolves, for people reading a test.
fn describe_nd(sys: &System, src: &NdSource) -> String {
    match src {
        NdSource::Choice { span, arity, .. } => match span {
            Some(sp) => format!(
                "index of the chosen alternative of {} at {}",
                sys.sources.snippet(*sp),
                sys.sources.location(*sp)
            ),
            None => format!("index of the chosen alternative (of {arity})"),
        },
        NdSource::Init { var } => format!("initial value of {var}"),
        NdSource::Next { var } => format!("next value of {var}"),
    }
}

/// The first assignment (`next(x)`, `init(x)`) that the mutant can drive out of range in some
/// state while the original cannot.
fn out_of_range(mp: &MutantProduct) -> Result<Option<String>> {
    let Some(mutant) = range_check(&mp.conditional, true)? else {
        return Ok(None);
    };
    let original = range_check(&mp.conditional, false)?;
    for (k, b) in mutant.aig.bad.iter().enumerate() {
        let violates = |rc: &hypermut_hyper::RangeCheck| -> Result<bool> {
            let Some(g) = rc
                .aig
                .bad
                .iter()
                .position(|x| x.name == b.name)
                .and_then(|i| rc.property(i))
            else {
                return Ok(false);
            };
            Ok(check_bound(&g, 0).map_err(|e| anyhow!("{e}"))?.is_some())
        };
        let orig_violates = match &original {
            Some(o) => violates(o)?,
            None => false,
        };
        if !orig_violates && mutant.property(k).is_some() && violates(&mutant)? {
            return Ok(Some(b.name.clone()));
        }
    }
    Ok(None)
}

/// Checks `--resume` / `--fresh` against what the directory holds, writes `run.json`, and
/// returns the records of mutants already decided (when resuming).
fn prepare_out_dir(args: &Args, info: &RunInfo, results: &Path) -> Result<Vec<MutantRecord>> {
    let run_path = args.out.join("run.json");
    let previous: Option<RunInfo> = match std::fs::read_to_string(&run_path) {
        Ok(text) => Some(serde_json::from_str(&text).with_context(|| {
            format!("{} is not a hypermut run description", run_path.display())
        })?),
        Err(_) => None,
    };
    let has_results = results.exists();
    if args.resume {
        match &previous {
            Some(p) if p == info => {}
            Some(_) => {
                return Err(anyhow!(
                "{} holds results of another model, bound or shard; use another --out or --fresh",
                args.out.display()
            ))
            }
            None if has_results => {
                return Err(anyhow!(
                    "{} has no run.json; cannot resume safely",
                    args.out.display()
                ))
            }
            None => {}
        }
    } else if has_results && !args.fresh {
        return Err(anyhow!(
            "{} already holds results; continue them with --resume or discard them with --fresh",
            args.out.display()
        ));
    }
    let earlier = if args.resume && has_results {
        read_results(results)?
    } else {
        if has_results {
            std::fs::remove_file(results)
                .with_context(|| format!("cannot remove {}", results.display()))?;
        }
        Vec::new()
    };
    write_atomic(&run_path, serde_json::to_string_pretty(info)?.as_bytes())?;
    Ok(earlier)
}

/// The records of a results file. A last line cut off by an interrupted write is dropped (and
/// removed from the file); a damaged line elsewhere is an error.
pub fn read_results(path: &Path) -> Result<Vec<MutantRecord>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut records: Vec<MutantRecord> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut good_len = 0;
    for (k, line) in lines.iter().enumerate() {
        let complete = line.ends_with('\n');
        match serde_json::from_str::<MutantRecord>(line.trim_end()) {
            Ok(r) if complete => {
                if seen.insert(r.id) {
                    records.push(r);
                }
                good_len += line.len();
            }
            _ if k + 1 == lines.len() => break,
            Err(e) => {
                return Err(anyhow!(
                    "{}:{}: damaged result line: {e}",
                    path.display(),
                    k + 1
                ))
            }
            // Only the last piece of a split can lack its newline.
            Ok(_) => break,
        }
    }
    if good_len < text.len() {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("cannot repair {}", path.display()))?;
        f.set_len(good_len as u64)
            .with_context(|| format!("cannot repair {}", path.display()))?;
    }
    Ok(records)
}

/// What a testgen run produced.
pub struct Generated {
    /// The model.
    pub sys: System,
    /// `summary.json`.
    pub summary: Summary,
    /// `suite.json`, unless building the suite failed (the reason is then in `suite_error`).
    pub suite: Option<SuiteReport>,
    /// Why there is no suite.
    pub suite_error: Option<String>,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<()> {
    let g = generate(args)?;
    print_table(&g.summary);
    for line in suite_lines(&g) {
        println!("{line}");
    }
    Ok(())
}

/// The summary lines about the test suite.
pub fn suite_lines(g: &Generated) -> Vec<String> {
    match (&g.suite, &g.suite_error) {
        (Some(r), _) => describe(r),
        (None, Some(e)) => vec![format!("warning: no test suite: {e}")],
        (None, None) => Vec::new(),
    }
}

/// AND gates of the model's circuit after the nd transformation (the base of ΔGates).
pub fn original_ands(sys: &System) -> Result<usize> {
    let mut s = sys.clone();
    make_controllable(&mut s, &[]).map_err(|e| anyhow!("{e}"))?;
    let b = blast(&s, &BlastOptions::default()).map_err(|e| anyhow!("{e}"))?;
    Ok(b.aig.num_ands())
}

/// What a run of `mutants` of the model with these options is identified by.
pub fn run_info(
    sys: &System,
    model: &ModelArgs,
    mutants: &[Mutant],
    bound: usize,
    shard: Option<Shard>,
) -> RunInfo {
    let listing: Vec<String> = mutants
        .iter()
        .map(|m| {
            format!(
                "{} {} {} {}",
                m.id,
                m.operator.name(),
                location(sys, m),
                m.replacement
            )
        })
        .collect();
    RunInfo {
        model_hash: model_hash(sys, model),
        bound,
        mutants_hash: text_hash(&listing.join("\n")),
        shard,
    }
}

/// Decides every selected mutant (as `hypermut testgen` does, without printing), then writes
/// `summary.json` and `suite.json` through [`finish`].
pub fn generate(args: &Args) -> Result<Generated> {
    let sys = load(&args.model)?;
    let every = args.select.select(&sys)?;
    let info = run_info(&sys, &args.model, &every, args.bound, args.shard);
    let all: Vec<Mutant> = every
        .into_iter()
        .filter(|m| args.shard.is_none_or(|s| s.contains(m.id)))
        .collect();
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let results_path = args.out.join("results.jsonl");
    let earlier = prepare_out_dir(args, &info, &results_path)?;
    let done: std::collections::HashSet<usize> = earlier.iter().map(|r| r.id).collect();
    let todo: Vec<&Mutant> = all.iter().filter(|m| !done.contains(&m.id)).collect();
    let ctx = Ctx {
        sys: &sys,
        model: args.model.model.display().to_string(),
        hash: info.model_hash.clone(),
        bound: args.bound,
        timeout: Duration::from_secs_f64(args.timeout),
        prove: !args.no_prove,
        out: &args.out,
        ands_orig: original_ands(&sys).ok(),
        smv_recheck: smv_source_check(&args.model),
    };
    let bar = ProgressBar::new(all.len() as u64);
    bar.set_position(earlier.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} mutants  {msg}  ETA {eta}")
            .map_err(|e| anyhow!("{e}"))?,
    );
    let mut initial = [0usize; 5];
    for r in &earlier {
        initial[r.outcome as usize] += 1;
    }
    let counts = Mutex::new(initial);
    let write_lock = Mutex::new(());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
        .context("cannot start worker threads")?;
    let new_records: Vec<MutantRecord> = pool.install(|| {
        todo.par_iter()
            .map(|m| {
                let rec = decide(&ctx, m);
                let line = serde_json::to_string(&rec).unwrap_or_default();
                {
                    let _g = write_lock.lock().unwrap_or_else(|p| p.into_inner());
                    if let Err(e) = append_line(&results_path, &line) {
                        bar.println(format!("warning: {e:#}"));
                    }
                }
                let mut c = counts.lock().unwrap_or_else(|p| p.into_inner());
                c[rec.outcome as usize] += 1;
                bar.set_message(format!(
                    "killed {}  equivalent {}  unknown {}  invalid {}  errors {}",
                    c[0], c[1], c[2], c[4], c[3]
                ));
                bar.inc(1);
                rec
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut records = earlier;
    records.extend(new_records);
    let fin = Finish {
        sys: &sys,
        mutants: &all,
        model: ctx.model.clone(),
        model_hash: ctx.hash.clone(),
        bound: args.bound,
        out: &args.out,
        weak: args.weak,
    };
    let (summary, suite) = finish(&fin, records)?;
    let (suite, suite_error) = match suite {
        Ok(r) => (Some(r), None),
        Err(e) => (None, Some(format!("{e:#}"))),
    };
    Ok(Generated {
        sys,
        summary,
        suite,
        suite_error,
    })
}

/// What [`finish`] needs besides the records.
pub struct Finish<'a> {
    /// The model.
    pub sys: &'a System,
    /// The mutants (at least those the records name; others are ignored).
    pub mutants: &'a [Mutant],
    /// Model path as given.
    pub model: String,
    /// Hash of the model's sources.
    pub model_hash: String,
    /// BMC bound used.
    pub bound: usize,
    /// The results directory (holds the tests; receives `summary.json` and `suite.json`).
    pub out: &'a Path,
    /// Also compute weak killing.
    pub weak: bool,
}

/// Ends a run: sorts the records, writes `summary.json`, then builds the test suite and
/// writes `suite.json`. A failure to build the suite is returned as the inner error (the
/// summary is written regardless).
pub fn finish(
    f: &Finish,
    mut records: Vec<MutantRecord>,
) -> Result<(Summary, Result<SuiteReport>)> {
    records.sort_by_key(|r| r.id);
    let count = |o: Outcome| records.iter().filter(|r| r.outcome == o).count();
    let summary = Summary {
        model: f.model.clone(),
        model_hash: f.model_hash.clone(),
        bound: f.bound,
        mutants: records.len(),
        killed: count(Outcome::Killed),
        equivalent: count(Outcome::Equivalent),
        unknown: count(Outcome::Unknown),
        invalid: count(Outcome::Invalid),
        errors: count(Outcome::Error),
        results: records,
    };
    write_atomic(
        &f.out.join("summary.json"),
        serde_json::to_string_pretty(&summary)?.as_bytes(),
    )?;
    let suite = build_suite(f.sys, f.mutants, &summary.results, f.out, f.weak);
    Ok((summary, suite))
}

fn print_table(s: &Summary) {
    println!(
        "{:>4}  {:<32} {:<8} {:<28} {:<11} {:>5}",
        "id", "location", "operator", "mutation", "verdict", "depth"
    );
    for r in &s.results {
        let outcome = match r.outcome {
            Outcome::Killed => "killed",
            Outcome::Equivalent => "equivalent",
            Outcome::Unknown => "unknown",
            Outcome::Error => "ERROR",
            Outcome::Invalid => "invalid",
        };
        println!(
            "{:>4}  {:<32} {:<8} {:<28} {:<11} {:>5}",
            r.id,
            r.location,
            r.operator,
            format!("{} → {}", r.original, r.replacement),
            outcome,
            r.depth.map(|d| d.to_string()).unwrap_or_else(|| "-".into())
        );
        if r.outcome == Outcome::Error {
            println!("      {}", r.reason);
        }
    }
    let decided = s.mutants - s.equivalent - s.invalid;
    let score = if decided == 0 {
        100.0
    } else {
        100.0 * s.killed as f64 / decided as f64
    };
    println!(
        "\n{} mutants: {} killed, {} equivalent, {} unknown, {} invalid, {} errors; mutation score {:.1}% (killed / valid non-equivalent)",
        s.mutants, s.killed, s.equivalent, s.unknown, s.invalid, s.errors, score
    );
    let nd = s.results.iter().filter(|r| r.requires_nd_control).count();
    if nd > 0 {
        println!(
            "{nd} of {} killing tests require control of nondeterminism (nd values in the test files)",
            s.killed
        );
    }
}
