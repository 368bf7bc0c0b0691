//! File lists (`-f FILE`), the way simulators and synthesis tools read them, and the design
//! files a command line names.
//!
//! A file list holds words separated by white space (usually one per line):
//!
//! * a path: a Verilog file of the design (`.v`, `.sv`, `.vh`, `.vl`, `.svh`), relative to the
//!   folder of the list that names it (or absolute);
//! * `+incdir+DIR[+DIR…]` and `-I DIR` (or `-IDIR`): folders searched for `` `include `` files,
//!   relative to the list's folder;
//! * `+define+NAME[=VALUE][+NAME[=VALUE]…]` and `-D NAME[=VALUE]` (or `-DNAME…`): macros;
//! * `-f FILE` (or `-F FILE`): another list, read in place, relative to the list's folder;
//! * comments: `//` and `#` to the end of the line, `/* … */`; blank lines;
//! * `"…"` quotes a path with spaces.
//!
//! Files keep the order in which the lists name them. Any other option (`-v`, `-y`,
//! `+libext+`, …) is refused rather than ignored, and so are a missing file, a file of another
//! language and a list that includes itself: each error is located (`list.f:line:col`, the
//! line and a caret) like every error in a model.

use std::path::{Path, PathBuf};

use hypermut_ir::{Diagnostic, FileId, Language, SourceMap, Span};

/// One piece of a model as a command line names it; pieces are read in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelSource {
    /// A model file.
    File(PathBuf),
    /// A file list (`-f FILE`).
    List(PathBuf),
}

impl ModelSource {
    /// How the command line spells it: the path, or `-f PATH` for a list.
    pub fn describe(&self) -> String {
        match self {
            ModelSource::File(p) => p.display().to_string(),
            ModelSource::List(p) => format!("-f {}", p.display()),
        }
    }
}

/// The files of a design and the include folders and macros its file lists add.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DesignFiles {
    /// The design files, in the order they are read.
    pub files: Vec<PathBuf>,
    /// Folders searched for `` `include `` files (`+incdir+`, `-I`), in order.
    pub include_dirs: Vec<PathBuf>,
    /// Macros (`+define+`, `-D`), as `NAME` or `NAME=VALUE`, in order.
    pub defines: Vec<String>,
}

impl DesignFiles {
    /// Expands `sources` in order: a file is taken as it is (the front-end reads and checks
    /// it), a file list is replaced by what it names.
    pub fn expand(sources: &[ModelSource]) -> Result<DesignFiles, FileListError> {
        let mut reader = Reader::default();
        for source in sources {
            match source {
                ModelSource::File(p) => reader.out.files.push(p.clone()),
                ModelSource::List(p) => reader.list(p, None)?,
            }
        }
        Ok(reader.out)
    }
}

/// Reads the file list `path` and the lists it includes.
pub fn read_file_list(path: &Path) -> Result<DesignFiles, FileListError> {
    DesignFiles::expand(&[ModelSource::List(path.to_path_buf())])
}

/// Reads the text of a file list called `name` (shown in errors) whose relative paths are
/// relative to `dir`; lists it includes are read from disk.
pub fn parse_file_list(name: &str, text: &str, dir: &Path) -> Result<DesignFiles, FileListError> {
    let mut reader = Reader::default();
    reader.text(name, text, dir)?;
    Ok(reader.out)
}

/// Why a file list could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FileListError {
    /// A problem at a place in a file list. Displays as its diagnostic:
    /// `list.f:line:col: error: message`, the line and a caret.
    #[error("{0}")]
    Source(Box<Diagnostic>),
    /// A file list named on the command line could not be read.
    #[error("{}: cannot read file list: {source}", path.display())]
    Io {
        /// The list, as given.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

impl FileListError {
    /// The located diagnostic of an error in a list's text (`None` for an unreadable list).
    pub fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            FileListError::Source(d) => Some(d),
            FileListError::Io { .. } => None,
        }
    }
}

/// How deep lists may include lists (deeper is taken for a runaway chain).
const MAX_NESTING: usize = 64;

/// A word of a file list and where it is.
struct Word {
    text: String,
    span: Span,
}

/// Reads lists into `out`, keeping their text for located errors.
#[derive(Default)]
struct Reader {
    sources: SourceMap,
    /// The lists being read, outermost first (as given, and as found on disk).
    open: Vec<(PathBuf, PathBuf)>,
    out: DesignFiles,
}

impl Reader {
    /// An error at `span`.
    fn error(&self, span: Span, message: impl Into<String>) -> FileListError {
        FileListError::Source(Box::new(Diagnostic::error(&self.sources, span, message)))
    }

    /// Reads the list at `path`; `from` is the place of the `-f` that names it, if any.
    fn list(&mut self, path: &Path, from: Option<Span>) -> Result<(), FileListError> {
        let text = std::fs::read_to_string(path).map_err(|source| match from {
            Some(span) => self.error(
                span,
                format!("cannot read file list `{}`: {source}", path.display()),
            ),
            None => FileListError::Io {
                path: path.to_path_buf(),
                source,
            },
        })?;
        let found = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        if let (Some(span), Some(at)) = (from, self.open.iter().position(|(_, f)| *f == found)) {
            let chain: Vec<String> = self.open[at..]
                .iter()
                .map(|(p, _)| p.display().to_string())
                .chain([path.display().to_string()])
                .collect();
            return Err(self.error(
                span,
                format!("file list includes itself: {}", chain.join(" -> ")),
            ));
        }
        if let (Some(span), true) = (from, self.open.len() >= MAX_NESTING) {
            return Err(self.error(
                span,
                format!("file lists nested more than {MAX_NESTING} deep"),
            ));
        }
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        self.open.push((path.to_path_buf(), found));
        let r = self.text(&path.display().to_string(), &text, &dir);
        self.open.pop();
        r
    }

