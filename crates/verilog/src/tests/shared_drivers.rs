//! Signals with several drivers that the front-end accepts (docs/formats.md §11.7): a
//! variable several `always` blocks use only as a blocking temporary, and tri-state
//! assignments merged on one net; and the genuine conflicts it still rejects.

use crate::VerilogOptions;

use super::{err, f, load, ok, ok_with, run};

/// Whether a rendered error has a `file:line:col: error:` headline and a caret line.
fn has_caret(text: &str) -> bool {
    text.lines().next().is_some_and(|l| l.contains(": error: "))
        && text.lines().any(|l| {
            l.split('|')
                .nth(1)
                .is_some_and(|r| r.trim_start().starts_with('^'))
        })
}

/// Two clocked blocks and a combinational one, each with its own `for` loop over the shared
/// `integer i`.
const LOOPS: &str = "module m(input clk, input [7:0] a, input [7:0] b,
    output reg [7:0] x, output reg [7:0] y, output reg [3:0] z);
  integer i;
  always @(posedge clk)
    for (i = 0; i < 8; i = i + 1) x[i] <= a[7 - i];
  always @(posedge clk)
    for (i = 0; i < 8; i = i + 1) y[i] <= a[i] ^ b[i];
  always @* begin
    z = 0;
    for (i = 0; i < 8; i = i + 1) z = z + a[i];
  end
endmodule";

#[test]
fn a_loop_variable_shared_by_several_blocks_is_a_temporary() {
    let sys = ok(LOOPS);
    // No register, latch or input for `i`.
    assert!(
        sys.vars
            .iter()
            .all(|v| !v.name.contains('i') || v.name == "clk"),
        "{:?}",
        sys.vars.iter().map(|v| &v.name).collect::<Vec<_>>()
    );
    let stimuli = [(0x1Du64, 0xF0u64), (0xA5, 0x0F), (0xFF, 0xFF), (0x80, 0x01)];
    let frames: Vec<_> = stimuli
        .iter()
        .map(|(a, b)| f(&[("a", *a), ("b", *b)]))
        .collect();
    let outs = run(&sys, &frames);
    for (k, (a, b)) in stimuli.iter().enumerate() {
        // Independent computations: popcount now, bit reversal and xor one tick later.
        assert_eq!(outs[k]["z"], u64::from(a.count_ones()), "frame {k}");
        if k + 1 < stimuli.len() {
            let rev = u64::from((*a as u8).reverse_bits());
            assert_eq!(outs[k + 1]["x"], rev, "frame {}", k + 1);
            assert_eq!(outs[k + 1]["y"], a ^ b, "frame {}", k + 1);
        }
    }
}

#[test]
fn a_temporary_may_carry_different_values_in_each_block() {
    let sys = ok("module m(input clk, input [7:0] a, input [7:0] b,
        output reg [7:0] x, output reg [7:0] y);
      reg [7:0] t;
      always @(posedge clk) begin t = a + b; x <= t; end
      always @* begin
        if (a[0]) t = a - b; else t = b;
        y = t;
      end
    endmodule");
    let stimuli = [(5u64, 3u64), (200, 100), (4, 9)];
    let frames: Vec<_> = stimuli
        .iter()
        .map(|(a, b)| f(&[("a", *a), ("b", *b)]))
        .collect();
    let outs = run(&sys, &frames);
    for (k, (a, b)) in stimuli.iter().enumerate() {
        let y = if a & 1 == 1 {
            a.wrapping_sub(*b) & 0xFF
        } else {
            *b
        };
        assert_eq!(outs[k]["y"], y, "frame {k}");
        if k > 0 {
            let (pa, pb) = stimuli[k - 1];
            assert_eq!(outs[k]["x"], (pa + pb) & 0xFF, "frame {k}");
        }
    }
}

