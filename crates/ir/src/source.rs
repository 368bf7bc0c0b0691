//! Source files, byte spans and caret-style diagnostics.

use serde::{Deserialize, Serialize};

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FileId(pub u32);

/// A byte range `start..end` in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Span {
    /// The file the range lies in.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span in `file` covering `start..end`.
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }
}

/// One loaded source file: its display name and full text.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SourceFile {
    /// Name shown in diagnostics (usually the path as given by the user).
    pub name: String,
    /// The file contents.
    pub text: String,
}

/// The source files a system was built from.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

/// A resolved source position (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Location {
    /// File display name.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file and returns its id. A file of the same name and text already in the map
    /// (a header included twice) keeps its id, so that one source text has one span and a
    /// mutation of it is one mutant of all its uses.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        let file = SourceFile {
            name: name.into(),
            text: text.into(),
        };
        if let Some(k) =
            (self.files.iter()).position(|f| f.name == file.name && f.text == file.text)
        {
            return FileId(k as u32);
        }
        self.files.push(file);
        FileId(self.files.len() as u32 - 1)
    }

    /// The file with this id, if any.
    pub fn file(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }

    /// All files, in insertion order.
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// The source text a span covers (empty if the span is invalid).
    pub fn snippet(&self, span: Span) -> &str {
        self.file(span.file)
            .and_then(|f| f.text.get(span.start as usize..span.end as usize))
            .unwrap_or("")
    }

    /// File, line and column of the start of a span.
    pub fn location(&self, span: Span) -> Location {
        match self.file(span.file) {
            Some(f) => {
                let (line, column, _) = line_col(&f.text, span.start as usize);
                Location {
                    file: f.name.clone(),
                    line,
                    column,
                }
            }
            None => Location {
                file: "<unknown>".into(),
                line: 0,
                column: 0,
            },
        }
    }

    /// The lines under a diagnostic's headline that show where `span` is: an empty gutter
    /// line, the source line, and a caret line underlining the span (see [`caret_snippet`]);
    /// `None` if the span's file is unknown.
    pub fn caret(&self, span: Span) -> Option<String> {
        let f = self.file(span.file)?;
        Some(caret_snippet(
            &f.text,
            span.start as usize,
            span.end as usize,
        ))
    }

    /// A diagnostic `file:line:col: error: message` followed by the source line and a caret.
    pub fn render(&self, span: Span, message: &str) -> String {
        let Some(f) = self.file(span.file) else {
            return format!("error: {message}");
        };
        render_at(
            &f.name,
            &f.text,
            span.start as usize,
            span.end as usize,
            message,
        )
    }
}

/// 1-based line, 1-based character column and byte offset of the line start for `offset`.
fn line_col(text: &str, offset: usize) -> (usize, usize, usize) {
    let offset = offset.min(text.len());
    let mut line_start = 0;
    let mut line = 1;
    for (i, b) in text.bytes().enumerate() {
        if i >= offset {
            break;
        }
        if b == b'\n' {
            line += 1;
            line_start = i + 1;
        }
    }
    let col = text
        .get(line_start..offset)
        .map(|s| s.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col, line_start)
}

/// Renders `name:line:col: error: message`, the offending source line and a caret line
/// underlining `start..end` (at least one caret).
pub fn render_at(name: &str, text: &str, start: usize, end: usize, message: &str) -> String {
    let (line, col, _) = line_col(text, start);
    let snippet = caret_snippet(text, start, end);
    format!("{name}:{line}:{col}: error: {message}\n{snippet}\n")
}

/// The three lines that show `start..end` of `text`: an empty gutter line, the source line of
/// `start` prefixed with its number, and a caret line underlining the range on that line (at
/// least one caret). No trailing newline.
pub fn caret_snippet(text: &str, start: usize, end: usize) -> String {
    let start = start.min(text.len());
    let (line, col, line_start) = line_col(text, start);
    let line_end = text
        .get(line_start..)
        .and_then(|rest| rest.find('\n'))
        .map(|i| line_start + i)
        .unwrap_or(text.len());
    let src_line = text.get(line_start..line_end).unwrap_or("");
    let end = end.clamp(start, line_end.max(start));
    let width = text
        .get(start..end.min(text.len()))
        .map(|s| s.chars().count())
        .unwrap_or(0)
        .max(1);
    let gutter = line.to_string().len();
    format!(
        "{:gutter$} |\n{line} | {src_line}\n{:gutter$} | {}{}",
        "",
        "",
        " ".repeat(col - 1),
        "^".repeat(width),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn location_and_caret() {
        let mut m = SourceMap::new();
        let f = m.add("a.smv", "MODULE main\nVAR x : boolean;\n");
        let span = Span::new(f, 16, 17);
        assert_eq!(m.location(span).to_string(), "a.smv:2:5");
        let r = m.render(span, "bad");
        assert!(r.starts_with("a.smv:2:5: error: bad\n"), "{r}");
        assert!(r.contains("2 | VAR x : boolean;\n  |     ^\n"), "{r}");
        assert_eq!(m.snippet(span), "x");
    }

    #[test]
    fn a_file_added_twice_keeps_its_id() {
        let mut m = SourceMap::new();
        let a = m.add("defs.v", "`define W 4");
        let b = m.add("top.v", "module t; endmodule");
        assert_eq!(m.add("defs.v", "`define W 4"), a);
        // Another text under the same name (an edited copy) is another file.
        let c = m.add("defs.v", "`define W 5");
        assert!(c != a && c != b);
        assert_eq!(m.files().len(), 3);
    }

    #[test]
    fn caret_at_end_of_file() {
        let r = render_at("f", "abc", 3, 3, "eof");
        assert!(r.starts_with("f:1:4: error: eof"), "{r}");
        assert!(r.ends_with("|    ^\n"), "{r}");
    }
}
