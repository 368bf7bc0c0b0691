//! Semantics of clocked logic, latches, initial values and VIS idioms, checked by simulating
//! the IR. Expected traces are worked out by hand from the Verilog semantics.

use super::{f, ok, ok_with, run_with, trace, Stim};
use crate::VerilogOptions;

#[test]
fn nonblocking_assignments_read_old_values() {
    // A two-register swap: with `<=` the registers exchange values every tick.
    let sys = ok(
        "module m(input clk, output reg [3:0] a, output reg [3:0] b);
        initial begin a = 1; b = 2; end
        always @(posedge clk) begin a <= b; b <= a; end
        endmodule",
    );
    let fr = vec![f(&[]); 4];
    assert_eq!(trace(&sys, &fr, "a"), vec![1, 2, 1, 2]);
    assert_eq!(trace(&sys, &fr, "b"), vec![2, 1, 2, 1]);
}

#[test]
fn blocking_assignments_are_sequential() {
    // With `=` the second assignment reads the new value: both end up with b's old value.
    let sys = ok(
        "module m(input clk, output reg [3:0] a, output reg [3:0] b);
        initial begin a = 1; b = 2; end
        always @(posedge clk) begin a = b; b = a; end
        endmodule",
    );
    let fr = vec![f(&[]); 3];
    assert_eq!(trace(&sys, &fr, "a"), vec![1, 2, 2]);
    assert_eq!(trace(&sys, &fr, "b"), vec![2, 2, 2]);
}

#[test]
fn a_counter_with_enable_and_synchronous_reset() {
    let sys = ok(
        "module m(input clk, input en, input rst, output reg [1:0] c);
        initial c = 0;
        always @(posedge clk)
          if (rst) c <= 0; else if (en) c <= c + 1'b1;
        endmodule",
    );
    let fr = vec![
        f(&[("en", 1)]),
        f(&[("en", 1)]),
        f(&[("en", 0)]),
        f(&[("en", 1)]),
        f(&[("en", 1)]),
        f(&[("rst", 1), ("en", 1)]),
        f(&[]),
    ];
    // 2-bit wrap-around after 3.
    assert_eq!(trace(&sys, &fr, "c"), vec![0, 1, 2, 2, 3, 0, 0]);
}

#[test]
fn asynchronous_reset_shows_in_the_same_frame() {
    // async2sync: while rst_n is low the register reads 0 at once, and holds 0 next.
    let sys = ok(
        "module m(input clk, input rst_n, input [3:0] d, output reg [3:0] q);
        always @(posedge clk or negedge rst_n)
          if (!rst_n) q <= 4'd0; else q <= d;
        endmodule",
    );
    let fr = vec![
        f(&[("rst_n", 1), ("d", 5)]),
        f(&[("rst_n", 1), ("d", 7)]),
        f(&[("rst_n", 0), ("d", 9)]),
        f(&[("rst_n", 1), ("d", 3)]),
        f(&[("rst_n", 1), ("d", 1)]),
    ];
    // Frame 0 reads the uninitialised register (0 here); frame 2 reads the reset value
    // although the register holds 7; frame 3 reads the 0 stored by the reset.
    assert_eq!(
        run_with(&sys, &fr, &[("q", 12)])
            .iter()
            .map(|o| o["q"])
            .collect::<Vec<_>>(),
        vec![12, 5, 0, 0, 3]
    );
}

#[test]
fn asynchronous_load_of_a_value() {
    let sys = ok(
        "module m(input clk, input al, input [1:0] ad, input [1:0] d, output reg [1:0] q);
        initial q = 0;
        always @(posedge clk or posedge al)
          if (al) q <= ad; else q <= d;
        endmodule",
    );
    let fr = vec![
        f(&[("d", 1)]),
        f(&[("al", 1), ("ad", 3), ("d", 2)]),
        f(&[("d", 2)]),
    ];
    assert_eq!(trace(&sys, &fr, "q"), vec![0, 3, 3]);
}

