//! `hypermut prove`: a hardware model checker for AIGER files.
//!
//! Prints `safe`, `unsafe` or `unknown` and exits with 20, 10 or 0 (the HWMCC / rIC3
//! convention; `docs/formats.md` §9.7); errors exit with 1. One safety property is checked: bad
//! property `--property N` (default 0), or output N for old-style files without a bad section
//! (`docs/formats.md` §9.4). Constraints are honoured; justice and fairness are ignored.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use hypermut_aig::aiger::single_property;
use hypermut_aig::witness_io::{write_witness_entry, WitnessEntry};
use hypermut_aig::{check_witness, read_aiger, write_aiger, Aig};
use hypermut_prove::{witness_circuit, Certificate, EngineChoice, Verdict};

use hypermut_testgen::format_for;
use hypermut_testgen::store::write_atomic;

/// Which engine decides the property.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineArg {
    /// IC3/PDR (complete; certificates for safe results).
    Ic3,
    /// Bounded model checking (finds counterexamples only).
    Bmc,
    /// k-induction with simple-path constraints.
    Kind,
    /// BDD reachability (complete while the BDDs stay small; certificates for safe results).
    Bdd,
    /// BDD reachability and IC3, BMC and k-induction on threads; the first answer wins.
    Portfolio,
}

impl From<EngineArg> for EngineChoice {
    fn from(e: EngineArg) -> Self {
        match e {
            EngineArg::Ic3 => EngineChoice::Ic3,
            EngineArg::Bmc => EngineChoice::Bmc,
            EngineArg::Kind => EngineChoice::Kind,
            EngineArg::Bdd => EngineChoice::Bdd,
            EngineArg::Portfolio => EngineChoice::Portfolio,
        }
    }
}

/// Arguments of `hypermut prove`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The circuit (`.aig` binary or `.aag` ASCII AIGER).
    pub file: PathBuf,
    /// The engine (default: the portfolio, BDD reachability and IC3, BMC and k-induction
    /// on threads, the first answer wins; with `--certificate`, the engines that give certificates).
    #[arg(long, value_enum, default_value = "portfolio")]
    pub engine: EngineArg,
    /// Wall-clock limit in seconds (no limit if absent).
    #[arg(long)]
    pub timeout: Option<f64>,
    /// Write the result in HWMCC witness format (a counterexample when unsafe).
    #[arg(long)]
    pub witness: Option<PathBuf>,
    /// Write a Certifaiger witness circuit when safe (`.aag` ASCII, otherwise binary).
    #[arg(long)]
    pub certificate: Option<PathBuf>,
    /// Index of the safety property to check (bad property, or output without bad section).
    #[arg(long, default_value_t = 0)]
    pub property: usize,
    /// Threads of the portfolio, one engine each (default: one per processor).
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// Reads and checks `args.file`; returns the exit code (20 safe, 10 unsafe, 0 unknown).
pub fn run(args: &Args) -> Result<u8> {
    let time_limit = match args.timeout {
        Some(t) if !(t.is_finite() && t >= 0.0) => bail!("--timeout must be a number >= 0"),
        t => t.map(Duration::from_secs_f64),
    };
    let choice = EngineChoice::from(args.engine);
    let certificates = args.certificate.is_some();
    if certificates && !choice.certifies() {
        bail!("--certificate needs an engine with invariant certificates (ic3, bdd or portfolio)");
    }
    let aig = load(&args.file)?;
    let problem =
        single_property(&aig, args.property).with_context(|| args.file.display().to_string())?;
    let verdict = choice
        .engine(time_limit, args.jobs, certificates)
        .check(&problem);
    let name = format!("b{}", args.property);
    let (code, entry) = match &verdict {
        Verdict::Safe(cert) => {
            if let Some(path) = &args.certificate {
                write_certificate(&problem, cert, path)?;
            }
            println!("safe");
            (20, WitnessEntry::Safe(vec![name]))
        }
        Verdict::Unsafe(w) => {
            let w = hypermut_aig::Witness {
                properties: vec![name],
                ..w.clone()
            };
            // Engines replay their witnesses already; this checks the renaming to `bN`.
            check_witness(&aig, &w).context("internal error: the witness does not replay")?;
            println!("unsafe");
            (10, WitnessEntry::Unsafe(w))
        }
        Verdict::Unknown(reason) => {
            eprintln!("{reason}");
            println!("unknown");
            (0, WitnessEntry::Unknown(vec![name]))
        }
    };
    if let Some(path) = &args.witness {
        write_atomic(path, write_witness_entry(&entry).as_bytes())?;
    }
    Ok(code)
}

fn load(path: &Path) -> Result<Aig> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(read_aiger(&bytes, &path.display().to_string())?)
}

fn write_certificate(problem: &Aig, cert: &Certificate, path: &Path) -> Result<()> {
    let circuit = witness_circuit(problem, cert)?;
    write_atomic(path, &write_aiger(&circuit, format_for(path)))?;
    Ok(())
}
