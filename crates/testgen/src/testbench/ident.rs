//! Verilog identifiers for the names of a model: simple names as they are, others escaped.

/// A Verilog identifier for `name`: as it is if simple, else escaped (`\name `).
pub(super) fn ident(name: &str) -> String {
    let simple = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if simple {
        name.to_string()
    } else {
        format!("\\{name} ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_names_stay_and_others_are_escaped() {
        for (name, want) in [
            ("rst_n", "rst_n"),
            ("_x$1", "_x$1"),
            ("a.b[3]", "\\a.b[3] "),
            ("3x", "\\3x "),
        ] {
            assert_eq!(ident(name), want, "{name}");
        }
    }
}
