//! The main job of hypermut as a library: select the mutants of a model, decide each one
//! (a killing test or an equivalence proof), store the results as they come, build the test
//! suite, merge sharded runs, and compute Tables 3 and 4 (`docs/method.md`; the files it
//! writes are described in `docs/formats.md`).
//!
//! A run in a few lines:
//!
//! ```no_run
//! use hypermut_testgen::{run, FrontendOptions, Model, Options, Quiet};
//! # fn main() -> Result<(), hypermut_testgen::Error> {
//! let (model, _diagnostics) =
//!     Model::load(&["models/smv/beverage.smv".into()], &FrontendOptions::default())?;
//! let report = run(&model, &Options::default(), &mut Quiet)?;
//! println!("{} killed of {}", report.summary.counts.killed, report.summary.mutants);
//! # Ok(())
//! # }
//! ```
//!
//! Modules, in the order a run uses them: [`filelist`] (the design files and `-f` file lists
//! a command line names), [`load`] (language by extension, front-end options, the
//! [`Model`], with the initial-state [`convention`] of [`reset`] and [`init`]), [`select`]
//! (operators, sample, shard), [`decide`] (one mutant → a [`Decision`], no file I/O),
//! [`record`] (records, counts, summary), [`store`] (the results directory), [`testfile`]
//! (the test format), [`run`](mod@run) (the whole run with a [`Progress`]), [`suite`],
//! [`merge`], [`table`]; [`report`] writes the HTML report and the lcov tracefile of a
//! run, [`export`] writes circuits and sources for other tools,
//! [`testbench`] a self-checking Verilog testbench of the tests.

pub mod allowed;
pub mod convention;
pub mod decide;
pub mod error;
pub mod export;
pub mod filelist;
pub mod init;
pub mod kill_class;
pub mod layout;
pub mod lemma_pool;
pub mod load;
pub mod merge;
pub mod record;
pub mod replay;
pub mod report;
pub mod reset;
pub mod run;
pub mod runner;
pub mod select;
pub mod store;
pub mod suite;
pub mod table;
pub mod testbench;
pub mod testfile;
pub mod waveform;

pub use convention::Convention;
pub use decide::{original_ands, solver_circuit, DecideOptions, Decider, Decision};
pub use error::{Error, Result};
pub use export::{
    emit_mutant, encode, format_for, inclusion_product, model_circuit, mutant_product, Emit,
    Emitted,
};
pub use filelist::{read_file_list, DesignFiles, FileListError, ModelSource};
pub use init::InitOption;
pub use load::{language_of, load, FrontendOptions, Language, Loaded, Model};
pub use merge::{merge, MergeOptions, Merged};
pub use record::{Counts, KillClass, MutantRecord, MutantVerdict, ProductSize, RunInfo, Summary};
pub use report::{read_summary, write_report, ReportFiles};
pub use reset::{ResetError, ResetOption, ResetSpec};
pub use run::{run, run_info, Options, Progress, Quiet, RunReport};
pub use select::{all_mutants, mutant_by_id, IdList, Locator, Selection, Shard};
pub use store::{Existing, Store};
pub use suite::SuiteReport;
pub use table::{tables, TableOptions, TableProgress, Tables};
pub use testbench::{verilog_testbench, TestbenchError};
pub use testfile::TestFile;
