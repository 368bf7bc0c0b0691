//! `hypermut`: model-based mutation testing with hyperproperties.

mod args;
mod cmd;
mod report;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Model-based mutation testing of hardware and reactive-system models.
#[derive(Parser, Debug)]
#[command(name = "hypermut", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Write the model as AIGER 1.9 (nondeterministic choices become inputs).
    Aiger {
        #[command(flatten)]
        model: args::ModelArgs,
        /// Output file: `.aag` for ASCII, `.aig` for binary; ASCII on stdout if absent.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Write the old 5-field format (properties as outputs) for older tools.
        #[arg(long)]
        legacy: bool,
        /// Also export, as bad properties `range next(x)`, every assignment that could leave
        /// its variable's range (NuSMV reports such values as run-time errors).
        #[arg(long)]
        range_properties: bool,
        /// Write the circuit as bit-blasted, without logic optimisation (`docs/method.md`
        /// §7.7).
        #[arg(long)]
        no_opt: bool,
    },
    /// List the mutants of a model.
    Mutants {
        #[command(flatten)]
        model: args::ModelArgs,
        #[command(flatten)]
        select: args::MutantArgs,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Write the φ1 product of one mutant (bad = some output differs) for external checkers.
    Product {
        #[command(flatten)]
        model: args::ModelArgs,
        /// Mutant id (see `hypermut mutants`).
        #[arg(long = "mutant")]
        mutant: usize,
        /// Output file (`.aig` binary or `.aag` ASCII).
        #[arg(short, long)]
        output: PathBuf,
        /// Write the old 5-field format (the property as the only output).
        #[arg(long)]
        legacy: bool,
        /// Write the inclusion product instead (`docs/method.md` §4.6): its unreachable
        /// `kill` proves that the mutant only narrows a choice; the certificate of a mutant
        /// testgen proved equivalent with engine `inclusion-…` refers to it.
        #[arg(long)]
        inclusion: bool,
        /// Write the product as built, without logic optimisation (`docs/method.md` §7.7).
        #[arg(long)]
        no_opt: bool,
    },
    /// Generate killing tests for every mutant of a model.
    Testgen(cmd::testgen::Args),
    /// Model-check an AIGER file: prints safe / unsafe / unknown, exit code 20 / 10 / 0.
    Prove(cmd::prove::Args),
    /// Write one mutant: its source text, conditional mutant, AIGER or φ1 product.
    Mutant(cmd::mutant::Args),
    /// Combine the results directories of `testgen --shard` runs into one.
    Merge(cmd::merge::Args),
    /// Print Tables 3 and 4 of the method paper (model characteristics, results) for models.
    Table(cmd::table::Args),
    /// Write a self-checking Verilog testbench of the killing tests of a results directory.
    Testbench(cmd::testbench::Args),
    /// Is there a definite (or potential) test of exactly K + 1 steps for one mutant? Exit
    /// code 0 found, 1 none, 2 error or time limit.
    Search(cmd::search::Args),
    /// Run a results directory's tests against a model with the same interface: pass / fail /
    /// inconclusive per test. Exit code 0 all pass or inconclusive, 1 some fail, 2 error.
    Run(cmd::run::Args),
    /// Write the HTML report (source with the mutants marked) and the lcov tracefile of a
    /// results directory.
    Report(cmd::report_html::Args),
}

impl Command {
    /// The model options of a subcommand that takes a model, and the name of the positional
    /// argument that holds the model's files.
    fn model_options(&mut self) -> Option<(&mut args::ModelOptions, &'static str)> {
        match self {
            Command::Aiger { model, .. }
            | Command::Mutants { model, .. }
            | Command::Product { model, .. } => Some((&mut model.options, "files")),
            Command::Testgen(a) => Some((&mut a.model.options, "files")),
            Command::Mutant(a) => Some((&mut a.model.options, "files")),
            Command::Testbench(a) => Some((&mut a.model.options, "files")),
            Command::Search(a) => Some((&mut a.model.options, "files")),
            Command::Run(a) => Some((&mut a.model.options, "files")),
            Command::Report(a) => Some((&mut a.model.options, "files")),
            Command::Merge(a) => Some((&mut a.model, "paths")),
            Command::Table(_) | Command::Prove(_) => None,
        }
    }
}

/// Parses the command line, keeping the order of a model's files and file lists.
fn parse() -> Cli {
    let matches = Cli::command().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if let (Some((options, files_id)), Some((_, sub))) =
        (cli.command.model_options(), matches.subcommand())
    {
        options.record_positions(sub, files_id);
    }
    cli
}

fn main() -> ExitCode {
    let cli = parse();
    let result = match cli.command {
        Command::Aiger {
            model,
            output,
            legacy,
            range_properties,
            no_opt,
        } => cmd::aiger::run(&model, output.as_deref(), legacy, range_properties, !no_opt),
        Command::Mutants {
            model,
            select,
            json,
        } => cmd::mutants::run(&model, &select, json),
        Command::Product {
            model,
            mutant,
            output,
            legacy,
            inclusion,
            no_opt,
        } => cmd::aiger::product(&model, mutant, &output, legacy, inclusion, !no_opt),
        Command::Testgen(args) => cmd::testgen::run(&args),
        Command::Mutant(args) => cmd::mutant::run(&args),
        Command::Merge(args) => cmd::merge::run(&args),
        Command::Table(args) => cmd::table::run(&args),
        Command::Testbench(args) => cmd::testbench::run(&args),
        Command::Report(args) => cmd::report_html::run(&args),
        Command::Search(args) => return ExitCode::from(cmd::search::run(&args)),
        Command::Run(args) => return ExitCode::from(cmd::run::run(&args)),
        Command::Prove(args) => match cmd::prove::run(&args) {
            Ok(code) => return ExitCode::from(code),
            Err(e) => Err(e),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            report::print_error(&e);
            ExitCode::FAILURE
        }
    }
}
