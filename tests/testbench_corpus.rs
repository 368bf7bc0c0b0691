//! The exported testbench (`hypermut testbench`, `docs/formats.md` §12.4) on designs of the
//! shared Verilog corpus, single files and designs of several files, in iverilog:
//!
//! * it passes on the original design, every exported test;
//! * on every definite-killed mutant whose test it exports, written with `hypermut mutant
//!   --emit source --design-dir` (every file of the design, the mutated one edited, and a
//!   file list), it fails (vvp exits non-zero) and the mutant's own test prints `FAIL` —
//!   unless that test is `INCONCLUSIVE` in `hypermut run` too: the mutant left the test's
//!   branch at a step where the original allows its outputs, or the allowed outputs of the
//!   killing step are capped, and by the rule of `docs/method.md` §4.1.1 nothing fails it;
//! * `hypermut run --junit` on the same design gives every test the testbench prints a line
//!   for the same verdict (pass / fail / inconclusive). The testbench holds the `definite`
//!   tests only while `hypermut run` runs all of them: the comparison is over the tests the
//!   testbench holds.
//!
//! To stay within about three minutes in a debug build on two cores, each design's mutants
//! are a seeded sample (`--sample N --seed S`, [`DESIGNS`]), decided with `--bound 12
//! --timeout 10 --search-timeout 1`. `scripts/testbench-sim.sh --corpus` runs the same checks
//! with verilator too. Skipped (with `SKIPPED: …`) when `../shared` is absent; iverilog
//! missing is a failure, since CI installs it.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{hypermut, hypermut_ok};
use hypermut_testkit::corpus::{self, Design};
use hypermut_testkit::tools;

/// The designs (names in `tests/data/verilog/corpus-designs.txt`), with the size and seed of
/// their mutant sample.
const DESIGNS: &[(&str, usize, u64)] = &[
    ("huffenc", 12, 1),
    ("spi_correct", 12, 1),
    ("ham_7_4_dec", 8, 1),
    ("divider_top", 20, 1),
    ("compiler_opt/dbe", 12, 1),
    ("i2c", 20, 1),
];

/// A test's verdict, from the testbench or from `hypermut run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Pass,
    Fail,
    Inconclusive,
    NotRunnable,
}

/// The per-test lines of a testbench's output: `PASS mutant-N`, `FAIL mutant-N step k: …`,
/// `INCONCLUSIVE mutant-N step k: …`.
fn simulated(output: &str) -> BTreeMap<usize, Verdict> {
    let mut out = BTreeMap::new();
    for line in output.lines() {
        let mut words = line.split_whitespace();
        let verdict = match words.next() {
            Some("PASS") => Verdict::Pass,
            Some("FAIL") => Verdict::Fail,
            Some("INCONCLUSIVE") => Verdict::Inconclusive,
            _ => continue,
        };
        let Some(id) = words
            .next()
            .and_then(|w| w.strip_prefix("mutant-"))
            .and_then(|n| n.parse().ok())
        else {
            continue;
        };
        assert!(
            out.insert(id, verdict).is_none(),
            "two lines for mutant-{id}:\n{output}"
        );
    }
    out
}

