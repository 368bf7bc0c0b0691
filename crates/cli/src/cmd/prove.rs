//! `hypermut prove`: a hardware model checker for AIGER files.
//!
//! Prints `safe`, `unsafe` or `unknown` and exits with 20, 10 or 0 (the HWMCC / rIC3
//! convention; formats.md §2.3); errors exit with 1. One safety property is checked: bad
//! property `--property N` (default 0), or output N for old-style files without a bad section
//! (formats.md §1.8). Constraints are honoured; justice and fairness are ignored.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use hypermut_aig::aiger::safety_properties;
use hypermut_aig::witness_io::{write_witness_entry, WitnessEntry};
use hypermut_aig::{check_witness, read_aiger, write_aiger, Aig};
use hypermut_prove::{
    witness_circuit, Bmc, Certificate, Engine, EngineKind, Ic3, Kind, Portfolio, Verdict,
};

use crate::cmd::aiger::format_for;
use crate::files::write_atomic;

/// Which engine decides the property.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineArg {
    /// IC3/PDR (complete; certificates for safe results).
    Ic3,
    /// Bounded model checking (finds counterexamples only).
    Bmc,
    /// k-induction with simple-path constraints.
    Kind,
    /// IC3, BMC and k-induction on threads; the first answer wins.
    Portfolio,
}

