//! Elaboration of the parsed `MODULE main` into a [`System`].
//!
//! Order: declarations (names, types, enumerations) → assignments → INIT/INVAR/TRANS →
//! input/output partition (pragmas and defaults) → a check of DEFINEs that were never used.

mod decl;
mod expr;
mod io;

use std::collections::HashMap;

use hypermut_ir::{
    Constraint, ConstraintKind, EnumId, ExprId, ExprKind, Span, System, Type, Value, VarId,
};

use crate::ast::{Assign, AssignKind, DefineDecl, Module, Program, Section, VarKind};
use crate::error::Diag;
use crate::lexer::Pragma;

pub(crate) use expr::NextMode;

/// What a declared name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decl {
    /// A variable and the section it was declared in.
    Var(VarId, VarKind),
    /// A DEFINE (index into [`Elab::defines`]).
    Define(usize),
}

/// Key of a memoised DEFINE expansion: define, `next` mode class, expected enumeration.
type MemoKey = (usize, u8, Option<EnumId>);

/// The part of the elaboration state that a trial elaboration may change and must restore.
#[derive(Clone, Default)]
pub(crate) struct Scratch {
    /// The system being built.
    pub sys: System,
    /// DEFINE expansions that created no choice site, for reuse.
    pub memo: HashMap<MemoKey, ExprId>,
    /// Variables read under `next()` in TRANS, with the first such occurrence.
    pub next_uses: HashMap<VarId, Span>,
}

/// Elaboration context of one module.
pub(crate) struct Elab<'a> {
    /// Mutable state (system under construction and caches).
    pub st: Scratch,
    /// Declared names (variables and DEFINEs) and their declaration spans.
    pub names: HashMap<String, (Decl, Span)>,
    /// The DEFINEs, in declaration order.
    pub defines: Vec<&'a DefineDecl>,
    /// Whether each DEFINE has been expanded (and thereby checked).
    pub define_used: Vec<bool>,
    /// Symbolic constant → the enumerations containing it, in creation order.
    pub consts: HashMap<String, Vec<EnumId>>,
    /// Enumeration value list → its IR enumeration (identical lists share one).
    pub enum_index: HashMap<Vec<String>, EnumId>,
    /// Names of all modules in the file.
    pub modules: Vec<String>,
    /// DEFINEs currently being expanded (innermost last), for cycle detection.
    pub expanding: Vec<usize>,
    /// Current expression elaboration depth.
    pub depth: u32,
    /// Variables in declaration order with their section.
    pub var_order: Vec<(VarId, VarKind)>,
    /// Spans of the `init(x)` / `next(x)` assignments per variable.
    pub assigned: HashMap<VarId, (Option<Span>, Option<Span>)>,
}

/// Elaborates `program` into `sys` (which already holds the source file).
pub(crate) fn elaborate(
    sys: System,
    program: &Program,
    pragmas: &[Pragma],
) -> Result<System, Diag> {
    let main = find_main(program)?;
    let mut e = Elab {
        st: Scratch {
            sys,
            ..Scratch::default()
        },
        names: HashMap::new(),
        defines: Vec::new(),
        define_used: Vec::new(),
        consts: HashMap::new(),
        enum_index: HashMap::new(),
        modules: program
            .modules
            .iter()
            .map(|m| m.name.name.clone())
            .collect(),
        expanding: Vec::new(),
        depth: 0,
        var_order: Vec::new(),
        assigned: HashMap::new(),
    };
    e.st.sys.name = "main".into();
    e.declare(main)?;
    for s in &main.sections {
        match s {
            Section::Assigns(assigns) => {
                for a in assigns {
                    e.assign(a)?;
                }
            }
            Section::Constraint(kind, x) => e.constraint(*kind, x)?,
            Section::Vars(..) | Section::Defines(_) | Section::Skipped(_) => {}
        }
    }
    e.io(pragmas)?;
    e.check_unused_defines()?;
    Ok(e.st.sys)
}

/// The single `MODULE main`, without parameters.
fn find_main(program: &Program) -> Result<&Module, Diag> {
    let mut mains = program.modules.iter().filter(|m| m.name.name == "main");
    let main = mains
        .next()
        .ok_or_else(|| Diag::new(program.eof, "no `MODULE main` found"))?;
    if let Some(dup) = mains.next() {
        return Err(Diag::new(dup.name.span, "duplicate `MODULE main`"));
    }
    if let Some(p) = main.params.first() {
        return Err(Diag::new(p.span, "`MODULE main` cannot have parameters"));
    }
    Ok(main)
}

