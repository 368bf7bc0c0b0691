//! Helpers that several of hypermut's test suites share; a dev-dependency only, never
//! published.
//!
//! * [`repo`]: the repository root and its bundled models;
//! * [`corpus`]: the shared corpus next to the repository (`../shared/corpus`, or
//!   `$HYPERMUT_SHARED_DIR/corpus`), its files and the Verilog design list; tests that need it
//!   print `SKIPPED: …` and pass when it is absent;
//! * [`tools`]: running independent tools (`have` with its `SKIPPED` message, yosys, iverilog,
//!   NuSMV), [`abc`] for berkeley-abc and [`pyaiger`] for the py-aiger simulator;
//! * [`rng`]: the two small seeded generators the tests draw from;
//! * [`sim`]: random values and stimuli for an IR system, runs by name, strong kills;
//! * [`fuzz`]: the "never panics, every error is located" harness of the front-ends.
//!
//! Only `hypermut-ir` is a dependency, so every crate above it can use all of this; `ir`'s
//! own tests could use only the parts that take no IR types.

pub mod abc;
pub mod corpus;
pub mod fuzz;
pub mod pyaiger;
pub mod repo;
pub mod rng;
pub mod sim;
pub mod tools;

pub use rng::{SplitMix64, XorShift64};
pub use tools::{have, run};
