//! Small types and helpers shared by the elaboration phases (this module uses none of them).

use hypermut_ir::{EnumId, Span, Type};

/// Where `next()` may appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NextMode {
    /// Not allowed; the text names the context for the message.
    Forbidden(&'static str),
    /// Allowed (TRANS, right-hand sides of `next` assignments).
    Allowed,
    /// Inside the argument of a `next()`: variables denote their next values.
    Inside,
}

impl NextMode {
    /// The class used in memo keys (the context text does not change the result).
    pub(crate) fn class(self) -> u8 {
        match self {
            NextMode::Forbidden(_) => 0,
            NextMode::Allowed => 1,
            NextMode::Inside => 2,
        }
    }
}

/// Keeps in `first` the earliest of the places seen so far, `at` included.
pub(crate) fn first_place(first: &mut Option<Span>, at: Span) {
    match first {
        Some(f) if *f <= at => {}
        _ => *first = Some(at),
    }
}

/// `path.name`, or `name` at the top.
pub(crate) fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

/// The last component of a hierarchical name (`c` of `a.b.c`); dots inside quoted
/// components (`a."b.c"`) do not separate components.
pub(crate) fn last_component(full: &str) -> &str {
    let mut quoted = false;
    let mut start = 0;
    for (i, c) in full.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '.' if !quoted => start = i + 1,
            _ => {}
        }
    }
    &full[start..]
}

/// The enumeration of an enum type.
pub(crate) fn enum_of(t: Type) -> Option<EnumId> {
    match t {
        Type::Enum(e) => Some(e),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_components_respect_quotes() {
        for (full, last) in [
            ("x", "x"),
            ("a.b.c", "c"),
            ("a.\"b.c\"", "\"b.c\""),
            ("\"a.b\"", "\"a.b\""),
            ("\"a.b\".x", "x"),
        ] {
            assert_eq!(last_component(full), last, "{full}");
        }
    }
}
