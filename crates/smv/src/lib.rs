//! NuSMV front-end of hypermut: reads a `.smv` model into a [`hypermut_ir::System`].
//!
//! Pipeline: [`lexer`] (tokens and `-- @input`/`-- @output` pragmas) → [`parser`] (syntax
//! tree with spans, [`ast`]) → [`elab`] (flattening, names, types, DEFINE expansion, IR).
//!
//! The NuSMV 2.5/2.6 language as real models use it: every section (`MODULE name(params)`,
//! `VAR`, `IVAR`, `FROZENVAR`, `DEFINE` (also arrays), `CONSTANTS`, `ASSIGN` with `init`,
//! `next` and invariant assignments, `INIT`, `TRANS`, `INVAR`, `FAIRNESS`, `JUSTICE`,
//! `COMPASSION`, `INVARSPEC`, `SPEC`/`CTLSPEC`, `LTLSPEC`, `PSLSPEC`, `COMPUTE`, `NAME n :=`,
//! `ISA`), finite types (boolean, symbolic/integer/mixed enumerations, ranges, signed and
//! unsigned words, nested arrays, module and `process` instances) and the full expression
//! language (see `elab`'s modules for each decision). Infinite types (`integer`, `real`,
//! `clock`) are rejected. Every error is located with a caret; nothing panics on any
//! input; every expression node built from the source carries its span.
//!
//! Safety specifications (`INVARSPEC p`, `AG p`, `G p` with propositional `p`) become
//! [`hypermut_ir::Property`]s; other specifications are skipped with a note in
//! [`Loaded::diagnostics`].
//!
//! Decisions [hypermut] (details in the module documentation of `elab`):
//! * Integer enumerations are `Int` ranges (gaps enforced by an invariant where the value is
//!   free); mixed enumerations are `Enum`s with the integers spelled as symbols.
//! * Arrays become one variable per element (`a[2]`, `a[1][0]`, `n[0].x`); a variable index
//!   is a multiplexer, and an index outside the bounds reads the highest element the index
//!   type can reach (NuSMV reports a run-time error).
//! * `process` instances interleave through one scheduler choice per step (over `main` and
//!   the processes); `x := e` (invariant assignment) makes `x` a macro for `e`.
//! * `case` exhaustiveness is checked as NuSMV does (in the context the `case` is used in) by
//!   enumeration; too large to enumerate → accepted with a warning.
//! * Range violations: constants among the possible assigned values are checked statically;
//!   computed out-of-range values are not (hypermut's all-states range check covers mutants).
//! * Old-NuSMV idioms are accepted: 0/1 as booleans (NuSMV's `-old`; a note), and
//!   `!x = c` with a non-boolean `x` read as `!(x = c)` (NuSMV 2.4's precedence; a warning).
//! * Division truncates toward zero and `mod` takes the dividend's sign (NuSMV's default,
//!   ANSI C); division by zero gives the IR's value (NuSMV reports an error).
//! * FAIRNESS/JUSTICE/COMPASSION are type-checked and ignored with a note (the IR has no
//!   fairness).
//! * Quoted identifiers (`"clock" : boolean;`, `next("a.b")`, `"x[1]"`) are names that keep
//!   their quotes, as in NuSMV: any text but `"` between double quotes, so `"x"` and `x` are
//!   two names and quoted keywords are names. A quote that is never closed is an error at
//!   the quote.
//!
//! Preprocessing ([`SmvOptions::pre`], NuSMV's `-pre "cpp m4"`): the model runs through the
//! external programs in the order given (how each is called: `pre::run`), each on the
//! previous one's output, like NuSMV does; a missing or failing program is an
//! [`SmvError::Preprocessor`] naming it. The programs' line markers trace every line of the
//! result to a line of the model or of a file it includes (module `origin`). The system's
//! source file 0 is the preprocessed text (with `# N "file"` markers where the origin jumps, which
//! NuSMV and this front-end skip); every expression span lies in it, so a mutant edits the
//! preprocessed text and an emitted mutant is preprocessed text, to be read without `-pre`.
//! The original files follow it in the source map, and every error and diagnostic points
//! into them: the line through the markers, the column by aligning the preprocessed line
//! with the original one (a macro's expansion is located at its invocation). The
//! programs' warnings are diagnostics too.

