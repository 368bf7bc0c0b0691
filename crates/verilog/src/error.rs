//! Errors of the Verilog front-end: every problem in the design text carries a [`Span`].

use std::path::PathBuf;

use hypermut_ir::{SourceMap, Span};

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
        let rendered = sources
            .render(self.span, &self.message)
            .trim_end()
            .to_string();
        VerilogError::Source {
            span: self.span,
            message: self.message,
            rendered,
        }
    }
}

/// Result type of the front-end's internal passes.
pub(crate) type DResult<T> = Result<T, Diag>;

/// Why a Verilog design could not be turned into a [`hypermut_ir::System`].
#[derive(Debug, thiserror::Error)]
pub enum VerilogError {
    /// A problem in the design text. Displays as `file:line:col: error: message`, the source
    /// line and a caret underline.
    #[error("{rendered}")]
    Source {
        /// Where the problem is.
        span: Span,
        /// The bare message, without location.
        message: String,
        /// The caret diagnostic shown by `Display`.
        rendered: String,
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
            VerilogError::Source { message, .. } => message.clone(),
            VerilogError::Design(m) => m.clone(),
            other => other.to_string(),
        }
    }
}
