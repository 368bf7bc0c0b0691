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
mod expr;
mod inst;
mod io;
mod names;
mod ops;
mod spec;
mod types;

use std::collections::HashMap;

use hypermut_ir::{EnumId, ExprId, Span, System, Type, VarId};

use crate::ast::{Assign, Expr, Module, Program, Section, VarKind};
use crate::error::Diag;
use crate::lexer::Pragma;
use crate::SmvOptions;

pub(crate) use expr::NextMode;

/// Index of a module instance in [`Elab::insts`] (0 is `main`).
pub(crate) type InstId = usize;

/// A module instance after flattening.
pub(crate) struct Inst<'a> {
    /// Hierarchical name (`""` for main, else `a.b`).
    pub path: String,
    /// Formal parameter → actual expression and the instance it is evaluated in.
    pub params: HashMap<&'a str, (&'a Expr, InstId)>,
    /// The process this instance belongs to (index into [`Elab::procs`]; 0 is main).
    pub process: usize,
    /// The sections of the module, with `ISA` expanded.
    pub sections: Vec<&'a Section>,
}

/// A `process` (NuSMV interleaving): its selector value and root instance.
pub(crate) struct Proc {
    /// The value of `_process_selector_` that runs it (`main` or the instance path).
    pub name: String,
    /// Its `running` expression, once built.
    pub running: Option<ExprId>,
}

/// What a hierarchical name denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sym {
    /// A variable (index into [`Elab::decls`]).
    Var(usize),
    /// A DEFINE (index into [`Elab::defines`]).
    Define(usize),
    /// A module instance.
    Inst(InstId),
    /// An array; its elements are named `name[k]` for `lo ≤ k ≤ hi`.
    Array {
        /// Smallest index.
        lo: i64,
        /// Largest index.
        hi: i64,
    },
    /// `running` of a process.
    Running(usize),
}

/// The state of an invariant assignment's macro expansion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum MacroState {
    /// Not expanded yet.
    #[default]
    Pending,
    /// Being expanded (a second visit is a cycle).
    Busy,
    /// Expanded.
    Done(ExprId),
}

/// A declared variable.
pub(crate) struct VarInfo<'a> {
    /// Hierarchical name.
    pub name: String,
    /// Section it was declared in.
    pub kind: VarKind,
    /// IR type.
    pub ty: Type,
    /// The allowed values when the type is an integer enumeration with gaps (`{0, 2, 5}`).
    pub domain: Option<Vec<i64>>,
    /// Where it was declared.
    pub span: Span,
    /// The IR variable (`None` before phase 2 and for invariant-assigned variables).
    pub var: Option<VarId>,
    /// Its invariant assignment `x := e`, if any, with the instance it appears in.
    pub invariant: Option<(&'a Assign, InstId)>,
    /// Expansion of the invariant assignment for the current and the next state.
    pub macro_state: [MacroState; 2],
}

/// A DEFINE of one instance (array DEFINEs contribute one entry per element).
pub(crate) struct DefineInfo<'a> {
    /// Hierarchical name.
    pub name: String,
    /// The macro body.
    pub body: &'a Expr,
    /// The instance its names are resolved in.
    pub ctx: InstId,
    /// Whether some model part expanded it.
    pub used: bool,
}

/// Values of all variables in one state (`None`: not given), indexed by variable.
pub(crate) type StateVec = Vec<Option<hypermut_ir::Value>>;

/// Key of a memoised DEFINE expansion: define, `next` mode class, expected enumeration.
type MemoKey = (usize, u8, Option<EnumId>);

/// The part of the elaboration state that a trial elaboration may change and must restore.
#[derive(Clone, Default)]
pub(crate) struct Scratch {
    /// The system being built.
    pub sys: System,
    /// DEFINE expansions that created no choice site, for reuse.
    pub memo: HashMap<MemoKey, ExprId>,
    /// Variables read under `next()`, with the first such occurrence.
    pub next_uses: HashMap<VarId, Span>,
}

/// One `next(x) := e` (possibly one per process).
pub(crate) struct NextAssign {
    /// The process whose step performs it.
    pub process: usize,
    /// The assigned value.
    pub rhs: ExprId,
    /// The left-hand side.
    pub lhs: Span,
}