impl Elab<'_> {
    /// One `init(x) := e;` / `next(x) := e;`.
    fn assign(&mut self, a: &Assign) -> Result<(), Diag> {
        let name = &a.target.name;
        let (v, kind) = match self.names.get(name) {
            None => {
                return Err(Diag::new(
                    a.target.span,
                    format!("undefined identifier `{name}`"),
                ))
            }
            Some((Decl::Define(_), _)) => {
                return Err(Diag::new(
                    a.target.span,
                    format!("cannot assign to DEFINE `{name}`"),
                ))
            }
            Some((Decl::Var(v, k), _)) => (*v, *k),
        };
        let (what, mode) = match a.kind {
            AssignKind::Invariant => {
                return Err(Diag::new(
                    a.lhs_span,
                    format!("invariant assignments (`{name} := …`) are not supported yet"),
                ))
            }
            AssignKind::Init => ("initial", NextMode::Forbidden("`init(…)` assignments")),
            AssignKind::Next => (
                "next",
                NextMode::Forbidden(
                    "the right-hand side of `next(…)` assignments (not supported yet)",
                ),
            ),
        };
        match kind {
            VarKind::IVar => {
                return Err(Diag::new(
                    a.lhs_span,
                    format!("illegal assignment of {what} value to input variable \"{name}\""),
                ))
            }
            VarKind::Frozen if a.kind == AssignKind::Next => {
                return Err(Diag::new(
                    a.lhs_span,
                    format!("illegal assignment of next value to frozen variable \"{name}\""),
                ))
            }
            _ => {}
        }
        let slot = self.assigned.entry(v).or_default();
        let prev = if a.kind == AssignKind::Init {
            &mut slot.0
        } else {
            &mut slot.1
        };
        if prev.is_some() {
            return Err(Diag::new(
                a.lhs_span,
                format!("variable is assigned more than once: {name}"),
            ));
        }
        *prev = Some(a.lhs_span);
        let var_ty = self.st.sys.var(v).ty;
        let rhs = self.elab(&a.rhs, mode, enum_of(var_ty))?;
        let rhs_ty = self.st.sys.ty(rhs);
        let compatible = match (var_ty, rhs_ty) {
            (Type::Int { .. }, Type::Int { .. }) => true,
            (x, y) => x == y,
        };
        if !compatible {
            let d = |t: Type| t.describe(&self.st.sys.enums);
            return Err(Diag::new(
                a.rhs.span,
                format!(
                    "type mismatch in assignment to `{name}`: expected {}, found {}",
                    d(var_ty),
                    d(rhs_ty)
                ),
            ));
        }
        self.check_constant_range(v, rhs, a.rhs.span)?;
        let var = &mut self.st.sys.vars[v.0 as usize];
        if a.kind == AssignKind::Init {
            var.init = Some(rhs);
        } else {
            var.next = Some(rhs);
        }
        Ok(())
    }

    /// Rejects integer constants among the possible values of `rhs` (through `case` branches
    /// and set elements) that lie outside the range of `v`.
    fn check_constant_range(&self, v: VarId, rhs: ExprId, fallback: Span) -> Result<(), Diag> {
        let var = self.st.sys.var(v);
        let Type::Int { lo, hi } = var.ty else {
            return Ok(());
        };
        let mut stack = vec![rhs];
        let mut seen = std::collections::HashSet::new();
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            let node = self.st.sys.exprs.node(id);
            match &node.kind {
                ExprKind::Ite(_, a, b) => stack.extend([*a, *b]),
                ExprKind::Choice { options, .. } => stack.extend(options.iter().copied()),
                ExprKind::Const(Value::Int(c)) if *c < lo || *c > hi => {
                    return Err(Diag::new(
                        node.span.unwrap_or(fallback),
                        format!("cannot assign value {c} to variable {}", var.name),
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// An INIT / INVAR / TRANS constraint.
    fn constraint(&mut self, kind: ConstraintKind, x: &crate::ast::Expr) -> Result<(), Diag> {
        let (keyword, mode) = match kind {
            ConstraintKind::Init => ("INIT", NextMode::Forbidden("INIT")),
            ConstraintKind::Invariant => ("INVAR", NextMode::Forbidden("INVAR")),
            ConstraintKind::Trans => ("TRANS", NextMode::Allowed),
        };
        let id = self.elab(x, mode, None)?;
        let ty = self.st.sys.ty(id);
        if !ty.is_bool() {
            return Err(Diag::new(
                x.span,
                format!(
                    "{keyword} expression must be boolean, found {}",
                    ty.describe(&self.st.sys.enums)
                ),
            ));
        }
        self.st.sys.constraints.push(Constraint {
            kind,
            expr: id,
            span: Some(x.span),
        });
        Ok(())
    }

    /// Expands every DEFINE that no model part used, on a throw-away copy, so that errors in
    /// unused DEFINEs are still reported.
    fn check_unused_defines(&mut self) -> Result<(), Diag> {
        if self.define_used.iter().all(|u| *u) {
            return Ok(());
        }
        let saved = self.st.clone();
        for i in 0..self.defines.len() {
            if !self.define_used[i] {
                let d = self.defines[i];
                self.elab_define(i, d.name.span, NextMode::Allowed, None)?;
            }
        }
        self.st = saved;
        Ok(())
    }
}

/// The enumeration of an enum type.
pub(crate) fn enum_of(t: Type) -> Option<EnumId> {
    match t {
        Type::Enum(e) => Some(e),
        _ => None,
    }
}
