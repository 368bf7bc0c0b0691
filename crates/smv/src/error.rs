//! Errors of the SMV front-end: every problem in the model text carries a [`Span`].

use std::path::PathBuf;

use hypermut_ir::{Diagnostic, SourceMap, Span};

/// A located problem found while lexing, parsing or elaborating, before it is rendered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Diag {
    /// Where the problem is.
    pub span: Span,
    /// What is wrong (without location).
    pub message: String,
    /// Whether the problem is in the I/O options rather than in the model text.
    pub in_options: bool,
}

impl Diag {
    /// A diagnostic at `span`.
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Diag {
            span,
            message: message.into(),
            in_options: false,
        }
    }

    /// A problem with the `inputs`/`outputs` options (no source location).
    pub fn option(span: Span, message: impl Into<String>) -> Self {
        Diag {
            span,
            message: message.into(),
            in_options: true,
        }
    }

    /// Renders the diagnostic against the sources it refers to.
    pub fn into_error(self, sources: &SourceMap) -> SmvError {
        if self.in_options {
            return SmvError::Options {
                message: self.message,
            };
        }
        SmvError::Source {
            span: self.span,
            diagnostic: Diagnostic::error(sources, self.span, self.message),
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
    /// The source range of a model-text problem (`None` for I/O and internal errors).
    pub fn span(&self) -> Option<Span> {
        match self {
            SmvError::Source { span, .. } => Some(*span),
            SmvError::Io { .. } | SmvError::Internal { .. } | SmvError::Options { .. } => None,
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
    /// `None` for errors that are not about a place in the model (options, I/O, internal),
    /// whose `Display` is a plain sentence without `error:` prefix.
    pub fn diagnostic(&self) -> Option<Diagnostic> {
        match self {
            SmvError::Source { diagnostic, .. } => Some(diagnostic.clone()),
            SmvError::Io { .. } | SmvError::Internal { .. } | SmvError::Options { .. } => None,
        }
    }
}
