//! The symbol table and comment section after the AIGER body.
//!
//! We parse this part ourselves instead of with `flussab-aiger` 0.1.1, whose symbol parser
//! bounds the indices of `b`, `c`, `j` and `f` symbols by the *latch* count: it rejects
//! `b1` in a file with two bad properties and one latch, and underflows (a panic in debug
//! builds) on any such symbol in a file without latches.

/// The seven symbol kinds `i l o b c j f`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum SymbolKind {
    Input,
    Latch,
    Output,
    Bad,
    Constraint,
    Justice,
    Fairness,
}

impl SymbolKind {
    fn from_prefix(b: u8) -> Option<Self> {
        Some(match b {
            b'i' => SymbolKind::Input,
            b'l' => SymbolKind::Latch,
            b'o' => SymbolKind::Output,
            b'b' => SymbolKind::Bad,
            b'c' => SymbolKind::Constraint,
            b'j' => SymbolKind::Justice,
            b'f' => SymbolKind::Fairness,
            _ => return None,
        })
    }

    fn plural(self) -> &'static str {
        match self {
            SymbolKind::Input => "inputs",
            SymbolKind::Latch => "latches",
            SymbolKind::Output => "outputs",
            SymbolKind::Bad => "bad-state properties",
            SymbolKind::Constraint => "invariant constraints",
            SymbolKind::Justice => "justice properties",
            SymbolKind::Fairness => "fairness constraints",
        }
    }
}

/// One symbol-table entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Symbol {
    pub kind: SymbolKind,
    pub index: usize,
    pub name: String,
}

/// The parsed trailer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Trailer {
    pub symbols: Vec<Symbol>,
    pub comment: Option<String>,
}

/// Section sizes, to check symbol indices.
pub(super) struct TrailerCounts {
    pub inputs: usize,
    pub latches: usize,
    pub outputs: usize,
    pub bad: usize,
    pub constraints: usize,
    pub justice: usize,
    pub fairness: usize,
}

impl TrailerCounts {
    fn of(&self, kind: SymbolKind) -> usize {
        match kind {
            SymbolKind::Input => self.inputs,
            SymbolKind::Latch => self.latches,
            SymbolKind::Output => self.outputs,
            SymbolKind::Bad => self.bad,
            SymbolKind::Constraint => self.constraints,
            SymbolKind::Justice => self.justice,
            SymbolKind::Fairness => self.fairness,
        }
    }
}

/// Parses symbols and the optional comment from `bytes` (everything after the body), whose
/// first line is line `first_line` of the file. Errors are `(line, message)`.
pub(super) fn parse_trailer(
    bytes: &[u8],
    first_line: usize,
    counts: &TrailerCounts,
) -> Result<Trailer, (usize, String)> {
    let mut out = Trailer::default();
    let mut seen = std::collections::HashSet::new();
    let mut pos = 0;
    let mut line_no = first_line;
    while pos < bytes.len() {
        let rest = &bytes[pos..];
        let Some(nl) = rest.iter().position(|&b| b == b'\n') else {
            return Err((line_no, "missing newline at the end of the file".into()));
        };
        let line = &rest[..nl];
        if line == b"c" {
            let text = &rest[nl + 1..];
            let body: &[u8] = match text.split_last() {
                None => &[],
                Some((b'\n', body)) => body,
                Some(_) => {
                    let last = line_no + 1 + text.iter().filter(|&&b| b == b'\n').count();
                    return Err((
                        last,
                        "missing newline at the end of the comment section".into(),
                    ));
                }
            };
            out.comment = Some(String::from_utf8_lossy(body).into_owned());
            return Ok(out);
        }
        let sym = parse_symbol(line, counts).map_err(|m| (line_no, m))?;
        if !seen.insert((sym.kind, sym.index)) {
            return Err((
                line_no,
                format!("second symbol for {} {}", sym.kind.plural(), sym.index),
            ));
        }
        out.symbols.push(sym);
        pos += nl + 1;
        line_no += 1;
    }
    Ok(out)
}

