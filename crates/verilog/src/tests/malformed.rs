//! Malformed and unsupported designs: every one is rejected with a located error whose
//! message says what is wrong.

use super::err;

/// (design, expected message fragment, expected `line:col`).
const CASES: &[(&str, &str, &str)] = &[
    ("module m(input a, output y); assign y = a &; endmodule", "expected an expression", "1:44"),
    ("module m(input a output y); endmodule", "expected `)`", "1:18"),
    ("module m(input a, output y);\nassign y = a;\n", "has no `endmodule`", "1:8"),
    ("module m(); wire x; wire x; endmodule", "declared twice", "1:26"),
    ("module m(output y); assign y = nope; endmodule", "`nope` is not declared", "1:32"),
    ("module m(output y); foo u(y); endmodule", "unknown module `foo`", "1:21"),
    ("module m(input a, output y); defparam u.W = 2; endmodule", "`defparam` is not supported", "1:30"),
    ("module m(input clk, output reg q); always @(posedge clk) forever q <= 1; endmodule", "`forever`", "1:58"),
    ("module m(input clk, output reg q); always @(posedge clk) begin @(negedge clk) q <= 1; end endmodule", "event control inside a statement", "1:64"),
    ("module m(output y); assign y = 1.5; endmodule", "real numbers are not supported", "1:32"),
    ("module m(output [3:0] y); assign y = 4'b102; endmodule", "invalid digit", "1:39"),
    ("module m(output y); assign y = \"abc; endmodule", "unterminated string", "1:32"),
    ("module m(output y); /* never closed", "unterminated block comment", "1:21"),
    ("`define F(a) a\nmodule m(output y); assign y = `F(1, 2); endmodule", "takes 1 argument", "2:32"),
    ("module m(output y); assign y = `UNDEFINED; endmodule", "undefined macro", "1:32"),
    ("`ifdef X\nmodule m; endmodule\n", "without a matching `endif", "1:8"),
    ("`include \"no_such_file.vh\"\nmodule m; endmodule", "cannot find include file", "1:10"),
    ("module m(input clk, output reg q); always @(posedge clk) q <= q; always @(posedge clk) q <= ~q; endmodule", "driven by more than one process", "1:88"),
    ("module m(input a, output y); assign a = 1; assign y = a; endmodule", "input port `a` is driven", "1:37"),
    ("module m(input a, output y); wire w; assign w = ~y; assign y = w & a; endmodule", "combinational loop", "1:60"),
    ("module m(input [3:0] a, output y); integer i; reg r; always @* begin r = 0; for (i = 0; i < a; i = i + 1) r = ~r; end assign y = r; endmodule", "loop condition does not reduce to a constant", "1:89"),
    ("module m(input a, output y); function f; input x; f = g(x); endfunction function g; input x; g = f(x); endfunction assign y = f(a); endmodule", "nested more than", "1:98"),
    ("module a(input i, output o); b u(i, o); endmodule module b(input i, output o); a u(i, o); endmodule module top(input i, output o); a u(i, o); endmodule", "instances nested more than", "1:82"),
    ("module m(input clk, input r, input s, output reg q); always @(posedge clk or posedge r or posedge s) q <= ~q; endmodule", "cannot tell the clock", "1:54"),
    ("module m(input a, output y); mem_t #(3) u(a, y); endmodule module mem_t(input a, output y); assign y = a; endmodule", "has 0 parameter(s) but 1", "1:41"),
    ("module m(input a, output y); sub #(.Q(1)) u(a, y); endmodule module sub(input a, output y); parameter P = 0; assign y = a; endmodule", "has no parameter `Q`", "1:37"),
    ("module m(input a, output y); sub u(.z(a), .y(y)); endmodule module sub(input a, output y); assign y = a; endmodule", "has no port `z`", "1:37"),
    ("module m(input a, output y); sub u(a, y, a); endmodule module sub(input a, output y); assign y = a; endmodule", "2 port(s) but 3 connection(s)", "1:34"),
    ("module m(a, y); input a; assign y = a; endmodule", "port `y` has no", "1:13"),
    ("module m(input a, output y); reg [3:0] mem [0:3]; assign y = mem; endmodule", "memory `mem` must be indexed", "1:62"),
    ("module m(input [3:0] a, output y); assign y = a[a:0]; endmodule", "expected a constant here", "1:49"),
    ("module m(input a, output y); reg [1:0] r [0:1][0:1]; assign y = a; endmodule", "multi-dimensional arrays", "1:47"),
    ("module m(input a, output y); assign y = $random; endmodule", "system function `$random` is not supported", "1:41"),
    ("module m(input a, output y); parameter P = a; assign y = P; endmodule", "`a` is not declared", "1:44"),
    ("module m(input a, output y); assign y = 2 ** a; endmodule", "`**` is only supported on constants", "1:41"),
    ("module m(input a, output y); assign y = {0{a}}; endmodule", "replication count must be positive", "1:41"),
    ("module m(input clk, output reg q); always @(posedge clk or clk) q <= 1; endmodule", "mixing edge and level events", "1:36"),
    ("module m(input a, output y); assign y = a; endmodule\nmodule m(input a, output y); assign y = a; endmodule", "defined twice", "2:8"),
    ("module a(output y); assign y = 1; endmodule module b(output y); assign y = 0; endmodule", "several modules could be the top", "1:8"),
    ("module m(input a, output y); initial wait (a) ; assign y = a; endmodule", "`wait`", "1:38"),
    ("module m(input a, output y); assign y = a ? 1 : ; endmodule", "expected an expression", "1:49"),
    ("module m(input a, output y); always @* case (a) 1: ; default: ; default: ; endcase assign y = a; endmodule", "more than one `default`", "1:65"),
    ("module m(output [1:0] y); genvar i; for (i = 0; i < 2; i = i + 0) begin : g assign y[i] = 1; end endmodule", "generate loop does not terminate", "1:60"),
    ("module m(output reg y); always @* while (1) y = 0; endmodule", "loop does not terminate", "1:35"),
    ("module m(input clk, output reg q); always @(posedge clk) begin q <= ~q; endmodule", "expected `end` for the `begin` at t.v:1:58", "1:73"),
    ("module m(input s, output reg y); always @* case (s) 0: y = 0; end endmodule", "expected `endcase` for the `case` at t.v:1:44", "1:63"),
    ("module m(input clk, input a, output reg q); always @(posedge clk) else q <= a; endmodule", "expected a statement", "1:67"),
    ("`default_nettype none\nmodule m(input a, output y); assign z = a; assign y = a; endmodule", "`z` is not declared", "2:37"),
    ("module m(input a, output y); reg p, q; always @* p = q | a; always @* q = p & a; assign y = q; endmodule", "combinational loop", "1:61"),
    ("module m(input clk, output [7:0] y); reg [7:0] r [0:1]; initial $readmemh(\"no_such.hex\", r); assign y = r[0]; endmodule", "cannot find memory file `no_such.hex`", "1:75"),
    ("module m(input clk, output [7:0] y); reg [7:0] r [0:1]; always @(posedge clk) $readmemh(\"a.hex\", r); assign y = r[0]; endmodule", "outside an `initial` block", "1:79"),
];

#[test]
fn malformed_designs_are_rejected_with_located_errors() {
    assert!(CASES.len() >= 30);
    let mut failures = Vec::new();
    for (text, msg, at) in CASES {
        let e = err(text);
        let first = e.lines().next().unwrap_or("");
        if !first.contains(msg) || !first.starts_with(&format!("t.v:{at}:")) {
            failures.push(format!(
                "{text}\n  expected t.v:{at}: … {msg}\n  got: {first}"
            ));
        }
        // The rendering shows the source line and a caret.
        assert!(e.contains(" | ") && e.contains('^'), "{e}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
