//! The Verilog front-end against yosys: for every corpus design both accept, hypermut's
//! AIGER and yosys's AIGER are sequentially equivalent (outputs and inputs matched by name).
//!
//! * yosys flow (`docs/formats.md` §12.2, prep flow): `proc; flatten; memory_collect; memory_map;
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
//!   combinational circuits) on the two files; when `dsec` runs out of time (the Ethernet
//!   MAC), ABC's `bmc3` on its own miter of the two files checks frames 0 to 20.
//! * Outputs are matched by name. yosys-only outputs with internal `$` names (function
//!   temporaries that yosys keeps in flip-flops, shown by `expose -dff`) are not compared;
//!   any other output of one side only is listed in the summary.
//!
//! The test runs a representative subset; `whole_corpus_table` (ignored by default, run by
//! `scripts/yosys-equiv.sh`) runs every design and prints a table. Both skip with a message
//! when the corpus or the tools are missing.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hypermut_aig::aiger::{write_aiger, AigerFormat};
use hypermut_aig::blast::{blast, BlastOptions};
use hypermut_aig::{read_aiger, Aig, Lit, Named, Node, Reset};
use hypermut_hyper::miter::miter;
use hypermut_ir::{Role, VarId};
use hypermut_mutate::make_controllable;
use hypermut_prove::{bmc::Bmc, Certificate, Engine, Ic3, Verdict};
use hypermut_testkit::corpus::{self, Design};
use hypermut_testkit::{abc, have, tools};
use hypermut_verilog::{load_verilog, VerilogOptions};

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

/// The checks' common preconditions: the corpus folder, yosys and ABC.
fn setup() -> Option<PathBuf> {
    let dir = corpus::dir("verilog")?;
    (have("yosys") && have(abc::ABC)).then_some(dir)
}

