//! Robustness: mutated and truncated designs never panic; every error is located.

use hypermut_testkit::fuzz::{apply, assert_handled, edits, prefixes, token_soup};
use proptest::prelude::*;

use super::load;
use crate::VerilogError;

/// Bytes that matter to the lexer.
const LEXICAL: &[u8] = b"(){}[];:,=!&|<>-+*/?.@#'`\"\\$_0129azxAZ \n";

/// A small design using most constructs.
const SAMPLE: &str = "`define W 4
typedef enum {A, B, C} st;
module sub #(parameter N = 2) (input clk, input [N-1:0] d, output reg [N-1:0] q);
  always @(posedge clk) q <= d;
endmodule
module top(input clk, input rst_n, input [`W-1:0] a, input [1:0] s, output [`W-1:0] y, output reg z);
  reg [`W-1:0] r; reg [3:0] mem [0:3]; st reg state; integer i;
  wire [1:0] q;
  sub #(.N(2)) u (.clk(clk), .d(s), .q(q));
  function [3:0] f; input [3:0] x; begin f = x ^ {2{q}}; end endfunction
  initial begin r = 0; state = A; for (i = 0; i < 4; i = i + 1) mem[i] = i; end
  always @(posedge clk or negedge rst_n)
    if (!rst_n) r <= 0;
    else begin
      case (s) 2'd0: r <= r + a; 2'b1?: r <= f(r); default: r <= {r[2:0], r[3]}; endcase
      mem[s] <= a;
    end
  always @* if (s[0]) z = ^a;
  assign y = mem[s] | (r >> s) | $ND(4'd1, 4'd2);
endmodule
";

/// Loading either succeeds or fails with a located source error (never internally).
fn check(text: &str) {
    assert_handled(text, load(text), |e| {
        matches!(e, VerilogError::Source { .. }) && e.span().is_some()
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn mutated_designs_never_panic(edits in edits(LEXICAL)) {
        check(&apply(SAMPLE, &edits));
    }
}

#[test]
fn the_sample_is_accepted() {
    load(SAMPLE).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn every_prefix_of_the_sample_is_handled() {
    prefixes(SAMPLE, 3).for_each(check);
}

#[test]
fn token_soup_is_handled() {
    let words = [
        "module",
        "endmodule",
        "m",
        "(",
        ")",
        ";",
        "input",
        "output",
        "reg",
        "wire",
        "[",
        "]",
        ":",
        "3",
        "0",
        "assign",
        "=",
        "<=",
        "always",
        "@",
        "posedge",
        "clk",
        "begin",
        "end",
        "if",
        "else",
        "case",
        "endcase",
        "a",
        "y",
        "+",
        "{",
        "}",
        ",",
        "4'b1x",
        "initial",
        "for",
        "`define",
        "`ifdef",
        "`endif",
        "?",
        "function",
        "endfunction",
        "generate",
        "genvar",
        "$ND",
        "#",
        ".",
    ];
    // A deterministic pseudo-random walk over token sequences.
    token_soup("module m(input a, output y);\n", &words, 1500, 40).for_each(|t| check(&t));
}
