//! Designs yosys cannot turn into AIGER (VIS idioms: non-constant `initial`, edges on
//! expressions, …) are cross-checked against iverilog by random simulation: hypermut's IR
//! interpreter and iverilog run the same random input sequence from the same initial state
//! (uninitialised registers are forced in the testbench to the values the interpreter
//! used), and every output and every register (`observe_state`) must agree in every frame.
//! A few designs yosys does accept are included as controls of the testbench generator.
//!
//! Timing per frame (`docs/formats.md` §12.4): apply the frame's inputs, wait, compare, then pulse
//! the clock. Designs using `$ND` cannot be simulated by iverilog; their VIS idioms are
//! covered by hand-written expectations in the front-end's unit tests.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use hypermut_ir::{Frame, Interpreter, Role, System, Type, Value, VarId};
use hypermut_testkit::{corpus, have, tools, XorShift64};
use hypermut_verilog::{load_verilog, VerilogOptions};

/// Designs checked: name, clock input, frames, outputs not compared.
///
/// The designs yosys rejects (scripts/yosys-equiv.sh) that are not checkable here have
/// hand-written expectations in `crates/verilog/src/tests/corpus.rs`: the `$ND` designs
/// (iverilog has no `$ND`: PPC60X_bus, cache_coherence-two_processor_bin),
/// `bakery/good_bakery` (vl2mv `loc reg` declarations, rejected by iverilog too),
/// `pj_icram/icram_1` (iverilog rejects its empty `always` block; its clock is also read
/// as data) and `IFetchControl1` (yosys crashes; its zero-delay clock generator
/// `always begin Clock = ~Clock; … end` never lets simulation time advance).
const CASES: &[(&str, &str, usize, &[&str])] = &[
    // `ci`/`ch` copy registers of a submodule with blocking assignments in another clocked
    // block: a simulation race (iverilog runs the submodule first); synthesis reads the old
    // values, as hypermut does.
    ("huff", "clk", 60, &["ci", "ch"]),
    ("huffenc", "clk", 60, &[]),
    ("ethernet/ethernet.define.112_vcegar", "clk", 60, &[]),
    ("i2c.mod", "wb_clk_i", 60, &[]),
    // yosys fails with an internal error on its memories.
    ("bakery/good_bakery.atom.nondet2.proc5", "clock", 60, &[]),
    ("Silver-fru", "sys_clk", 40, &[]),
    // yosys rejects its `$stop` outside `initial`.
    ("eth_cop", "wb_clk_i", 40, &[]),
    ("bakery/good_bakery.atom.nondet2.proc30", "clock", 30, &[]),
    // Controls that yosys accepts too.
    ("LED/system_ea", "clock", 40, &[]),
    ("itc99_b13/b13_1", "clock", 40, &[]),
    ("s27", "CK", 40, &[]),
    ("ham_7_4_enc1", "clk", 40, &[]),
    ("compiler_opt/cbf", "clk", 40, &[]),
    ("barrel16", "clk", 40, &[]),
];

/// One design to check.
struct Case<'a> {
    top: &'a str,
    clock: &'a str,
    frames: usize,
    skip: &'a [&'a str],
}

/// Random runs per design.
const RUNS: u64 = 3;

/// A random value of the bit-vector (or boolean) type `ty`, one draw per bit.
fn value(rng: &mut XorShift64, ty: Type) -> Value {
    let w = ty.bv_width().unwrap_or(1);
    let bits: Vec<bool> = (0..w).map(|_| rng.next_u64() >> 11 & 1 == 1).collect();
    Value::from_storage_bits(ty, &bits)
}

/// A Verilog literal for a bit-vector value.
fn lit(v: &Value) -> String {
    match v {
        Value::Bits { width, bits } => format!("{width}'h{}", bits.to_str_radix(16)),
        Value::Bool(b) => format!("1'b{}", *b as u8),
        other => format!("{other:?}"),
    }
}

/// The hierarchical reference of a state variable or observed slot in the testbench.
fn hier(name: &str) -> String {
    format!("dut.{name}")
}