/// yosys's AIGER of a design (`observe` adds `expose -dff`); designs with SystemVerilog
/// assertions are read again with `-formal` (the assertions become bad properties, which the
/// comparison ignores), designs whose unused modules read missing memory files with
/// `-defer`.
pub fn yosys_aig(corpus: &Path, d: &Design, observe: bool, tmp: &Path) -> Result<Aig, String> {
    match yosys_aig_with(corpus, d, observe, tmp, "") {
        Err(e) if e.contains("assert") => yosys_aig_with(corpus, d, observe, tmp, "-formal "),
        // fip_risc8: a module the top does not use calls `$readmemh` on a file the corpus
        // lacks; `-defer` elaborates only the modules `hierarchy -top` reaches.
        Err(e) if e.contains("$readmem") => yosys_aig_with(corpus, d, observe, tmp, "-defer "),
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
    let files = d.paths(corpus);
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
    let (ok, err) = tools::yosys_file(&sfile);
    if !ok {
        return Err(match err.lines().find(|l| l.contains("ERROR")) {
            Some(line) => line.to_string(),
            None => "yosys failed".to_string(),
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
    let files = d.paths(corpus);
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
    /// `dsec`/`cec` proved the circuits equivalent (or `bmc3` explored every reachable state).
    Equivalent,
    /// A difference was found.
    NotEquivalent(String),
    /// `dsec` gave no answer in time; `bmc3` on ABC's own miter found no difference in the
    /// first this many frames.
    NoMismatchToDepth(usize),
    /// No answer.
    Undecided(String),
}

/// ABC's `bmc3` on its sequential miter of the two files, frames 0 to [`DEPTH`].
fn abc_bmc(fa: &Path, fb: &Path) -> Abc {
    let script = format!(
        "miter {} {}; bmc3 -F {} -T 300",
        fa.display(),
        fb.display(),
        DEPTH + 1
    );
    match abc::run_script_within(&script, 400) {
        Ok(text) if text.contains("was asserted in frame") => Abc::NotEquivalent(
            text.lines()
                .filter(|l| l.contains("asserted"))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        Ok(text) if text.contains("Explored all reachable states") => Abc::Equivalent,
        Ok(text) if text.contains("No output asserted in") => Abc::NoMismatchToDepth(DEPTH),
        Ok(text) => Abc::Undecided(format!(
            "dsec gave no answer; bmc3: {}",
            text.lines().last().unwrap_or("")
        )),
        Err(e) => Abc::Undecided(e),
    }
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
    let text = match abc::run_script_within(&cmd, 400) {
        Ok(t) => t,
        Err(e) => return Abc::Undecided(e),
    };
    if text.contains("has no latches") {
        // ABC's own sweeping found every latch constant: its BMC on the miter decides.
        return abc_bmc(&fa, &fb);
    }
    if text.contains("Networks are equivalent") {
        Abc::Equivalent
    } else if text.contains("NOT EQUIVALENT") {
        Abc::NotEquivalent(
            text.lines()
                .filter(|l| l.contains("EQUIVALENT"))
                .collect::<Vec<_>>()
                .join(" "),
        )
    } else if !a.latches.is_empty() || !b.latches.is_empty() {
        // Large designs: `dsec` runs out of time; a bounded check by ABC still compares them.
        abc_bmc(&fa, &fb)
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
        /// Outputs of one side only, other than yosys's internal `$…` names.
        unmatched: Vec<String>,
        /// yosys-only outputs with internal `$…` names (function temporaries that yosys
        /// keeps in flip-flops and `expose -dff` shows).
        yosys_internal: usize,
        ands: (usize, usize),
    },
    /// The circuits could not be compared (e.g. no common output).
    NotComparable(String),
}

/// Compares one design. Designs without outputs (VIS models, bakery) are compared through
/// their registers: `observe_state` on hypermut's side, `expose -dff` on yosys's.
fn check(corpus: &Path, d: &Design) -> Outcome {
    let tmp = match tempfile::tempdir() {
        Ok(t) => t,
        Err(e) => return Outcome::NotComparable(e.to_string()),
    };
    let mut observe = false;
    let mut ours = match hypermut_aig(corpus, d, false) {
        Ok(a) if a.outputs.is_empty() => {
            observe = true;
            match hypermut_aig(corpus, d, true) {
                Ok(a) => a,
                Err(e) => return Outcome::HypermutRejects(e),
            }
        }
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
        unmatched: m
            .left_only_outputs
            .iter()
            .map(|n| format!("hypermut:{n}"))
            .chain(
                m.right_only_outputs
                    .iter()
                    .filter(|n| !n.contains('$'))
                    .map(|n| format!("yosys:{n}")),
            )
            .collect(),
        yosys_internal: m
            .right_only_outputs
            .iter()
            .filter(|n| n.contains('$'))
            .count(),
        ands: (ours.num_ands(), theirs.num_ands()),
    }
}

/// The corpus folder and the design called `name` (for debugging one design).
#[allow(dead_code)]
pub fn find(name: &str) -> (PathBuf, Design) {
    let dir = corpus::dir("verilog").expect("corpus");
    let d = corpus::verilog_design(name).expect("design");
    (dir, d)
}

fn describe(v: &Verdict) -> String {
    match v {
        Verdict::Safe(Certificate::Trivial) => "proved equivalent (miter output constant)".into(),
        Verdict::Safe(_) => "proved equivalent (IC3, certificate checked)".into(),
        Verdict::Unsafe(w) => format!("MISMATCH at depth {}", w.inputs.len().saturating_sub(1)),
        Verdict::Unknown(r) => {
            if r.contains("bound") {
                format!("no mismatch to depth {DEPTH} (BMC)")
            } else {
                format!("unknown ({r})")
            }
        }
    }
}

/// Counts for the closing summary.
#[derive(Default)]
struct Tally {
    compared: usize,
    mismatches: usize,
    proved_trivially: usize,
    proved_ic3: usize,
    bmc_bounded: usize,
    ours_unknown: usize,
    abc_equivalent: usize,
    abc_bounded: usize,
    abc_undecided: usize,
    yosys_internal: usize,
    unmatched: Vec<String>,
    skipped: Vec<String>,
}

/// Runs the designs named by `names` (all if `None`), prints a table, returns the number of
/// mismatches (by either checker).
fn run(names: Option<&[&str]>) -> usize {
    let Some(dir) = setup() else {
        return 0;
    };
    let mut t = Tally::default();
    println!("| design | result | hypermut (IC3, else BMC {DEPTH}) | ABC | outputs matched / one side only + yosys-internal | ANDs hypermut / yosys | time |");
    println!("|---|---|---|---|---|---|---|");
    for d in corpus::verilog_designs() {
        if names.is_some_and(|n| !n.contains(&d.name.as_str())) {
            continue;
        }
        let start = Instant::now();
        let out = check(&dir, &d);
        let secs = start.elapsed().as_secs_f64();
        match out {
            Outcome::Compared {
                ours,
                abc,
                matched,
                unmatched,
                yosys_internal,
                ands,
            } => {
                t.compared += 1;
                let bad =
                    matches!(ours, Verdict::Unsafe(_)) || matches!(abc, Abc::NotEquivalent(_));
                t.mismatches += usize::from(bad);
                match &ours {
                    Verdict::Safe(Certificate::Trivial) => t.proved_trivially += 1,
                    Verdict::Safe(_) => t.proved_ic3 += 1,
                    Verdict::Unknown(r) if r.contains("bound") => t.bmc_bounded += 1,
                    Verdict::Unknown(_) => t.ours_unknown += 1,
                    Verdict::Unsafe(_) => {}
                }
                match abc {
                    Abc::Equivalent => t.abc_equivalent += 1,
                    Abc::NoMismatchToDepth(_) => t.abc_bounded += 1,
                    Abc::Undecided(_) => t.abc_undecided += 1,
                    Abc::NotEquivalent(_) => {}
                }
                t.yosys_internal += usize::from(yosys_internal > 0);
                if !unmatched.is_empty() {
                    t.unmatched
                        .push(format!("{}: {}", d.name, unmatched.join(" ")));
                }
                println!(
                    "| {} | {} | {} | {:?} | {matched} / {} + {yosys_internal} yosys `$` | {} / {} | {secs:.1}s |",
                    d.name,
                    if bad { "MISMATCH" } else { "compared" },
                    describe(&ours),
                    abc,
                    unmatched.len(),
                    ands.0,
                    ands.1
                );
            }
            Outcome::YosysRejects(e) => {
                let e = e.replace('|', "/");
                println!("| {} | yosys rejects: {e} | | | | | {secs:.1}s |", d.name);
                t.skipped.push(format!("{}: yosys rejects: {e}", d.name));
            }
            Outcome::HypermutRejects(e) => {
                let e = e.replace('|', "/");
                println!(
                    "| {} | hypermut rejects: {e} | | | | | {secs:.1}s |",
                    d.name
                );
                t.skipped.push(format!("{}: hypermut rejects: {e}", d.name));
            }
            Outcome::NotComparable(e) => {
                println!("| {} | not comparable: {e} | | | | | {secs:.1}s |", d.name);
                t.skipped.push(format!("{}: not comparable: {e}", d.name));
            }
        }
    }
    println!(
        "\n{} designs compared, {} mismatches.\n\
         hypermut's prover: {} proved equivalent by IC3 (certificate checked), {} proved with a \
         constant miter output, {} without a mismatch to depth {DEPTH} (BMC), {} undecided.\n\
         ABC: {} equivalent (dsec/cec), {} without a mismatch to depth {DEPTH} (dsec out of \
         time, bmc3 on ABC's miter), {} undecided.\n\
         {} compared designs have yosys-only outputs with internal `$` names (function \
         temporaries yosys keeps in flip-flops; not compared); outputs of one side only:\n{}\n\
         {} designs skipped:",
        t.compared,
        t.mismatches,
        t.proved_ic3,
        t.proved_trivially,
        t.bmc_bounded,
        t.ours_unknown,
        t.abc_equivalent,
        t.abc_bounded,
        t.abc_undecided,
        t.yosys_internal,
        if t.unmatched.is_empty() {
            "  none".to_string()
        } else {
            t.unmatched
                .iter()
                .map(|u| format!("  {u}"))
                .collect::<Vec<_>>()
                .join("\n")
        },
        t.skipped.len()
    );
    for s in &t.skipped {
        println!("  {s}");
    }
    t.mismatches
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
    // `HYPERMUT_EQUIV_ONLY=a,b` limits the run to the designs named (for reruns).
    let only = std::env::var("HYPERMUT_EQUIV_ONLY").ok();
    let names: Option<Vec<&str>> = only.as_deref().map(|o| o.split(',').collect());
    assert_eq!(
        run(names.as_deref()),
        0,
        "hypermut and yosys disagree (see the table above)"
    );
}
