//! The initial-state conventions (`docs/method.md` §6.1) end to end: `testgen --reset` holds
//! the reset in the first frames of every test, the self-checking testbench of the tests
//! (`hypermut testbench`, `docs/formats.md` §12.4) passes in iverilog on the original design
//! and fails on every mutant whose test is `definite`, and a mutant that only choosing a
//! power-up value kills is never `definite` — unless `--init zero` fixes the power-up value.

mod common;

use std::path::{Path, PathBuf};

use common::{hypermut, hypermut_ok};
use hypermut_testgen::testbench::{guess_clock, read_tests};
use hypermut_testgen::{
    verilog_testbench, FrontendOptions, InitOption, KillClass, Model, TestFile,
};
use hypermut_testkit::tools;

/// A counter with a synchronous reset; `shadow` has no reset but is loaded in every cycle,
/// so every output is known from the frame after the reset on.
const COUNTER: &str = "\
module counter(input clk, input rst, input en, input [1:0] d,
               output reg [2:0] count, output reg [1:0] last, output wrap);
  reg [1:0] shadow;
  always @(posedge clk) begin
    shadow <= d;
    if (rst) begin
      count <= 3'd0;
      last <= 2'd0;
    end else begin
      if (en) count <= count + 3'd1;
      last <= shadow;
    end
  end
  assign wrap = en & (count == 3'd7);
endmodule
";

/// `pu` is never reset nor loaded: it keeps its power-up value, which `peek` shows.
const POWERUP: &str = "\
module powerup(input clk, input rst, input [1:0] d, output reg [1:0] q, output peek);
  reg [1:0] pu;
  always @(posedge clk) begin
    pu <= pu;
    if (rst) q <= 2'd0;
    else q <= d;
  end
  assign peek = (pu == 2'd2);
endmodule
";

/// The line of `POWERUP` with `peek`'s comparison, as results locate it (`file:line:`).
const PEEK_LINE: usize = 8;

/// Writes `text` to `dir/name`.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("design written");
    p
}

/// `hypermut testgen DESIGN EXTRA… --out DIR/out-TAG`: the results directory.
fn testgen(design: &Path, tag: &str, extra: &[&str]) -> PathBuf {
    let out = design.with_file_name(format!("out-{tag}"));
    let (d, o) = (design.to_string_lossy(), out.to_string_lossy());
    let mut args = vec![
        "testgen",
        &d,
        "--fresh",
        "--bound",
        "12",
        "--timeout",
        "30",
        "--out",
        &o,
    ];
    args.extend_from_slice(extra);
    hypermut_ok(&args);
    out
}

/// The per-mutant records of a results directory.
fn results(out: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(out.join("summary.json")).expect("summary.json");
    let s: serde_json::Value = serde_json::from_str(&text).expect("summary JSON");
    s["results"].as_array().expect("results").clone()
}

/// Compiles `tb` with `design` and runs it: vvp's exit status and output.
fn simulate(tb: &Path, design: &Path, dir: &Path) -> (bool, String) {
    let exe = dir.join("sim");
    let (ok, text) = tools::iverilog(&["-g2005"], "hypermut_tb", &[], &[tb, design], &exe);
    assert!(
        ok,
        "iverilog rejects {} with {}:\n{text}",
        tb.display(),
        design.display()
    );
    tools::vvp(&exe)
}

/// The source of mutant `id` of `design`, written next to it.
fn mutant_source(design: &Path, id: usize, extra: &[&str]) -> PathBuf {
    let out = design.with_file_name(format!("m{id}.v"));
    let (d, o, i) = (
        design.to_string_lossy(),
        out.to_string_lossy(),
        id.to_string(),
    );
    let mut args = vec!["mutant", &d, "--id", &i, "--emit", "source", "-o", &o];
    args.extend_from_slice(extra);
    hypermut_ok(&args);
    out
}

/// The testbench the binary writes for the tests in `out` (also checked against the
/// library's), and the definite tests.
fn testbench(
    design: &Path,
    out: &Path,
    extra: &[&str],
    options: &FrontendOptions,
) -> (PathBuf, Vec<TestFile>) {
    let tb = out.join("tb.v");
    let (d, o, t) = (
        design.to_string_lossy(),
        out.to_string_lossy(),
        tb.to_string_lossy(),
    );
    let mut args = vec!["testbench", &d, "--tests", &o, "-o", &t];
    args.extend_from_slice(extra);
    hypermut_ok(&args);
    let text = std::fs::read_to_string(&tb).expect("testbench written");
    let tests = read_tests(out).expect("tests read");
    let (model, _) = Model::load(&[design.to_path_buf()], options).expect("model loads");
    let top = model.system.name.clone();
    assert_eq!(
        guess_clock(&model, &top).expect("a clock"),
        Some("clk".to_string())
    );
    let library = verilog_testbench(&model, &tests, &top, Some("clk")).expect("testbench");
    assert_eq!(text, library, "the binary writes the library's testbench");
    let definite: Vec<TestFile> = tests
        .into_iter()
        .filter(|t| t.kill_class == KillClass::Definite)
        .collect();
    for t in &definite {
        assert!(
            text.contains(&format!("$display(\"PASS mutant-{}\")", t.test.mutant)),
            "mutant {} is exported",
            t.test.mutant
        );
    }
    (tb, definite)
}

/// The testbench passes on the original and fails, on that mutant's own test, on the emitted
/// source of every mutant whose test is definite.
fn check_in_iverilog(design: &Path, tb: &Path, definite: &[TestFile], extra: &[&str]) {
    let dir = design.parent().expect("a folder");
    let (ok, text) = simulate(tb, design, dir);
    let n = definite.len();
    assert!(ok, "the original fails its testbench:\n{text}");
    assert!(text.contains(&format!("{n} of {n} tests passed")), "{text}");
    for t in definite {
        let id = t.test.mutant;
        let src = mutant_source(design, id, extra);
        let (ok, text) = simulate(tb, &src, dir);
        assert!(
            !ok,
            "mutant {id} passes the testbench (vvp exits 0):\n{text}"
        );
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("FAIL mutant-{id} step "))),
            "mutant {id}: its own test does not fail:\n{text}"
        );
    }
}