#[test]
fn a_temporary_also_used_by_initial_blocks_and_functions_is_accepted_quietly() {
    let l = load(
        "module m(input clk, input [1:0] s, output reg [3:0] x, output reg [3:0] y);
      integer i;
      reg [3:0] mem [0:3];
      function [3:0] twice; input [3:0] v; twice = v + i[3:0]; endfunction
      initial for (i = 0; i < 4; i = i + 1) mem[i] = i + 1;
      always @(posedge clk) begin i = 2; x <= twice(mem[s]); end
      always @(posedge clk) for (i = 0; i < 1; i = i + 1) y <= mem[s] + i;
    endmodule",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        l.diagnostics.iter().all(|d| !d.message.contains("`i`")),
        "{:?}",
        l.diagnostics
    );
    let outs = run(&l.system, &[f(&[("s", 3)]), f(&[("s", 1)]), f(&[])]);
    // mem[s] = s + 1; x = mem[s] + 2 (the function reads the block's `i`), y = mem[s].
    assert_eq!((outs[1]["x"], outs[1]["y"]), (6, 4));
    assert_eq!((outs[2]["x"], outs[2]["y"]), (4, 2));
}

#[test]
fn a_task_looping_over_the_shared_variable_is_walked_like_inlined_code() {
    // `rev` loops over the module's `i`; both blocks call it, one after reading nothing, the
    // other after using `i` itself.
    let sys = ok(
        "module m(input clk, input [3:0] a, output reg [3:0] x, output reg [3:0] y);
      integer i;
      task rev; input [3:0] v; output [3:0] r;
        for (i = 0; i < 4; i = i + 1) r[i] = v[3 - i];
      endtask
      always @(posedge clk) rev(a, x);
      always @(posedge clk) begin for (i = 0; i < 1; i = i + 1) y = a; rev(y, y); end
    endmodule",
    );
    let outs = run(&sys, &[f(&[("a", 0b0011)]), f(&[])]);
    assert_eq!((outs[1]["x"], outs[1]["y"]), (0b1100, 0b1100));
}

/// Genuine conflicts: (design, text the message must contain, `line:col` of the error).
const CONFLICTS: &[(&str, &str, &str)] = &[
    // A counter: read before it is assigned, so it carries state between activations.
    (
        "module m(input clk, output reg [3:0] q);\n  reg [3:0] c;\n  always @(posedge clk) begin c = c + 1; q <= c; end\n  always @(posedge clk) c = 0;\nendmodule",
        "reads it at t.v:3:35 before assigning it on every path",
        "4:25",
    ),
    // Assigned on one path only before the read.
    (
        "module m(input a, input s, output reg y, output reg z);\n  reg t;\n  always @* begin if (s) t = a; y = t; end\n  always @* begin t = ~a; z = t; end\nendmodule",
        "reads it at t.v:3:37",
        "4:19",
    ),
    // Assigned with `<=`: a register update.
    (
        "module m(input clk, input a, output reg y);\n  integer i;\n  always @(posedge clk) i <= 0;\n  always @(posedge clk) for (i = 0; i < 2; i = i + 1) y <= a;\nendmodule",
        "assigns it with `<=` at t.v:3:25",
        "4:30",
    ),
    // A loop body's assignment does not count after the loop.
    (
        "module m(input [1:0] a, output reg y, output reg z);\n  reg t;\n  integer i;\n  always @* begin for (i = 0; i < 2; i = i + 1) t = a[i]; y = t; end\n  always @* begin t = 0; z = t; end\nendmodule",
        "reads it at t.v:4:63",
        "5:19",
    ),
    // A function that reads the variable, called before the block assigns it.
    (
        "module m(input a, output reg y, output reg z);\n  reg t;\n  function g; input v; g = v ^ t; endfunction\n  always @* begin y = g(a); t = a; end\n  always @* begin t = ~a; z = t; end\nendmodule",
        "reads it at t.v:4:23",
        "5:19",
    ),
    // Two clocked blocks updating one register (the existing error, unchanged).
    (
        "module m(input clk, input a, output reg q);\n  always @(posedge clk) q <= a;\n  always @(posedge clk) q <= ~a;\nendmodule",
        "assigns it with `<=` at t.v:2:25",
        "3:25",
    ),
];