fn parse_symbol(line: &[u8], counts: &TrailerCounts) -> Result<Symbol, String> {
    const EXPECTED: &str =
        "expected a symbol `[ilobcjf]<index> <name>`, a comment section (`c` alone) or the end \
         of the file";
    let (&prefix, rest) = line.split_first().ok_or(EXPECTED)?;
    let kind = SymbolKind::from_prefix(prefix).ok_or(EXPECTED)?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Err(EXPECTED.into());
    }
    let text = std::str::from_utf8(&rest[..digits]).unwrap_or_default();
    if digits > 1 && text.starts_with('0') {
        return Err(format!("symbol index {text} has leading zeros"));
    }
    let count = counts.of(kind);
    if count == 0 {
        return Err(if kind == SymbolKind::Constraint {
            format!(
                "constraint symbol `c{text}` but the file has no invariant constraints (a \
                 comment section starts with a line holding only `c`)"
            )
        } else {
            format!(
                "symbol `{}{text}` but the file has no {}",
                prefix as char,
                kind.plural()
            )
        });
    }
    let index: usize = text.parse().ok().filter(|&i| i < count).ok_or_else(|| {
        format!(
            "symbol index {text} out of range: the file has {count} {}",
            kind.plural()
        )
    })?;
    let name = match rest.get(digits..) {
        Some([b' ', name @ ..]) => String::from_utf8_lossy(name).into_owned(),
        _ => {
            return Err(format!(
                "expected a space and a name after `{}{text}`",
                prefix as char
            ))
        }
    };
    Ok(Symbol { kind, index, name })
}

#[cfg(test)]
mod tests {
    use super::*;

    const COUNTS: TrailerCounts = TrailerCounts {
        inputs: 2,
        latches: 0,
        outputs: 1,
        bad: 2,
        constraints: 0,
        justice: 1,
        fairness: 0,
    };

    #[test]
    fn symbols_of_sections_larger_than_the_latch_count_are_accepted() {
        let t = parse_trailer(b"i1 a b\nb1 kill\nj0 live\nc\nsome\ntext\n", 5, &COUNTS)
            .expect("valid trailer");
        assert_eq!(t.symbols.len(), 3);
        assert_eq!(t.symbols[0].name, "a b");
        assert_eq!(t.symbols[1].kind, SymbolKind::Bad);
        assert_eq!(t.symbols[1].index, 1);
        assert_eq!(t.comment.as_deref(), Some("some\ntext"));
    }

    #[test]
    fn empty_comment_and_empty_trailer() {
        assert_eq!(parse_trailer(b"", 1, &COUNTS), Ok(Trailer::default()));
        let t = parse_trailer(b"c\n", 1, &COUNTS).expect("comment");
        assert_eq!(t.comment.as_deref(), Some(""));
    }

    #[test]
    fn bad_trailers_report_their_line() {
        let cases: &[(&[u8], usize, &str)] = &[
            (b"i2 x\n", 7, "out of range"),
            (b"i0 x\ni0 y\n", 8, "second symbol"),
            (b"c1 x\n", 7, "no invariant constraints"),
            (b"l0 x\n", 7, "no latches"),
            (b"i01 x\n", 7, "leading zeros"),
            (b"i0x\n", 7, "expected a space"),
            (b"x0 y\n", 7, "expected a symbol"),
            (b"i0 x", 7, "missing newline"),
            (b"c\nabc", 8, "missing newline"),
            (b"c \n", 7, "expected a symbol"),
        ];
        for &(text, line, msg) in cases {
            let (l, m) = parse_trailer(text, 7, &COUNTS).expect_err("must be rejected");
            assert_eq!(l, line, "{m}");
            assert!(m.contains(msg), "{m:?} should contain {msg:?}");
        }
    }
}
