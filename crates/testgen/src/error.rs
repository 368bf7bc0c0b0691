//! The errors of the job: loading a model, selecting mutants, the results directory, merging.

use std::path::PathBuf;

use hypermut_aig::blast::BlastError;
use hypermut_hyper::HyperError;
use hypermut_mutate::{EmitError, MutateError};
use hypermut_prove::{BmcError, CertError};
use hypermut_smv::SmvError;
use hypermut_verilog::VerilogError;

use crate::filelist::FileListError;
use crate::reset::ResetError;

/// Why the job (or one of its steps) failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The SMV front-end rejected the model (located, with a caret, when it is a source error).
    #[error(transparent)]
    Smv(#[from] SmvError),
    /// The Verilog front-end rejected the design (located, with a caret, when it is a source
    /// error).
    #[error(transparent)]
    Verilog(#[from] VerilogError),
    /// A model file whose extension names no supported language.
    #[error("{}: unsupported model type `.{ext}` (expected NuSMV `.smv` or Verilog `.v`)", path.display())]
    UnsupportedModelType {
        /// The file.
        path: PathBuf,
        /// Its extension.
        ext: String,
    },
    /// A file list given where a model file was expected.
    #[error("{}: a file list, not a model file: name it with `-f {}`", path.display(), path.display())]
    FileListAsModel {
        /// The list.
        path: PathBuf,
    },
    /// A front-end option that only applies to Verilog was given for an SMV model.
    #[error("{option} applies to Verilog designs, not to the SMV model {}", path.display())]
    VerilogOnlyOption {
        /// The option, as the command line spells it.
        option: &'static str,
        /// The SMV model.
        path: PathBuf,
    },
    /// A front-end option that only applies to SMV was given for a Verilog design.
    #[error("{option} applies to SMV models; a Verilog design's ports are its inputs and outputs ({})", path.display())]
    SmvOnlyOption {
        /// The option, as the command line spells it.
        option: &'static str,
        /// The Verilog design.
        path: PathBuf,
    },
    /// No model file was given.
    #[error("no model file given")]
    NoModel,
    /// A file list (`-f`) could not be read (located, with a caret, when the problem is in its
    /// text).
    #[error(transparent)]
    FileList(#[from] FileListError),
    /// Several SMV files were given: an SMV model is one file.
    #[error("an SMV model is one file, but {} were given ({}); only a Verilog design may have several", files.len(), files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", "))]
    SeveralSmvFiles {
        /// The files, as given.
        files: Vec<PathBuf>,
    },
    /// SMV and Verilog files were given for one model.
    #[error("{} is SMV but {} is Verilog: a model is written in one language (an SMV model is one file)", smv.display(), verilog.display())]
    MixedLanguages {
        /// The first SMV file.
        smv: PathBuf,
        /// The first Verilog file.
        verilog: PathBuf,
    },
    /// The reset input to hold (`--reset`) is no 1-bit input of the model.
    #[error(transparent)]
    Reset(#[from] ResetError),
    /// A mutant id that the model does not have.
    #[error("no mutant with id {id}: {model} has {count} mutants (ids 0..{})", count.saturating_sub(1))]
    NoSuchMutant {
        /// The id asked for.
        id: usize,
        /// The model, as given.
        model: String,
        /// How many mutants it has.
        count: usize,
    },
    /// A file or directory could not be read or written.
    #[error("{what}: {source}")]
    Io {
        /// What was attempted (`cannot write out/summary.json`).
        what: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A file hypermut wrote earlier does not have the expected content.
    #[error("{what}: {detail}")]
    Damaged {
        /// Which file or line (`out/results.jsonl:3: damaged result line`).
        what: String,
        /// What is wrong.
        detail: String,
    },
    /// The results directory cannot be used as asked (it holds other results, or cannot be
    /// resumed safely).
    #[error("{0}")]
    OutDir(String),
    /// The shards given to a merge do not form one run.
    #[error("{0}")]
    Merge(String),
    /// Building a mutant's circuits failed.
    #[error(transparent)]
    Hyper(#[from] HyperError),
    /// Mutating or building the meta-mutant failed.
    #[error(transparent)]
    Mutate(#[from] MutateError),
    /// Emitting a mutant's source failed.
    #[error(transparent)]
    Emit(#[from] EmitError),
    /// A type error in the model's system.
    #[error(transparent)]
    Type(#[from] hypermut_ir::TypeError),
    /// Bit-blasting failed.
    #[error(transparent)]
    Blast(#[from] BlastError),
    /// A bounded check inside a validity check failed.
    #[error(transparent)]
    Bmc(#[from] BmcError),
    /// A certificate circuit could not be built.
    #[error("certificate circuit: {0}")]
    Certificate(#[from] CertError),
    /// A record or report could not be turned into JSON.
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// Worker threads could not be started.
    #[error("cannot start worker threads: {0}")]
    Threads(String),
    /// A step failed; `context` says which.
    #[error("{context}: {source}")]
    Context {
        /// The step (`replaying the tests on the meta-mutant`, a model path, …).
        context: String,
        /// What went wrong there.
        source: Box<Error>,
    },
}

impl Error {
    /// Whether the error is a front-end diagnostic that already carries `file:line:col`,
    /// `error:` and a caret, so that it is shown as it is (not behind `error: `).
    pub fn is_located(&self) -> bool {
        match self {
            Error::Smv(e) => e.diagnostic().is_some(),
            Error::Verilog(e) => e.diagnostic().is_some(),
            Error::FileList(e) => e.diagnostic().is_some(),
            Error::Context { source, .. } => source.is_located(),
            _ => false,
        }
    }

    /// The same error with `context` (a step, a path) in front of it.
    pub fn context(self, context: impl Into<String>) -> Error {
        Error::Context {
            context: context.into(),
            source: Box::new(self),
        }
    }

    /// An I/O error while doing `what`.
    pub fn io(what: impl Into<String>, source: std::io::Error) -> Error {
        Error::Io {
            what: what.into(),
            source,
        }
    }
}

/// The job's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
