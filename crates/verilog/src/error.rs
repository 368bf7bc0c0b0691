//! Errors of the Verilog front-end: every problem in the design text carries a [`Span`].

use std::path::PathBuf;

use hypermut_ir::{Diagnostic, Severity, SourceMap, Span};

/// A located problem found while preprocessing, parsing or elaborating, before rendering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Diag {
    /// Where the problem is.
    pub span: Span,
    /// What is wrong (without location).
    pub message: String,
}

impl Diag {
    /// A diagnostic at `span`.
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Diag {
            span,
            message: message.into(),
        }
    }

    /// Renders the diagnostic against the sources it refers to.
    pub fn into_error(self, sources: &SourceMap) -> VerilogError {
        VerilogError::Source {
            span: self.span,
            diagnostic: Diagnostic::error(sources, self.span, self.message),
        }
    }
}

/// Result type of the front-end's internal passes.
pub(crate) type DResult<T> = Result<T, Diag>;

/// Why a Verilog design could not be turned into a [`hypermut_ir::System`].
#[derive(Debug, thiserror::Error)]
pub enum VerilogError {
    /// A problem in the design text. Displays as its diagnostic:
    /// `file:line:col: error: message`, the source line and a caret underline.
    #[error("{diagnostic}")]
    Source {
        /// Where the problem is.
        span: Span,
        /// The located error (severity [`Severity::Error`]) shown by `Display`.
        diagnostic: Diagnostic,
    },
    /// A design file could not be read.
    #[error("{}: cannot read design file: {source}", .path.display())]
    Io {
        /// The path that was given.
        path: PathBuf,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A problem with the design as a whole (no file position), e.g. no top module.
    #[error("error: {0}")]
    Design(String),
    /// The front-end failed internally (a bug, reported instead of panicking).
    #[error("internal error in the Verilog front-end: {0}")]
    Internal(String),
}

impl VerilogError {
    /// The source range of a design-text problem (`None` otherwise).
    pub fn span(&self) -> Option<Span> {
        match self {
            VerilogError::Source { span, .. } => Some(*span),
            _ => None,
        }
    }

    /// The message without location or caret lines.
    pub fn message(&self) -> String {
        match self {
            VerilogError::Source { diagnostic, .. } => diagnostic.message.clone(),
            VerilogError::Design(m) => m.clone(),
            other => other.to_string(),
        }
    }

    /// The error in compiler form when it has one (its `Display` is exactly this error's
    /// `Display`): a located design-text error (`file:line:col: error: message`, source line
    /// and caret) or a design-wide one without location (`error: message`). `None` for I/O and
    /// internal errors, whose `Display` is a plain sentence without `error:` prefix.
    pub fn diagnostic(&self) -> Option<Diagnostic> {
        match self {
            VerilogError::Source { diagnostic, .. } => Some(diagnostic.clone()),
            VerilogError::Design(message) => {
                Some(Diagnostic::new(Severity::Error, message.clone()))
            }
            VerilogError::Io { .. } | VerilogError::Internal(_) => None,
        }
    }
}
