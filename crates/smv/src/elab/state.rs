//! The elaboration state: the [`Elab`] context and the records it holds (instances,
//! processes, declared names, variables, DEFINEs, pending `case` checks). The phases add
//! their methods to [`Elab`] in their own modules.

use std::collections::HashMap;

use hypermut_ir::{EnumId, ExprId, Severity, Span, System, Type, VarId};

use crate::ast::{Assign, Expr, Module, Program, Section, VarKind};

use super::common::join;

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

/// A warning or note of the elaboration, before it is rendered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Report {
    /// Warning or note.
    pub severity: Severity,
    /// Where (in the parsed text).
    pub span: Span,
    /// What it says.
    pub message: String,
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
    pub pending_cases: HashMap<ExprId, PendingCase>,
    /// `case` nodes known to be exhaustive.
    pub exhaustive_ok: std::collections::HashSet<ExprId>,
    /// Warnings and notes for the user (skipped specifications, unchecked conditions, …),
    /// rendered by the caller (which knows where preprocessed text came from).
    pub diagnostics: Vec<Report>,
    /// The instance each property was written in.
    pub property_instances: Vec<String>,
    /// Reusable current/next state vectors for the `case` checks (all `None`).
    pub eval_buffers: std::cell::Cell<(StateVec, StateVec)>,
    /// Values of folded constant expressions.
    pub fold_memo: std::cell::RefCell<HashMap<ExprId, Option<hypermut_ir::Value>>>,
    /// The first place where integers 0/1 were used as booleans (NuSMV's `-old`
    /// compatibility), if any.
    pub old_compat: Option<Span>,
    /// The first place where `!x = c` with a non-boolean `x` was read as `!(x = c)`
    /// (NuSMV 2.4), if any.
    pub old_precedence: Option<Span>,
    /// DEFINEs with hierarchical names, declared once all instances exist.
    pub deferred_defines: Vec<(InstId, &'a crate::ast::DefineDecl)>,
}

/// A `case` that is not exhaustive in isolation: its guards and values, and its span.
#[derive(Clone, Debug)]
pub(crate) struct PendingCase {
    /// The guards, in order.
    pub(super) guards: Vec<ExprId>,
    /// The value of each guard's branch.
    pub(super) values: Vec<ExprId>,
    /// The whole `case … esac`.
    pub(super) span: Span,
}

impl Elab<'_> {
    /// Records a warning or note at `span` (duplicates are dropped when they are rendered).
    pub(crate) fn report(&mut self, severity: Severity, span: Span, message: impl Into<String>) {
        self.diagnostics.push(Report {
            severity,
            span,
            message: message.into(),
        });
    }

    /// The hierarchical name of `name` inside instance `ctx`.
    pub(crate) fn full_name(&self, ctx: InstId, name: &str) -> String {
        join(&self.insts[ctx].path, name)
    }
}
