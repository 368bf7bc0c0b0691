//! The modelling languages hypermut reads, and which one a file is written in.

use std::path::Path;

/// A modelling language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// NuSMV (`.smv`, or a file without extension).
    Smv,
    /// Verilog (`.v`, `.sv`, `.vh`, `.vl`, `.svh`).
    Verilog,
}

impl Language {
    /// The language of the file named `name`, by its extension (the one place that knows
    /// the extensions); `None` for an extension of neither language.
    pub fn of_file_name(name: &str) -> Option<Language> {
        match Path::new(name).extension().and_then(|e| e.to_str()) {
            None | Some("smv") => Some(Language::Smv),
            Some("v" | "sv" | "vh" | "vl" | "svh") => Some(Language::Verilog),
            Some(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_decide_the_language() {
        for (name, want) in [
            ("m.smv", Some(Language::Smv)),
            ("dir.d/model", Some(Language::Smv)),
            ("<define W>", Some(Language::Smv)),
            ("top.v", Some(Language::Verilog)),
            ("pkg.svh", Some(Language::Verilog)),
            ("a/b.vl", Some(Language::Verilog)),
            ("notes.txt", None),
        ] {
            assert_eq!(Language::of_file_name(name), want, "{name}");
        }
    }
}
