//! Verilog front-end of hypermut: synthesizable Verilog-2001 (and VIS idioms) lowered to the
//! word-level IR. Not implemented yet; see the "Verilog front-end" issue.