/// Arguments of `hypermut prove`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The circuit (`.aig` binary or `.aag` ASCII AIGER).
    pub file: PathBuf,
    /// The engine.
    #[arg(long, value_enum, default_value = "ic3")]
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
    /// Threads of the portfolio (default: all engines).
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// Reads and checks `args.file`; returns the exit code (20 safe, 10 unsafe, 0 unknown).
pub fn run(args: &Args) -> Result<u8> {
    let time_limit = match args.timeout {
        Some(t) if !(t.is_finite() && t >= 0.0) => bail!("--timeout must be a number >= 0"),
        t => t.map(Duration::from_secs_f64),
    };
    if args.certificate.is_some() && args.engine == EngineArg::Kind {
        bail!("--certificate needs an engine with invariant certificates (ic3 or portfolio)");
    }
    let aig = load(&args.file)?;
    let problem = property_problem(&aig, args.property, &args.file)?;
    let verdict = engine(args, time_limit).check(&problem);
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
            check_witness(&aig, &w)
                .map_err(|e| anyhow!("internal error: the witness does not replay: {e}"))?;
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

/// The circuit with property `index` as its only bad property.
fn property_problem(aig: &Aig, index: usize, path: &Path) -> Result<Aig> {
    let props = safety_properties(aig);
    if props.is_empty() {
        bail!(
            "{}: no safety property (no bad section and no outputs)",
            path.display()
        );
    }
    let p = props.get(index).cloned().ok_or_else(|| {
        anyhow!(
            "{}: there is no property {index} (the file has {} safety properties)",
            path.display(),
            props.len()
        )
    })?;
    let mut problem = aig.clone();
    problem.bad = vec![p];
    problem.justice.clear();
    problem.fairness.clear();
    Ok(problem)
}

fn engine(args: &Args, time_limit: Option<Duration>) -> Box<dyn Engine> {
    match args.engine {
        EngineArg::Ic3 => Box::new(Ic3::new(time_limit)),
        EngineArg::Bmc => Box::new(Bmc {
            max_bound: usize::MAX,
            time_limit,
        }),
        EngineArg::Kind => Box::new(Kind {
            time_limit,
            ..Kind::default()
        }),
        EngineArg::Portfolio => {
            let jobs = args.jobs.unwrap_or(usize::MAX);
            let mut p = Portfolio::with_jobs(jobs, time_limit);
            if args.certificate.is_some() {
                // k-induction proofs have no witness circuit.
                p.engines.retain(|e| *e != EngineKind::Kind);
            }
            Box::new(p)
        }
    }
}

fn write_certificate(problem: &Aig, cert: &Certificate, path: &Path) -> Result<()> {
    let circuit = witness_circuit(problem, cert).map_err(|e| anyhow!("{e}"))?;
    write_atomic(path, &write_aiger(&circuit, format_for(path)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_aig::{read_witness, Reset};

    fn args(file: &Path) -> Args {
        Args {
            file: file.to_path_buf(),
            engine: EngineArg::Ic3,
            timeout: Some(60.0),
            witness: None,
            certificate: None,
            property: 0,
            jobs: None,
        }
    }

    /// A 2-bit counter; output 0 is "counter = 3" (reachable at depth 3), output 1 is
    /// "counter = 3 and a constant-0 latch" (unreachable). Old format: no bad section.
    fn counter_file(dir: &Path) -> PathBuf {
        let mut g = Aig::new();
        let a = g.add_latch("a", Reset::Zero);
        let b = g.add_latch("b", Reset::Zero);
        let z = g.add_latch("z", Reset::Zero);
        let nb = g.xor(a, b);
        g.set_next(a, !a);
        g.set_next(b, nb);
        let three = g.and(a, b);
        let never = g.and(three, z);
        for (lit, name) in [(three, "three"), (never, "never")] {
            g.outputs.push(hypermut_aig::Named {
                lit,
                name: name.into(),
            });
        }
        let path = dir.join("counter.aag");
        std::fs::write(&path, write_aiger(&g, hypermut_aig::AigerFormat::Ascii)).expect("write");
        path
    }

    #[test]
    fn outputs_are_properties_and_exit_codes_follow_hwmcc() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = counter_file(dir.path());
        let mut a = args(&file);
        a.witness = Some(dir.path().join("w0.txt"));
        assert_eq!(run(&a).expect("runs"), 10);
        let text = std::fs::read_to_string(dir.path().join("w0.txt")).expect("witness");
        let aig = load(&file).expect("readable");
        let ws = read_witness(&text, 3, 0).expect("HWMCC witness");
        assert_eq!(check_witness(&aig, &ws[0]), Ok(3));
        assert_eq!(ws[0].properties, vec!["b0".to_string()]);

        a.property = 1;
        a.witness = Some(dir.path().join("w1.txt"));
        a.certificate = Some(dir.path().join("cert.aig"));
        assert_eq!(run(&a).expect("runs"), 20);
        let text = std::fs::read_to_string(dir.path().join("w1.txt")).expect("witness");
        assert_eq!(text, "0\nb1\n.\n");
        let cert = load(&dir.path().join("cert.aig")).expect("certificate circuit");
        assert_eq!(cert.latches.len(), 3);
        assert_eq!(cert.bad.len(), 1);

        a.property = 2;
        let e = run(&a).unwrap_err().to_string();
        assert!(e.contains("there is no property 2"), "{e}");
    }

    #[test]
    fn every_engine_answers_and_errors_are_reported() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = counter_file(dir.path());
        for engine in [
            EngineArg::Ic3,
            EngineArg::Bmc,
            EngineArg::Kind,
            EngineArg::Portfolio,
        ] {
            let mut a = args(&file);
            a.engine = engine;
            assert_eq!(run(&a).expect("runs"), 10, "{engine:?}");
            a.property = 1;
            // BMC cannot prove safety: it stops at the time limit.
            a.timeout = Some(1.0);
            let want = if engine == EngineArg::Bmc { 0 } else { 20 };
            assert_eq!(run(&a).expect("runs"), want, "{engine:?}");
        }
        let mut a = args(&file);
        a.engine = EngineArg::Kind;
        a.certificate = Some(dir.path().join("c.aig"));
        assert!(run(&a).is_err());
        let mut a = args(&dir.path().join("missing.aig"));
        assert!(run(&a).is_err());
        let bad = dir.path().join("bad.aag");
        std::fs::write(&bad, "aag 1 0 0 1 0\n3\n").expect("write");
        a = args(&bad);
        let e = run(&a).unwrap_err().to_string();
        assert!(e.contains("bad.aag:2:"), "{e}");
        a = args(&file);
        a.timeout = Some(-1.0);
        assert!(run(&a).is_err());
    }
}
