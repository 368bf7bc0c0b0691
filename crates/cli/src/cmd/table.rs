//! `hypermut table`: Tables 3 and 4 of the method paper (`method.md` §11.5) for a set of
//! models. Each model is run through the testgen pipeline (or its earlier results are
//! reused), then one row per model and the aggregates μ, σ, min and max are printed as
//! Markdown and optionally written as CSV.
//!
//! Counting: percentages are over the *valid* mutants (all mutants minus the invalid ones,
//! which NuSMV would reject); invalid mutants have their own column. Test length is the
//! paper's, the depth n of the killing test (n + 1 steps). Times are sums / means of the
//! per-mutant wall-clock times, as if the mutants were decided one after another. σ is the
//! population standard deviation over the models that have the value.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use hypermut_ir::{Role, System};
use hypermut_mutate::make_controllable;

use super::testgen::{self, MutantRecord, Outcome, Summary};
use crate::files::write_atomic;
use crate::model::{ModelArgs, MutantArgs};

/// Options of `hypermut table`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The models (NuSMV `.smv` or Verilog `.v`).
    #[arg(required = true)]
    pub models: Vec<PathBuf>,
    #[command(flatten)]
    pub select: MutantArgs,
    /// BMC bound: the deepest frame searched for a killing test.
    #[arg(long, default_value_t = 20)]
    pub bound: usize,
    /// Worker threads (default: number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Time limit per mutant, in seconds, for BMC and IC3 together.
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
    /// Only search for killing tests (BMC to `--bound`).
    #[arg(long)]
    pub no_prove: bool,
    /// Also report weak killing in each model's `suite.json`.
    #[arg(long)]
    pub weak: bool,
    /// Folder of the per-model results directories (`DIR/<model name>`). Results already
    /// there for the same model and options are reused and interrupted runs continued.
    #[arg(long, default_value = "hypermut-table")]
    pub out: PathBuf,
    /// Discard earlier results and decide every mutant again.
    #[arg(long)]
    pub fresh: bool,
    /// Write the per-model rows (Tables 3 and 4) as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write the per-mutant rows as CSV.
    #[arg(long, value_name = "FILE")]
    pub mutant_csv: Option<PathBuf>,
    /// Also write the Markdown tables to this file.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Verilog: every register is an output too (applies to the Verilog models).
    #[arg(long)]
    pub observe_state: bool,
    /// Verilog: each `x`/`z` literal bit is a fresh input instead of 0.
    #[arg(long)]
    pub x_as_input: bool,
}

/// One model's row of Tables 3 and 4.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelRow {
    /// Model path as given.
    pub model: String,
    /// Input variables of the model (before the nd transformation).
    pub inputs: usize,
    /// Outputs.
    pub outputs: usize,
    /// State variables (state and frozen).
    pub latches: usize,
    /// AND gates of the model's circuit (after the nd transformation).
    pub ands: usize,
    /// All mutants, invalid ones included.
    pub mutants: usize,
    /// Invalid mutants.
    pub invalid: usize,
    /// Killed, equivalent, undecided (timeout) and failed mutants.
    pub killed: usize,
    /// Equivalent mutants.
    pub equivalent: usize,
    /// Undecided mutants.
    pub unknown: usize,
    /// Failed mutants.
    pub errors: usize,
    /// Mean |ANDs(conditional mutant) − ANDs(original)| / ANDs(original), in %.
    pub dgates_pct: Option<f64>,
    /// Killed / valid mutants, in %.
    pub killed_pct: Option<f64>,
    /// Equivalent / valid mutants, in %.
    pub equiv_pct: Option<f64>,
    /// Undecided / valid mutants, in %.
    pub timeout_pct: Option<f64>,
    /// Mean depth of the killing tests.
    pub avg_test_len: Option<f64>,
    /// Largest depth of a killing test.
    pub max_test_len: Option<f64>,
    /// Mean time per killed mutant, in seconds.
    pub avg_time_killed_s: Option<f64>,
    /// Mean time per equivalent mutant, in seconds.
    pub avg_time_equiv_s: Option<f64>,
    /// Sum of the per-mutant times, in seconds.
    pub total_time_s: f64,
    /// Tests of the minimised suite, if it was built.
    pub suite_tests: Option<usize>,
}

fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