#[test]
fn latches_are_transparent_and_hold() {
    let sys = ok("module m(input en, input [1:0] d, output reg [1:0] q);
        always @* if (en) q = d;
        endmodule");
    let fr = vec![
        f(&[("en", 1), ("d", 2)]),
        f(&[("en", 0), ("d", 1)]),
        f(&[("en", 0), ("d", 3)]),
        f(&[("en", 1), ("d", 1)]),
    ];
    assert_eq!(trace(&sys, &fr, "q"), vec![2, 2, 2, 1]);
    assert!(
        sys.var_by_name("q").is_some(),
        "the latch is a state variable"
    );
}

#[test]
fn complete_combinational_blocks_infer_no_latch() {
    let sys = ok("module m(input [1:0] s, input [3:0] a, output reg [3:0] y);
        always @(s or a) begin
          y = 4'd0;
          case (s)
            2'd0: y = a;
            2'd1: y = ~a;
            default: ;
          endcase
        end
        endmodule");
    assert!(sys.vars.iter().all(|v| v.role == hypermut_ir::Role::Input));
    let fr = vec![
        f(&[("s", 0), ("a", 5)]),
        f(&[("s", 1), ("a", 5)]),
        f(&[("s", 3), ("a", 5)]),
    ];
    assert_eq!(trace(&sys, &fr, "y"), vec![5, 10, 0]);
}

#[test]
fn cases_covering_every_value_infer_no_latch() {
    // Without `default`, but the labels (one casez pattern among them) cover all 2-bit
    // values: no path leaves `y` unassigned. One value short, a latch is inferred.
    let full = "module m(input [1:0] s, input [3:0] a, output reg [3:0] y);
        always @* casez (s)
          2'b00: y = a;
          2'b01: y = ~a;
          2'b1?: y = a + 1;
        endcase
        endmodule";
    let sys = ok(full);
    assert!(sys.vars.iter().all(|v| v.role == hypermut_ir::Role::Input));
    let fr = vec![
        f(&[("s", 0), ("a", 5)]),
        f(&[("s", 1), ("a", 5)]),
        f(&[("s", 2), ("a", 5)]),
        f(&[("s", 3), ("a", 5)]),
    ];
    assert_eq!(trace(&sys, &fr, "y"), vec![5, 10, 6, 6]);
    let partial = full.replace("2'b1?", "2'b10");
    let l = super::load(&partial).unwrap();
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.message.contains("latch inferred for `y`")),
        "{:?}",
        l.diagnostics
    );
    // Unsized (32-bit) labels 0..3 cover a 2-bit selector; so do -2..1 a signed one.
    for (sel, labels) in [
        ("s", ["0", "1", "2", "3"]),
        ("$signed(s)", ["-2", "-1", "0", "1"]),
    ] {
        let t = format!(
            "module m(input [1:0] s, input [3:0] a, output reg [3:0] y);
             always @* case ({sel}) {}: y = a; {}: y = ~a; {}: y = 0; {}: y = 1; endcase
             endmodule",
            labels[0], labels[1], labels[2], labels[3]
        );
        let l = super::load(&t).unwrap();
        assert!(
            l.diagnostics.iter().all(|d| !d.message.contains("latch")),
            "{sel}: {:?}",
            l.diagnostics
        );
    }
    // An `x` bit in a plain `case` label matches nothing in simulation: it covers nothing.
    let l = super::load(&full.replace("casez", "case").replace("2'b1?", "2'b1x")).unwrap();
    assert!(l
        .diagnostics
        .iter()
        .any(|d| d.message.contains("latch inferred")));
}

