//! `hypermut mutant`: one mutant as source text, conditional source, AIGER or φ1 product.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::{anyhow, bail, Result};
use hypermut_hyper::MutantProduct;
use hypermut_mutate::{conditional_source, mutant_source, EmittedSource};

use crate::cmd::aiger::encode;
use crate::files::write_atomic;
use crate::model::{load, mutant_by_id, ModelArgs};

/// What `hypermut mutant` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    /// The model's source with exactly the mutant's edit.
    Source,
    /// The conditional mutant in the model's language (a selector `mut` picks the mutant).
    Conditional,
    /// The conditional mutant bit-blasted (nd inputs, `mut` an uninitialised frozen latch).
    Aiger,
    /// The φ1 product, as `hypermut product` writes it.
    Product,
}

impl Emit {
    /// Every kind with its name on the command line.
    const ALL: [(&'static str, Emit); 4] = [
        ("source", Emit::Source),
        ("conditional", Emit::Conditional),
        ("aiger", Emit::Aiger),
        ("product", Emit::Product),
    ];
}

impl FromStr for Emit {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> Result<Emit> {
        Emit::ALL
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(s.trim()))
            .map(|(_, e)| *e)
            .ok_or_else(|| {
                let known: Vec<&str> = Emit::ALL.iter().map(|(n, _)| *n).collect();
                anyhow!(
                    "--emit: unknown kind `{s}` (expected one of: {})",
                    known.join(", ")
                )
            })
    }
}

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
    let kind: Emit = args.emit.parse()?;
    if args.legacy && matches!(kind, Emit::Source | Emit::Conditional) {
        bail!("--legacy applies to --emit aiger and --emit product only");
    }
    let output = args.output.as_deref().filter(|p| *p != Path::new("-"));
    let sys = load(&args.model)?;
    let id = args.id;
    let m = mutant_by_id(&sys, &args.model.model, id)?;
    let bytes = match kind {
        Emit::Source | Emit::Conditional => {
            let emitted = match kind {
                Emit::Source => mutant_source(&sys, &m),
                _ => conditional_source(&sys, &m),
            }
            .map_err(|e| anyhow!("{e}"))?;
            note_other_file(&args.model.model, &emitted);
            emitted.text.into_bytes()
        }
        Emit::Aiger | Emit::Product => {
            let mp = MutantProduct::build(&sys, &m).map_err(|e| anyhow!("mutant {id}: {e}"))?;
            let aig = match kind {
                Emit::Aiger => &mp.blasted.aig,
                _ => &mp.product.aig,
            };
            encode(aig, output, args.legacy)?
        }
    };
    match output {
        Some(p) => write_atomic(p, &bytes),
        None => Ok(std::io::stdout().write_all(&bytes)?),
    }
}

/// Says on stderr when the mutation lies in another file than the model (a `--lib-file` or
/// an included file): the output is that file, edited.
fn note_other_file(model: &Path, emitted: &EmittedSource) {
    if Path::new(&emitted.name) != model {
        eprintln!(
            "note: the mutation lies in {}, not in {}; writing {} with the edit",
            emitted.name,
            model.display(),
            emitted.name
        );
    }
}
