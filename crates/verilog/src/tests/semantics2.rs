//! Expression semantics: widths, signedness, selects, operators, `case` matching, functions,
//! parameters and the preprocessor. Expected values follow IEEE 1364-2005 §5.

use super::{f, ok, trace};

/// The value of output `y` for one input frame.
fn y(text: &str, inputs: &[(&'static str, u64)]) -> u64 {
    let sys = ok(text);
    trace(&sys, &[f(inputs)], "y")[0]
}

#[test]
fn context_width_keeps_the_carry() {
    // The addition is evaluated at the width of the left-hand side (5 bits).
    let t = "module m(input [3:0] a, input [3:0] b, output [4:0] y); assign y = a + b; endmodule";
    assert_eq!(y(t, &[("a", 15), ("b", 1)]), 16);
    // In a concatenation operands are self-determined: the carry is lost.
    let t = "module m(input [3:0] a, input [3:0] b, output [4:0] y); assign y = {a + b}; endmodule";
    assert_eq!(y(t, &[("a", 15), ("b", 1)]), 0);
}

#[test]
fn signed_comparison_and_extension() {
    let t = "module m(input [3:0] a, output y); assign y = $signed(a) < 4'sd0; endmodule";
    assert_eq!(y(t, &[("a", 0b1000)]), 1);
    // Mixing signed and unsigned makes the comparison unsigned.
    let t = "module m(input [3:0] a, output y); assign y = $signed(a) < 4'd0; endmodule";
    assert_eq!(y(t, &[("a", 0b1000)]), 0);
    // Sign extension to the context width.
    let t = "module m(input [3:0] a, output [7:0] y); assign y = $signed(a); endmodule";
    assert_eq!(y(t, &[("a", 0b1110)]), 0b1111_1110);
    let t = "module m(input signed [3:0] a, input [3:0] b, output [7:0] y); assign y = a + b; endmodule";
    // Unsigned context: `a` is zero-extended.
    assert_eq!(y(t, &[("a", 0b1110), ("b", 1)]), 15);
}

#[test]
fn shifts_logical_and_arithmetic() {
    let t = "module m(input [7:0] a, input [2:0] s, output [7:0] y); assign y = a >> s; endmodule";
    assert_eq!(y(t, &[("a", 0x80), ("s", 3)]), 0x10);
    let t = "module m(input signed [7:0] a, input [2:0] s, output [7:0] y); assign y = a >>> s; endmodule";
    assert_eq!(y(t, &[("a", 0x80), ("s", 3)]), 0xf0);
    let t = "module m(input [7:0] a, input [3:0] s, output [7:0] y); assign y = a << s; endmodule";
    assert_eq!(y(t, &[("a", 3), ("s", 9)]), 0);
}

#[test]
fn reductions_and_logical_operators() {
    let t = "module m(input [3:0] a, output [3:0] y); assign y = {&a, |a, ^a, ~^a}; endmodule";
    assert_eq!(y(t, &[("a", 0b1011)]), 0b0110);
    assert_eq!(y(t, &[("a", 0b1111)]), 0b1101);
    let t = "module m(input [3:0] a, input [3:0] b, output [1:0] y); assign y = {a && b, !a || b == 0}; endmodule";
    assert_eq!(y(t, &[("a", 2), ("b", 0)]), 0b01);
}

#[test]
fn selects_constant_dynamic_and_out_of_range() {
    let t =
        "module m(input [7:0] a, input [2:0] i, output [3:0] y); assign y = a[i +: 4]; endmodule";
    assert_eq!(y(t, &[("a", 0b1011_0110), ("i", 2)]), 0b1101);
    // Bits above the vector read 0.
    assert_eq!(y(t, &[("a", 0b1011_0110), ("i", 6)]), 0b0010);
    let t = "module m(input [8:1] a, output [1:0] y); assign y = {a[8], a[1]}; endmodule";
    assert_eq!(y(t, &[("a", 0b1000_0000)]), 0b10);
    // An ascending range: a[0] is the most significant bit.
    let t = "module m(input [0:3] a, output [1:0] y); assign y = a[0:1]; endmodule";
    assert_eq!(y(t, &[("a", 0b1000)]), 0b10);
    let t = "module m(input [3:0] a, input [2:0] i, output y); assign y = a[i]; endmodule";
    assert_eq!(y(t, &[("a", 0b1111), ("i", 5)]), 0);
}

#[test]
fn part_select_writes_in_clocked_blocks() {
    let t = "module m(input clk, input [1:0] i, input d, output reg [3:0] q);
        initial q = 4'b0000;
        always @(posedge clk) q[i] <= d;
        endmodule";
    let sys = ok(t);
    let fr = vec![
        f(&[("i", 2), ("d", 1)]),
        f(&[("i", 0), ("d", 1)]),
        f(&[("i", 2), ("d", 0)]),
        f(&[]),
    ];
    assert_eq!(trace(&sys, &fr, "q"), vec![0, 0b0100, 0b0101, 0b0001]);
}

#[test]
fn casez_and_casex_wildcards() {
    let t = "module m(input [3:0] a, output reg [1:0] y);
        always @* casez (a) 4'b1???: y = 3; 4'b01??: y = 2; 4'b001z: y = 1; default: y = 0; endcase
        endmodule";
    assert_eq!(y(t, &[("a", 0b1010)]), 3);
    assert_eq!(y(t, &[("a", 0b0110)]), 2);
    assert_eq!(y(t, &[("a", 0b0011)]), 1);
    assert_eq!(y(t, &[("a", 0b0001)]), 0);
    let t = "module m(input [1:0] a, output reg y);
        always @* casex (a) 2'bx1: y = 1; default: y = 0; endcase
        endmodule";
    assert_eq!(y(t, &[("a", 0b11)]), 1);
    assert_eq!(y(t, &[("a", 0b10)]), 0);
}

#[test]
fn case_items_are_sized_to_the_widest() {
    // The selector is extended to 5 bits to compare with 5'd16.
    let t = "module m(input [3:0] a, output reg y);
        always @* case (a + 4'd1) 5'd16: y = 1; default: y = 0; endcase
        endmodule";
    assert_eq!(y(t, &[("a", 15)]), 1);
}

#[test]
fn functions_with_loops_and_locals() {
    let t = "module m(input [7:0] a, output [3:0] y);
        function [3:0] ones; input [7:0] v; integer k; begin
          ones = 0; for (k = 0; k < 8; k = k + 1) ones = ones + v[k]; end endfunction
        assign y = ones(a);
        endmodule";
    assert_eq!(y(t, &[("a", 0b1011_0111)]), 6);
}

#[test]
fn division_and_modulo_by_zero_follow_the_circuit() {
    // Unsigned x/0 is all ones and x%0 is x (what a restoring divider gives).
    let t = "module m(input [3:0] a, input [3:0] b, output [7:0] y); assign y = {a / b, a % b}; endmodule";
    assert_eq!(y(t, &[("a", 9), ("b", 0)]), 0xf9);
    assert_eq!(y(t, &[("a", 9), ("b", 4)]), 0x21);
}

#[test]
fn parameters_localparams_and_replication() {
    let t = "module m #(parameter N = 3) (input a, output [7:0] y);
        localparam M = N * 2;
        assign y = {{M{a}}, 2'b01};
        endmodule";
    assert_eq!(y(t, &[("a", 1)]), 0b1111_1101);
}

#[test]
fn macros_and_conditional_compilation() {
    let t = "`define W 4
        `define INC(x) ((x) + 1)
        `ifdef NOPE
        module m(input a, output y); assign y = 1; endmodule
        `else
        module m(input [`W-1:0] a, output [`W-1:0] y); assign y = `INC(a); endmodule
        `endif";
    assert_eq!(y(t, &[("a", 6)]), 7);
}

#[test]
fn includes_are_found_in_the_include_folders() {
    let dir = std::env::temp_dir().join(format!("hypermut-verilog-inc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("defs.vh"), "`define VAL 5\n").unwrap();
    let design = dir.join("top.v");
    std::fs::write(
        &design,
        "`include \"defs.vh\"\nmodule m(output [3:0] y); assign y = `VAL; endmodule\n",
    )
    .unwrap();
    let l = crate::load_verilog(&[design], &crate::VerilogOptions::default()).unwrap();
    assert_eq!(trace(&l.system, &[f(&[])], "y"), vec![5]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn readmemh_loads_initial_memory_contents_from_the_design_folder() {
    let dir = std::env::temp_dir().join(format!("hypermut-verilog-mem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Words go to 1, 2, then (after `@0`) to 0 and 1 again; word 3 is never loaded.
    std::fs::write(dir.join("rom.hex"), "// rom\n@1 0a 0b\n@0 ff\n0c\n").unwrap();
    std::fs::write(dir.join("rom.bin"), "1 10\n").unwrap();
    let design = dir.join("top.v");
    std::fs::write(
        &design,
        "module m(input [1:0] a, output [7:0] y, output [1:0] z);
           reg [7:0] rom [0:3];
           reg [1:0] small [0:3];
           initial $readmemh(\"rom.hex\", rom);
           initial $readmemb(\"rom.bin\", small, 3, 2);
           assign y = rom[a];
           assign z = small[a];
         endmodule\n",
    )
    .unwrap();
    let l = crate::load_verilog(&[design], &crate::VerilogOptions::default()).unwrap();
    let frames: Vec<_> = (0..4).map(|a| f(&[("a", a)])).collect();
    assert_eq!(trace(&l.system, &frames, "y"), vec![0xff, 0x0c, 0x0b, 0]);
    // From address 3 down to 2.
    assert_eq!(trace(&l.system, &frames, "z"), vec![0, 0, 0b10, 0b01]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gate_primitives() {
    let t = "module m(input a, input b, input c, output y);
        wire n1, n2;
        nand g1 (n1, a, b);
        xor (n2, n1, c);
        not g3 (y, n2);
        endmodule";
    // y = ~((~(a & b)) ^ c)
    for (a, b, c) in [(0, 0, 0), (1, 1, 0), (1, 1, 1), (0, 1, 1)] {
        let expect = 1 ^ ((1 ^ (a & b)) ^ c);
        assert_eq!(y(t, &[("a", a), ("b", b), ("c", c)]), expect, "{a}{b}{c}");
    }
}

#[test]
fn bits_of_a_vector_driven_separately_are_not_a_loop() {
    let t = "module m(input a, output [2:0] y);
        wire [2:0] c;
        assign c[0] = a;
        assign c[1] = ~c[0];
        assign c[2] = c[1] & c[0];
        assign y = c;
        endmodule";
    assert_eq!(y(t, &[("a", 1)]), 0b001);
    assert_eq!(y(t, &[("a", 0)]), 0b010);
}

#[test]
fn assertions_become_properties() {
    let sys = ok("module m(input clk, input a, output reg q);
        always @(posedge clk) q <= a;
        assert property (q || !a);
        endmodule");
    assert_eq!(sys.properties.len(), 1);
}

#[test]
fn immediate_assertions_are_ignored_with_a_warning() {
    let l = super::load(
        "module m(input clk, input a, output reg q);
        always @(posedge clk) begin
          assert (a) else $error(\"a is low\");
          assume (a);
          q <= a;
        end
        endmodule",
    )
    .unwrap();
    assert!(l.system.properties.is_empty());
    let ignored = l
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("statement is ignored"))
        .count();
    assert_eq!(ignored, 2, "{:?}", l.diagnostics);
}

#[test]
fn tri_state_z_reads_as_zero_with_a_warning_but_casez_wildcards_do_not_warn() {
    let t = "module m(input a, input en, input [1:0] s, output y, output reg r);
        assign y = en ? a : 1'bz;
        always @* casez (s) 2'b1?: r = 1; 2'bz0: r = 0; default: r = a; endcase
        endmodule";
    let l = super::load(t).unwrap();
    let z: Vec<&hypermut_ir::Diagnostic> = l
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("tri-state"))
        .collect();
    assert_eq!(z.len(), 1, "{:?}", l.diagnostics);
    assert!(
        z[0].headline()
            .starts_with("t.v:2:29: warning: `z` bits read as 0"),
        "{z:?}"
    );
    let run = |en, s| super::run(&l.system, &[super::f(&[("a", 1), ("en", en), ("s", s)])]);
    assert_eq!(run(0, 0)[0]["y"], 0);
    assert_eq!(run(1, 0)[0]["y"], 1);
    // `2'bz0` matches 00 and 10 (but 1? comes first), `default` takes 01.
    assert_eq!(run(0, 0)[0]["r"], 0);
    assert_eq!(run(0, 0b10)[0]["r"], 1);
    assert_eq!(run(0, 0b01)[0]["r"], 1);
}

#[test]
fn default_nettype_controls_implicit_nets() {
    // `wire` (the default): an undeclared name on the left of an assign is a 1-bit net.
    let t = "module m(input a, output y); assign n = ~a; assign y = n; endmodule";
    assert_eq!(y(t, &[("a", 0)]), 1);
    // `none` forbids it, for the modules that follow, until `wire` again.
    let e = super::err(&format!("`default_nettype none\n{t}"));
    assert!(
        e.starts_with("t.v:2:37:") && e.contains("`n` is not declared"),
        "{e}"
    );
    let t2 = format!("`default_nettype none\n`default_nettype wire\n{t}");
    assert_eq!(y(&t2, &[("a", 1)]), 0);
}

#[test]
fn every_source_node_has_a_span() {
    let sys = ok(
        "module m(input clk, input [3:0] a, output reg [3:0] q, output y);
        always @(posedge clk) if (a > 4'd3) q <= a - 1; else q <= q;
        assign y = a == q;
        endmodule",
    );
    for id in sys.exprs.cone(sys.roots()) {
        let n = sys.exprs.node(id);
        if !matches!(n.kind, hypermut_ir::ExprKind::Var(_)) {
            assert!(n.span.is_some(), "node without span: {:?}", n.kind);
        }
    }
    // The comparison is a mutation site whose text is the source expression.
    assert!(sys
        .exprs
        .cone(sys.roots())
        .iter()
        .any(|e| sys.source_text(*e) == Some("a > 4'd3")));
}

#[test]
fn printing_system_tasks_are_notes_and_other_ignored_tasks_warnings() {
    let l = super::load(
        "module m(input clk, input a, output reg q);
        always @(posedge clk) begin
          $display(\"a = %b\", a);
          if (a) $finish;
          q <= a;
        end
        endmodule",
    )
    .unwrap();
    let shown: Vec<(hypermut_ir::Severity, String)> = l
        .diagnostics
        .iter()
        .map(|d| (d.severity, d.headline()))
        .collect();
    assert_eq!(
        shown,
        [
            (
                hypermut_ir::Severity::Note,
                "t.v:3:11: note: system task `$display` is ignored".to_string()
            ),
            (
                hypermut_ir::Severity::Warning,
                "t.v:4:18: warning: system task `$finish` is ignored".to_string()
            ),
        ]
    );
    assert_eq!(
        l.diagnostics[0].snippet.as_deref(),
        Some("  |\n3 |           $display(\"a = %b\", a);\n  |           ^^^^^^^^^^^^^^^^^^^^^^")
    );
}

#[test]
fn errors_expose_their_diagnostic() {
    let e = super::load("module m(output y);\n  assign y = nope;\nendmodule").unwrap_err();
    let d = e.diagnostic().expect("a located error has a diagnostic");
    assert_eq!(d.severity, hypermut_ir::Severity::Error);
    assert_eq!(d.to_string(), e.to_string());
    assert!(d.headline().starts_with("t.v:2:14: error: "), "{d}");
    let design = crate::parse_verilog(&[], &crate::VerilogOptions::default()).unwrap_err();
    let d = design
        .diagnostic()
        .expect("a design error has a diagnostic");
    assert_eq!(
        (d.location.as_ref(), d.to_string()),
        (None, design.to_string())
    );
    let io = crate::load_verilog(
        &[std::path::PathBuf::from("/nonexistent/dir/d.v")],
        &crate::VerilogOptions::default(),
    )
    .unwrap_err();
    assert!(io.diagnostic().is_none());
}