mod ast;
mod elab;
mod error;
mod lexer;
mod markers;
mod options;
mod origin;
mod parser;
mod pre;

use std::collections::HashSet;
use std::path::Path;

use hypermut_ir::{Diagnostic, FileId, Severity, SourceMap, Span, System};

pub use error::SmvError;
pub use options::{Preprocessor, SmvOptions};

use origin::Origins;
use pre::Preprocessed;

/// Stack size of the thread that parses and elaborates (deeply nested or long expressions
/// recurse; the memory is only reserved, not committed).
const STACK_SIZE: usize = 1024 * 1024 * 1024;

/// A loaded model and the warnings and notes the front-end made about it.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The transition system.
    pub system: System,
    /// Warnings and notes for the user, each located at the place it is about, in the order
    /// they were found: the warnings of the preprocessors; notes for skipped specifications,
    /// ignored fairness constraints and 0/1 used as booleans; warnings for `case` conditions
    /// whose exhaustiveness could not be checked, for NuSMV 2.4's reading of `!x = c`, and
    /// for a model without `-- @output` pragmas (or `outputs` option) whose every state
    /// variable is therefore observed. None has severity error.
    pub diagnostics: Vec<Diagnostic>,
    /// For each of `system.properties`, the module instance it was written in (`""` for
    /// main, else the hierarchical instance name).
    pub property_instances: Vec<String>,
}

/// Parses and elaborates the SMV model `text`, shown as `name` in diagnostics. The returned
/// system is named `main` and holds `text` as source file 0.
pub fn parse_smv(name: &str, text: &str) -> Result<System, SmvError> {
    parse_smv_with(name, text, &SmvOptions::default()).map(|l| l.system)
}

/// Reads and parses the SMV model at `path` (shown as given in diagnostics).
pub fn load_smv(path: &Path) -> Result<System, SmvError> {
    load_smv_with(path, &SmvOptions::default()).map(|l| l.system)
}

