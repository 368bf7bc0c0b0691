//! The Verilog front-end against yosys: for every corpus design both accept, hypermut's
//! AIGER and yosys's AIGER are sequentially equivalent (outputs and inputs matched by name).
//!
//! * yosys flow (`oracles.md` §3.1, prep flow): `proc; flatten; memory_collect; memory_map;
//!   setundef -zero; [expose -dff;] opt -keepdc; async2sync; techmap; opt -fast -keepdc;
//!   dffunmap; setundef -undriven -zero; aigmap; opt_clean; write_aiger`. `setundef -zero`
//!   right after the memory passes makes every `x`/`z` bit 0, which is hypermut's default `x`
//!   semantics; `write_aiger` is called without `-zinit`, so uninitialised flip-flops stay
//!   uninitialised latches. `memory_dff` is left out: it retimes a register in front of a
//!   memory read port (e.g. the address register of a ROM that `proc_rom` made from a
//!   `case`) into a register behind it, whose initial value (a function of the address
//!   register's) is then lost, so that the two circuits no longer start in corresponding
//!   states.
//! * hypermut flow: `load_verilog` → `make_controllable` (choices become inputs, free initial
//!   values are kept) → `blast`.
//! * Initial-state convention: uninitialised latches start at 0 on both sides for the
//!   comparison (their free initial values cannot be paired by name: yosys does not name
//!   latches reliably). Both sides thus get the same, shared initial value.
//! * The check: hypermut's miter (`hypermut_hyper::miter`) and its prover ([`prove`]: IC3
//!   with a certificate, else BMC to depth 20), and independently ABC `dsec` (`cec` for
//!   combinational circuits) on the two files.
//!
//! The test runs a representative subset; `whole_corpus_table` (ignored by default, run by
//! `scripts/yosys-equiv.sh`) runs every design and prints a table. Both skip with a message
//! when the corpus or the tools are missing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use hypermut_aig::aiger::{write_aiger, AigerFormat};
use hypermut_aig::blast::{blast, BlastOptions};
use hypermut_aig::{read_aiger, Aig, Lit, Named, Node, Reset};
use hypermut_hyper::miter::miter;
use hypermut_ir::{Role, VarId};
use hypermut_mutate::make_controllable;
use hypermut_prove::{bmc::Bmc, Engine, Ic3, Verdict};
use hypermut_verilog::{load_verilog, VerilogOptions};

/// The design list shared with the corpus test and the script.
const DESIGNS: &str = include_str!("data/verilog/corpus-designs.txt");

/// Designs checked by the (non-ignored) test: one per family and feature.
const SUBSET: &[&str] = &[
    "LED/system_ea",
    "s27",
    "adffe",
    "aldff",
    "dffsr",
    "dlatchsr",
    "adlatch",
    "sdffce",
    "ham_7_4_dec",
    "compiler_opt/cbf",
    "sym7",
    "barrel16",
    "oc_fcmp",
    "itc99_b13/b13_1",
    "Rotate",
    "Vlunc",
    "bakery/good_bakery.nondet",
];

/// BMC depth of hypermut's own check when IC3 gives no answer.
const DEPTH: usize = 20;

/// Time limit of IC3 per design, in seconds.
const IC3_SECONDS: u64 = 120;

/// One design of the corpus.
#[derive(Clone, Debug)]
pub struct Design {
    name: String,
    top: String,
    files: Vec<String>,
}

fn designs() -> Vec<Design> {
    DESIGNS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut f = l.split('|').map(str::trim);
            let name = f.next()?.to_string();
            let top = f.next()?.to_string();
            let files = f.next()?.split_whitespace().map(String::from).collect();
            Some(Design { name, top, files })
        })
        .collect()
}

/// The corpus folder (`HYPERMUT_SHARED_DIR` overrides `../shared`).
fn corpus() -> Option<PathBuf> {
    let base = std::env::var_os("HYPERMUT_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared")).to_path_buf()
        });
    let dir = base.join("corpus/verilog");
    dir.is_dir().then_some(dir)
}

/// Whether a tool is on PATH (prints why the check is skipped otherwise).
fn have(tool: &str) -> bool {
    let ok = Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool}"))
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        eprintln!("SKIPPED: `{tool}` is not installed");
    }
    ok
}

/// The checks' common preconditions.
fn setup() -> Option<PathBuf> {
    let Some(dir) = corpus() else {
        eprintln!("SKIPPED: the shared corpus (../shared/corpus/verilog) is not available");
        return None;
    };
    (have("yosys") && have("berkeley-abc")).then_some(dir)
}

