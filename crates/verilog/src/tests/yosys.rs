//! Shared temporaries and tri-state drivers (docs/formats.md §11.7) against yosys: hypermut's
//! AIGER (as `hypermut aiger` builds it: load, make choices controllable, bit-blast) and
//! yosys's are equivalent by ABC `cec` (combinational) or `dsec` (sequential), inputs and
//! outputs matched by name, uninitialised latches starting at 0 on both sides.
//!
//! The yosys flow is the structural one of `tests/verilog_yosys.rs` (docs/formats.md §12.2)
//! with the tri-state rule added right after `proc; flatten`: `tribuf -merge` turns each
//! `c ? … : 'bz` into a `$tribuf` and merges the ones driving one net (their data through a
//! `$pmux` whose default is `x`, the enable the OR of theirs), then `techmap` with
//! [`TRIBUF_ZERO`] makes a `$tribuf` drive 0 while disabled; `setundef -zero` makes the other
//! `x`/`z` bits 0 and the `$pmux` maps to the OR of the enabled inputs. Without `tribuf`
//! yosys sees two drivers of one net. yosys 0.23's `tribuf` only knows a single conditional
//! with a `z` arm, so the designs use no chains of conditionals (hypermut's chains are
//! checked by simulation in `shared_drivers`). A temporary shared with a combinational block
//! is left out too: yosys reads it back from its net there, which the other block also
//! drives (a conflict yosys `check` reports), where hypermut, like a simulator, gives each
//! block its own value. Skipped with a message when yosys or ABC is missing.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use hypermut_aig::blast::{blast, BlastOptions};
use hypermut_aig::{read_aiger, write_aiger, Aig, AigerFormat, Lit, Named, Node, Reset};
use hypermut_ir::{Role, VarId};
use hypermut_testkit::{abc, have, tools};

use crate::{parse_verilog, VerilogOptions};