#[test]
fn memories_write_and_read_with_out_of_range_zero() {
    let sys = ok(
        "module m(input clk, input we, input [1:0] wa, input [1:0] ra, input [7:0] d,
                 output [7:0] q);
        reg [7:0] mem [0:2];
        integer i;
        initial for (i = 0; i < 3; i = i + 1) mem[i] = 8'd10 + i;
        always @(posedge clk) if (we) mem[wa] <= d;
        assign q = mem[ra];
        endmodule",
    );
    let fr = vec![
        f(&[("ra", 1)]),
        f(&[("ra", 3), ("we", 1), ("wa", 3), ("d", 99)]),
        f(&[("ra", 2), ("we", 1), ("wa", 2), ("d", 42)]),
        f(&[("ra", 2)]),
        f(&[("ra", 0)]),
    ];
    // Address 3 is outside [0:2]: the write is dropped and the read gives 0.
    assert_eq!(trace(&sys, &fr, "q"), vec![11, 0, 12, 42, 10]);
}

#[test]
fn initial_values_become_resets_and_missing_ones_stay_free() {
    let sys = ok("module m(input clk, output reg a, output reg b);
        initial a = 1'b1;
        always @(posedge clk) begin a <= a; b <= b; end
        endmodule");
    let a = sys.var_by_name("a").unwrap();
    let b = sys.var_by_name("b").unwrap();
    assert!(sys.var(a).init.is_some());
    assert!(sys.var(b).init.is_none(), "b is uninitialised");
    assert_eq!(run_with(&sys, &[f(&[])], &[("b", 1)])[0]["b"], 1);
}

#[test]
fn non_constant_initial_values_read_frame_zero_inputs() {
    // huffman style: initial value from a function of an input.
    let sys = ok("module m(input clk, input [1:0] addr, output reg [3:0] c);
        function [3:0] rom; input [1:0] a; case (a) 0: rom = 4'd7; 1: rom = 4'd3; default: rom = 4'd1; endcase endfunction
        initial c = rom(addr);
        always @(posedge clk) c <= c + 1;
        endmodule");
    let fr = vec![f(&[("addr", 1)]), f(&[("addr", 0)]), f(&[])];
    assert_eq!(trace(&sys, &fr, "c"), vec![3, 4, 5]);
    let fr = vec![f(&[("addr", 3)]), f(&[])];
    assert_eq!(trace(&sys, &fr, "c"), vec![1, 2]);
}

#[test]
fn nd_is_a_choice_each_frame_and_in_initial() {
    let sys = ok("module m(input clk, output [3:0] o, output reg [3:0] r);
        assign o = $ND(4'd1, 4'd4, 4'd9);
        initial r = $ND(2, 3);
        always @(posedge clk) r <= r;
        endmodule");
    assert_eq!(sys.choices.len(), 2);
    let site_of = |arity| sys.choices.iter().position(|c| c.arity == arity).unwrap() as u32;
    let (o_site, r_site) = (site_of(3), site_of(2));
    let fr = vec![
        Stim {
            inputs: vec![],
            choices: vec![(o_site, 2), (r_site, 1)],
        },
        Stim {
            inputs: vec![],
            choices: vec![(o_site, 0), (r_site, 0)],
        },
    ];
    let out = super::run(&sys, &fr);
    assert_eq!((out[0]["o"], out[1]["o"]), (9, 1));
    // The initial choice is made in frame 0 only.
    assert_eq!((out[0]["r"], out[1]["r"]), (3, 3));
}

#[test]
fn vis_enum_typedefs_and_nd_functions() {
    let sys = ok("typedef enum {IDLE, BUSY, DONE} st;
        module m(clk, s, o);
          input clk; output [1:0] s; output o;
          st reg state;
          initial state = IDLE;
          always @(posedge clk)
            case (state) IDLE: state = BUSY; BUSY: state = DONE; default: state = IDLE; endcase
          assign s = state;
          assign o = ND_2(0, 1);
        endmodule");
    assert_eq!(trace(&sys, &vec![f(&[]); 4], "s"), vec![0, 1, 2, 0]);
    assert_eq!(sys.choices.len(), 1);
}

#[test]
fn x_literals_are_zero_or_inputs() {
    let text = "module m(input [3:0] a, output [3:0] y); assign y = a | 4'b1x0x; endmodule";
    let sys = ok(text);
    assert_eq!(trace(&sys, &[f(&[("a", 0)])], "y"), vec![0b1000]);
    let sys = ok_with(
        text,
        &VerilogOptions {
            x_as_input: true,
            ..VerilogOptions::default()
        },
    );
    let x = sys
        .vars
        .iter()
        .find(|v| v.name.starts_with("x."))
        .expect("an input for the x bits");
    let xname: &'static str = Box::leak(x.name.clone().into_boxed_str());
    assert_eq!(trace(&sys, &[f(&[(xname, 0b1111)])], "y"), vec![0b1101]);
}

#[test]
fn observe_state_exposes_registers_and_memory_words() {
    let text = "module m(input clk, input d);
        reg q; reg [1:0] mem [0:1];
        always @(posedge clk) begin q <= d; mem[0] <= {q, d}; end
        endmodule";
    let plain = ok(text);
    assert!(plain.outputs.is_empty());
    let sys = ok_with(
        text,
        &VerilogOptions {
            observe_state: true,
            ..VerilogOptions::default()
        },
    );
    // mem[1] is never written: it is no register (it reads 0), so it is not exposed.
    let names: Vec<&str> = sys.outputs.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, vec!["q", "mem[0]"]);
    let fr = vec![f(&[("d", 1)]), f(&[("d", 0)]), f(&[])];
    assert_eq!(trace(&sys, &fr, "mem[0]"), vec![0, 1, 2]);
}

#[test]
fn hierarchy_is_flattened_with_parameters() {
    let sys = ok(
        "module cnt #(parameter W = 2, parameter STEP = 1) (input clk, output reg [W-1:0] c);
          initial c = 0;
          always @(posedge clk) c <= c + STEP;
        endmodule
        module top(input clk, output [2:0] x, output [3:0] y);
          cnt #(.W(3), .STEP(3)) u1 (.clk(clk), .c(x));
          cnt #(4) u2 (clk, y);
        endmodule",
    );
    assert!(sys.var_by_name("u1.c").is_some());
    let fr = vec![f(&[]); 4];
    assert_eq!(trace(&sys, &fr, "x"), vec![0, 3, 6, 1]);
    assert_eq!(trace(&sys, &fr, "y"), vec![0, 1, 2, 3]);
}

#[test]
fn generate_loops_and_bit_slices_of_one_register() {
    // Each bit of q is its own clocked block with its own asynchronous clear.
    let sys = ok(
        "module m(input clk, input [2:0] clr, input [2:0] d, output reg [2:0] q);
        genvar i;
        generate for (i = 0; i < 3; i = i + 1) begin : b
          always @(posedge clk, posedge clr[i]) if (clr[i]) q[i] <= 0; else q[i] <= d[i];
        end endgenerate
        endmodule",
    );
    let fr = vec![f(&[("d", 7)]), f(&[("d", 7), ("clr", 2)]), f(&[("d", 0)])];
    assert_eq!(trace(&sys, &fr, "q"), vec![0, 5, 5]);
}

#[test]
fn tasks_write_globals_and_outputs() {
    let sys = ok(
        "module m(input clk, input [3:0] a, output reg [3:0] s, output reg [3:0] t);
        initial begin s = 0; t = 0; end
        task add; input [3:0] x; output [3:0] y; begin s = s + x; y = s; end endtask
        always @(posedge clk) add(a, t);
        endmodule",
    );
    let fr = vec![f(&[("a", 2)]), f(&[("a", 3)]), f(&[])];
    assert_eq!(trace(&sys, &fr, "s"), vec![0, 2, 5]);
    assert_eq!(trace(&sys, &fr, "t"), vec![0, 2, 5]);
}

#[test]
fn several_clocks_give_a_warning() {
    let l = super::load(
        "module m(input c1, input c2, output reg a, output reg b);
         always @(posedge c1) a <= ~a;
         always @(negedge c2) b <= ~b;
         endmodule",
    )
    .unwrap();
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.message.contains("several clocks")),
        "{:?}",
        l.diagnostics
    );
}

#[test]
fn latch_loops_are_broken_at_a_latch() {
    // Two-phase latches feeding each other: the loop reads one latch's stored value.
    let l = super::load(
        "module m(input p1, input p2, input d, output o);
         reg a, b;
         always @(p1 or b or d) if (p1) a = b ^ d;
         always @(p2 or a) if (p2) b = a;
         assign o = b;
         endmodule",
    )
    .unwrap();
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.message.contains("broken at its latch")),
        "{:?}",
        l.diagnostics
    );
}