    /// Reads the text of the list `name` whose relative paths start in `dir`.
    fn text(&mut self, name: &str, text: &str, dir: &Path) -> Result<(), FileListError> {
        let file = self.sources.add(name, text);
        let words = words(file, text).map_err(|(span, m)| self.error(span, m))?;
        let mut words = words.into_iter();
        while let Some(w) = words.next() {
            let t = w.text.as_str();
            if let Some(rest) = t.strip_prefix("+incdir+") {
                let dirs: Vec<&str> = rest.split('+').filter(|d| !d.is_empty()).collect();
                if dirs.is_empty() {
                    return Err(self.error(w.span, "`+incdir+` names no folder"));
                }
                for d in dirs {
                    self.out.include_dirs.push(resolve(dir, d));
                }
            } else if let Some(rest) = t.strip_prefix("+define+") {
                let defs: Vec<&str> = rest.split('+').filter(|d| !d.is_empty()).collect();
                if defs.is_empty() {
                    return Err(self.error(w.span, "`+define+` names no macro"));
                }
                for d in defs {
                    self.define(d, w.span)?;
                }
            } else if let Some(rest) = t.strip_prefix("-I") {
                let d = self.argument(rest, &mut words, &w, "a folder")?;
                self.out.include_dirs.push(resolve(dir, &d.text));
            } else if let Some(rest) = t.strip_prefix("-D") {
                let d = self.argument(rest, &mut words, &w, "a macro")?;
                self.define(&d.text, d.span)?;
            } else if t == "-f" || t == "-F" {
                let l = self.argument("", &mut words, &w, "a file list")?;
                self.list(&resolve(dir, &l.text), Some(l.span))?;
            } else if t.starts_with('+') || t.starts_with('-') {
                return Err(self.error(
                    w.span,
                    format!(
                        "unsupported option `{t}` in a file list (supported: design files, +incdir+, +define+, -I, -D, -f)"
                    ),
                ));
            } else {
                let path = resolve(dir, t);
                self.design_file(&path, &w)?;
                self.out.files.push(path);
            }
        }
        Ok(())
    }

    /// The argument of `-I`/`-D`/`-f`: `rest` when it is attached to the option (`-Idir`),
    /// else the next word.
    fn argument(
        &self,
        rest: &str,
        words: &mut impl Iterator<Item = Word>,
        option: &Word,
        what: &str,
    ) -> Result<Word, FileListError> {
        match rest {
            r if !r.is_empty() => Ok(Word {
                text: r.to_string(),
                span: Span {
                    file: option.span.file,
                    start: option.span.start + 2,
                    end: option.span.end,
                },
            }),
            _ => words.next().ok_or_else(|| {
                self.error(
                    option.span,
                    format!("`{}` needs {what} after it", option.text),
                )
            }),
        }
    }

    /// Adds the macro `text` (`NAME` or `NAME=VALUE`) written at `span`.
    fn define(&mut self, text: &str, span: Span) -> Result<(), FileListError> {
        let name = text.split_once('=').map_or(text, |(n, _)| n);
        let mut chars = name.chars();
        let ok = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        if !ok {
            return Err(self.error(span, format!("`{name}` is not a macro name")));
        }
        self.out.defines.push(text.to_string());
        Ok(())
    }

    /// Checks that the design file a list names at `w` exists and is Verilog.
    fn design_file(&self, path: &Path, w: &Word) -> Result<(), FileListError> {
        if !path.is_file() {
            let why = if path.is_dir() {
                "is a folder, not a file"
            } else {
                "does not exist"
            };
            return Err(self.error(w.span, format!("design file {} {why}", path.display())));
        }
        match Language::of_file_name(&w.text) {
            Some(Language::Verilog) => Ok(()),
            Some(Language::Smv) => Err(self.error(
                w.span,
                "a file list names the files of a Verilog design; an SMV model is one file, given alone",
            )),
            None => Err(self.error(
                w.span,
                "not a Verilog file (expected `.v`, `.sv`, `.vh`, `.vl` or `.svh`)",
            )),
        }
    }
}

/// `p` relative to `dir` unless it is absolute.
fn resolve(dir: &Path, p: &str) -> PathBuf {
    let p = Path::new(p);
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        dir.join(p)
    }
}

/// The words of a list, without comments; an unterminated comment or quote is an error.
fn words(file: FileId, text: &str) -> Result<Vec<Word>, (Span, String)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let at = |s: usize, e: usize| Span::new(file, s, e);
    let comment_at = |i: usize| bytes[i..].starts_with(b"//") || bytes[i..].starts_with(b"/*");
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'#' || bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if bytes[i..].starts_with(b"/*") {
            match text[i + 2..].find("*/") {
                Some(k) => i += 2 + k + 2,
                None => return Err((at(i, i + 2), "unterminated block comment".into())),
            }
        } else if c == b'"' {
            let end = text[i + 1..]
                .find(['"', '\n'])
                .map(|k| i + 1 + k)
                .filter(|&e| bytes[e] == b'"')
                .ok_or_else(|| (at(i, i + 1), "unterminated quoted path".to_string()))?;
            out.push(Word {
                text: text[i + 1..end].to_string(),
                span: at(i, end + 1),
            });
            i = end + 1;
        } else {
            let start = i;
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !comment_at(i) {
                i += 1;
            }
            out.push(Word {
                text: text[start..i].to_string(),
                span: at(start, i),
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
