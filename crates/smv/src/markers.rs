//! Line markers: the lines preprocessors write to say where the next line came from.
//!
//! * cpp: `# 12 "file.smv" 1` (the flags after the name say whether a file is entered or
//!   left; they are not needed here);
//! * GNU m4 with `-s`: `#line 12 "file.smv"`, or `#line 12` in the current file.
//!
//! Both set the line number of the next line (and, when named, its file).

/// A line marker: the number of the next line and, if named, its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Marker {
    /// The 1-based number of the next line.
    pub line: u32,
    /// The file the next line is in (`None`: the current one).
    pub file: Option<String>,
}

/// The marker `line` is, if it is one (`# N "f" …`, `#line N "f"`, `#line N`).
pub(crate) fn parse(line: &str) -> Option<Marker> {
    let rest = line.strip_prefix('#')?;
    let rest = rest.strip_prefix("line").unwrap_or(rest);
    let rest = rest.strip_prefix([' ', '\t'])?.trim_start();
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let number = rest[..digits].parse().ok()?;
    let after = rest[digits..].trim_start();
    let file = match after.strip_prefix('"') {
        Some(quoted) => Some(unquote(quoted)?),
        None if after.is_empty() => None,
        None => return None,
    };
    Some(Marker { line: number, file })
}

/// The name in a quoted marker name (after its opening quote), with `\"` and `\\` undone.
fn unquote(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => out.push(chars.next()?),
            c => out.push(c),
        }
    }
    None
}

/// A marker in the form cpp writes and NuSMV's lexer skips: `# N "file"`.
pub(crate) fn write(line: u32, file: &str) -> String {
    let mut quoted = String::with_capacity(file.len());
    for c in file.chars() {
        if matches!(c, '"' | '\\') {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    format!("# {line} \"{quoted}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_of_cpp_and_m4() {
        let m = |line, file: Option<&str>| {
            Some(Marker {
                line,
                file: file.map(String::from),
            })
        };
        let table = [
            ("# 1 \"m.smv\"", m(1, Some("m.smv"))),
            ("# 10 \"dir/m.smv\" 2", m(10, Some("dir/m.smv"))),
            ("# 0 \"<built-in>\"", m(0, Some("<built-in>"))),
            (
                "# 3 \"a \\\"q\\\" \\\\b.smv\" 1 3",
                m(3, Some("a \"q\" \\b.smv")),
            ),
            ("#line 7 \"m4.smv\"", m(7, Some("m4.smv"))),
            ("#line 7", m(7, None)),
            ("# 4", m(4, None)),
            // Not markers.
            ("#define N 3", None),
            ("#line x", None),
            ("# 1 m.smv", None),
            ("# 1 \"unclosed", None),
            ("#1 \"m.smv\"", None),
            ("x # 1 \"m.smv\"", None),
        ];
        for (text, want) in table {
            assert_eq!(parse(text), want, "{text:?}");
        }
    }

    #[test]
    fn written_markers_parse_back() {
        for name in ["m.smv", "a b/\"q\".smv", "c:\\x.smv"] {
            let w = write(12, name);
            assert!(w.starts_with("# 12 \""), "{w}");
            assert_eq!(
                parse(&w),
                Some(Marker {
                    line: 12,
                    file: Some(name.into())
                })
            );
        }
    }
}
