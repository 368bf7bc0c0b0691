//! Typed diagnostics: what the front-ends report about a model, with a severity, an optional
//! source location and an optional caret snippet.
//!
//! A [`Diagnostic`] displays in the conventional compiler form:
//!
//! ```text
//! model.smv:3:7: warning: message
//!   |
//! 3 | ASSIGN next(x) := case c : 1; esac;
//!   |       ^^^^^^^
//! ```
//!
//! (the last three lines only when a snippet is present; `warning: message` alone when there
//! is no location). The rendering has no trailing newline.

use serde::{Deserialize, Serialize};

use crate::source::{Location, SourceMap, Span};

/// How serious a [`Diagnostic`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Severity {
    /// The input was rejected.
    Error,
    /// The input was accepted, but possibly with a meaning the user does not expect.
    Warning,
    /// Purely informational: something was accepted, skipped or approximated harmlessly.
    Note,
}

impl Severity {
    /// The lower-case label used in the rendering: `error`, `warning` or `note`.
    pub fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// One message about a model: its severity, where it is, what it says and, when the source is
/// known, the source line with a caret under the place.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Diagnostic {
    /// How serious it is.
    pub severity: Severity,
    /// Where it is (`None` for problems with the input as a whole).
    pub location: Option<Location>,
    /// What it says, without location or severity.
    pub message: String,
    /// The lines shown under the headline: an empty gutter line, the numbered source line and
    /// a caret line (see [`crate::source::caret_snippet`]), without a trailing newline.
    pub snippet: Option<String>,
}

impl Diagnostic {
    /// A diagnostic without location (and so without snippet).
    pub fn new(severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            location: None,
            message: message.into(),
            snippet: None,
        }
    }

    /// A diagnostic at `span`, with its location and caret snippet computed from `sources`
    /// (neither when the span's file is not in `sources`).
    pub fn at(
        severity: Severity,
        sources: &SourceMap,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        let known = sources.file(span.file).is_some();
        Diagnostic {
            severity,
            location: known.then(|| sources.location(span)),
            message: message.into(),
            snippet: sources.caret(span),
        }
    }

    /// An error at `span` (see [`Diagnostic::at`]).
    pub fn error(sources: &SourceMap, span: Span, message: impl Into<String>) -> Self {
        Self::at(Severity::Error, sources, span, message)
    }

    /// A warning at `span` (see [`Diagnostic::at`]).
    pub fn warning(sources: &SourceMap, span: Span, message: impl Into<String>) -> Self {
        Self::at(Severity::Warning, sources, span, message)
    }

    /// A note at `span` (see [`Diagnostic::at`]).
    pub fn note(sources: &SourceMap, span: Span, message: impl Into<String>) -> Self {
        Self::at(Severity::Note, sources, span, message)
    }

    /// The same diagnostic without its snippet (renders as one line).
    pub fn without_snippet(mut self) -> Self {
        self.snippet = None;
        self
    }

    /// The first line of the rendering: `file:line:col: severity: message`, or
    /// `severity: message` without location.
    pub fn headline(&self) -> String {
        match &self.location {
            Some(loc) => format!("{loc}: {}: {}", self.severity, self.message),
            None => format!("{}: {}", self.severity, self.message),
        }
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.headline())?;
        if let Some(snippet) = &self.snippet {
            write!(f, "\n{snippet}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;

    fn sources() -> (SourceMap, FileId) {
        let mut m = SourceMap::new();
        let f = m.add("a.smv", "MODULE main\nVAR x : boolean;\n");
        (m, f)
    }

    #[test]
    fn warning_renders_headline_line_and_caret() {
        let (m, f) = sources();
        let d = Diagnostic::warning(&m, Span::new(f, 16, 17), "unused");
        assert_eq!(d.severity, Severity::Warning);
        assert_eq!(d.location.as_ref().map(|l| l.line), Some(2));
        assert_eq!(
            d.to_string(),
            "a.smv:2:5: warning: unused\n  |\n2 | VAR x : boolean;\n  |     ^"
        );
        assert_eq!(d.headline(), "a.smv:2:5: warning: unused");
        assert_eq!(
            d.clone().without_snippet().to_string(),
            "a.smv:2:5: warning: unused"
        );
    }

    #[test]
    fn note_underlines_the_whole_span_on_its_line() {
        let (m, f) = sources();
        let d = Diagnostic::note(&m, Span::new(f, 20, 27), "a type");
        assert_eq!(
            d.to_string(),
            "a.smv:2:9: note: a type\n  |\n2 | VAR x : boolean;\n  |         ^^^^^^^"
        );
    }

    #[test]
    fn error_matches_the_source_map_rendering() {
        let (m, f) = sources();
        let span = Span::new(f, 0, 6);
        let d = Diagnostic::error(&m, span, "bad");
        assert!(d.is_error());
        assert_eq!(d.to_string(), m.render(span, "bad").trim_end());
    }

    #[test]
    fn without_location() {
        let d = Diagnostic::new(Severity::Warning, "no top module");
        assert_eq!(d.to_string(), "warning: no top module");
        let (m, _) = sources();
        let d = Diagnostic::note(&m, Span::new(FileId(7), 0, 1), "elsewhere");
        assert_eq!(d.location, None);
        assert_eq!(d.to_string(), "note: elsewhere");
    }

    #[test]
    fn wide_line_numbers_widen_the_gutter() {
        let mut m = SourceMap::new();
        let text = "\n".repeat(11) + "abc\n";
        let f = m.add("w.v", text);
        let d = Diagnostic::warning(&m, Span::new(f, 12, 14), "here");
        assert_eq!(
            d.to_string(),
            "w.v:12:2: warning: here\n   |\n12 | abc\n   |  ^^"
        );
    }

    #[test]
    fn severities_order_by_seriousness() {
        assert!(Severity::Error < Severity::Warning && Severity::Warning < Severity::Note);
        assert_eq!(Severity::Note.to_string(), "note");
    }
}