/// yosys's AIGER of a design (`observe` adds `expose -dff`); designs with SystemVerilog
/// assertions are read again with `-formal` (the assertions become bad properties, which the
/// comparison ignores).
pub fn yosys_aig(corpus: &Path, d: &Design, observe: bool, tmp: &Path) -> Result<Aig, String> {
    match yosys_aig_with(corpus, d, observe, tmp, "") {
        Err(e) if e.contains("assert") => yosys_aig_with(corpus, d, observe, tmp, "-formal "),
        r => r,
    }
}

fn yosys_aig_with(
    corpus: &Path,
    d: &Design,
    observe: bool,
    tmp: &Path,
    flags: &str,
) -> Result<Aig, String> {
    let files: Vec<PathBuf> = d.files.iter().map(|f| corpus.join(f)).collect();
    let mut incs: Vec<String> = files
        .iter()
        .filter_map(|f| f.parent().map(|p| format!("-I {}", p.display())))
        .collect();
    incs.dedup();
    let out = tmp.join("yosys.aig");
    let script = format!(
        "read_verilog {flags}{} {}\nhierarchy -check -top {}\nproc\nflatten\nmemory_collect\nmemory_map\nsetundef -zero\n{}opt -keepdc\nasync2sync\ntechmap\nopt -fast -keepdc\ndffunmap\nsetundef -undriven -zero\naigmap\nopt_clean\nwrite_aiger -I -O -symbols {}\n",
        incs.join(" "),
        files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(" "),
        d.top,
        if observe { "expose -dff\n" } else { "" },
        out.display()
    );
    let sfile = tmp.join("flow.ys");
    std::fs::write(&sfile, script).map_err(|e| e.to_string())?;
    let r = Command::new("yosys")
        .arg("-q")
        .arg("-s")
        .arg(&sfile)
        .output()
        .map_err(|e| e.to_string())?;
    if !r.status.success() {
        let err =
            String::from_utf8_lossy(&r.stderr).to_string() + &String::from_utf8_lossy(&r.stdout);
        return Err(match err.lines().find(|l| l.contains("ERROR")) {
            Some(line) => line.to_string(),
            None => format!("yosys failed ({})", r.status),
        });
    }
    let bytes = std::fs::read(&out).map_err(|e| e.to_string())?;
    let mut aig = read_aiger(&bytes, "yosys.aig").map_err(|e| e.to_string())?;
    // `-I`/`-O` add an unnamed dummy input/output to designs without any.
    for (k, i) in aig.inputs.iter_mut().enumerate() {
        if i.name.is_empty() {
            i.name = format!("yosys.dummy_input{k}");
        }
    }
    for (k, o) in aig.outputs.iter_mut().enumerate() {
        if o.name.is_empty() {
            o.name = format!("yosys.dummy_output{k}");
        }
    }
    Ok(aig)
}

/// hypermut's AIGER of a design.
pub fn hypermut_aig(corpus: &Path, d: &Design, observe: bool) -> Result<Aig, String> {
    let files: Vec<PathBuf> = d.files.iter().map(|f| corpus.join(f)).collect();
    let opts = VerilogOptions {
        top: Some(d.top.clone()),
        observe_state: observe,
        ..VerilogOptions::default()
    };
    let loaded = load_verilog(&files, &opts)
        .map_err(|e| e.to_string().lines().next().unwrap_or("").to_string())?;
    let mut sys = loaded.system;
    let keep: Vec<VarId> = (0..sys.vars.len() as u32)
        .map(VarId)
        .filter(|v| sys.var(*v).role != Role::Input && sys.var(*v).init.is_none())
        .collect();
    make_controllable(&mut sys, &keep).map_err(|e| e.to_string())?;
    let mut aig = blast(&sys, &BlastOptions::default())
        .map_err(|e| e.to_string())?
        .aig;
    aig.bad.clear();
    Ok(aig)
}

/// Uninitialised latches start at 0 (the comparison's shared initial value).
fn zero_free_resets(aig: &mut Aig) {
    for l in &mut aig.latches {
        if l.reset == Reset::Free {
            l.reset = Reset::Zero;
        }
    }
}

/// hypermut's verdict on a miter: IC3 (a proof, checked certificate) within a time limit,
/// then BMC to depth [`DEPTH`] if IC3 gave no answer.
pub fn prove(aig: &Aig) -> Verdict {
    let v = Ic3::new(Some(Duration::from_secs(IC3_SECONDS))).check(aig);
    if !matches!(v, Verdict::Unknown(_)) {
        return v;
    }
    let mut e = Bmc::new(DEPTH);
    e.time_limit = Some(Duration::from_secs(300));
    e.check(aig)
}

