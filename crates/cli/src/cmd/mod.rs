//! One module per subcommand.

pub mod aiger;
pub mod merge;
pub mod mutant;
pub mod mutants;
pub mod product;
pub mod prove;
pub mod suite;
pub mod table;
pub mod testgen;
