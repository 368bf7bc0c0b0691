//! And-inverter graphs for hypermut: the [`Aig`] itself (structural hashing, constant
//! folding), the bit-blaster from the word-level IR, AIGER 1.9 reading and writing, a
//! simulator and HWMCC witnesses.

pub mod graph;
pub mod witness;

pub use graph::{Aig, Input, Latch, Lit, Named, Node, Reset};
pub use witness::Witness;
