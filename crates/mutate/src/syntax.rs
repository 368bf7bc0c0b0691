//! The source languages a mutated text can be written in.

use hypermut_ir::Language;

/// The source language a mutated text is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// NuSMV.
    Smv,
    /// Verilog.
    Verilog,
}

impl Syntax {
    /// The language of the file named `name`, by its extension (NuSMV unless Verilog's).
    pub fn of_file(name: &str) -> Syntax {
        match Language::of_file_name(name) {
            Some(Language::Verilog) => Syntax::Verilog,
            _ => Syntax::Smv,
        }
    }
}