/// The verdicts of `hypermut run`'s JUnit report: `<failure>` fails, `<skipped
/// message="inconclusive: …">` is inconclusive, another `<skipped>` not runnable.
fn junit(xml: &str) -> BTreeMap<usize, Verdict> {
    let mut out = BTreeMap::new();
    for case in xml.split("<testcase ").skip(1) {
        let id = case
            .strip_prefix("name=\"mutant-")
            .and_then(|r| r.split('"').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a testcase without a mutant name: {case}"));
        let body = match case.split_once('>') {
            Some((head, rest)) if !head.ends_with('/') => {
                rest.split("</testcase>").next().unwrap_or("")
            }
            _ => "",
        };
        let verdict = if body.contains("<failure") {
            Verdict::Fail
        } else if body.contains("message=\"inconclusive") {
            Verdict::Inconclusive
        } else if body.contains("<skipped") {
            Verdict::NotRunnable
        } else {
            Verdict::Pass
        };
        out.insert(id, verdict);
    }
    out
}

/// `+incdir+` lines for `folders`, then `files`: a file list for iverilog (`-c`) and hypermut.
fn file_list(path: &Path, files: &[PathBuf]) {
    let mut text = String::new();
    let mut folders: Vec<&Path> = files.iter().filter_map(|f| f.parent()).collect();
    folders.dedup();
    for d in folders {
        text.push_str(&format!("+incdir+{}\n", d.display()));
    }
    for f in files {
        text.push_str(&format!("{}\n", f.display()));
    }
    std::fs::write(path, text).expect("file list written");
}

/// iverilog on the testbench `tb` and the design of file list `list`: vvp's exit status and
/// output (a compile error fails the test).
fn simulate(tb: &Path, list: &Path, exe: &Path) -> (bool, String) {
    let (ok, text) = tools::run(
        Command::new("iverilog")
            .args(["-g2012", "-s", "hypermut_tb", "-o"])
            .arg(exe)
            .arg("-c")
            .arg(list)
            .arg(tb),
    );
    assert!(ok, "iverilog rejects {}:\n{text}", list.display());
    tools::vvp(exe)
}

/// `hypermut run` of the tests in `out` on the design of file list `list`: the verdicts of its
/// JUnit report.
fn run_verdicts(out: &Path, list: &Path, top: &str, xml: &Path) -> BTreeMap<usize, Verdict> {
    let (o, l, x) = (
        out.to_string_lossy(),
        list.to_string_lossy(),
        xml.to_string_lossy(),
    );
    let r = hypermut(&["run", "-f", &l, "--top", top, "--tests", &o, "--junit", &x]);
    assert!(
        r.status.code().is_some_and(|c| c <= 1),
        "hypermut run on {l}:\n{}",
        String::from_utf8_lossy(&r.stderr)
    );
    junit(&std::fs::read_to_string(xml).expect("JUnit report"))
}

/// The tests the simulator and `hypermut run` judge differently, described.
fn disagreements(
    what: &str,
    sim: &BTreeMap<usize, Verdict>,
    run: &BTreeMap<usize, Verdict>,
) -> Vec<String> {
    sim.iter()
        .filter(|(id, v)| run.get(id) != Some(v))
        .map(|(id, v)| {
            format!(
                "{what}: mutant-{id}: iverilog {v:?}, hypermut run {:?}",
                run.get(id)
            )
        })
        .collect()
}

/// The ids of the definite-killed mutants of a results directory.
fn definite_killed(out: &Path) -> Vec<usize> {
    let text = std::fs::read_to_string(out.join("summary.json")).expect("summary.json");
    let s: serde_json::Value = serde_json::from_str(&text).expect("summary JSON");
    s["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["outcome"] == "killed" && r["kill_class"] == "definite")
        .map(|r| r["id"].as_u64().expect("an id") as usize)
        .collect()
}

/// What was checked on one design.
#[derive(Debug, Default)]
struct Checked {
    exported: usize,
    mutants: usize,
    failing: usize,
    inconclusive: usize,
    compared: usize,
}

/// `hypermut CMD FILES… --top TOP EXTRA…` for `design`, which must succeed.
fn on_design(cmd: &str, design: &Design, corpus: &Path, extra: &[&str]) {
    let files: Vec<String> = design
        .paths(corpus)
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    let mut args = vec![cmd];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--top", &design.top]);
    args.extend(extra);
    hypermut_ok(&args);
}

/// Runs every check on `design` (files below `corpus`, `sample` mutants drawn with `seed`)
/// in `work`; the problems found.
fn check(
    design: &Design,
    corpus: &Path,
    sample: usize,
    seed: u64,
    work: &Path,
) -> (Checked, Vec<String>) {
    let name = &design.name;
    let (out, tb) = (work.join("out"), work.join("tb.v"));
    let (o, t) = (out.to_string_lossy(), tb.to_string_lossy());
    let (n, s) = (sample.to_string(), seed.to_string());
    #[rustfmt::skip]
    let bounds = [
        "--sample", &n, "--seed", &s, "--bound", "12", "--timeout", "10",
        "--search-timeout", "1", "--jobs", "2", "--out", &o,
    ];
    on_design("testgen", design, corpus, &bounds);
    on_design("testbench", design, corpus, &["--tests", &o, "-o", &t]);
    let mut problems = Vec::new();
    let mut checked = Checked::default();
    // The original.
    let list = work.join("orig.f");
    file_list(&list, &design.paths(corpus));
    let (ok, text) = simulate(&tb, &list, &work.join("orig.vvp"));
    let sim = simulated(&text);
    checked.exported = sim.len();
    if !ok || sim.values().any(|v| *v != Verdict::Pass) {
        problems.push(format!(
            "{name}: the original does not pass every test:\n{text}"
        ));
    }
    let run = run_verdicts(&out, &list, &design.top, &work.join("orig.xml"));
    checked.compared += sim.len();
    problems.extend(disagreements(&format!("{name}, original"), &sim, &run));
    // The definite-killed mutants whose test the testbench holds.
    for id in definite_killed(&out)
        .into_iter()
        .filter(|id| sim.contains_key(id))
    {
        let dir = work.join(format!("m-{id}"));
        let (i, d) = (id.to_string(), dir.to_string_lossy());
        #[rustfmt::skip]
        let emit = ["--id", &i, "--emit", "source", "--design-dir", &d];
        on_design("mutant", design, corpus, &emit);
        let list = dir.join("design.f");
        let (ok, text) = simulate(&tb, &list, &dir.join("sim.vvp"));
        let sim = simulated(&text);
        let run = run_verdicts(&out, &list, &design.top, &dir.join("run.xml"));
        checked.mutants += 1;
        checked.compared += sim.len();
        problems.extend(disagreements(&format!("{name}, mutant {id}"), &sim, &run));
        match sim.get(&id) {
            Some(Verdict::Fail) if !ok => checked.failing += 1,
            Some(Verdict::Inconclusive) if run.get(&id) == Some(&Verdict::Inconclusive) => {
                checked.inconclusive += 1
            }
            other => problems.push(format!(
                "{name}, mutant {id}: its own test gives {other:?}, vvp exit {}:\n{text}",
                if ok { "0" } else { "non-zero" }
            )),
        }
    }
    (checked, problems)
}

#[test]
fn corpus_testbenches_pass_fail_and_agree_with_hypermut_run() {
    let Some(corpus) = corpus::dir("verilog") else {
        return;
    };
    assert!(
        tools::find("iverilog").is_some() && tools::find("vvp").is_some(),
        "iverilog and vvp are needed (CI installs them: ../shared/scripts/install-oracles.sh apt)"
    );
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut problems = Vec::new();
    let mut several_files = 0;
    for (name, sample, seed) in DESIGNS {
        let design = corpus::verilog_design(name).expect("a design of the list");
        several_files += usize::from(design.files.len() > 1);
        let work = tmp.path().join(name.replace('/', "_"));
        std::fs::create_dir_all(&work).expect("work folder");
        let (c, p) = check(&design, &corpus, *sample, *seed, &work);
        eprintln!(
            "{name}: {} file(s), {sample} mutants sampled, {} tests exported; definite mutants \
             failing {} of {} ({} inconclusive, as in hypermut run); {} verdicts compared \
             with hypermut run",
            design.files.len(),
            c.exported,
            c.failing,
            c.mutants,
            c.inconclusive,
            c.compared
        );
        if c.mutants == 0 {
            problems.push(format!("{name}: no definite-killed mutant was exported"));
        }
        problems.extend(p);
    }
    assert!(
        several_files >= 2,
        "designs of several files: {several_files}"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A design of two files in two folders whose top module includes a file from a third.
const TOP: &str = "module top(input a, input b, input c, output y, output z);\n\
    `include \"defs.vh\"\n  sub u(.a(a), .c(c), .z(z));\nendmodule\n";
const SUB: &str = "module sub(input a, input c, output z);\n  assign z = a ^ c;\nendmodule\n";
const DEFS: &str = "  assign y = a & b;\n";

/// A testbench printing `y z` for every value of `a b c`.
const TRUTH: &str = "module truth;\n  reg a, b, c;\n  wire y, z;\n  integer i;\n  \
    top t(.a(a), .b(b), .c(c), .y(y), .z(z));\n  initial begin\n    \
    for (i = 0; i < 8; i = i + 1) begin {a, b, c} = i; #1 $display(\"%b%b\", y, z); end\n  \
    end\nendmodule\n";

/// The truth table of the design compiled from `args` (iverilog arguments) with [`TRUTH`].
fn truth_table(args: &[&str], dir: &Path) -> String {
    let tb = dir.join("truth.v");
    std::fs::write(&tb, TRUTH).expect("testbench written");
    let exe = dir.join("truth.vvp");
    let (ok, text) = tools::run(
        Command::new("iverilog")
            .args(["-g2012", "-s", "truth", "-o"])
            .arg(&exe)
            .args(args)
            .arg(&tb),
    );
    assert!(ok, "iverilog {args:?}:\n{text}");
    let (ok, text) = tools::vvp(&exe);
    assert!(ok, "{text}");
    text
}

/// `hypermut mutant --design-dir` writes every file of the design, the one holding the
/// mutation edited (an included file in another folder too), and a file list that iverilog
/// compiles to the same circuit as the edited file put in place by hand.
#[test]
fn a_design_dir_holds_every_file_with_the_edit_in_place() {
    assert!(
        tools::find("iverilog").is_some() && tools::find("vvp").is_some(),
        "iverilog and vvp are needed (CI installs them: ../shared/scripts/install-oracles.sh apt)"
    );
    let tmp = tempfile::tempdir().expect("temp dir");
    let src = tmp.path().join("src");
    let texts = [
        ("rtl/top.v", TOP),
        ("rtl/sub/sub.v", SUB),
        ("inc/defs.vh", DEFS),
    ];
    for (rel, text) in texts {
        let p = src.join(rel);
        std::fs::create_dir_all(p.parent().expect("a folder")).expect("folder");
        std::fs::write(&p, text).expect("written");
    }
    let (top, sub, inc) = (
        src.join("rtl/top.v").display().to_string(),
        src.join("rtl/sub/sub.v").display().to_string(),
        src.join("inc").display().to_string(),
    );
    let model = [top.as_str(), sub.as_str(), "-I", inc.as_str()];
    let original = truth_table(&[&top, &sub, "-I", &inc], tmp.path());
    let listing = hypermut_ok(&[&["mutants", "--json"][..], &model].concat());
    let mutants: Vec<serde_json::Value> = serde_json::from_str(&listing).expect("JSON listing");
    assert!(mutants.len() >= 5, "{listing}");
    let mut in_include = 0;
    for m in &mutants {
        let id = m["id"].as_u64().expect("an id").to_string();
        let location = m["location"].as_str().expect("a location");
        let rel = texts
            .iter()
            .map(|(rel, _)| *rel)
            .find(|rel| location.starts_with(&src.join(rel).display().to_string()))
            .unwrap_or_else(|| panic!("{location} is in no file of the design"));
        in_include += usize::from(rel == "inc/defs.vh");
        let dir = tmp.path().join(format!("m{id}"));
        let d = dir.display().to_string();
        let edit = tmp.path().join(format!("m{id}.txt"));
        let e = edit.display().to_string();
        hypermut_ok(&[&["mutant"][..], &model, &["--id", &id, "--design-dir", &d]].concat());
        hypermut_ok(&[&["mutant"][..], &model, &["--id", &id, "-o", &e]].concat());
        let edited = std::fs::read_to_string(&edit).expect("the edited file");
        // Every file of the design, under the same relative path; only the mutated one edited.
        for (r, text) in texts {
            let copy = std::fs::read_to_string(dir.join(r)).expect("a copy of every file");
            let want = if r == rel { edited.as_str() } else { text };
            assert_eq!(copy, want, "mutant {id}: {r}");
        }
        let list = std::fs::read_to_string(dir.join("design.f")).expect("design.f");
        let lines: Vec<&str> = list.lines().filter(|l| !l.starts_with("//")).collect();
        let dir = dir.canonicalize().expect("the folder");
        assert_eq!(
            lines
                .iter()
                .rev()
                .take(2)
                .rev()
                .copied()
                .collect::<Vec<_>>(),
            [
                dir.join("rtl/top.v").display().to_string(),
                dir.join("rtl/sub/sub.v").display().to_string()
            ],
            "mutant {id}: the design files in order\n{list}"
        );
        // The same circuit as the edited file put in place by hand, and not the original's.
        let by_hand = tmp.path().join(format!("h{id}"));
        for (r, text) in texts {
            let p = by_hand.join(r);
            std::fs::create_dir_all(p.parent().expect("a folder")).expect("folder");
            std::fs::write(&p, if r == rel { edited.as_str() } else { text }).expect("written");
        }
        let hand = truth_table(
            &[
                &by_hand.join("rtl/top.v").display().to_string(),
                &by_hand.join("rtl/sub/sub.v").display().to_string(),
                "-I",
                &by_hand.join("inc").display().to_string(),
            ],
            &by_hand,
        );
        let listed = truth_table(&["-c", &dir.join("design.f").display().to_string()], &dir);
        assert_eq!(listed, hand, "mutant {id}");
        assert_ne!(listed, original, "mutant {id} is not equivalent");
    }
    assert!(
        in_include >= 2,
        "mutants in the included file: {in_include}"
    );
}
