//! Options of the Verilog front-end.

use std::path::PathBuf;

/// Options of [`load_verilog`](crate::load_verilog) and [`parse_verilog`](crate::parse_verilog).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerilogOptions {
    /// The top module (default: of the modules no other module instantiates, the one with
    /// the deepest hierarchy, as yosys `hierarchy -auto-top` chooses; a tie is an error).
    pub top: Option<String>,
    /// Folders searched for `` `include `` files (after the including file's folder; the
    /// folders of the design files are searched last).
    pub include_dirs: Vec<PathBuf>,
    /// Predefined macros `(name, value)`, as with `+define+name=value`.
    pub defines: Vec<(String, String)>,
    /// Make every register, latch and memory word an output.
    pub observe_state: bool,
    /// Model each `x`/`z` literal bit as a bit of a fresh input instead of 0.
    pub x_as_input: bool,
}