/// [`load_smv`] with options; also returns the front-end's diagnostics.
///
/// With preprocessors ([`SmvOptions::pre`]) the first one reads the file itself (so that
/// cpp finds `#include "f"` next to it). The system's source file 0 is then the
/// preprocessed text (with `# N "file"` line markers), which every expression span points
/// into and which mutants edit; the original files follow it (the model, then the files it
/// includes), and every diagnostic and error is located in them.
pub fn load_smv_with(path: &Path, options: &SmvOptions) -> Result<Loaded, SmvError> {
    let text = std::fs::read_to_string(path).map_err(|source| SmvError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_source(&path.display().to_string(), &text, Some(path), options)
}

/// [`parse_smv`] with options; also returns the front-end's diagnostics. Preprocessors
/// ([`SmvOptions::pre`]) read `text` on their standard input, in the current folder (see
/// [`load_smv_with`] for the sources of the result).
pub fn parse_smv_with(name: &str, text: &str, options: &SmvOptions) -> Result<Loaded, SmvError> {
    parse_source(name, text, None, options)
}

/// Where `span`, a span of a system this front-end read, lies in the files the user wrote.
/// The spans of a preprocessed model lie in the preprocessed text (source file 0, see
/// [`load_smv_with`]); this traces them through the text's line markers to the model or
/// to a file it includes, as the front-end's own diagnostics are. Other spans are returned
/// unchanged. (It reads the whole preprocessed text: meant for messages, not loops.)
pub fn original_span(sources: &SourceMap, span: Span) -> Span {
    Origins::from_markers(sources, span.file).map(sources, span)
}

/// The line markers of a system's preprocessed text (source file 0), read once: where many
/// spans of the system lie in the files the user wrote (see [`original_span`]). For a system
/// read without preprocessing it has no markers and leaves every span unchanged.
#[derive(Clone, Debug)]
pub struct SpanOrigins(Origins);

impl SpanOrigins {
    /// The origins of the lines of `sources`' file 0.
    pub fn read(sources: &SourceMap) -> SpanOrigins {
        SpanOrigins(Origins::from_markers(sources, FileId(0)))
    }

    /// Where `span` lies in the files the user wrote.
    pub fn original_span(&self, sources: &SourceMap, span: Span) -> Span {
        self.0.map(sources, span)
    }
}

/// Preprocesses (if asked) and parses `text`, read from `path` if it is a file.
fn parse_source(
    name: &str,
    text: &str,
    path: Option<&Path>,
    options: &SmvOptions,
) -> Result<Loaded, SmvError> {
    let pre = match options.pre.as_slice() {
        [] => None,
        list => Some(pre::preprocess(name, text, path, list)?),
    };
    let (n, t, o) = (name.to_string(), text.to_string(), options.clone());
    let p = pre.clone();
    let worker = std::thread::Builder::new()
        .name("hypermut-smv".into())
        .stack_size(STACK_SIZE)
        .spawn(move || parse_in_place(&n, &t, p, &o));
    match worker {
        Ok(handle) => handle.join().unwrap_or_else(|_| {
            Err(SmvError::Internal {
                name: name.to_string(),
                detail: "the parser thread panicked".into(),
            })
        }),
        // No thread available: run on the caller's stack.
        Err(_) => parse_in_place(name, text, pre, options),
    }
}

/// The whole pipeline on the current thread: `text`, or the preprocessed text of `pre`.
fn parse_in_place(
    name: &str,
    text: &str,
    pre: Option<Preprocessed>,
    options: &SmvOptions,
) -> Result<Loaded, SmvError> {
    let mut sys = System::new("main");
    let (file, origins, mut diagnostics) = match &pre {
        None => (sys.sources.add(name, text), None, Vec::new()),
        Some(p) => {
            let (file, ids, origins) = add_preprocessed(&mut sys.sources, name, p);
            let warnings = pre_warnings(&sys.sources, &ids, p);
            (file, Some(origins), warnings)
        }
    };
    let text = pre.as_ref().map_or(text, |p| p.text.as_str());
    let locate = |sources: &SourceMap, span: Span| match &origins {
        Some(o) => o.map(sources, span),
        None => span,
    };
    let lexed = lexer::lex(file, text);
    let program = match parser::parse_program(file, text, &lexed.tokens) {
        Ok(p) => p,
        Err(mut d) => {
            d.span = locate(&sys.sources, d.span);
            d.line_of = d.line_of.map(|s| locate(&sys.sources, s));
            return Err(d.into_error(&sys.sources));
        }
    };
    let sources = sys.sources.clone();
    let done = elab::elaborate(sys, &program, &lexed.pragmas, options).map_err(|mut d| {
        d.span = locate(&sources, d.span);
        d.line_of = d.line_of.map(|s| locate(&sources, s));
        d.into_error(&sources)
    })?;
    let mut seen = HashSet::new();
    for r in done.diagnostics {
        let d = Diagnostic::at(r.severity, &sources, locate(&sources, r.span), r.message);
        if seen.insert(d.clone()) {
            diagnostics.push(d);
        }
    }
    Ok(Loaded {
        system: done.system,
        diagnostics,
        property_instances: done.property_instances,
    })
}

/// Adds the preprocessed text (file 0, named `name`) and the original files to `sources`;
/// returns the text's file, the original files' ids and the origins of the text's lines.
fn add_preprocessed(
    sources: &mut SourceMap,
    name: &str,
    p: &Preprocessed,
) -> (FileId, Vec<FileId>, Origins) {
    let file = sources.add(name, p.text.as_str());
    let ids: Vec<FileId> = p
        .files
        .iter()
        .map(|(n, t)| sources.add(n.as_str(), t.as_str()))
        .collect();
    let lines = p
        .lines
        .iter()
        .map(|o| o.and_then(|(f, l)| Some((*ids.get(f)?, l))))
        .collect();
    let origins = Origins::new(file, &p.text, lines);
    (file, ids, origins)
}

/// The preprocessors' warnings, located in the original files (`ids`) where they said where.
fn pre_warnings(sources: &SourceMap, ids: &[FileId], p: &Preprocessed) -> Vec<Diagnostic> {
    p.warnings
        .iter()
        .map(|w| {
            let span = w
                .at
                .and_then(|(f, line, column)| origin::point(sources, *ids.get(f)?, line, column));
            match span {
                Some(span) => Diagnostic::warning(sources, span, w.message.as_str()),
                None => Diagnostic::new(Severity::Warning, w.message.as_str()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
