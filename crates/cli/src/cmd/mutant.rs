//! `hypermut mutant`: one mutant as source text, conditional source, AIGER or φ1 product.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Result};
use hypermut_testgen::store::write_atomic;
use hypermut_testgen::{emit_mutant, encode, Emit, Emitted};

use crate::args::ModelArgs;

/// Options of `hypermut mutant`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub model: ModelArgs,
    /// Mutant id (see `hypermut mutants`).
    #[arg(long)]
    pub id: usize,
    /// What to write: `source`, `conditional`, `aiger` or `product`.
    #[arg(long, default_value = "source", value_name = "KIND")]
    pub emit: String,
    /// Output file (`-` or none: stdout; AIGER is binary for `.aig`, else ASCII).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// AIGER: write the old 5-field format (properties as outputs).
    #[arg(long)]
    pub legacy: bool,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<()> {
    let kind = Emit::named(&args.emit).ok_or_else(|| {
        let known: Vec<&str> = Emit::ALL.iter().map(|(n, _)| *n).collect();
        anyhow!(
            "--emit: unknown kind `{}` (expected one of: {})",
            args.emit,
            known.join(", ")
        )
    })?;
    if args.legacy && matches!(kind, Emit::Source | Emit::Conditional) {
        bail!("--legacy applies to --emit aiger and --emit product only");
    }
    let output = args.output.as_deref().filter(|p| *p != Path::new("-"));
    let model = args.model.load()?;
    let bytes = match emit_mutant(&model, args.id, kind)? {
        Emitted::Source(src) => {
            match args.model.single_file() {
                Some(one) if Path::new(&src.name) != one => eprintln!(
                    "note: the mutation lies in {}, not in {}; writing {} with the edit",
                    src.name,
                    one.display(),
                    src.name
                ),
                Some(_) => {}
                None => eprintln!(
                    "note: the mutation lies in {}; writing {} with the edit",
                    src.name, src.name
                ),
            }
            src.text.into_bytes()
        }
        Emitted::Circuit(aig) => encode(&aig, output, args.legacy),
    };
    match output {
        Some(p) => Ok(write_atomic(p, &bytes)?),
        None => Ok(std::io::stdout().write_all(&bytes)?),
    }
}