/// Simulates `sys` on random inputs and returns the testbench and the number of checks.
///
/// At time 0 the design's own `initial` blocks run; at `#0` the testbench then sets every
/// register whose initial value is free or non-constant to the interpreter's initial value
/// (the non-constant initial values themselves are checked by the unit tests: their inputs
/// cannot be set before the design's `initial` blocks run), and the frame-0 inputs. The inputs
/// start at `x`, so that an asynchronous reset asserted in frame 0 has an edge, as in the
/// `async2sync` reading of hypermut.
fn testbench(sys: &System, c: &Case, seed: u64) -> (String, usize) {
    let (top, clock, frames, skip) = (c.top, c.clock, c.frames, c.skip);
    let mut rng = XorShift64::new(seed);
    let inputs: Vec<VarId> = sys.vars_with_role(Role::Input);
    let mut stim: Vec<Frame> = Vec::new();
    for _ in 0..frames {
        let mut fr = Frame::default();
        for v in &inputs {
            fr.inputs.insert(*v, value(&mut rng, sys.var(*v).ty));
        }
        stim.push(fr);
    }
    let mut free = HashMap::new();
    for (i, var) in sys.vars.iter().enumerate() {
        if var.role != Role::Input && var.init.is_none() {
            free.insert(VarId(i as u32), value(&mut rng, var.ty));
        }
    }
    let trace = Interpreter::new(sys)
        .run(&free, &stim)
        .unwrap_or_else(|e| panic!("interpreter: {e}"));
    let forced: Vec<(VarId, Value)> = sys
        .vars
        .iter()
        .enumerate()
        .filter(|(_, var)| {
            var.role != Role::Input
                && var.init.is_none_or(|e| {
                    !matches!(sys.exprs.node(e).kind, hypermut_ir::ExprKind::Const(_))
                })
        })
        .filter_map(|(i, _)| trace.states[0][i].clone().map(|val| (VarId(i as u32), val)))
        .collect();
    let mut tb = String::from("`timescale 1ns/1ns\nmodule tb;\n  integer fails = 0;\n");
    let _ = writeln!(tb, "  reg {clock} = 0;");
    for v in &inputs {
        let var = sys.var(*v);
        let w = var.ty.bv_width().unwrap_or(1);
        let _ = writeln!(tb, "  reg [{}:0] {};", w - 1, var.name);
    }
    let mut conns: Vec<String> = inputs
        .iter()
        .map(|v| format!(".{0}({0})", sys.var(*v).name))
        .collect();
    conns.push(format!(".{clock}({clock})"));
    let _ = writeln!(tb, "  {top} dut({});", conns.join(", "));
    tb.push_str("  initial begin\n    #0;\n");
    for (v, val) in &forced {
        let _ = writeln!(tb, "    {} = {};", hier(&sys.var(*v).name), lit(val));
    }
    let mut checks = 0;
    for (k, outs) in trace.outputs.iter().enumerate() {
        for v in &inputs {
            let _ = writeln!(
                tb,
                "    {} = {};",
                sys.var(*v).name,
                lit(&stim[k].inputs[v])
            );
        }
        // Long enough for `<= #1` style intra-assignment delays to settle.
        tb.push_str("    #10;\n");
        for (o, val) in sys.outputs.iter().zip(outs) {
            if skip.contains(&o.name.as_str()) {
                continue;
            }
            checks += 1;
            let _ = writeln!(
                tb,
                "    if ({0} !== {1}) begin $display(\"FAIL frame {k}: {2} = %h, expected {1}\", {0}); fails = fails + 1; end",
                hier(&o.name),
                lit(val),
                o.name
            );
        }
        let _ = writeln!(tb, "    {clock} = 1; #10; {clock} = 0;");
    }
    tb.push_str("    if (fails == 0) $display(\"PASS\");\n    $finish;\n  end\nendmodule\n");
    (tb, checks)
}

#[test]
fn yosys_rejected_designs_agree_with_iverilog() {
    let Some(dir) = corpus::dir("verilog") else {
        return;
    };
    if !have("iverilog") || !have("vvp") {
        return;
    }
    let mut failures = Vec::new();
    for (name, clock, frames, skip) in CASES {
        let Some(design) = corpus::verilog_design(name) else {
            panic!("{name} is not in the design list");
        };
        let top = design.top.clone();
        let paths = design.paths(&dir);
        let opts = VerilogOptions {
            top: Some(top.clone()),
            observe_state: true,
            ..VerilogOptions::default()
        };
        let sys = load_verilog(&paths, &opts)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .system;
        assert!(
            sys.choices.is_empty(),
            "{name}: iverilog cannot simulate $ND"
        );
        let tmp = tempfile::tempdir().expect("temp dir");
        let mut total = 0;
        for seed in 1..=RUNS {
            let case = Case {
                top: &top,
                clock,
                frames: *frames,
                skip,
            };
            let (tb, checks) = testbench(&sys, &case, seed);
            total += checks;
            let tb_file = tmp.path().join("tb.v");
            std::fs::write(&tb_file, tb).expect("testbench written");
            let exe = tmp.path().join("sim");
            // Verilog-2005; designs with SystemVerilog `assert property` items (VIS models)
            // are read as SystemVerilog with the assertions left out.
            let includes: Vec<&Path> = paths.first().and_then(|p| p.parent()).into_iter().collect();
            let files: Vec<&Path> = std::iter::once(tb_file.as_path())
                .chain(paths.iter().map(|p| p.as_path()))
                .collect();
            let mut out = (false, String::new());
            for flags in [&["-g2005"][..], &["-g2012", "-gno-assertions"][..]] {
                out = tools::iverilog(flags, "tb", &includes, &files, &exe);
                if out.0 {
                    break;
                }
            }
            if !out.0 {
                failures.push(format!(
                    "{name}: iverilog rejects the design or testbench:\n{}",
                    out.1
                ));
                break;
            }
            let (_, text) = tools::vvp(&exe);
            if !text.contains("PASS") {
                let first: Vec<&str> = text
                    .lines()
                    .filter(|l| l.contains("FAIL"))
                    .take(5)
                    .collect();
                failures.push(format!("{name} (seed {seed}):\n  {}", first.join("\n  ")));
                break;
            }
        }
        if failures.iter().all(|f| !f.starts_with(&format!("{name}:"))) {
            eprintln!("{name}: {total} output checks agree with iverilog");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
