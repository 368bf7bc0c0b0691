use super::*;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;

use crate::allowed::AllowedOutputs;
use crate::init::InitOption;
use crate::load::FrontendOptions;

const DESIGN: &str = "module top(input clk, input rst, input [3:0] a, output reg [3:0] q);\n  \
    reg [3:0] r;\n  always @(posedge clk) begin\n    r <= a;\n    if (rst) q <= 4'd0; else q <= r;\n  \
    end\nendmodule\n";

/// The model of `DESIGN` loaded with `options` (in a temporary folder kept alive by the
/// returned handle).
fn model(options: &FrontendOptions) -> (Model, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let p = dir.path().join("top.v");
    std::fs::write(&p, DESIGN).expect("write");
    let (m, _) = Model::load(&[p], options).expect("loads");
    (m, dir)
}

/// A test file of `m` for mutant `id` of class `class`: `rst` then `a` per frame, `q`
/// expected per frame.
fn test(m: &Model, id: usize, class: &str, frames: &[(u32, u32, u32)]) -> TestFile {
    let frames: Vec<serde_json::Value> = frames
        .iter()
        .map(|(rst, a, q)| {
            serde_json::json!({
                "inputs": { "rst": format!("0ud1_{rst}"), "a": format!("0ud4_{a}") },
                "nd": {},
                "outputs": { "q": format!("0ud4_{q}") }
            })
        })
        .collect();
    let v = serde_json::json!({
        "model": m.name, "model_hash": m.hash, "operator": "ror", "location": "top.v:1:1",
        "original": "a", "replacement": "b", "inputs": ["rst", "a"], "outputs": ["q"],
        "nd": {}, "kill_class": class, "note": "", "kill": "",
        "mutant": id, "depth": frames.len() - 1, "frames": frames,
        "mutant_outputs": {}, "requires_nd_control": false
    });
    serde_json::from_value(v).expect("a test file")
}

#[test]
fn literals_are_the_storage_bits_in_hex() {
    // Against u64 formatting, for every width up to 12 and a few values.
    for w in 1..=12u32 {
        for v in [0u64, 1, 5, 0xabc, (1 << w) - 1] {
            let v = v & ((1 << w) - 1);
            let lit = literal(&Value::bits(w, v), Type::ubv(w));
            let digits = w.div_ceil(4) as usize;
            assert_eq!(lit, format!("{w}'h{v:0digits$x}"));
        }
    }
    assert_eq!(literal(&Value::Bool(true), Type::Bool), "1'h1");
    // A signed value is written as its two's complement pattern.
    let v = parse_value("0sd4_-3", Type::sbv(4), &[]).expect("a value");
    assert_eq!(literal(&v, Type::sbv(4)), "4'hd");
    assert_eq!(ident("rst_n"), "rst_n");
    assert_eq!(ident("a.b[3]"), "\\a.b[3] ");
}

#[test]
fn a_step_allows_its_list_or_else_the_tests_outputs() {
    let (m, _dir) = model(&FrontendOptions::default());
    let mut t = test(&m, 0, "definite", &[(1, 0, 0), (0, 0, 0), (0, 0, 5)]);
    let ty: HashMap<&str, Type> = [("q", Type::ubv(4))].into_iter().collect();
    let sys = &m.system;
    let expected = literals(sys, &t, &t.test.frames[2].outputs, &ty).expect("literals");
    assert_eq!(expected, lits(&[("q", "4'h5")]));
    // No list: the test's outputs only, as `hypermut run` judges such a step.
    assert_eq!(
        allowed_at(sys, &t, 2, &expected, &ty).expect("allowed"),
        Allowed::Listed(vec![expected.clone()])
    );
    let one = |q: &str| [("q".to_string(), q.to_string())].into_iter().collect();
    t.allowed = vec![
        AllowedOutputs {
            values: vec![one("0ud4_0")],
            capped: false,
        },
        AllowedOutputs {
            values: vec![one("0ud4_0"), one("11")],
            capped: false,
        },
        AllowedOutputs {
            values: vec![one("0ud4_5")],
            capped: true,
        },
    ];
    assert_eq!(
        allowed_at(sys, &t, 1, &expected, &ty).expect("allowed"),
        Allowed::Listed(vec![lits(&[("q", "4'h0")]), lits(&[("q", "4'hb")])])
    );
    assert_eq!(
        allowed_at(sys, &t, 2, &expected, &ty).expect("allowed"),
        Allowed::Capped
    );
    t.allowed[1].values.push(one("sixteen"));
    assert!(matches!(
        allowed_at(sys, &t, 1, &expected, &ty),
        Err(TestbenchError::BadValue { .. })
    ));
}