#[test]
fn reset_held_tests_pass_on_the_original_and_fail_on_definite_mutants() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let design = write(tmp.path(), "counter.v", COUNTER);
    let out = testgen(&design, "reset", &["--reset", "rst:2"]);
    let convention = "reset: rst held at 1 for 2 cycles; other registers start with free values";
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).expect("run.json"))
            .expect("run.json");
    assert_eq!(run["initial_state"], convention);
    let tests = read_tests(&out).expect("tests");
    assert!(tests.len() >= 20, "{} tests", tests.len());
    for t in &tests {
        let id = t.test.mutant;
        // The reset is held in frames 0 and 1, so no test kills before frame 2.
        assert!(
            t.test.frames.len() >= 3,
            "mutant {id}: depth {}",
            t.test.depth
        );
        for (k, f) in t.test.frames.iter().take(2).enumerate() {
            assert_eq!(f.inputs["rst"], "0ud1_1", "mutant {id}, frame {k}");
        }
        assert_eq!(t.initial_state, convention, "mutant {id}");
    }
    if !tools::have("iverilog") || !tools::have("vvp") {
        return;
    }
    let options = FrontendOptions {
        reset: "rst:2".parse().expect("option"),
        ..FrontendOptions::default()
    };
    let (tb, definite) = testbench(&design, &out, &["--reset", "rst:2"], &options);
    assert!(definite.len() >= 20, "{} definite tests", definite.len());
    check_in_iverilog(&design, &tb, &definite, &["--reset", "rst:2"]);
}

/// The records of the mutants of `2'd2` in `peek` that replace it by another constant:
/// `(K, record)` for the replacement `2'dK`.
fn constant_mutants_of_peek(out: &Path) -> Vec<(u32, serde_json::Value)> {
    let v: Vec<(u32, serde_json::Value)> = results(out)
        .into_iter()
        .filter(|r| {
            r["location"]
                .as_str()
                .is_some_and(|l| l.contains(&format!("powerup.v:{PEEK_LINE}:")))
                && r["original"] == "2'd2"
        })
        .map(|r| {
            let k = r["replacement"]
                .as_str()
                .and_then(|s| s.strip_prefix("2'd"))
                .and_then(|s| s.parse().ok())
                .expect("a 2-bit constant");
            (k, r)
        })
        .collect();
    assert!(v.len() >= 2, "constant mutants of `2'd2`: {v:?}");
    v
}

