//! Elaboration of a parsed program into a [`System`].
//!
//! Phases:
//! 1. [`inst`]: flatten the module hierarchy from `main` (hierarchical names `a.b.c`, array
//!    elements `a[1]`, parameters bound by reference), declare every name, compute types.
//! 2. Invariant assignments `x := e` are found; such an `x` becomes a macro for `e` (it is not
//!    an IR variable), the other variables become IR variables in declaration order.
//! 3. [`assign`]: `init`/`next` assignments (with `process` interleaving), INIT/INVAR/TRANS.
//! 4. [`spec`]: safety properties from the specifications; everything else is checked on a
//!    throw-away copy (unused DEFINEs, skipped specifications, fairness).
//! 5. [`io`]: the input/output partition.
//! 6. Everything that is not part of the system (unused DEFINEs, the propositional parts of
//!    skipped specifications, fairness) is elaborated on a throw-away copy, so that its
//!    errors are reported as NuSMV reports them.

mod assign;
mod case;
mod common;
mod expr;
mod inst;
mod io;
mod names;
mod ops;
mod spec;
mod state;
mod types;

use std::collections::HashMap;

use hypermut_ir::{Severity, System};

use crate::ast::Program;
use crate::error::Diag;
use crate::lexer::Pragma;
use crate::options::SmvOptions;

pub(crate) use state::Report;
use state::{Elab, Scratch};

/// The result of elaboration.
pub(crate) struct Elaborated {
    /// The system.
    pub system: System,
    /// Warnings and notes for the user, in the order they were found.
    pub diagnostics: Vec<Report>,
    /// The instance each property was written in.
    pub property_instances: Vec<String>,
}

/// Elaborates `program` into `sys` (which already holds the source file).
pub(crate) fn elaborate(
    sys: System,
    program: &Program,
    pragmas: &[Pragma],
    options: &SmvOptions,
) -> Result<Elaborated, Diag> {
    let mut e = Elab {
        st: Scratch {
            sys,
            ..Scratch::default()
        },
        program,
        modules: HashMap::new(),
        insts: Vec::new(),
        procs: Vec::new(),
        syms: HashMap::new(),
        decls: Vec::new(),
        defines: Vec::new(),
        consts: HashMap::new(),
        enum_index: HashMap::new(),
        expanding: Vec::new(),
        depth: 0,
        const_only: false,
        inits: HashMap::new(),
        nexts: HashMap::new(),
        selector: None,
        domains: HashMap::new(),
        pending_cases: HashMap::new(),
        exhaustive_ok: std::collections::HashSet::new(),
        diagnostics: Vec::new(),
        deferred_defines: Vec::new(),
        old_compat: None,
        old_precedence: None,
        property_instances: Vec::new(),
        eval_buffers: std::cell::Cell::new((Vec::new(), Vec::new())),
        fold_memo: std::cell::RefCell::new(HashMap::new()),
    };
    e.st.sys.name = "main".into();
    e.index_modules()?;
    e.instantiate_main()?;
    e.mark_invariant_assignments()?;
    e.create_vars();
    for i in 0..e.insts.len() {
        e.instance_behaviour(i)?;
    }
    e.finish_nexts()?;
    e.expand_invariant_macros()?;
    for i in 0..e.insts.len() {
        e.instance_specs(i)?;
    }
    e.io(pragmas, options)?;
    e.check_only()?;
    if let Some(span) = e.old_compat {
        e.report(
            Severity::Note,
            span,
            "the integers 0 and 1 are used as booleans (the first use is shown); accepted as \
             NuSMV does with `-old` (backward compatibility)",
        );
    }
    if let Some(span) = e.old_precedence {
        e.report(
            Severity::Warning,
            span,
            "`!x = c` with a non-boolean `x` is read as `!(x = c)`, as NuSMV 2.4 did (NuSMV 2.5 \
             rejects it; the first use is shown)",
        );
    }
    Ok(Elaborated {
        system: e.st.sys,
        diagnostics: e.diagnostics,
        property_instances: e.property_instances,
    })
}
