//! NuSMV front-end of hypermut: reads a `.smv` model into a [`hypermut_ir::System`].
//!
//! Pipeline: [`lexer`] (tokens and `-- @input`/`-- @output` pragmas) → [`parser`] (syntax
//! tree with spans, [`ast`]) → [`elab`] (names, types, DEFINE expansion, IR).
//!
//! Supported so far: one `MODULE main` with `VAR`, `IVAR`, `FROZENVAR` (boolean, symbolic
//! enumerations, integer ranges), `DEFINE`, `ASSIGN` with `init(x)`/`next(x)`, `INIT`,
//! `INVAR`, `TRANS`, `case`, sets (choices), `?:`, boolean, arithmetic and relational
//! operators. Specification and fairness sections are skipped. Everything else is rejected
//! with a located error. Every expression node built from the source carries its span.
//!
//! Semantic choices (details in the `elab` modules):
//! * `case` is a nested if-then-else whose last branch is the default (NuSMV's exhaustiveness
//!   check is not done yet).
//! * DEFINEs are macros: their nodes keep the spans of the DEFINE body, so an operand of an
//!   operator may lie outside the operator's span when it is a DEFINE reference. Each
//!   expansion of a DEFINE containing a set is a separate choice site.
//! * Symbolic constants shared by several enumerations are typed by context.
//! * Inputs are IVARs, `-- @input` VARs and VARs that are never assigned and never read under
//!   `next()` in TRANS; outputs are the `-- @output` names, else every non-input variable.

mod ast;
mod elab;
mod error;
mod lexer;
mod parser;

use std::path::Path;

use hypermut_ir::System;

pub use error::SmvError;

/// Stack size of the thread that parses and elaborates (deeply nested or long expressions
/// recurse; the memory is only reserved, not committed).
const STACK_SIZE: usize = 256 * 1024 * 1024;

/// Parses and elaborates the SMV model `text`, shown as `name` in diagnostics. The returned
/// system is named `main` and holds `text` as source file 0.
pub fn parse_smv(name: &str, text: &str) -> Result<System, SmvError> {
    let (n, t) = (name.to_string(), text.to_string());
    let worker = std::thread::Builder::new()
        .name("hypermut-smv".into())
        .stack_size(STACK_SIZE)
        .spawn(move || parse_in_place(&n, &t));
    match worker {
        Ok(handle) => handle.join().unwrap_or_else(|_| {
            Err(SmvError::Internal {
                name: name.to_string(),
                detail: "the parser thread panicked".into(),
            })
        }),
        // No thread available: run on the caller's stack.
        Err(_) => parse_in_place(name, text),
    }
}

/// Reads and parses the SMV model at `path` (shown as given in diagnostics).
pub fn load_smv(path: &Path) -> Result<System, SmvError> {
    let text = std::fs::read_to_string(path).map_err(|source| SmvError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_smv(&path.display().to_string(), &text)
}

/// The whole pipeline on the current thread.
fn parse_in_place(name: &str, text: &str) -> Result<System, SmvError> {
    let mut sys = System::new("main");
    let file = sys.sources.add(name, text);
    let lexed = lexer::lex(file, text);
    let program = match parser::parse_program(file, text, &lexed.tokens) {
        Ok(p) => p,
        Err(d) => return Err(d.into_error(&sys.sources)),
    };
    let sources = sys.sources.clone();
    elab::elaborate(sys, &program, &lexed.pragmas).map_err(|d| d.into_error(&sources))
}

#[cfg(test)]
mod tests;
