use super::*;

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
fn outputs_the_original_leaves_open_are_not_compared() {
    let (m, _dir) = model(&FrontendOptions::default());
    let mut t = test(&m, 0, "definite", &[(1, 0, 0), (0, 0, 0)]);
    assert!(
        compared(&t, 0, "q") && compared(&t, 1, "q"),
        "no allowed list"
    );
    let one = |q: &str| [("q".to_string(), q.to_string())].into_iter().collect();
    t.allowed = vec![
        AllowedOutputs {
            values: vec![one("0ud4_0")],
            capped: false,
        },
        AllowedOutputs {
            values: vec![one("0ud4_0"), one("0ud4_1")],
            capped: false,
        },
        AllowedOutputs {
            values: vec![one("0ud4_0")],
            capped: true,
        },
    ];
    assert!(compared(&t, 0, "q"));
    assert!(!compared(&t, 1, "q"), "two allowed values");
    assert!(!compared(&t, 2, "q"), "a capped list may miss values");
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
    assert!(compares[0].contains("FAIL mutant-7 step 1: q=%h expected 4'h0"));
    assert!(compares[1].contains("t0_dut.q !== 4'h3"));
    let order: Vec<usize> = ["t0_in1 = 4'h5;", "t0_dut.q !== 4'h3", "t0_clk = 1'b1;"]
        .iter()
        .map(|s| tb.rfind(s).expect(s))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    assert!(tb.contains("$fatal(1,"));
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
