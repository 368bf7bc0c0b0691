//! `hypermut mutant`: one mutant as source text, conditional source, AIGER or φ1 product.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use hypermut_mutate::EmittedSource;
use hypermut_testgen::store::write_atomic;
use hypermut_testgen::{emit_mutant, encode, DesignFiles, Emit, Emitted, Language, Model};

use crate::args::ModelArgs;
use crate::cmd::aiger::optimized;

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
    /// AIGER: write the circuit as built, without logic optimisation (`docs/method.md`
    /// §7.7).
    #[arg(long)]
    pub no_opt: bool,
    /// Verilog, `--emit source` or `conditional`: write every source file of the design into
    /// DIR (folders kept below their common folder), the one with the mutation edited, and
    /// DIR/design.f, the design's file list (include folders, macros, the files in order) for
    /// `iverilog -c`, `verilator -f` or `hypermut -f`.
    #[arg(long, value_name = "DIR", conflicts_with = "output")]
    pub design_dir: Option<PathBuf>,
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
    if args.no_opt && matches!(kind, Emit::Source | Emit::Conditional) {
        bail!("--no-opt applies to --emit aiger and --emit product only");
    }
    let output = args.output.as_deref().filter(|p| *p != Path::new("-"));
    let model = args.model.load()?;
    let emitted = emit_mutant(&model, args.id, kind)?;
    if let Some(dir) = &args.design_dir {
        let Emitted::Source(src) = &emitted else {
            bail!("--design-dir applies to --emit source and --emit conditional only");
        };
        let list = write_design(args, &model, src, dir)?;
        eprintln!(
            "note: the mutation lies in {}; wrote the design with the edit into {} (file list {})",
            src.name,
            dir.display(),
            list.display()
        );
        return Ok(());
    }
    let bytes = match emitted {
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
        Emitted::Circuit(aig) => encode(&optimized(aig, !args.no_opt), output, args.legacy),
    };
    match output {
        Some(p) => Ok(write_atomic(p, &bytes)?),
        None => Ok(std::io::stdout().write_all(&bytes)?),
    }
}

/// Writes every source file of `model` into `dir` below its common folder, `src` in place of
/// the file it edits, and the file list `dir/design.f` (absolute paths): `+incdir+` for the
/// include folders and the folders of the design files (hypermut also searches those,
/// `docs/formats.md` §11.4), first as copied into `dir`, then the originals; `+define+` for
/// the macros; then the design files in order.
/// Returns the list's path.
fn write_design(args: &Args, model: &Model, src: &EmittedSource, dir: &Path) -> Result<PathBuf> {
    if model.language != Language::Verilog {
        bail!("--design-dir applies to Verilog designs only");
    }
    let absolute = |p: &Path| {
        std::fs::canonicalize(p).with_context(|| format!("{}: cannot find it", p.display()))
    };
    let sources = model.system.sources.files();
    let texts: Vec<(PathBuf, &str)> = sources
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let text = if i == src.file.0 as usize {
                src.text.as_str()
            } else {
                f.text.as_str()
            };
            Ok((absolute(Path::new(&f.name))?, text))
        })
        .collect::<Result<_>>()?;
    let design = DesignFiles::expand(&args.model.options.sources(&args.model.files))?;
    let files: Vec<PathBuf> = design
        .files
        .iter()
        .map(|f| absolute(f))
        .collect::<Result<_>>()?;
    let mut folders: Vec<PathBuf> = Vec::new();
    for d in model
        .options
        .include_dirs
        .iter()
        .filter_map(|d| std::fs::canonicalize(d).ok())
        .chain(
            files
                .iter()
                .filter_map(|f| f.parent().map(Path::to_path_buf)),
        )
    {
        if !folders.contains(&d) {
            folders.push(d);
        }
    }
    // The common folder of every file and include folder.
    let mut root: PathBuf = folders.first().cloned().unwrap_or_default();
    for p in texts
        .iter()
        .filter_map(|(p, _)| p.parent())
        .chain(folders.iter().map(|d| d.as_path()))
    {
        while !p.starts_with(&root) {
            if !root.pop() {
                break;
            }
        }
    }
    std::fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
    let dir = absolute(dir)?;
    let place = |p: &Path| dir.join(p.strip_prefix(&root).unwrap_or(p));
    // The edited file last, should it also be read as another source (included twice).
    let edited = texts.get(src.file.0 as usize).map(|(p, _)| p.clone());
    let mut order: Vec<&(PathBuf, &str)> = texts
        .iter()
        .filter(|(p, _)| Some(p) != edited.as_ref())
        .collect();
    order.extend(texts.get(src.file.0 as usize));
    let mut written = BTreeSet::new();
    for (p, text) in order {
        let to = place(p);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("{}", parent.display()))?;
        }
        // A file read twice (included twice) is written once.
        if written.insert(to.clone()) {
            write_atomic(&to, text.as_bytes())?;
        }
    }
    let quoted = |p: &Path| {
        let s = p.display().to_string();
        if s.chars().any(char::is_whitespace) {
            format!("\"{s}\"")
        } else {
            s
        }
    };
    let mut list = format!(
        "// The design {} with mutant {}, written by hypermut mutant --design-dir.\n",
        model.name, args.id
    );
    for d in &folders {
        list.push_str(&format!("+incdir+{}\n", quoted(&place(d))));
    }
    // Then the original folders, for files hypermut did not read (e.g. an include between
    // `synopsys translate_off` and `translate_on`).
    for d in &folders {
        list.push_str(&format!("+incdir+{}\n", quoted(d)));
    }
    for m in &model.options.defines {
        list.push_str(&format!("+define+{m}\n"));
    }
    for f in &files {
        list.push_str(&format!("{}\n", quoted(&place(f))));
    }
    let path = dir.join("design.f");
    write_atomic(&path, list.as_bytes())?;
    Ok(path)
}