/// Elaboration context.
pub(crate) struct Elab<'a> {
    /// Mutable state (system under construction and caches).
    pub st: Scratch,
    /// The program.
    pub program: &'a Program,
    /// Module name → module.
    pub modules: HashMap<&'a str, &'a Module>,
    /// Instances, main first, in declaration (depth-first) order.
    pub insts: Vec<Inst<'a>>,
    /// Processes; index 0 is main.
    pub procs: Vec<Proc>,
    /// Hierarchical name → what it denotes, with its declaration span.
    pub syms: HashMap<String, (Sym, Span)>,
    /// Declared variables, in declaration order.
    pub decls: Vec<VarInfo<'a>>,
    /// DEFINEs.
    pub defines: Vec<DefineInfo<'a>>,
    /// Symbolic constant → the enumerations containing it, in creation order, and where the
    /// constant was first declared.
    pub consts: HashMap<String, (Vec<EnumId>, Span)>,
    /// Enumeration value list → its IR enumeration (identical lists share one).
    pub enum_index: HashMap<Vec<String>, EnumId>,
    /// DEFINEs (and invariant-assigned variables, as `usize::MAX - decl`) being expanded.
    pub expanding: Vec<usize>,
    /// Current expression elaboration depth.
    pub depth: u32,
    /// When set, variable references are errors (constant expressions).
    pub const_only: bool,
    /// Spans of `init(x)` assignments per variable.
    pub inits: HashMap<VarId, Span>,
    /// `next(x)` assignments per variable.
    pub nexts: HashMap<VarId, Vec<NextAssign>>,
    /// The `_process_selector_` choice, once built.
    pub selector: Option<(EnumId, ExprId)>,
    /// Allowed values of variables whose type has gaps.
    pub domains: HashMap<VarId, Vec<i64>>,
    /// `case` nodes that are not exhaustive in isolation (checked in their context).
    pub pending_cases: HashMap<ExprId, case::PendingCase>,
    /// `case` nodes known to be exhaustive.
    pub exhaustive_ok: std::collections::HashSet<ExprId>,
    /// Notes for the user (skipped specifications, unchecked conditions, …).
    pub warnings: Vec<String>,
    /// The instance each property was written in.
    pub property_instances: Vec<String>,
    /// Reusable current/next state vectors for the `case` checks (all `None`).
    pub eval_buffers: std::cell::Cell<(StateVec, StateVec)>,
    /// Values of folded constant expressions.
    pub fold_memo: std::cell::RefCell<HashMap<ExprId, Option<hypermut_ir::Value>>>,
    /// Whether integers 0/1 were used as booleans (NuSMV's `-old` compatibility).
    pub old_compat: bool,
    /// Whether `!x = c` with a non-boolean `x` was read as `!(x = c)` (NuSMV 2.4).
    pub old_precedence: bool,
    /// DEFINEs with hierarchical names, declared once all instances exist.
    pub deferred_defines: Vec<(InstId, &'a crate::ast::DefineDecl)>,
}

/// The result of elaboration.
pub(crate) struct Elaborated {
    /// The system.
    pub system: System,
    /// Notes for the user.
    pub warnings: Vec<String>,
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
        warnings: Vec::new(),
        deferred_defines: Vec::new(),
        old_compat: false,
        old_precedence: false,
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
    if e.old_compat {
        let file = e.st.sys.sources.location(e.program.eof).file;
        e.warnings.push(format!(
            "{file}: the integers 0 and 1 are used as booleans; accepted as NuSMV does with \
             `-old` (backward compatibility)"
        ));
    }
    if e.old_precedence {
        let file = e.st.sys.sources.location(e.program.eof).file;
        e.warnings.push(format!(
            "{file}: `!x = c` with a non-boolean `x` is read as `!(x = c)`, as NuSMV 2.4 did \
             (NuSMV 2.5 rejects it)"
        ));
    }
    let mut seen = std::collections::HashSet::new();
    e.warnings.retain(|w| seen.insert(w.clone()));
    Ok(Elaborated {
        system: e.st.sys,
        warnings: e.warnings,
        property_instances: e.property_instances,
    })
}

impl Elab<'_> {
    /// The location `file:line` of a span, for notes.
    pub(crate) fn where_is(&self, span: Span) -> String {
        let loc = self.st.sys.sources.location(span);
        format!("{}:{}", loc.file, loc.line)
    }

    /// The hierarchical name of `name` inside instance `ctx`.
    pub(crate) fn full_name(&self, ctx: InstId, name: &str) -> String {
        join(&self.insts[ctx].path, name)
    }
}

/// `path.name`, or `name` at the top.
pub(crate) fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

/// The enumeration of an enum type.
pub(crate) fn enum_of(t: Type) -> Option<EnumId> {
    match t {
        Type::Enum(e) => Some(e),
        _ => None,
    }
}
