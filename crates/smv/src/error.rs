//! Errors of the SMV front-end: every problem in the model text carries a [`Span`].

use std::path::PathBuf;

use hypermut_ir::{Diagnostic, SourceMap, Span};

/// Stands in a [`Diag`]'s message for the line of its [`Diag::line_of`] span ("line 12", or
/// "line 3 of inc.smv" in another file), which is only known once the spans of a
/// preprocessed model are traced to the original files.
pub(crate) const LINE: &str = "\u{0}line\u{0}";

/// A located problem found while lexing, parsing or elaborating, before it is rendered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Diag {
    /// Where the problem is.
    pub span: Span,
    /// What is wrong (without location).
    pub message: String,
    /// Whether the problem is in the I/O options rather than in the model text.
    pub in_options: bool,
    /// The place whose line the message names in place of [`LINE`].
    pub line_of: Option<Span>,
}

impl Diag {
    /// A diagnostic at `span`.
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Diag {
            span,
            message: message.into(),
            in_options: false,
            line_of: None,
        }
    }

    /// A problem with the `inputs`/`outputs` options (no source location).
    pub fn option(span: Span, message: impl Into<String>) -> Self {
        Diag {
            in_options: true,
            ..Diag::new(span, message)
        }
    }

    /// The same diagnostic, whose message names the line of `at` where it says [`LINE`].
    pub fn with_line_of(self, at: Span) -> Self {
        Diag {
            line_of: Some(at),
            ..self
        }
    }

    /// The message with [`LINE`] replaced by the line of [`Diag::line_of`].
    fn text(&self, sources: &SourceMap) -> String {
        let (Some(at), Some(k)) = (self.line_of, self.message.rfind(LINE)) else {
            return self.message.clone();
        };
        let loc = sources.location(at);
        let line = if at.file == self.span.file {
            format!("line {}", loc.line)
        } else {
            format!("line {} of {}", loc.line, loc.file)
        };
        format!(
            "{}{line}{}",
            &self.message[..k],
            &self.message[k + LINE.len()..]
        )
    }

    /// Renders the diagnostic against the sources it refers to.
    pub fn into_error(self, sources: &SourceMap) -> SmvError {
        let message = self.text(sources);
        if self.in_options {
            return SmvError::Options { message };
        }
        SmvError::Source {
            span: self.span,
            diagnostic: Diagnostic::error(sources, self.span, message),
        }
    }
}

/// Why an SMV model could not be turned into a [`hypermut_ir::System`].
#[derive(Debug, thiserror::Error)]
pub enum SmvError {
    /// A problem in the model text. Displays as its diagnostic:
    /// `file:line:col: error: message`, the source line and a caret underline.
    #[error("{diagnostic}")]
    Source {
        /// Where the problem is.
        span: Span,
        /// The located error (severity [`hypermut_ir::Severity::Error`]) shown by `Display`.
        diagnostic: Diagnostic,
    },
    /// The `inputs`/`outputs` options name something the model does not declare.
    #[error("{message}")]
    Options {
        /// What is wrong.
        message: String,
    },
    /// The model file could not be read.
    #[error("{}: cannot read model: {source}", .path.display())]
    Io {
        /// The path that was given.
        path: PathBuf,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A preprocessor of [`crate::SmvOptions::pre`] is missing or failed; the message names
    /// the program and repeats what it said (cpp and m4 locate their own errors, such as a
    /// missing `#include` file, in the original files).
    #[error("{message}")]
    Preprocessor {
        /// The program (`cpp`, `m4`).
        program: String,
        /// What went wrong, starting with the model's name.
        message: String,
    },
    /// The front-end failed internally (a bug, reported instead of panicking).
    #[error("{name}: internal error in the SMV front-end: {detail}")]
    Internal {
        /// The model's display name.
        name: String,
        /// What went wrong.
        detail: String,
    },
}

impl SmvError {
    /// The source range of a model-text problem (`None` for I/O, preprocessor and internal
    /// errors). For a preprocessed model it lies in the original file the problem is in (a
    /// file of the system's source map after the preprocessed text, see
    /// [`crate::load_smv_with`]).
    pub fn span(&self) -> Option<Span> {
        match self {
            SmvError::Source { span, .. } => Some(*span),
            SmvError::Io { .. }
            | SmvError::Internal { .. }
            | SmvError::Options { .. }
            | SmvError::Preprocessor { .. } => None,
        }
    }

    /// The message without location or caret lines.
    pub fn message(&self) -> String {
        match self {
            SmvError::Source { diagnostic, .. } => diagnostic.message.clone(),
            other => other.to_string(),
        }
    }

    /// The located error in the model text, already in compiler form (its `Display` is exactly
    /// this error's `Display`: `file:line:col: error: message`, source line and caret);
    /// `None` for errors that are not about a place in the model (options, I/O,
    /// preprocessor, internal),
    /// whose `Display` is a plain sentence without `error:` prefix.
    pub fn diagnostic(&self) -> Option<Diagnostic> {
        match self {
            SmvError::Source { diagnostic, .. } => Some(diagnostic.clone()),
            SmvError::Io { .. }
            | SmvError::Internal { .. }
            | SmvError::Options { .. }
            | SmvError::Preprocessor { .. } => None,
        }
    }
}
