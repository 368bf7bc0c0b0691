//! Where the text of a preprocessed model came from: every line of the preprocessed text
//! (source file 0 of the system) is traced to a line of an original file (the model file or
//! a file it includes, later files of the system's [`SourceMap`]), and a byte range of the
//! preprocessed text is mapped onto that line so that diagnostics point into the files the
//! user wrote.
//!
//! Columns: a preprocessed line is aligned with its original line ignoring white space
//! (cpp collapses runs of blanks): the characters both lines start with and end with map
//! one to one; the part between (where a macro was expanded) maps onto the part between in
//! the original line, i.e. onto the macro's invocation.

use hypermut_ir::{FileId, SourceMap, Span};

use crate::markers;

/// The origin of every line of a preprocessed text.
#[derive(Clone, Debug)]
pub(crate) struct Origins {
    /// The preprocessed text's file.
    file: FileId,
    /// Byte offset where each line of the preprocessed text starts.
    line_starts: Vec<usize>,
    /// For each line: the original file and its 1-based line (`None`: a line marker, or text
    /// of unknown origin).
    lines: Vec<Option<(FileId, u32)>>,
}

impl Origins {
    /// The origins of `text` (the system's file `file`), one entry of `lines` per line.
    pub fn new(file: FileId, text: &str, lines: Vec<Option<(FileId, u32)>>) -> Origins {
        Origins {
            file,
            line_starts: line_starts(text),
            lines,
        }
    }

    /// The origins of the lines of `file`, read from its line markers (`# N "name"`, as the
    /// preprocessing writes them): a marker names one of the other files of `sources`; lines
    /// before the first marker, or after one naming no such file, have no known origin.
    pub fn from_markers(sources: &SourceMap, file: FileId) -> Origins {
        let text = sources.file(file).map_or("", |f| f.text.as_str());
        let id_of = |name: &str| {
            (0..sources.files().len() as u32)
                .map(FileId)
                .find(|id| *id != file && sources.file(*id).is_some_and(|f| f.name == name))
        };
        let mut current: Option<(FileId, u32)> = None;
        let mut lines = Vec::new();
        for line in text.split('\n') {
            if let Some(m) = markers::parse(line.strip_suffix('\r').unwrap_or(line)) {
                let id = match m.file {
                    Some(name) => id_of(&name),
                    None => current.map(|(id, _)| id),
                };
                current = id.map(|id| (id, m.line));
                lines.push(None);
                continue;
            }
            lines.push(current);
            if let Some((_, n)) = &mut current {
                *n += 1;
            }
        }
        // The empty line after a final newline holds no text.
        if text.ends_with('\n') {
            if let Some(last) = lines.last_mut() {
                *last = None;
            }
        }
        Origins::new(file, text, lines)
    }

    /// `span` moved into the original file its text came from (unchanged when it lies in
    /// another file or its origin is unknown). A span on a line of unknown origin (the end
    /// of the text, a line marker) is placed at the end of the nearest line above it whose
    /// origin is known.
    pub fn map(&self, sources: &SourceMap, span: Span) -> Span {
        if span.file != self.file {
            return span;
        }
        let Some(pre) = sources.file(self.file) else {
            return span;
        };
        let start = span.start as usize;
        let line = self.line_starts.partition_point(|s| *s <= start).max(1) - 1;
        let known = (0..=line)
            .rev()
            .find_map(|l| self.lines.get(l).copied().flatten().map(|o| (l, o)));
        let Some((at, (orig_file, orig_line))) = known else {
            return span;
        };
        let Some(orig) = sources.file(orig_file) else {
            return span;
        };
        let Some((orig_start, orig_text)) = nth_line(&orig.text, orig_line) else {
            return span;
        };
        if at != line {
            let end = orig_start + orig_text.len();
            return Span::new(orig_file, end, end);
        }
        let (pre_start, pre_text) = self.line_text(&pre.text, line);
        let lo = start - pre_start;
        let hi = (span.end as usize)
            .clamp(start, pre_start + pre_text.len())
            .saturating_sub(pre_start);
        let (a, b) = align(pre_text, orig_text, lo, hi);
        Span::new(orig_file, orig_start + a, orig_start + b)
    }