/// Latches in the sequential cone of influence of the outputs named `outputs`.
fn latches_in_cone(aig: &Aig, outputs: &[String]) -> Vec<bool> {
    let mut seen = vec![false; aig.num_vars() as usize];
    let mut stack: Vec<u32> = aig
        .outputs
        .iter()
        .filter(|o| outputs.contains(&o.name))
        .map(|o| o.lit.var())
        .collect();
    while let Some(v) = stack.pop() {
        if std::mem::replace(&mut seen[v as usize], true) {
            continue;
        }
        match aig.node(v) {
            Node::And(a, b) => stack.extend([a.var(), b.var()]),
            Node::Latch(i) => stack.push(aig.latches[i as usize].next.var()),
            _ => {}
        }
    }
    aig.latches
        .iter()
        .map(|l| seen[l.lit.var() as usize])
        .collect()
}

/// `aig` with exactly the inputs `inputs` (in this order; missing ones are added unused),
/// the outputs `outputs` (in this order) and only the latches they depend on, for ABC.
fn aligned(aig: &Aig, inputs: &[String], outputs: &[String]) -> Aig {
    let mut g = Aig::new();
    let mut map = vec![Lit::FALSE; aig.num_vars() as usize];
    for name in inputs {
        let l = g.add_input(name.clone());
        if let Some(i) = aig.inputs.iter().find(|i| &i.name == name) {
            map[i.lit.var() as usize] = l;
        }
    }
    // Latches are renamed: ABC rejects a latch and an output of the same name that are not
    // the same signal (registers with an asynchronous reset, latches).
    let keep = latches_in_cone(aig, outputs);
    for (k, l) in aig.latches.iter().enumerate() {
        if keep[k] {
            map[l.lit.var() as usize] = g.add_latch(format!("latch{k}"), l.reset);
        }
    }
    let tr = |m: &[Lit], l: Lit| m[l.var() as usize].xor(l.is_neg());
    for v in 0..aig.num_vars() {
        if let Node::And(a, b) = aig.node(v) {
            let (x, y) = (tr(&map, a), tr(&map, b));
            map[v as usize] = g.and(x, y);
        }
    }
    for (k, l) in aig.latches.iter().enumerate() {
        if keep[k] {
            let n = tr(&map, l.next);
            g.set_next(map[l.lit.var() as usize], n);
        }
    }
    for name in outputs {
        if let Some(o) = aig.outputs.iter().find(|o| &o.name == name) {
            let lit = tr(&map, o.lit);
            g.outputs.push(Named {
                lit,
                name: name.clone(),
            });
        }
    }
    g
}

/// ABC's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Abc {
    Equivalent,
    NotEquivalent(String),
    Undecided(String),
}

/// ABC `dsec` on the two circuits (aligned to the same inputs and compared outputs).
fn abc_dsec(a: &Aig, b: &Aig, outputs: &[String], tmp: &Path) -> Abc {
    let mut inputs: Vec<String> = a
        .inputs
        .iter()
        .chain(&b.inputs)
        .map(|i| i.name.clone())
        .collect();
    inputs.sort();
    inputs.dedup();
    let (fa, fb) = (tmp.join("a.aig"), tmp.join("b.aig"));
    let (a, b) = (aligned(a, &inputs, outputs), aligned(b, &inputs, outputs));
    let ok = std::fs::write(&fa, write_aiger(&a, AigerFormat::Binary))
        .and_then(|_| std::fs::write(&fb, write_aiger(&b, AigerFormat::Binary)));
    if let Err(e) = ok {
        return Abc::Undecided(e.to_string());
    }
    // `dsec` needs latches; purely combinational circuits go to `cec`.
    let cmd = if a.latches.is_empty() && b.latches.is_empty() {
        format!("cec {} {}", fa.display(), fb.display())
    } else {
        format!("dsec -T 300 {} {}", fa.display(), fb.display())
    };
    let r = Command::new("timeout")
        .arg("600")
        .arg("berkeley-abc")
        .arg("-c")
        .arg(cmd)
        .output();
    let text = match r {
        Ok(o) => String::from_utf8_lossy(&o.stdout).to_string(),
        Err(e) => return Abc::Undecided(e.to_string()),
    };
    if text.contains("Networks are equivalent") {
        Abc::Equivalent
    } else if text.contains("NOT EQUIVALENT") {
        Abc::NotEquivalent(
            text.lines()
                .filter(|l| l.contains("EQUIVALENT"))
                .collect::<Vec<_>>()
                .join(" "),
        )
    } else {
        Abc::Undecided(text.lines().last().unwrap_or("").to_string())
    }
}

/// The outcome for one design.
#[derive(Debug)]
enum Outcome {
    /// yosys cannot produce an AIGER file.
    YosysRejects(String),
    /// hypermut rejects the design.
    HypermutRejects(String),
    /// Compared: hypermut's verdict and ABC's.
    Compared {
        ours: Verdict,
        abc: Abc,
        matched: usize,
        unmatched: usize,
        ands: (usize, usize),
    },
    /// The circuits could not be compared (e.g. no common output).
    NotComparable(String),
}

