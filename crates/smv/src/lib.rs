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

mod ast;
mod elab;
mod error;
mod lexer;
mod options;
mod parser;

use std::path::Path;

use hypermut_ir::{Diagnostic, System};

pub use error::SmvError;
pub use options::SmvOptions;

/// Stack size of the thread that parses and elaborates (deeply nested or long expressions
/// recurse; the memory is only reserved, not committed).
const STACK_SIZE: usize = 1024 * 1024 * 1024;

/// A loaded model and the warnings and notes the front-end made about it.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The transition system.
    pub system: System,
    /// Warnings and notes for the user, each located at the place it is about, in the order
    /// they were found: notes for skipped specifications, ignored fairness constraints and
    /// 0/1 used as booleans; warnings for `case` conditions whose exhaustiveness could not be
    /// checked, for NuSMV 2.4's reading of `!x = c`, and for a model without `-- @output`
    /// pragmas (or `outputs` option) whose every state variable is therefore observed. None
    /// has severity error.
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

/// [`load_smv`] with I/O overrides; also returns the front-end's diagnostics.
pub fn load_smv_with(path: &Path, options: &SmvOptions) -> Result<Loaded, SmvError> {
    let text = std::fs::read_to_string(path).map_err(|source| SmvError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_smv_with(&path.display().to_string(), &text, options)
}

/// [`parse_smv`] with I/O overrides; also returns the front-end's diagnostics.
pub fn parse_smv_with(name: &str, text: &str, options: &SmvOptions) -> Result<Loaded, SmvError> {
    let (n, t, o) = (name.to_string(), text.to_string(), options.clone());
    let worker = std::thread::Builder::new()
        .name("hypermut-smv".into())
        .stack_size(STACK_SIZE)
        .spawn(move || parse_in_place(&n, &t, &o));
    match worker {
        Ok(handle) => handle.join().unwrap_or_else(|_| {
            Err(SmvError::Internal {
                name: name.to_string(),
                detail: "the parser thread panicked".into(),
            })
        }),
        // No thread available: run on the caller's stack.
        Err(_) => parse_in_place(name, text, options),
    }
}

/// The whole pipeline on the current thread.
fn parse_in_place(name: &str, text: &str, options: &SmvOptions) -> Result<Loaded, SmvError> {
    let mut sys = System::new("main");
    let file = sys.sources.add(name, text);
    let lexed = lexer::lex(file, text);
    let program = match parser::parse_program(file, text, &lexed.tokens) {
        Ok(p) => p,
        Err(d) => return Err(d.into_error(&sys.sources)),
    };
    let sources = sys.sources.clone();
    let done = elab::elaborate(sys, &program, &lexed.pragmas, options)
        .map_err(|d| d.into_error(&sources))?;
    Ok(Loaded {
        system: done.system,
        diagnostics: done.diagnostics,
        property_instances: done.property_instances,
    })
}

#[cfg(test)]
mod tests;