    /// The origin of every line.
    #[cfg(test)]
    pub fn lines(&self) -> &[Option<(FileId, u32)>] {
        &self.lines
    }

    /// Start offset and text (without newline) of line `line` (0-based) of `text`.
    fn line_text<'t>(&self, text: &'t str, line: usize) -> (usize, &'t str) {
        let start = self.line_starts.get(line).copied().unwrap_or(text.len());
        let rest = text.get(start..).unwrap_or("");
        (start, rest.split('\n').next().unwrap_or(""))
    }
}

/// The character at 1-based `line` and `column` of `file` (the whole line when the column is
/// 0 or beyond the line), if the file has that line.
pub(crate) fn point(sources: &SourceMap, file: FileId, line: u32, column: u32) -> Option<Span> {
    let (start, text) = nth_line(&sources.file(file)?.text, line)?;
    let at = (column as usize)
        .checked_sub(1)
        .and_then(|c| text.char_indices().nth(c));
    Some(match at {
        Some((b, ch)) => Span::new(file, start + b, start + b + ch.len_utf8()),
        None => Span::new(file, start, start + text.len()),
    })
}

/// Byte offsets of the starts of the lines of `text`.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// Start offset and text (without newline or `\r`) of the 1-based line `n` of `text`.
fn nth_line(text: &str, n: u32) -> Option<(usize, &str)> {
    let start = line_starts(text)
        .get((n as usize).checked_sub(1)?)
        .copied()?;
    let line = text[start..].split('\n').next().unwrap_or("");
    Some((start, line.strip_suffix('\r').unwrap_or(line)))
}