#[test]
fn genuine_conflicts_are_rejected_with_a_location_and_a_reason() {
    for (design, want, at) in CONFLICTS {
        let e = err(design);
        assert!(
            e.starts_with(&format!("t.v:{at}: error: ")),
            "want t.v:{at}:\n{e}"
        );
        assert!(e.contains("is driven by more than one process"), "{e}");
        assert!(e.contains(want), "want `{want}`:\n{e}");
        assert!(has_caret(&e), "{e}");
    }
}

#[test]
fn a_temporary_read_outside_its_blocks_is_rejected() {
    let e = err(
        "module m(input clk, input a, output reg x, output reg y, output z);
      integer i;
      always @(posedge clk) for (i = 0; i < 1; i = i + 1) x <= a;
      always @(posedge clk) for (i = 0; i < 1; i = i + 1) y <= ~a;
      assign z = i[0];
    endmodule",
    );
    assert!(e.starts_with("t.v:5:18: error: `i` is a temporary"), "{e}");
    assert!(e.contains("t.v:3:7, t.v:4:7"), "{e}");
    assert!(has_caret(&e), "{e}");
}

/// `(e1 ? d1 : 0) | (e2 ? d2 : 0)`, or 0: the merge of two tri-state drivers.
fn merged(e1: u64, d1: u64, e2: u64, d2: u64) -> u64 {
    (if e1 == 1 { d1 } else { 0 }) | (if e2 == 1 { d2 } else { 0 })
}

