//! `hypermut run`: runs the tests of a results directory against a model with the same
//! interface and reports pass / fail / inconclusive per test (`docs/formats.md` §2.5).

use std::path::PathBuf;

use anyhow::Result;
use hypermut_testgen::runner::{frontend_for, junit_xml, RunCounts, Runner, TestVerdict};
use hypermut_testgen::store::write_atomic;
use hypermut_testgen::testbench::read_tests;
use hypermut_testgen::Model;

use crate::args::ModelArgs;
use crate::report::{print_diagnostics, print_error};

/// Exit code: every test passed or was inconclusive.
pub const EXIT_PASS: u8 = 0;
/// Exit code: some test failed.
pub const EXIT_FAIL: u8 = 1;
/// Exit code: the suite could not be run.
pub const EXIT_ERROR: u8 = 2;

/// Options of `hypermut run`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub model: ModelArgs,
    /// The results directory of `hypermut testgen` (or a folder of `mutant-N.json` tests).
    #[arg(long, value_name = "DIR")]
    pub tests: PathBuf,
    /// Also write a JUnit XML report to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
}

/// Runs the command; returns the exit code (errors are printed).
pub fn run(args: &Args) -> u8 {
    match run_suite(args) {
        Ok(counts) if counts.fail > 0 => EXIT_FAIL,
        Ok(_) => EXIT_PASS,
        Err(e) => {
            print_error(&e);
            EXIT_ERROR
        }
    }
}

fn run_suite(args: &Args) -> Result<RunCounts> {
    let tests = read_tests(&args.tests)?;
    // The model starts as the original did when the tests were made (`initial_state`).
    let frontend = frontend_for(&args.model.options.frontend(), &tests)?;
    let sources = args.model.options.sources(&args.model.files);
    let (model, diagnostics) = Model::load_sources(&sources, &frontend)?;
    print_diagnostics(&diagnostics);
    let outcomes = Runner::new(&model)?.run_all(&tests)?;
    for o in &outcomes {
        match o.verdict {
            TestVerdict::Pass => println!("mutant-{}: pass", o.mutant),
            v => println!("mutant-{}: {}: {}", o.mutant, v.name(), o.reason),
        }
    }
    let counts = RunCounts::of(&outcomes);
    println!(
        "run: {} tests on {}: {} pass, {} fail, {} inconclusive, {} not runnable",
        outcomes.len(),
        model.name,
        counts.pass,
        counts.fail,
        counts.inconclusive,
        counts.not_runnable
    );
    if let Some(path) = &args.junit {
        let xml = junit_xml("hypermut run", &model.name, &outcomes);
        write_atomic(path, xml.as_bytes())?;
    }
    Ok(counts)
}