#[test]
fn power_up_values_are_never_definite_kills_unless_fixed_by_init_zero() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let design = write(tmp.path(), "powerup.v", POWERUP);
    // `peek` = (pu == 2) with `pu` any constant: the mutant `pu == K` answers every input
    // like the original with another power-up value, so only choosing `pu` kills it.
    for (tag, extra) in [("none", &["--reset", "none"][..]), ("detected", &[][..])] {
        let out = testgen(&design, tag, extra);
        for (k, r) in constant_mutants_of_peek(&out) {
            assert_eq!(r["outcome"], "killed", "{tag}, 2'd{k}: {r}");
            assert_eq!(r["kill_class"], "controlled", "{tag}, 2'd{k}: {r}");
        }
    }
    // With `--init zero`, `pu` = 0: the mutant `pu == K` differs from the original exactly
    // when (0 == K) differs from (0 == 2), i.e. for K = 0, and then in every run.
    let zero = ["--init", "zero"];
    let out = testgen(&design, "zero", &zero);
    for (k, r) in constant_mutants_of_peek(&out) {
        if k == 0 {
            assert_eq!(r["outcome"], "killed", "2'd{k}: {r}");
            assert_eq!(r["kill_class"], "definite", "2'd{k}: {r}");
        } else {
            assert_eq!(r["outcome"], "equivalent", "2'd{k}: {r}");
        }
    }
    if !tools::have("iverilog") || !tools::have("vvp") {
        return;
    }
    let options = FrontendOptions {
        init: InitOption::Zero,
        ..FrontendOptions::default()
    };
    let (tb, definite) = testbench(&design, &out, &zero, &options);
    let text = std::fs::read_to_string(&tb).expect("testbench");
    // The registers without an initial value start at 0 in every instance.
    assert!(text.contains("t0_dut.pu = 2'h0;"), "{text}");
    assert!(!definite.is_empty());
    check_in_iverilog(&design, &tb, &definite, &zero);
}

#[test]
fn a_reset_that_is_no_one_bit_input_is_refused() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let design = write(tmp.path(), "counter.v", COUNTER);
    let d = design.to_string_lossy();
    for (reset, phrase) in [
        ("d", "`d` is unsigned word[2], not a 1-bit input"),
        ("clk", "the model has no input `clk`"),
        ("rst=2", "LEVEL must be 0 or 1"),
    ] {
        let o = hypermut(&["mutants", &d, "--reset", reset]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "--reset {reset}: {err}");
        assert!(err.contains(phrase), "--reset {reset}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // Detected by default, with a note; not with --reset none.
    let o = hypermut(&["mutants", &d]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        // `rst` = 1 clears `count` (3 bits) and `last` (2 bits); 0 fixes nothing.
        err.contains(
            "note: holding reset `rst` at 1 (the level from its effect on 5 register bits) for \
             the first cycle"
        ),
        "{err}"
    );
    let o = hypermut(&["mutants", &d, "--reset", "none"]);
    assert!(!String::from_utf8_lossy(&o.stderr).contains("holding reset"));
}

/// A Wishbone-style reset port (`wb_rst_i`) is found under its decorations, and its level
/// comes from its effect (0 clears `q`, as the source's `negedge` says) although the name
/// reads active-high; the design's tests then start from the reset state: every kill is
/// definite.
#[test]
fn a_decorated_asynchronous_reset_is_held_at_the_level_the_source_shows() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let design = write(
        tmp.path(),
        "wb.v",
        "module wb(input clk, input wb_rst_i, input en, output reg [1:0] q);\n\
         always @(posedge clk or negedge wb_rst_i)\n\
           if (!wb_rst_i) q <= 2'd0; else if (en) q <= q + 2'd1;\n\
         endmodule\n",
    );
    let d = design.to_string_lossy();
    let out = tmp.path().join("out");
    let o = hypermut(&["testgen", &d, "--out", &out.to_string_lossy()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(
            "note: holding reset `wb_rst_i` at 0 (the level from its effect on 2 register bits) \
             for the first cycle"
        ),
        "{err}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).expect("summary"))
            .expect("JSON");
    let killed: Vec<&serde_json::Value> = summary["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["outcome"] == "killed")
        .collect();
    assert!(!killed.is_empty());
    for r in killed {
        assert_eq!(r["kill_class"], "definite", "{r}");
    }
}
