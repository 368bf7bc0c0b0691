//! One module per subcommand (`aiger` also holds `product`).

pub mod aiger;
pub mod merge;
pub mod mutant;
pub mod mutants;
pub mod prove;
pub mod report_html;
pub mod run;
pub mod search;
pub mod table;
pub mod testbench;
pub mod testgen;
