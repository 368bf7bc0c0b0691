//! Self-composition for the killing hyperproperty φ1 and test extraction.
//!
//! [`product`] builds, from the bit-blasted conditional mutant, one circuit with two copies
//! (A: `mut = 0`, B: `mut = 1`) that share every input (including the nd inputs) and every
//! latch outside the mutation's sequential fan-out; its single bad property `kill` holds when
//! some output differs. [`extract_test`] turns a witness of that property into a linear test
//! and replays it on the word-level system.

pub mod agreement;
pub mod copy;
pub mod error;
pub mod miter;
pub mod pipeline;
pub mod product;
pub mod search_test;
pub mod suite;
pub mod test;
pub mod validity;

pub use agreement::{agreement, Agreement};
pub use copy::{fixed_copy, FixedCopy};
pub use error::HyperError;
pub use pipeline::{MetaProduct, MutantProduct};
pub use product::{meta_product, product, Product};
pub use search_test::test_from_runs;
pub use suite::{greedy_set_cover, remove_prefixes, KillMatrix, MetaCircuit};
pub use test::{extract_test, Blocked, Test, TestFrame};
pub use validity::{range_check, RangeCheck};
