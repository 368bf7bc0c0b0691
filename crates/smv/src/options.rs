//! Options of the front-end: overrides of the model's I/O annotation, and the preprocessors
//! the model file is run through before it is parsed (NuSMV's `-pre`).

/// Overrides of the model's I/O annotation (`-- @input` / `-- @output` pragmas), and the
/// preprocessors. Names are hierarchical (`a.b`, `arr[2]`; an array name stands for all its
/// elements).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SmvOptions {
    /// When set, exactly these variables are forced to be inputs (replacing `@input`).
    pub inputs: Option<Vec<String>>,
    /// When set, exactly these variables and DEFINEs are the outputs (replacing `@output`).
    pub outputs: Option<Vec<String>>,
    /// The external preprocessors the model text goes through, in order, before it is parsed
    /// (NuSMV's `-pre "cpp m4"`); empty: none. See the crate documentation for how each is
    /// run and how locations are mapped back to the original files.
    pub pre: Vec<Preprocessor>,
}

/// An external preprocessor of NuSMV's `-pre` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preprocessor {
    /// The C preprocessor: `cpp -x c` (`#define`, `#include`, `#if`).
    Cpp,
    /// GNU `m4` (`define`, `include`, `ifdef`).
    M4,
}

impl Preprocessor {
    /// Every preprocessor, in the order NuSMV lists them.
    pub const ALL: [Preprocessor; 2] = [Preprocessor::Cpp, Preprocessor::M4];

    /// The name NuSMV's `-pre` and hypermut's `--pre` use, which is also the program run.
    pub fn name(self) -> &'static str {
        match self {
            Preprocessor::Cpp => "cpp",
            Preprocessor::M4 => "m4",
        }
    }

    /// Parses a `-pre` list: names separated by spaces or commas (`"cpp m4"`, `cpp,m4`).
    pub fn parse_list(text: &str) -> Result<Vec<Preprocessor>, String> {
        let list: Vec<Preprocessor> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(str::parse)
            .collect::<Result<_, _>>()?;
        if list.is_empty() {
            return Err("no preprocessor named (expected `cpp` or `m4`)".into());
        }
        Ok(list)
    }
}

impl std::fmt::Display for Preprocessor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Preprocessor {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Preprocessor::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown preprocessor `{s}` (expected `cpp` or `m4`)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessor_lists_parse_like_nusmv_pre() {
        use Preprocessor::{Cpp, M4};
        for (text, want) in [
            ("cpp", vec![Cpp]),
            ("m4", vec![M4]),
            ("cpp m4", vec![Cpp, M4]),
            (" m4,cpp ", vec![M4, Cpp]),
        ] {
            assert_eq!(Preprocessor::parse_list(text), Ok(want), "{text:?}");
        }
        for bad in ["", " , ", "gcc", "cpp m5"] {
            let e = Preprocessor::parse_list(bad).unwrap_err();
            assert!(e.contains("cpp") && e.contains("m4"), "{bad:?}: {e}");
        }
        for p in Preprocessor::ALL {
            assert_eq!(p.to_string().parse::<Preprocessor>(), Ok(p));
        }
    }
}