#[test]
fn loops_are_broken_only_at_real_latches() {
    // The loop runs through a latch (`p`, held when `!e`) and a complete combinational block
    // (`q`): it must be broken at `p`, whatever block the loop search met first.
    let l = super::load(
        "module m(input a, input e, output y);
         reg p, q;
         always @* if (e) p = q | a;
         always @* q = p & a;
         assign y = q;
         endmodule",
    )
    .unwrap();
    let broken: Vec<&hypermut_ir::Diagnostic> = l
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("broken at its latch"))
        .collect();
    assert_eq!(broken.len(), 1, "{:?}", l.diagnostics);
    assert!(broken[0].message.contains("`p`"), "{broken:?}");
    // `p` is the only state, and the loop reads its stored value (0 at first): frame 0
    // gives y = 0 & a = 0 while `p` latches q | a = 1; frames 1 and 2 hold `p` (e = 0), so
    // y = 1 & a follows a.
    let st: Vec<&str> = l
        .system
        .vars
        .iter()
        .filter(|v| v.role == hypermut_ir::Role::State)
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(st, vec!["p"]);
    let frames = [
        super::f(&[("a", 1), ("e", 1)]),
        super::f(&[("a", 0), ("e", 0)]),
        super::f(&[("a", 1), ("e", 0)]),
    ];
    assert_eq!(super::trace(&l.system, &frames, "y"), vec![0, 0, 1]);
    // Without any latch in the loop it is an error at a block of the loop.
    let e = super::err(
        "module m(input a, output y);
         reg p, q;
         always @* p = q | a;
         always @* q = p & a;
         assign y = q;
         endmodule",
    );
    assert!(e.contains("combinational loop"), "{e}");
}

