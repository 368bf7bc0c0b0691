//! And-inverter graphs for hypermut: the [`Aig`] itself (structural hashing, constant
//! folding), the bit-blaster from the word-level IR, AIGER 1.9 reading and writing, a
//! simulator, HWMCC witnesses and logic optimisation ([`opt`]).

pub mod aiger;
pub mod blast;
pub mod continued;
pub mod error;
pub mod explore;
pub mod graph;
pub mod opt;
pub mod sim;
pub mod witness;
pub mod witness_io;
pub mod wordsim;

pub use blast::{
    blast, decode, register_of, BlastError, BlastOptions, Blasted, OutputBits, Repr, VarBits,
};
pub use graph::{Aig, Input, Latch, Lit, Named, Node, Reset};
pub use witness::Witness;

pub use aiger::{read_aiger, write_aiger, write_aiger_with, AigerFormat, WriteOptions};
pub use error::{AigerError, WitnessError};
pub use sim::{check_witness, simulate, SimFrame, SimTrace};
pub use witness_io::{read_witness, write_witness, WitnessEntry};