fn pct(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| 100.0 * part as f64 / whole as f64)
}

/// ΔGates of one mutant, in %.
fn dgates(r: &MutantRecord) -> Option<f64> {
    match (r.ands_orig, r.ands_cm) {
        (Some(o), Some(c)) if o > 0 => Some(100.0 * (c as f64 - o as f64).abs() / o as f64),
        _ => None,
    }
}

/// The row of one model from its system and summary.
pub fn model_row(sys: &System, ands: usize, s: &Summary) -> ModelRow {
    let rs = &s.results;
    let of = |o: Outcome| rs.iter().filter(move |r| r.outcome == o);
    let secs = |r: &MutantRecord| r.millis as f64 / 1000.0;
    let valid = s.mutants - s.invalid;
    let depths: Vec<f64> = of(Outcome::Killed)
        .filter_map(|r| r.depth)
        .map(|d| d as f64)
        .collect();
    let d: Vec<f64> = rs.iter().filter_map(dgates).collect();
    let killed_times: Vec<f64> = of(Outcome::Killed).map(secs).collect();
    let equiv_times: Vec<f64> = of(Outcome::Equivalent).map(secs).collect();
    ModelRow {
        model: s.model.clone(),
        inputs: sys.vars_with_role(Role::Input).len(),
        outputs: sys.outputs.len(),
        latches: sys.vars_with_role(Role::State).len() + sys.vars_with_role(Role::Frozen).len(),
        ands,
        mutants: s.mutants,
        invalid: s.invalid,
        killed: s.killed,
        equivalent: s.equivalent,
        unknown: s.unknown,
        errors: s.errors,
        dgates_pct: mean(&d),
        killed_pct: pct(s.killed, valid),
        equiv_pct: pct(s.equivalent, valid),
        timeout_pct: pct(s.unknown, valid),
        avg_test_len: mean(&depths),
        max_test_len: depths.iter().copied().reduce(f64::max),
        avg_time_killed_s: mean(&killed_times),
        avg_time_equiv_s: mean(&equiv_times),
        total_time_s: rs.iter().map(secs).sum(),
        suite_tests: None,
    }
}

/// A numeric column of the tables: header, CSV name, value.
type Column = (&'static str, &'static str, fn(&ModelRow) -> Option<f64>);

const TABLE3: &[Column] = &[
    ("#Input", "inputs", |r| Some(r.inputs as f64)),
    ("#Output", "outputs", |r| Some(r.outputs as f64)),
    ("#State", "latches", |r| Some(r.latches as f64)),
    ("#And", "ands", |r| Some(r.ands as f64)),
    ("ΔGates (%)", "dgates_pct", |r| r.dgates_pct),
    ("#Mutants", "mutants", |r| Some(r.mutants as f64)),
    ("#Invalid", "invalid", |r| Some(r.invalid as f64)),
];

const TABLE4: &[Column] = &[
    ("Killed (%)", "killed_pct", |r| r.killed_pct),
    ("Equivalent (%)", "equiv_pct", |r| r.equiv_pct),
    ("Avg. test length", "avg_test_len", |r| r.avg_test_len),
    ("Max test length", "max_test_len", |r| r.max_test_len),
    ("Avg. time killed (s)", "avg_time_killed_s", |r| {
        r.avg_time_killed_s
    }),
    ("Avg. time equiv. (s)", "avg_time_equiv_s", |r| {
        r.avg_time_equiv_s
    }),
    ("Timeout (%)", "timeout_pct", |r| r.timeout_pct),
    ("Total time (s)", "total_time_s", |r| Some(r.total_time_s)),
];

/// The per-model CSV: the `method.md` §11.5 schema (after `model`), then extra columns.
const CSV_COLUMNS: &[&str] = &[
    "inputs",
    "outputs",
    "latches",
    "ands",
    "mutants",
    "dgates_pct",
    "killed_pct",
    "equiv_pct",
    "timeout_pct",
    "avg_test_len",
    "max_test_len",
    "avg_time_killed_s",
    "avg_time_equiv_s",
    "total_time_s",
];

fn column(name: &str) -> Option<&'static Column> {
    TABLE3.iter().chain(TABLE4).find(|c| c.1 == name)
}