/// The byte range of `orig` that corresponds to `lo..hi` of `pre` (a preprocessed line and
/// the original line it came from), aligning the two lines on their non-blank characters:
/// the common leading and trailing characters map one to one, and everything between maps
/// onto the part between in `orig`.
pub(crate) fn align(pre: &str, orig: &str, lo: usize, hi: usize) -> (usize, usize) {
    let p: Vec<(usize, char)> = pre
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .collect();
    let o: Vec<(usize, char)> = orig
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .collect();
    if o.is_empty() {
        return (0, orig.len());
    }
    let prefix = p.iter().zip(&o).take_while(|(a, b)| a.1 == b.1).count();
    let room = p.len().min(o.len()) - prefix;
    let suffix = p
        .iter()
        .rev()
        .zip(o.iter().rev())
        .take(room)
        .take_while(|(a, b)| a.1 == b.1)
        .count();
    // Where the `i`-th non-blank character of `pre` lies in `orig`: `Ok(byte)` for a
    // character of the common prefix or suffix, `Err(())` for one of the expanded middle.
    let place = |i: usize| -> Result<usize, ()> {
        if i < prefix {
            Ok(o[i].0)
        } else if i >= p.len() - suffix {
            Ok(o[i + o.len() - p.len()].0)
        } else {
            Err(())
        }
    };
    let end_of = |k: usize| o[k].0 + o[k].1.len_utf8();
    // The middle of `orig`: from its first differing character to its last one (empty,
    // between the prefix and the suffix, when only `pre` has text there).
    let middle = if prefix < o.len() - suffix {
        (o[prefix].0, end_of(o.len() - suffix - 1))
    } else {
        let at = o.get(prefix).map_or(orig.len(), |c| c.0);
        (at, at)
    };
    let first = p.iter().position(|(b, _)| *b >= lo);
    let last = p.iter().rposition(|(b, _)| *b < hi.max(lo + 1));
    let start = match first.map(place) {
        Some(Ok(b)) => b,
        Some(Err(())) => middle.0,
        None => orig.trim_end().len(),
    };
    let end = match last.filter(|l| Some(*l) >= first).map(|l| (l, place(l))) {
        Some((l, Ok(b))) => b + p[l].1.len_utf8(),
        Some((_, Err(()))) => middle.1,
        None => start,
    };
    (start, end.max(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Maps the first occurrence of `what` in `pre` and returns the text it covers in `orig`.
    fn mapped<'o>(pre: &str, orig: &'o str, what: &str) -> &'o str {
        let lo = pre.find(what).expect("the text occurs");
        let (a, b) = align(pre, orig, lo, lo + what.len());
        &orig[a..b]
    }

    #[test]
    fn alignment_ignores_blanks_and_maps_expansions_onto_invocations() {
        // (preprocessed line, original line, text of the preprocessed line, what it covers
        // in the original)
        let table = [
            // Identical lines map one to one.
            ("VAR x : 0..3;", "VAR x : 0..3;", "0..3", "0..3"),
            // cpp collapses blank runs.
            ("VAR x : 0..3;", "VAR   x   :   0..3;", "x", "x"),
            ("VAR x : 0..3;", "VAR   x   :   0..3;", ": 0..3", ":   0..3"),
            // A macro: `N` expanded to `2`.
            (
                "DEFINE big := x > 2;",
                "DEFINE  big :=   x  >  N;",
                "2",
                "N",
            ),
            (
                "DEFINE big := x > 2;",
                "DEFINE  big :=   x  >  N;",
                "big",
                "big",
            ),
            (
                "DEFINE big := x > 2;",
                "DEFINE  big :=   x  >  N;",
                ";",
                ";",
            ),
            // A function-like macro: its whole expansion maps onto its invocation.
            (
                "next(x) := ((x) + 1) mod 4;",
                "next(x) := INC(x);",
                "(x) + 1",
                "INC(x)",
            ),
            (
                "next(x) := ((x) + 1) mod 4;",
                "next(x) := INC(x);",
                "next",
                "next",
            ),
            // A span covering the prefix and the expansion.
            ("y := 2 + 1;", "y := N + 1;", ":= 2 +", ":= N +"),
            // Text only the preprocessed line has (a macro expanded to nothing).
            ("x := 1;", "x := EMPTY 1;", "1", "1"),
        ];
        for (pre, orig, what, want) in table {
            assert_eq!(
                mapped(pre, orig, what),
                want,
                "{what:?} of {pre:?} in {orig:?}"
            );
        }
    }

    #[test]
    fn spans_move_to_the_line_and_file_they_came_from() {
        let mut sources = SourceMap::new();
        let pre_text =
            "# 1 \"m.smv\"\nMODULE main\nVAR x : 0..3;\n# 2 \"inc.smv\"\nDEFINE d := 2;\n";
        let pre = sources.add("m.smv", pre_text);
        let main = sources.add(
            "m.smv",
            "MODULE main\nVAR x   : 0..3;\n#include \"inc.smv\"\n",
        );
        let inc = sources.add("inc.smv", "-- the include\nDEFINE d := N;\n");
        let origins = Origins::new(
            pre,
            pre_text,
            vec![
                None,
                Some((main, 1)),
                Some((main, 2)),
                None,
                Some((inc, 2)),
                None,
            ],
        );
        let span_of = |what: &str| {
            let at = pre_text.find(what).expect("occurs");
            Span::new(pre, at, at + what.len())
        };
        let m = origins.map(&sources, span_of("0..3"));
        assert_eq!(m.file, main);
        assert_eq!(sources.snippet(m), "0..3");
        assert_eq!(sources.location(m).to_string(), "m.smv:2:11");
        let d = origins.map(&sources, span_of("2;"));
        assert_eq!((d.file, sources.snippet(d)), (inc, "N;"));
        assert_eq!(sources.location(d).to_string(), "inc.smv:2:13");
        // The end of the text: the end of the last line of known origin.
        let eof = Span::new(pre, pre_text.len(), pre_text.len());
        let e = origins.map(&sources, eof);
        assert_eq!(sources.location(e).to_string(), "inc.smv:2:15");
        // Spans in other files are left alone.
        let other = Span::new(main, 0, 6);
        assert_eq!(origins.map(&sources, other), other);
    }
}