#[test]
fn blocking_and_nonblocking_writes_of_one_register_mix_per_path() {
    // Bpb's pattern: one branch schedules `<=`, the other assigns with `=`; the register ends
    // with whichever assignment took effect on the path taken (a pending `<=` wins).
    let sys = ok(
        "module m(input clk, input c, output reg [1:0] p, output reg [3:0] q);
        initial begin p = 2'b11; q = 0; end
        always @(posedge clk) begin
          if (c) p[1] <= 1; else p[1] = 0;
          p[0] <= c;
          if (c) begin q = 4'd1; q <= 4'd2; end else begin q <= 4'd3; q = 4'd4; end
        end
        endmodule",
    );
    let fr = vec![f(&[("c", 0)]), f(&[("c", 1)]), f(&[("c", 0)]), f(&[])];
    assert_eq!(trace(&sys, &fr, "p"), vec![3, 0, 3, 0]);
    assert_eq!(trace(&sys, &fr, "q"), vec![0, 3, 2, 3]);
}

#[test]
fn clocks_are_no_inputs_unless_read_as_data() {
    let sys = ok(
        "module sub(input c, input d, output reg q); always @(posedge c) q <= d; endmodule
        module top(input clk, input d, output q); sub u(.c(clk), .d(d), .q(q)); endmodule",
    );
    assert!(
        sys.var_by_name("clk").is_none(),
        "the clock is the tick, not an input"
    );
    assert!(sys.var_by_name("d").is_some());
    let l = super::load(
        "module top(input clk, input d, output reg q, output y);
         always @(posedge clk) q <= d;
         assign y = clk;
         endmodule",
    )
    .unwrap();
    assert!(l.system.var_by_name("clk").is_some());
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.message.contains("also read as data")),
        "{:?}",
        l.diagnostics
    );
    let sys = l.system;
    assert_eq!(
        trace(&sys, &[f(&[("clk", 1)]), f(&[("clk", 0)])], "y"),
        vec![1, 0]
    );
}
