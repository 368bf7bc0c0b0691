//! One module per subcommand.

pub mod aiger;
pub mod mutants;
pub mod product;
pub mod prove;
pub mod testgen;
