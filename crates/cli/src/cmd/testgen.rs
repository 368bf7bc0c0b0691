//! `hypermut testgen`: decide every mutant, write a killing test for each killed one.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use hypermut_testgen::{run as run_job, DecideOptions, Existing, Options, ReportFiles, Shard};

use crate::args::{parse_seconds, ModelArgs, MutantArgs};
use crate::cmd::report_html;
use crate::report::{print_run, Bar};

/// Options of `hypermut testgen`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub select: MutantArgs,
    /// BMC bound: the deepest frame searched for a killing test.
    #[arg(long, default_value_t = 20)]
    pub bound: usize,
    /// Worker threads (default: number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Directory for `summary.json`, `results.jsonl` and the tests.
    #[arg(long, default_value = "hypermut-out")]
    pub out: PathBuf,
    /// Time limit per mutant, in seconds, for BMC and IC3 together.
    #[arg(long, default_value_t = 60.0, value_parser = parse_seconds)]
    pub timeout: f64,
    /// Time limit per mutant, in seconds, for the search of a stronger test when φ1's test
    /// is only potential or needs nd control (a definite test, else a potential one, up to
    /// `--bound`); 0 turns the search off.
    #[arg(long, default_value_t = 2.0, value_parser = crate::args::parse_seconds)]
    pub search_timeout: f64,
    /// Only search for killing tests (BMC to `--bound`); do not try to prove equivalence.
    #[arg(long)]
    pub no_prove: bool,
    /// Do not replay the tests found so far, nor random runs, on each mutant (fault dropping
    /// and random simulation, before the engines and as the schedule's sparse stage,
    /// docs/method.md §7.8): every test is then the shortest φ1 kill its engine finds, at
    /// the cost of more solver calls.
    #[arg(long)]
    pub no_replay: bool,
    /// Before the later tries on the mutants the first pass leaves open, search across the
    /// open mutants of each mutated site at once (their meta-mutant's product, whose copy
    /// B may be any of them; docs/method.md §7.10).
    #[arg(long, conflicts_with_all = ["no_replay", "no_prove"])]
    pub search_across: bool,
    /// Continue an interrupted run in `--out`: mutants already decided are not redone.
    #[arg(long, conflicts_with = "fresh")]
    pub resume: bool,
    /// Discard earlier results in `--out` and start over.
    #[arg(long)]
    pub fresh: bool,
    /// Decide only the slice `i` of `n` (1 ≤ i ≤ n: the mutants whose id is `i - 1` modulo
    /// `n`), e.g. `--shard 2/8`; `hypermut merge` combines the slices.
    #[arg(long, value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Also report weak killing (some output or latch differs) per mutant in `suite.json`.
    #[arg(long)]
    pub weak: bool,
    /// Write an HTML report of the run (summary, source with the mutants marked, a section
    /// per mutant), and the lcov tracefile next to it (`.info`) unless `--lcov` names it.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Write the mutation coverage per line as an lcov tracefile (for genhtml).
    #[arg(long, value_name = "FILE")]
    pub lcov: Option<PathBuf>,
}

/// What `--resume` / `--fresh` ask for.
pub fn existing(resume: bool, fresh: bool) -> Existing {
    match (resume, fresh) {
        (true, _) => Existing::Resume,
        (false, true) => Existing::Discard,
        (false, false) => Existing::Refuse,
    }
}

/// Runs the command.
pub fn run(args: &Args) -> Result<()> {
    let model = args.model.load()?;
    let options = Options {
        selection: args.select.selection()?,
        shard: args.shard,
        decide: DecideOptions {
            bound: args.bound,
            timeout: Duration::from_secs_f64(args.timeout),
            prove: !args.no_prove,
            search_timeout: Duration::from_secs_f64(args.search_timeout),
            replay: !args.no_replay,
            across: args.search_across,
        },
        jobs: args.jobs,
        out: args.out.clone(),
        existing: existing(args.resume, args.fresh),
        weak: args.weak,
    };
    let report = run_job(&model, &options, &mut Bar::new())?;
    print_run(&report);
    let files = ReportFiles::from_options(args.report.as_deref(), args.lcov.as_deref());
    if !files.is_empty() {
        report_html::write(&model, &args.out, &report.summary, &files)?;
    }
    Ok(())
}
