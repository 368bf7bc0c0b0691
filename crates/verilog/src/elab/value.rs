//! Verilog values over IR expressions: [`V`] (the node builders are in [`super::nodes`]).
//!
//! Every Verilog value is an unsigned IR bit-vector (signedness is tracked here, in
//! [`V::signed`], and turned into IR signedness only for the operators that depend on it),
//! or an IR boolean for the 1-bit results of comparisons and logical operators.

use hypermut_ir::ExprId;

/// A Verilog value: an IR expression with its width and signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct V {
    /// The IR expression: `ubv(w)`, or `Bool` when `boolean` (then `w == 1`).
    pub e: ExprId,
    /// Width in bits.
    pub w: u32,
    /// Verilog signedness.
    pub signed: bool,
    /// The expression is an IR boolean.
    pub boolean: bool,
}

/// Widest vector the front-end builds.
pub const MAX_WIDTH: u32 = 1 << 16;