#[test]
fn a_single_tri_state_driver_drives_zero_when_disabled() {
    let sys = ok("module m(input oe, input [1:0] d, output [1:0] p);
      assign p = oe ? 2'bzz : d;
    endmodule");
    for oe in 0..2 {
        for d in 0..4 {
            let got = run(&sys, &[f(&[("oe", oe), ("d", d)])])[0]["p"];
            assert_eq!(got, if oe == 1 { 0 } else { d }, "oe={oe} d={d}");
        }
    }
}

#[test]
fn tri_state_drivers_of_one_output_are_merged() {
    // Written with the enable on either side and with an unsized and a replicated `z`.
    let sys = ok(
        "module m(input e1, input e2, input [1:0] d1, input [1:0] d2, output [1:0] p);
      assign p = e1 ? d1 : 'bz;
      assign p = !e2 ? {2{1'bz}} : d2;
    endmodule",
    );
    for code in 0..64u64 {
        let (e1, e2, d1, d2) = (code & 1, (code >> 1) & 1, (code >> 2) & 3, (code >> 4) & 3);
        let got = run(
            &sys,
            &[f(&[("e1", e1), ("e2", e2), ("d1", d1), ("d2", d2)])],
        )[0]["p"];
        assert_eq!(
            got,
            merged(e1, d1, e2, d2),
            "e1={e1} e2={e2} d1={d1} d2={d2}"
        );
    }
}

#[test]
fn tri_state_chains_and_internal_buses_are_merged() {
    // A bus read by a register: one driver is a chain of conditionals, the other drives the
    // same bits through a part select.
    let sys = ok(
        "module m(input clk, input [1:0] s, input [3:0] a, input [3:0] b, input [3:0] c,
        output reg [3:0] q);
      wire [3:0] bus;
      assign bus = s == 0 ? a : s == 1 ? b : 4'bzzzz;
      assign bus[3:0] = (s == 2) ? c : 4'bz;
      always @(posedge clk) q <= bus;
    endmodule",
    );
    let (a, b, c) = (0x3u64, 0x5u64, 0xCu64);
    let frames: Vec<_> = (0..4)
        .map(|s| f(&[("s", s), ("a", a), ("b", b), ("c", c)]))
        .chain([f(&[])])
        .collect();
    let outs = run(&sys, &frames);
    let want = [a, b, c, 0];
    for (s, w) in want.iter().enumerate() {
        assert_eq!(outs[s + 1]["q"], *w, "s={s}");
    }
}

#[test]
fn merged_drivers_with_x_as_input_read_the_first_drivers_z_input_when_none_is_enabled() {
    let opts = VerilogOptions {
        x_as_input: true,
        ..VerilogOptions::default()
    };
    let sys = ok_with(
        "module m(input e1, input e2, input d1, input d2, output p);
      assign p = e1 ? d1 : 1'bz;
      assign p = e2 ? d2 : 1'bz;
    endmodule",
        &opts,
    );
    let zs: Vec<&str> = sys
        .vars
        .iter()
        .map(|v| v.name.as_str())
        .filter(|n| n.starts_with("x."))
        .collect();
    assert_eq!(zs.len(), 2, "{zs:?}");
    // The first driver's `z` literal is at 2:28.
    let first = zs
        .iter()
        .copied()
        .find(|n| n.starts_with("x.t.v:2:28#"))
        .expect("input of the first driver's z");
    let first: &'static str = Box::leak(first.to_string().into_boxed_str());
    for code in 0..32u64 {
        let (e1, e2, d1, d2, z) = (
            code & 1,
            code >> 1 & 1,
            code >> 2 & 1,
            code >> 3 & 1,
            code >> 4,
        );
        let frame = f(&[("e1", e1), ("e2", e2), ("d1", d1), ("d2", d2), (first, z)]);
        let want = if e1 == 0 && e2 == 0 {
            z
        } else {
            merged(e1, d1, e2, d2)
        };
        assert_eq!(run(&sys, &[frame])[0]["p"], want, "code {code:05b}");
    }
}

#[test]
fn an_inout_port_reads_its_driver_or_the_outside() {
    let sys = ok("module m(input oe, input d, inout p, output q);
      assign p = oe ? d : 1'bz;
      assign q = ~p;
    endmodule");
    assert!(sys.vars.iter().any(|v| v.name == "p"), "p is an input");
    assert!(sys.outputs.iter().any(|o| o.name == "p"), "p is an output");
    for code in 0..8u64 {
        let (oe, d, ext) = (code & 1, code >> 1 & 1, code >> 2);
        let o = &run(&sys, &[f(&[("oe", oe), ("d", d), ("p", ext)])])[0];
        let seen = if oe == 1 { d } else { ext };
        assert_eq!(
            o["p"],
            if oe == 1 { d } else { 0 },
            "driven, code {code:03b}"
        );
        assert_eq!(o["q"], 1 - seen, "read, code {code:03b}");
    }
}

/// Drivers the merge does not accept: (design, message fragment, `line:col`).
const NOT_MERGED: &[(&str, &str, &str)] = &[
    (
        "module m(input e, input a, input b, output [1:0] p);\n  assign p = e ? {a, b} : 2'bz;\n  assign p[0] = e ? 1'bz : a;\nendmodule",
        "tri-state drivers of a net must drive the same bits",
        "3:10",
    ),
    (
        "module m(input e, input a, input b, output p);\n  assign p = e ? a : 1'bz;\n  assign p = b;\nendmodule",
        "only tri-state assignments",
        "3:10",
    ),
    // `1'bz` does not cover 2 bits: an ordinary driver (its upper bit is 0).
    (
        "module m(input e, input [1:0] a, output [1:0] p);\n  assign p = e ? a : 2'bz;\n  assign p = e ? 1'bz : a;\nendmodule",
        "only tri-state assignments",
        "3:10",
    ),
    (
        "module m(input e, input a, inout p);\n  assign p = a;\nendmodule",
        "inout port `p` is driven inside the module other than by tri-state assignments",
        "2:10",
    ),
];

#[test]
fn drivers_that_cannot_be_merged_are_rejected() {
    for (design, want, at) in NOT_MERGED {
        let e = err(design);
        assert!(
            e.starts_with(&format!("t.v:{at}: error: ")),
            "want t.v:{at}:\n{e}"
        );
        assert!(e.contains(want), "want `{want}`:\n{e}");
        assert!(has_caret(&e), "{e}");
    }
}