/// μ, σ (population), min, max of a column over the rows that have it.
fn aggregates(rows: &[ModelRow], f: fn(&ModelRow) -> Option<f64>) -> [Option<f64>; 4] {
    let xs: Vec<f64> = rows.iter().filter_map(f).collect();
    let Some(mu) = mean(&xs) else {
        return [None; 4];
    };
    let var = xs.iter().map(|x| (x - mu) * (x - mu)).sum::<f64>() / xs.len() as f64;
    [
        Some(mu),
        Some(var.sqrt()),
        xs.iter().copied().reduce(f64::min),
        xs.iter().copied().reduce(f64::max),
    ]
}

fn show(v: Option<f64>) -> String {
    match v {
        None => "–".into(),
        Some(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{x:.0}"),
        Some(x) => format!("{x:.2}"),
    }
}

fn csv_num(v: Option<f64>) -> String {
    match v {
        None => String::new(),
        Some(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{x:.0}"),
        Some(x) => format!("{x:.4}"),
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One Markdown table with a row per model and the four aggregate rows.
fn markdown_table(title: &str, rows: &[ModelRow], cols: &[Column]) -> String {
    let mut t = format!("### {title}\n\n| model |");
    for c in cols {
        let _ = write!(t, " {} |", c.0);
    }
    t.push_str("\n|---|");
    t.push_str(&"---:|".repeat(cols.len()));
    t.push('\n');
    for r in rows {
        let _ = write!(t, "| {} |", r.model);
        for c in cols {
            let _ = write!(t, " {} |", show((c.2)(r)));
        }
        t.push('\n');
    }
    let aggs: Vec<[Option<f64>; 4]> = cols.iter().map(|c| aggregates(rows, c.2)).collect();
    for (k, name) in ["μ", "σ", "min", "max"].iter().enumerate() {
        let _ = write!(t, "| **{name}** |");
        for a in &aggs {
            let _ = write!(t, " {} |", show(a[k]));
        }
        t.push('\n');
    }
    t
}

/// Tables 3 and 4 as Markdown.
pub fn markdown(rows: &[ModelRow]) -> String {
    format!(
        "{}\n{}\nPercentages are over the valid mutants (invalid ones excluded); test length is the depth n of the killing test; times are per-mutant wall-clock seconds.\n",
        markdown_table("Table 3: characteristics of the models", rows, TABLE3),
        markdown_table("Table 4: results", rows, TABLE4)
    )
}

/// The per-model CSV (`model`, the §11.5 schema, then `invalid, unknown, errors, killed,
/// equivalent, suite_tests`), with the aggregate rows `μ`, `σ`, `min`, `max` at the end.
pub fn model_csv(rows: &[ModelRow]) -> String {
    let mut t = format!(
        "model,{},invalid,unknown,errors,killed,equivalent,suite_tests\n",
        CSV_COLUMNS.join(",")
    );
    let value = |name: &str, r: &ModelRow| column(name).and_then(|c| (c.2)(r));
    for r in rows {
        let nums: Vec<String> = CSV_COLUMNS.iter().map(|n| csv_num(value(n, r))).collect();
        let _ = writeln!(
            t,
            "{},{},{},{},{},{},{},{}",
            csv_field(&r.model),
            nums.join(","),
            r.invalid,
            r.unknown,
            r.errors,
            r.killed,
            r.equivalent,
            r.suite_tests.map(|n| n.to_string()).unwrap_or_default()
        );
    }
    for (k, name) in ["μ", "σ", "min", "max"].iter().enumerate() {
        let nums: Vec<String> = CSV_COLUMNS
            .iter()
            .map(|n| match column(n) {
                Some(c) => csv_num(aggregates(rows, c.2)[k]),
                None => String::new(),
            })
            .collect();
        let _ = writeln!(t, "{name},{},,,,,,", nums.join(","));
    }
    t
}

/// The verdict column of the per-mutant CSV.
fn verdict(r: &MutantRecord) -> &'static str {
    match r.outcome {
        Outcome::Killed => "killed",
        Outcome::Equivalent if r.engine.as_deref() == Some("static") => "equivalent-static",
        Outcome::Equivalent => "equivalent",
        Outcome::Unknown => "timeout",
        Outcome::Invalid => "invalid",
        Outcome::Error => "error",
    }
}

/// The per-mutant CSV rows of one model (§11.5 schema). `nd` tells whether the model has
/// nondeterminism, so that its kills need control over it.
pub fn mutant_csv_rows(s: &Summary, nd: bool) -> String {
    let mut t = String::new();
    for r in &s.results {
        let killed = r.outcome == Outcome::Killed;
        let kind = match (killed, nd) {
            (false, _) => "",
            (true, false) => "det",
            (true, true) => "controllable-nd",
        };
        let opt = |v: Option<usize>| v.map(|x| x.to_string()).unwrap_or_default();
        let _ = writeln!(
            t,
            "{},{},{},{},{},{},{},{},{},{:.3},{},{}",
            csv_field(&s.model),
            r.id,
            csv_field(&r.operator),
            csv_field(&r.location),
            verdict(r),
            kind,
            opt(r.depth),
            opt(r.depth.filter(|_| killed).map(|d| d + 1)),
            r.engine.as_deref().unwrap_or(""),
            r.millis as f64 / 1000.0,
            opt(r.ands_orig),
            opt(r.ands_cm),
        );
    }
    t
}

/// Header of the per-mutant CSV.
pub const MUTANT_CSV_HEADER: &str =
    "model,mutant_id,operator,site,verdict,kill_kind,depth,test_steps,engine,time_s,ands_orig,ands_cm\n";

/// A results directory name per model: the file stem, made unique.
fn result_dirs(models: &[PathBuf]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for m in models {
        let stem = m
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("model")
            .to_string();
        let mut name = stem.clone();
        let mut k = 1;
        while names.contains(&name) {
            k += 1;
            name = format!("{stem}-{k}");
        }
        names.push(name);
    }
    names
}

fn is_verilog(p: &Path) -> bool {
    matches!(
        p.extension().and_then(|e| e.to_str()),
        Some("v" | "sv" | "vh" | "vl")
    )
}

/// Runs the command.
pub fn run(args: &Args) -> Result<()> {
    if !(args.timeout.is_finite() && args.timeout >= 0.0) {
        bail!("--timeout must be a number of seconds >= 0");
    }
    let mut rows = Vec::new();
    let mut per_mutant = String::from(MUTANT_CSV_HEADER);
    for (model, dir) in args.models.iter().zip(result_dirs(&args.models)) {
        let verilog = is_verilog(model);
        let targs = testgen::Args {
            model: ModelArgs {
                model: model.clone(),
                lib_files: Vec::new(),
                inputs: None,
                outputs: None,
                top: None,
                include_dirs: Vec::new(),
                defines: Vec::new(),
                observe_state: verilog && args.observe_state,
                x_as_input: verilog && args.x_as_input,
            },
            select: args.select.clone(),
            bound: args.bound,
            jobs: args.jobs,
            out: args.out.join(dir),
            timeout: args.timeout,
            no_prove: args.no_prove,
            resume: !args.fresh,
            fresh: args.fresh,
            shard: None,
            weak: args.weak,
        };
        eprintln!("{}: results in {}", model.display(), targs.out.display());
        let g = testgen::generate(&targs).with_context(|| format!("{}", model.display()))?;
        for line in testgen::suite_lines(&g) {
            eprintln!("  {line}");
        }
        let ands = testgen::original_ands(&g.sys)?;
        let mut nd_sys = g.sys.clone();
        let nd = !make_controllable(&mut nd_sys, &[])
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .is_empty();
        let mut row = model_row(&g.sys, ands, &g.summary);
        row.suite_tests = g.suite.as_ref().map(|s| s.sizes.minimised);
        per_mutant.push_str(&mutant_csv_rows(&g.summary, nd));
        rows.push(row);
    }
    let md = markdown(&rows);
    print!("{md}");
    if let Some(p) = &args.markdown {
        write_atomic(p, md.as_bytes())?;
    }
    if let Some(p) = &args.csv {
        write_atomic(p, model_csv(&rows).as_bytes())?;
    }
    if let Some(p) = &args.mutant_csv {
        write_atomic(p, per_mutant.as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::testgen::ProductSize;

    fn rec(id: usize, outcome: Outcome, depth: Option<usize>, millis: u64) -> MutantRecord {
        MutantRecord {
            id,
            operator: "ror".into(),
            location: "m.smv:1:1".into(),
            original: "<".into(),
            replacement: "<=".into(),
            outcome,
            depth,
            test: None,
            certificate: None,
            reason: String::new(),
            product: ProductSize::default(),
            millis,
            ands_orig: Some(100),
            ands_cm: Some(100 + 10 * id),
            engine: None,
            requires_nd_control: false,
        }
    }

    fn summary(results: Vec<MutantRecord>) -> Summary {
        let count = |o: Outcome| results.iter().filter(|r| r.outcome == o).count();
        Summary {
            model: "m.smv".into(),
            model_hash: String::new(),
            bound: 20,
            mutants: results.len(),
            killed: count(Outcome::Killed),
            equivalent: count(Outcome::Equivalent),
            unknown: count(Outcome::Unknown),
            invalid: count(Outcome::Invalid),
            errors: count(Outcome::Error),
            results,
        }
    }

    #[test]
    fn row_numbers_by_hand() {
        // 5 mutants: 2 killed (depths 1, 4; 1 s, 3 s), 1 equivalent (2 s), 1 unknown (4 s),
        // 1 invalid (0 s); ΔGates of mutant k is 10·k % → mean (0+10+20+30+40)/5 = 20.
        let s = summary(vec![
            rec(0, Outcome::Killed, Some(1), 1000),
            rec(1, Outcome::Killed, Some(4), 3000),
            rec(2, Outcome::Equivalent, None, 2000),
            rec(3, Outcome::Unknown, None, 4000),
            rec(4, Outcome::Invalid, None, 0),
        ]);
        let r = model_row(&System::new("m"), 100, &s);
        assert_eq!(r.mutants, 5);
        assert_eq!(r.invalid, 1);
        assert_eq!(r.killed_pct, Some(50.0));
        assert_eq!(r.equiv_pct, Some(25.0));
        assert_eq!(r.timeout_pct, Some(25.0));
        assert_eq!(r.avg_test_len, Some(2.5));
        assert_eq!(r.max_test_len, Some(4.0));
        assert_eq!(r.avg_time_killed_s, Some(2.0));
        assert_eq!(r.avg_time_equiv_s, Some(2.0));
        assert_eq!(r.total_time_s, 10.0);
        assert_eq!(r.dgates_pct, Some(20.0));
    }

    #[test]
    fn no_valid_mutants_gives_empty_percentages() {
        let s = summary(vec![rec(0, Outcome::Invalid, None, 5)]);
        let r = model_row(&System::new("m"), 0, &s);
        assert_eq!(r.killed_pct, None);
        assert_eq!(r.avg_test_len, None);
        let csv = model_csv(&[r]);
        let line = csv.lines().nth(1).expect("a row");
        assert!(line.starts_with("m.smv,0,0,0,0,1,"), "{line}");
    }

    #[test]
    fn aggregates_by_hand() {
        let rows: Vec<ModelRow> = [2.0, 4.0, 6.0]
            .iter()
            .map(|x| ModelRow {
                killed_pct: Some(*x),
                ..ModelRow::default()
            })
            .chain(std::iter::once(ModelRow::default()))
            .collect();
        let [mu, sigma, min, max] = aggregates(&rows, |r| r.killed_pct);
        assert_eq!(mu, Some(4.0));
        assert!((sigma.expect("σ") - (8.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!((min, max), (Some(2.0), Some(6.0)));
        assert_eq!(aggregates(&[], |r| r.killed_pct), [None; 4]);
    }

    #[test]
    fn csv_layout_and_quoting() {
        let s = summary(vec![rec(0, Outcome::Killed, Some(2), 1500)]);
        let r = model_row(&System::new("m"), 100, &s);
        let csv = model_csv(&[r]);
        let header: Vec<&str> = csv.lines().next().expect("header").split(',').collect();
        assert_eq!(&header[1..15], CSV_COLUMNS);
        assert_eq!(csv.lines().count(), 1 + 1 + 4);
        let m = mutant_csv_rows(&s, true);
        assert_eq!(
            m.trim(),
            "m.smv,0,ror,m.smv:1:1,killed,controllable-nd,2,3,,1.500,100,100"
        );
        assert_eq!(csv_field("a,b\"c"), "\"a,b\"\"c\"");
        assert_eq!(
            result_dirs(&["a/x.smv".into(), "b/x.smv".into()]),
            ["x", "x-2"]
        );
    }
}
