//! Robustness: mutated and truncated designs never panic; every error is located.

use proptest::prelude::*;

use super::load;
use crate::VerilogError;

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
    match load(text) {
        Ok(_) => {}
        Err(e @ VerilogError::Source { .. }) => assert!(e.span().is_some()),
        Err(e) => panic!("internal failure on\n{text}\n{e}"),
    }
}

#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize),
}

fn apply(base: &str, edits: &[Edit]) -> String {
    let mut bytes = base.as_bytes().to_vec();
    for e in edits {
        let len = bytes.len().max(1);
        match *e {
            Edit::Replace(i, b) if !bytes.is_empty() => bytes[i % len] = b,
            Edit::Insert(i, b) => bytes.insert(i % (bytes.len() + 1), b),
            Edit::Delete(i) if !bytes.is_empty() => {
                bytes.remove(i % len);
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        prop::sample::select(b"(){}[];:,=!&|<>-+*/?.@#'`\"\\$_0129azxAZ \n".to_vec()),
        any::<u8>(),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), byte()).prop_map(|(i, b)| Edit::Replace(i, b)),
        (any::<usize>(), byte()).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn mutated_designs_never_panic(edits in prop::collection::vec(edit(), 1..6)) {
        check(&apply(SAMPLE, &edits));
    }
}

#[test]
fn the_sample_is_accepted() {
    load(SAMPLE).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn every_prefix_of_the_sample_is_handled() {
    for (i, _) in SAMPLE.char_indices().step_by(3) {
        check(&SAMPLE[..i]);
    }
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
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..1500 {
        let mut text = String::from("module m(input a, output y);\n");
        for _ in 0..(state % 40) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            text.push_str(words[(state % words.len() as u64) as usize]);
            text.push(' ');
        }
        check(&text);
        state = state.wrapping_add(1);
    }
}