fn check(corpus: &Path, d: &Design, observe: bool) -> Outcome {
    let tmp = match tempfile::tempdir() {
        Ok(t) => t,
        Err(e) => return Outcome::NotComparable(e.to_string()),
    };
    let mut ours = match hypermut_aig(corpus, d, observe) {
        Ok(a) => a,
        Err(e) => return Outcome::HypermutRejects(e),
    };
    let mut theirs = match yosys_aig(corpus, d, observe, tmp.path()) {
        Ok(a) => a,
        Err(e) => return Outcome::YosysRejects(e),
    };
    zero_free_resets(&mut ours);
    zero_free_resets(&mut theirs);
    let m = match miter(&ours, &theirs) {
        Ok(m) => m,
        Err(e) => return Outcome::NotComparable(e.to_string()),
    };
    let verdict = prove(&m.aig);
    let abc = abc_dsec(&ours, &theirs, &m.matched_outputs, tmp.path());
    Outcome::Compared {
        ours: verdict,
        abc,
        matched: m.matched_outputs.len(),
        unmatched: m.left_only_outputs.len() + m.right_only_outputs.len(),
        ands: (ours.num_ands(), theirs.num_ands()),
    }
}

/// The corpus folder and the design called `name` (for debugging one design).
#[allow(dead_code)]
pub fn find(name: &str) -> (PathBuf, Design) {
    let dir = corpus().expect("corpus");
    let d = designs()
        .into_iter()
        .find(|d| d.name == name)
        .expect("design");
    (dir, d)
}

/// Whether hypermut's designs with no outputs are compared through their registers.
fn observe_for(d: &Design) -> bool {
    d.name.starts_with("bakery")
        || d.name.contains("two_processor")
        || d.name == "SDLX"
        || d.name == "huff"
}

fn describe(v: &Verdict) -> String {
    match v {
        Verdict::Safe(_) => "proved equivalent".into(),
        Verdict::Unsafe(w) => format!("MISMATCH at depth {}", w.inputs.len().saturating_sub(1)),
        Verdict::Unknown(r) => {
            if r.contains("bound") {
                format!("no mismatch to depth {DEPTH}")
            } else {
                format!("unknown ({r})")
            }
        }
    }
}

/// Runs the designs named by `names` (all if `None`), prints a table, returns the number of
/// mismatches (by either checker).
fn run(names: Option<&[&str]>) -> usize {
    let Some(dir) = setup() else {
        return 0;
    };
    let mut mismatches = 0;
    let mut compared = 0;
    let mut abc_equiv = 0;
    println!("| design | result | hypermut (IC3, else BMC {DEPTH}) | ABC | outputs matched / unmatched | ANDs hypermut / yosys | time |");
    println!("|---|---|---|---|---|---|---|");
    for d in designs() {
        if names.is_some_and(|n| !n.contains(&d.name.as_str())) {
            continue;
        }
        let t = Instant::now();
        let out = check(&dir, &d, observe_for(&d));
        let secs = t.elapsed().as_secs_f64();
        match out {
            Outcome::Compared {
                ours,
                abc,
                matched,
                unmatched,
                ands,
            } => {
                compared += 1;
                let bad =
                    matches!(ours, Verdict::Unsafe(_)) || matches!(abc, Abc::NotEquivalent(_));
                if bad {
                    mismatches += 1;
                }
                if abc == Abc::Equivalent {
                    abc_equiv += 1;
                }
                println!(
                    "| {} | {} | {} | {:?} | {matched} / {unmatched} | {} / {} | {secs:.1}s |",
                    d.name,
                    if bad { "MISMATCH" } else { "compared" },
                    describe(&ours),
                    abc,
                    ands.0,
                    ands.1
                );
            }
            Outcome::YosysRejects(e) => println!(
                "| {} | yosys rejects: {} | | | | | {secs:.1}s |",
                d.name,
                e.replace('|', "/")
            ),
            Outcome::HypermutRejects(e) => println!(
                "| {} | hypermut rejects: {} | | | | | {secs:.1}s |",
                d.name,
                e.replace('|', "/")
            ),
            Outcome::NotComparable(e) => {
                println!("| {} | not comparable: {e} | | | | | {secs:.1}s |", d.name)
            }
        }
    }
    println!(
        "\n{compared} designs compared, {mismatches} mismatches, ABC proved {abc_equiv} equivalent"
    );
    mismatches
}

#[test]
fn representative_subset_is_equivalent_to_yosys() {
    assert_eq!(
        run(Some(SUBSET)),
        0,
        "hypermut and yosys disagree (see the table above)"
    );
}

#[test]
#[ignore = "whole corpus: run by scripts/yosys-equiv.sh"]
fn whole_corpus_table() {
    assert_eq!(
        run(None),
        0,
        "hypermut and yosys disagree (see the table above)"
    );
}
