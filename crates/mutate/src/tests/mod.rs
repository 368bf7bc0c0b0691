//! Tests of the operators on whole models: expected mutant texts per operator (tables),
//! global invariants of the enumeration, and the behaviour of conditional mutants.

mod choices;
mod corpus;
mod inclusion;
mod semantics;
mod tables;

use hypermut_ir::System;

use crate::enumerate;
use crate::operators::{Mutant, Operator};

/// A deterministic SMV model exercising every SMV construct the operators know.
pub(crate) const SMV_MODEL: &str = "\
-- @output x, w, s, e, f, d
MODULE main
IVAR a : boolean; b : boolean; k : 0..3;
VAR x : 0..7; w : unsigned word[4]; s : signed word[4]; e : {p, q, r}; f : boolean;
DEFINE d := (a | b) & !a;
ASSIGN
  init(x) := 1;
  next(x) := case
      d : (x + 1) mod 8;
      a xnor b : (x + 6) mod 8;
      k > 1 & x < 4 : x + k - 1 + 1;
      TRUE : x;
    esac;
  init(w) := 0ud4_3;
  next(w) := (w << 1) xor w[3:0] xnor 0b4_1010;
  init(s) := -0sd4_2;
  next(s) := s >> 1;
  init(e) := p;
  next(e) := a ? q : b ? r : e;
  init(f) := FALSE;
  next(f) := !f & (a -> b) | w[2:1] = 0ud2_3;
";

/// A deterministic Verilog design exercising every Verilog construct the operators know.
pub(crate) const VERILOG_MODEL: &str = "\
module t(input clk, input [1:0] sel, input a, input [3:0] d,
         output reg [3:0] q, output reg y, output [3:0] z, output reg [2:0] c);
  assign z = (d % 4'd3) >> 1;
  initial begin q = 4'd0; y = 1'b0; c = 3'd1; end
  always @(posedge clk) begin
    case (sel)
      2'd0: q <= d + 1;
      2'd1: q <= d[3:1] - 4'd2;
      default: q <= q ^ d;
    endcase
    y <= a && (d != 0) || !a;
    if (d[0] & a) y <= ~y;
    c <= (c < 3'd6) ? c + 3'd1 : c - d[1:0];
  end
endmodule
";

/// Registers of an instance reset asynchronously through a wire of the parent (each read is
/// the reset's `?:` with the read's text), one read through a prefix operator: a negation
/// written there must be parenthesised (`~(!s)`; `~!s` is no Verilog).
pub(crate) const ASYNC_RESET_MODEL: &str = "\
module top(input clk, input arst_i, input a, input c, output o);
  wire rst_i = arst_i ^ 1'b0;
  sub u(.clk(clk), .nReset(rst_i), .a(a), .c(c), .o(o));
endmodule
module sub(input clk, input nReset, input a, input c, output reg o);
  reg s;
  always @(posedge clk or negedge nReset)
    if (~nReset) s <= 1'b0;
    else s <= a ^ c;
  always @(posedge clk or negedge nReset)
    if (!nReset) o <= 1'b0;
    else o <= (a | o) & ~s;
endmodule
";

/// The bundled models of the repository, read from `models/`.
pub(crate) fn bundled(name: &str) -> String {
    let path = hypermut_testkit::repo::path(&format!("models/{name}"));
    std::fs::read_to_string(path).expect("bundled model exists")
}

/// Parses a model by the extension of `name`.
pub(crate) fn parse(name: &str, text: &str) -> System {
    if name.ends_with(".v") {
        hypermut_verilog::parse_verilog(&[(name, text)], &Default::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .system
    } else {
        hypermut_smv::parse_smv(name, text).unwrap_or_else(|e| panic!("{name}: {e}"))
    }
}

/// The models every invariant is checked on: (file name, text).
pub(crate) fn models() -> Vec<(&'static str, String)> {
    vec![
        ("m.smv", SMV_MODEL.to_string()),
        ("t.v", VERILOG_MODEL.to_string()),
        ("r.v", ASYNC_RESET_MODEL.to_string()),
        ("counter.smv", bundled("smv/counter.smv")),
        ("beverage.smv", bundled("smv/beverage.smv")),
        ("arbiter.v", bundled("verilog/arbiter.v")),
    ]
}

/// All mutants of a model.
pub(crate) fn all(sys: &System) -> Vec<Mutant> {
    enumerate(sys, &Operator::ALL)
}