fn lits(pairs: &[(&str, &str)]) -> Literals {
    pairs
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

#[test]
fn hierarchical_names_are_identifiers_and_indexes() {
    for (name, ok) in [
        ("q", true),
        ("u_core.state", true),
        ("mem[3]", true),
        ("u.m[2][10]", true),
        ("gen[0].r", true),
        ("a..b", false),
        ("3x", false),
        ("mem[i]", false),
        ("mem[]", false),
        ("a b", false),
        ("$tmp", false),
    ] {
        assert_eq!(hierarchical(name), ok, "{name}");
    }
}

#[test]
fn registers_start_with_the_tests_power_up_values() {
    let (m, _dir) = model(&FrontendOptions::default());
    let mut t = test(&m, 4, "definite", &[(1, 3, 0), (0, 4, 0)]);
    for f in &mut t.test.frames {
        f.nd = [
            ("nd.init.r".to_string(), "9".to_string()),
            ("nd.init.nowhere".to_string(), "1".to_string()),
        ]
        .into_iter()
        .collect();
    }
    let tb = verilog_testbench(&m, &[t], "top", Some("clk")).expect("testbench");
    assert!(tb.contains("    t0_dut.r = 4'h9;\n"), "{tb}");
    assert!(
        tb.contains("// the power-up value of `nowhere` is not set"),
        "{tb}"
    );
    // Set before frame 0's inputs are driven, which start at their complement.
    let set = tb.find("t0_dut.r = 4'h9;").expect("set");
    let driven = tb.find("    t0_in0 = 1'h1;").expect("driven");
    assert!(set < driven, "{tb}");
    assert!(tb.contains("reg [0:0] t0_in0 = ~1'h1;"), "{tb}");
    assert!(tb.contains("reg [3:0] t0_in1 = ~4'h3;"), "{tb}");
}

#[test]
fn inputs_an_initial_value_reads_hold_frame_0_from_time_0() {
    let dir = tempfile::tempdir().expect("temp dir");
    let p = dir.path().join("init.v");
    let design = "module init(input clk, input [3:0] a, input [3:0] b, output reg [3:0] q);\n  \
        initial q = a + 4'd1;\n  always @(posedge clk) q <= q + b;\nendmodule\n";
    std::fs::write(&p, design).expect("write");
    let (m, _) = Model::load(&[p], &FrontendOptions::default()).expect("loads");
    assert_eq!(
        read_at_power_up(&m.system),
        BTreeSet::from(["a"]),
        "q's initial value reads a"
    );
    let v = serde_json::json!({
        "model": m.name, "model_hash": m.hash, "operator": "ror", "location": "init.v:1:1",
        "original": "a", "replacement": "b", "inputs": ["a", "b"], "outputs": ["q"],
        "nd": {}, "kill_class": "definite", "note": "", "kill": "", "mutant": 1, "depth": 0,
        "frames": [{ "inputs": { "a": "0ud4_2", "b": "0ud4_7" }, "nd": {},
                     "outputs": { "q": "0ud4_3" } }],
        "mutant_outputs": {}, "requires_nd_control": false
    });
    let t: TestFile = serde_json::from_value(v).expect("a test file");
    let tb = verilog_testbench(&m, &[t], "init", Some("clk")).expect("testbench");
    assert!(tb.contains("reg [3:0] t0_in0 = 4'h2;"), "{tb}");
    assert!(tb.contains("reg [3:0] t0_in1 = ~4'h7;"), "{tb}");
}

/// A combinational design whose outputs the test's inputs set: `p = a` (or, with `xa`, a
/// value with an `x` bit) and `q = b`.
const JUDGED: &str = "module judged(input [1:0] a, input [1:0] b, input xa, \
    output [1:0] p, output [1:0] q);\n  assign p = xa ? 2'bx1 : a;\n  assign q = b;\nendmodule\n";

/// Against [`crate::allowed::judge`]: the testbench's verdict of every two-step test over a
/// table of observed outputs and allowed lists, simulated in iverilog, is the verdict the
/// runner's rule gives step by step (an `x` bit matches no value).
#[test]
fn the_simulated_verdicts_are_the_runners_rule() {
    use crate::allowed::{judge, StepVerdict};
    if std::process::Command::new("iverilog")
        .arg("-V")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED: `iverilog` is not installed");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let design = dir.path().join("judged.v");
    std::fs::write(&design, JUDGED).expect("write");
    let (m, _) =
        Model::load(std::slice::from_ref(&design), &FrontendOptions::default()).expect("loads");
    let val = |v: u32| format!("0ud2_{v}");
    let pq = |p: u32, q: u32| -> BTreeMap<String, String> {
        [("p".to_string(), val(p)), ("q".to_string(), val(q))]
            .into_iter()
            .collect()
    };
    // Observed (p, q); `None` for p with an `x` bit.
    let observed: [Option<(u32, u32)>; 5] =
        [Some((1, 2)), Some((3, 0)), Some((1, 0)), Some((3, 2)), None];
    // The allowed list of each step: none, two listed, capped, empty.
    let lists: [Option<AllowedOutputs>; 5] = [
        None,
        Some(AllowedOutputs {
            values: vec![pq(1, 2), pq(3, 0)],
            capped: false,
        }),
        Some(AllowedOutputs {
            values: vec![pq(1, 0), pq(1, 2)],
            capped: false,
        }),
        Some(AllowedOutputs {
            values: vec![pq(1, 2)],
            capped: true,
        }),
        Some(AllowedOutputs::default()),
    ];
    let expected = pq(1, 2);
    let mut tests = Vec::new();
    let mut want = BTreeMap::new();
    for (i, list) in lists.iter().enumerate() {
        for (j, o0) in observed.iter().enumerate() {
            for (k, o1) in observed.iter().enumerate() {
                let id = (i * 5 + j) * 5 + k;
                let frames: Vec<serde_json::Value> = [o0, o1]
                    .iter()
                    .map(|o| {
                        let (a, b, xa) = o.map_or((1, 2, 1), |(a, b)| (a, b, 0));
                        serde_json::json!({
                            "inputs": { "a": val(a), "b": val(b), "xa": format!("0ud1_{xa}") },
                            "nd": {}, "outputs": expected.clone()
                        })
                    })
                    .collect();
                let allowed: Vec<&AllowedOutputs> = list.iter().chain(list.iter()).collect();
                let v = serde_json::json!({
                    "model": m.name, "model_hash": m.hash, "operator": "ror",
                    "location": "judged.v:1:1", "original": "a", "replacement": "b",
                    "inputs": ["a", "b", "xa"], "outputs": ["p", "q"], "nd": {},
                    "kill_class": "definite", "note": "", "kill": "", "mutant": id,
                    "depth": 1, "frames": frames, "mutant_outputs": {},
                    "requires_nd_control": false, "allowed": allowed
                });
                tests.push(serde_json::from_value::<TestFile>(v).expect("a test file"));
                // The runner's rule, step by step; an `x` bit is a value no list holds.
                let mut verdict = "PASS".to_string();
                for (step, o) in [o0, o1].iter().enumerate() {
                    let seen = o.map_or_else(
                        || {
                            [
                                ("p".to_string(), "x".to_string()),
                                ("q".to_string(), val(2)),
                            ]
                            .into_iter()
                            .collect()
                        },
                        |(p, q)| pq(p, q),
                    );
                    let only = AllowedOutputs {
                        values: vec![expected.clone()],
                        capped: false,
                    };
                    match judge(list.as_ref().unwrap_or(&only), &expected, &seen) {
                        StepVerdict::Pass => continue,
                        StepVerdict::Inconclusive => verdict = format!("INCONCLUSIVE step {step}"),
                        StepVerdict::Fail => verdict = format!("FAIL step {step}"),
                    }
                    break;
                }
                want.insert(id, verdict);
            }
        }
    }
    let tb = verilog_testbench(&m, &tests, "judged", None).expect("testbench");
    let tb_path = dir.path().join("tb.v");
    std::fs::write(&tb_path, &tb).expect("write");
    let exe = dir.path().join("sim");
    let compiled = std::process::Command::new("iverilog")
        .args(["-g2012", "-o"])
        .arg(&exe)
        .arg(&tb_path)
        .arg(&design)
        .output()
        .expect("iverilog runs");
    assert!(
        compiled.status.success(),
        "{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    let run = std::process::Command::new("vvp")
        .arg("-n")
        .arg(&exe)
        .output()
        .expect("vvp runs");
    let out = String::from_utf8_lossy(&run.stdout);
    let mut got = BTreeMap::new();
    for line in out.lines() {
        let mut words = line.split_whitespace();
        let (Some(v), Some(t)) = (words.next(), words.next()) else {
            continue;
        };
        let Some(id) = t
            .strip_prefix("mutant-")
            .and_then(|n| n.parse::<usize>().ok())
        else {
            continue;
        };
        let verdict = match (v, words.next(), words.next()) {
            ("PASS", None, _) => "PASS".to_string(),
            ("FAIL" | "INCONCLUSIVE", Some("step"), Some(k)) => {
                format!("{v} step {}", k.trim_end_matches(':'))
            }
            _ => panic!("unexpected line `{line}`"),
        };
        assert!(
            got.insert(id, verdict).is_none(),
            "two lines for mutant-{id}"
        );
    }
    assert_eq!(got, want, "{out}");
    // Every verdict occurs, and the exit status says whether a test failed.
    for v in [
        "PASS",
        "FAIL step 0",
        "FAIL step 1",
        "INCONCLUSIVE step 0",
        "INCONCLUSIVE step 1",
    ] {
        assert!(want.values().any(|w| w == v), "{v}");
    }
    let fails = want.values().filter(|w| w.starts_with("FAIL")).count();
    let incs = want
        .values()
        .filter(|w| w.starts_with("INCONCLUSIVE"))
        .count();
    assert!(out.contains(&format!(
        "{} of {} tests passed, {fails} failed, {incs} inconclusive",
        want.len() - fails - incs,
        want.len()
    )));
    assert!(!run.status.success());
}

#[test]
fn only_definite_tests_after_the_reset_are_exported() {
    let (m, _dir) = model(&FrontendOptions::default());
    assert_eq!(m.convention.reset_cycles(), 1);
    let frames = [(1, 3, 0), (0, 4, 0), (0, 5, 3)];
    for (class, exported) in [
        ("definite", true),
        ("potential", false),
        ("controlled", false),
    ] {
        let t = test(&m, 0, class, &frames);
        assert_eq!(not_exported(&m, &t).is_none(), exported, "{class}");
    }
    let short = test(&m, 0, "definite", &frames[..1]);
    assert!(not_exported(&m, &short).is_some_and(|w| w.contains("reset is held")));
}

#[test]
fn the_testbench_drives_compares_and_clocks_each_test() {
    let (m, _dir) = model(&FrontendOptions {
        init: InitOption::Zero,
        ..FrontendOptions::default()
    });
    let tests = [
        test(&m, 7, "definite", &[(1, 3, 0), (0, 4, 0), (0, 5, 3)]),
        test(&m, 9, "controlled", &[(1, 3, 0), (0, 4, 0)]),
    ];
    assert_eq!(guess_clock(&m, "top").expect("clock"), Some("clk".into()));
    let tb = verilog_testbench(&m, &tests, "top", Some("clk")).expect("testbench");
    assert!(
        tb.contains("top t0_dut(.clk(t0_clk), .rst(t0_in0), .a(t0_in1));"),
        "{tb}"
    );
    assert!(
        !tb.contains("t1_dut"),
        "the controlled test is not exported"
    );
    assert!(tb.contains("//   mutant-9: kill class controlled"), "{tb}");
    // Zero-initialised registers are set at the start of the test.
    for r in ["q", "r"] {
        assert!(tb.contains(&format!("t0_dut.{r} = 4'h0;")), "{tb}");
    }
    // Frame 0 (reset held) is not compared; frames 1 and 2 are, before their clock edge.
    let compares: Vec<&str> = tb
        .lines()
        .filter(|l| l.trim_start().starts_with("if (bad == 0 &&"))
        .collect();
    assert_eq!(compares.len(), 2, "{tb}");
    assert!(compares[0].contains("!(t0_dut.q === 4'h0)"), "{tb}");
    assert!(tb.contains("FAIL mutant-7 step 1: q=%h, expected q=4'h0\", t0_dut.q);"));
    assert!(compares[1].contains("t0_dut.q === 4'h3"));
    let order: Vec<usize> = ["t0_in1 = 4'h5;", "t0_dut.q === 4'h3", "t0_clk = 1'b1;"]
        .iter()
        .map(|s| tb.rfind(s).expect(s))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    // One line per test and the counts; exit status 1 only when a test fails.
    assert!(tb.contains("$display(\"PASS mutant-7\");"));
    assert!(tb.contains("%0d of %0d tests passed, %0d failed, %0d inconclusive"));
    assert!(tb.contains("if (failed != 0) $fatal(1,"));
}

#[test]
fn tests_of_another_model_or_convention_are_refused() {
    let (m, _dir) = model(&FrontendOptions::default());
    let mut t = test(&m, 3, "definite", &[(1, 0, 0), (0, 1, 0)]);
    t.model_hash = "0000".into();
    let e = verilog_testbench(&m, &[t.clone()], "top", Some("clk")).unwrap_err();
    assert!(
        matches!(e, TestbenchError::ForeignTest { mutant: 3, .. }),
        "{e}"
    );
    t.model_hash = m.hash.clone();
    t.initial_state = "free: power-up values are nondeterministic".into();
    let e = verilog_testbench(&m, &[t.clone()], "top", Some("clk")).unwrap_err();
    assert!(matches!(e, TestbenchError::Convention { .. }), "{e}");
    t.initial_state = m.initial_state();
    assert!(verilog_testbench(&m, &[t], "top", Some("clk")).is_ok());
    let smv = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../models/smv/counter.smv"
    ));
    let (s, _) = Model::load(&[smv], &FrontendOptions::default()).expect("loads");
    let e = verilog_testbench(&s, &[], "main", None).unwrap_err();
    assert!(matches!(e, TestbenchError::NotVerilog { .. }), "{e}");
}

#[test]
fn test_folders_are_read_by_mutant_id() {
    let (m, dir) = model(&FrontendOptions::default());
    let tests = dir.path().join("run/tests");
    std::fs::create_dir_all(&tests).expect("folder");
    for id in [10, 2] {
        let t = test(&m, id, "definite", &[(1, 0, 0)]);
        let text = serde_json::to_string(&t).expect("json");
        std::fs::write(tests.join(format!("mutant-{id}.json")), text).expect("write");
    }
    std::fs::write(tests.join("notes.txt"), "not a test").expect("write");
    let read = read_tests(&dir.path().join("run")).expect("reads");
    let ids: Vec<usize> = read.iter().map(|t| t.test.mutant).collect();
    assert_eq!(ids, [2, 10]);
    std::fs::write(tests.join("mutant-3.json"), "{").expect("write");
    let e = read_tests(&tests).unwrap_err();
    assert!(
        e.to_string().contains("mutant-3.json: not a test file"),
        "{e}"
    );
}