/// A `$tribuf` that drives 0 while disabled (hypermut's `z` rule), as a yosys techmap file.
const TRIBUF_ZERO: &str = "(* techmap_celltype = \"$tribuf\" *)
module tribuf_zero (A, EN, Y);
  parameter WIDTH = 1;
  input [WIDTH-1:0] A;
  input EN;
  output [WIDTH-1:0] Y;
  assign Y = EN ? A : {WIDTH{1'b0}};
endmodule
";

/// The designs: (name = top module, source).
const DESIGNS: &[(&str, &str)] = &[
    (
        "tri_single",
        "module tri_single(input oe, input [1:0] d, output [1:0] p);
  assign p = oe ? 2'bzz : d;
endmodule
",
    ),
    (
        "tri_merged",
        "module tri_merged(input e1, input e2, input e3, input [2:0] d1, input [2:0] d2,
    input [2:0] d3, output [2:0] p);
  assign p = e1 ? d1 : 3'bzzz;
  assign p = !e2 ? 3'bzzz : d2;
  assign p = e3 ? d3 : {3{1'bz}};
endmodule
",
    ),
    (
        "tri_bus",
        "module tri_bus(input clk, input [1:0] s, input [3:0] a, input [3:0] b, output reg [3:0] q,
    output [3:0] t);
  wire [3:0] bus;
  assign bus = s == 0 ? a : 4'bzzzz;
  assign bus = s == 1 ? b : 4'bzzzz;
  assign bus = s[1] ? q : 4'bzzzz;
  assign t = s[0] ? 4'bzzzz : a ^ b;
  always @(posedge clk) q <= bus + 1;
endmodule
",
    ),
    (
        "shared_loops",
        "module shared_loops(input clk, input [7:0] a, input [7:0] b,
    output reg [7:0] x, output reg [7:0] y, output reg [3:0] z);
  integer i;
  reg [7:0] t;
  always @(posedge clk) begin
    t = a ^ y;
    for (i = 0; i < 8; i = i + 1) x[i] <= t[7 - i];
  end
  always @(posedge clk) begin
    t = x + b;
    for (i = 0; i < 8; i = i + 2) y[i +: 2] <= t[i +: 2] + i;
  end
  always @* begin
    z = 0;
    for (i = 0; i < 8; i = i + 1) z = z + (a[i] & b[i]);
  end
endmodule
",
    ),
];

/// A scratch folder for one check, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "hypermut-verilog-yosys-{}-{}-{name}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("scratch folder");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// yosys's AIGER of `top` in `src`, with `tristate` the tri-state passes of the flow.
fn yosys_aig(dir: &Path, top: &str, src: &Path, tristate: &str) -> Aig {
    let map = dir.join("tribuf_zero.v");
    std::fs::write(&map, TRIBUF_ZERO).expect("write techmap");
    let out = dir.join("yosys.aig");
    let tristate = tristate.replace("MAP", &map.display().to_string());
    let script = format!(
        "read_verilog {src}\nhierarchy -check -top {top}\nproc\nflatten\n{tristate}\nsetundef -zero\nopt -keepdc\nasync2sync\ntechmap\nopt -fast -keepdc\ndffunmap\nsetundef -undriven -zero\naigmap\nopt_clean\nwrite_aiger -I -O -symbols {out}\n",
        src = src.display(),
        out = out.display()
    );
    let sfile = dir.join("flow.ys");
    std::fs::write(&sfile, script).expect("write script");
    let (ok, text) = tools::yosys_file(&sfile);
    assert!(ok, "{top}: yosys failed:\n{text}");
    let bytes = std::fs::read(&out).expect("yosys's AIGER");
    read_aiger(&bytes, "yosys.aig").expect("read yosys's AIGER")
}

/// hypermut's AIGER of a design, as `hypermut aiger` builds it.
fn hypermut_aig(top: &str, text: &str) -> Aig {
    let opts = VerilogOptions {
        top: Some(top.to_string()),
        ..VerilogOptions::default()
    };
    let mut sys = parse_verilog(&[(&format!("{top}.v"), text)], &opts)
        .unwrap_or_else(|e| panic!("{e}"))
        .system;
    let keep: Vec<VarId> = (0..sys.vars.len() as u32)
        .map(VarId)
        .filter(|v| sys.var(*v).role != Role::Input && sys.var(*v).init.is_none())
        .collect();
    hypermut_mutate::make_controllable(&mut sys, &keep).expect("make_controllable");
    let mut aig = blast(&sys, &BlastOptions::default()).expect("blast").aig;
    aig.bad.clear();
    aig
}

/// `aig` with exactly the inputs `inputs` (in this order; missing ones are added unused) and
/// the outputs `outputs` (in this order), latches renamed and uninitialised ones reset to 0.
fn aligned(aig: &Aig, inputs: &[String], outputs: &[String]) -> Aig {
    let mut g = Aig::new();
    let mut map = vec![Lit::FALSE; aig.num_vars() as usize];
    for name in inputs {
        let l = g.add_input(name.clone());
        if let Some(i) = aig.inputs.iter().find(|i| &i.name == name) {
            map[i.lit.var() as usize] = l;
        }
    }
    for (k, l) in aig.latches.iter().enumerate() {
        let reset = match l.reset {
            Reset::Free => Reset::Zero,
            r => r,
        };
        map[l.lit.var() as usize] = g.add_latch(format!("latch{k}"), reset);
    }
    let tr = |m: &[Lit], l: Lit| m[l.var() as usize].xor(l.is_neg());
    for v in 0..aig.num_vars() {
        if let Node::And(a, b) = aig.node(v) {
            let (x, y) = (tr(&map, a), tr(&map, b));
            map[v as usize] = g.and(x, y);
        }
    }
    for l in &aig.latches {
        let n = tr(&map, l.next);
        g.set_next(map[l.lit.var() as usize], n);
    }
    for name in outputs {
        let o = aig
            .outputs
            .iter()
            .find(|o| &o.name == name)
            .unwrap_or_else(|| panic!("no output `{name}`"));
        g.outputs.push(Named {
            lit: tr(&map, o.lit),
            name: name.clone(),
        });
    }
    g
}

/// ABC's verdict on two circuits: `Ok(())` when equivalent, else its closing lines.
fn abc_equivalent(dir: &Path, ours: &Aig, theirs: &Aig) -> Result<(), String> {
    let mut inputs: Vec<String> = ours
        .inputs
        .iter()
        .chain(&theirs.inputs)
        .map(|i| i.name.clone())
        .collect();
    inputs.sort();
    inputs.dedup();
    let mut outputs: Vec<String> = ours.outputs.iter().map(|o| o.name.clone()).collect();
    outputs.sort();
    let mut theirs_out: Vec<String> = theirs.outputs.iter().map(|o| o.name.clone()).collect();
    theirs_out.sort();
    assert_eq!(outputs, theirs_out, "the two sides have different outputs");
    let (a, b) = (
        aligned(ours, &inputs, &outputs),
        aligned(theirs, &inputs, &outputs),
    );
    let (fa, fb) = (dir.join("a.aig"), dir.join("b.aig"));
    std::fs::write(&fa, write_aiger(&a, AigerFormat::Binary)).expect("write");
    std::fs::write(&fb, write_aiger(&b, AigerFormat::Binary)).expect("write");
    let cmd = if a.latches.is_empty() && b.latches.is_empty() {
        format!("cec {} {}", fa.display(), fb.display())
    } else {
        format!("dsec -T 120 {} {}", fa.display(), fb.display())
    };
    let text = abc::run_script_within(&cmd, 200)?;
    if text.contains("Networks are equivalent") {
        Ok(())
    } else {
        Err(text)
    }
}

/// Checks one design with the given tri-state passes of the yosys flow.
fn check(name: &str, text: &str, tristate: &str) -> Result<(), String> {
    let scratch = Scratch::new(name);
    let src = scratch.0.join(format!("{name}.v"));
    std::fs::write(&src, text).expect("write design");
    let theirs = yosys_aig(&scratch.0, name, &src, tristate);
    let ours = hypermut_aig(name, text);
    abc_equivalent(&scratch.0, &ours, &theirs)
}

/// The tri-state passes of the flow (`MAP` is the path of [`TRIBUF_ZERO`]).
const TRISTATE_PASSES: &str = "tribuf -merge\ntechmap -map MAP";

#[test]
fn shared_temporaries_and_tri_state_drivers_match_yosys() {
    if !(have("yosys") && have(abc::ABC)) {
        return;
    }
    for (name, text) in DESIGNS {
        if let Err(e) = check(name, text, TRISTATE_PASSES) {
            panic!("{name}: hypermut and yosys differ:\n{e}");
        }
    }
}

#[test]
fn the_comparison_tells_the_z_rule_from_yosys_formal_mode() {
    // With `tribuf -formal` a single driver's `z` is `x`, which `opt` resolves to the data
    // (`p = d`) where hypermut's rule gives `oe ? 0 : d`. The check must see the difference.
    if !(have("yosys") && have(abc::ABC)) {
        return;
    }
    let (name, text) = DESIGNS[0];
    let e = check(name, text, "tribuf -formal\nopt").expect_err("tribuf -formal differs");
    assert!(e.contains("NOT EQUIVALENT"), "{e}");
}
