//! The input/output partition: `-- @input` / `-- @output` pragmas, the `inputs`/`outputs`
//! options (which replace the pragmas of the same kind), and the defaults.
//!
//! * Inputs: every IVAR, every VAR named as input (it must not be assigned), and every VAR
//!   that has neither `init` nor `next` assignment and is never read under `next()`. An input
//!   VAR keeps its declared type.
//! * Every other VAR is state (`init`/`next` may be absent: free value); FROZENVARs are frozen.
//! * Outputs: the names given (variables, DEFINEs, array names for all their elements, in
//!   the given order, each once); otherwise every state and frozen variable and every
//!   invariant-assigned variable, in declaration order, with a warning at `MODULE main`
//!   saying so (tests then compare whole states: `docs/method.md` §2.3). A DEFINE output
//!   observes the expanded DEFINE. Names are hierarchical (`a.b`, `arr[2]`).
//! * A variable of an integer enumeration with gaps (`{0, 2, 5}`) that can take arbitrary
//!   values (input, free initial or next value) gets an invariant constraint restricting it
//!   to its values.

use std::collections::HashSet;

use hypermut_ir::{
    BinOp, Constraint, ConstraintKind, ExprId, ExprKind, Output, Role, Severity, Span, VarId,
};

use crate::ast::VarKind;
use crate::error::Diag;
use crate::lexer::{Pragma, PragmaKind};
use crate::options::SmvOptions;

use super::common::NextMode;
use super::state::{Elab, Sym};

/// Where a list of I/O names came from.
#[derive(Clone, Copy)]
enum Origin {
    Pragma(&'static str),
    Option(&'static str),
}

impl Origin {
    fn error(self, span: Span, msg: String) -> Diag {
        match self {
            Origin::Pragma(p) => Diag::new(span, format!("{msg} in {p} pragma")),
            Origin::Option(o) => Diag::option(span, format!("{o}: {msg}")),
        }
    }
}

/// What an I/O name denotes.
enum Named {
    Var(usize),
    Define(usize),
}

impl Elab<'_> {
    /// Sets variable roles, the outputs and the domain constraints.
    pub(super) fn io(&mut self, pragmas: &[Pragma], options: &SmvOptions) -> Result<(), Diag> {
        let eof = self.program.eof;
        let input_names: Vec<(String, Span)> = match &options.inputs {
            Some(list) => list.iter().map(|n| (n.clone(), eof)).collect(),
            None => names_of(pragmas, PragmaKind::Input)?,
        };
        let input_origin = if options.inputs.is_some() {
            Origin::Option("--inputs")
        } else {
            Origin::Pragma("@input")
        };
        let mut forced: HashSet<VarId> = HashSet::new();
        for (name, span) in &input_names {
            for named in self.lookup_io(name, *span, input_origin)? {
                let d = match named {
                    Named::Var(d) => d,
                    Named::Define(_) => {
                        return Err(input_origin.error(
                            *span,
                            format!("`{name}` is a DEFINE; only variables can be inputs"),
                        ))
                    }
                };
                let info = &self.decls[d];
                let Some(v) = info.var else {
                    return Err(input_origin.error(
                        *span,
                        format!("variable `{name}` is assigned and cannot be an input"),
                    ));
                };
                if info.kind == VarKind::Frozen {
                    return Err(input_origin.error(
                        *span,
                        format!("frozen variable `{name}` cannot be an input"),
                    ));
                }
                if self.is_assigned(v) {
                    return Err(input_origin.error(
                        *span,
                        format!("variable `{name}` is assigned and cannot be an input"),
                    ));
                }
                if self.st.next_uses.contains_key(&v) {
                    return Err(input_origin.error(
                        *span,
                        format!("variable `{name}` is read under next() and cannot be an input"),
                    ));
                }
                forced.insert(v);
            }
        }
        let order: Vec<(VarId, VarKind)> = self
            .decls
            .iter()
            .filter_map(|d| d.var.map(|v| (v, d.kind)))
            .collect();
        for &(v, kind) in &order {
            let role = match kind {
                VarKind::IVar => Role::Input,
                VarKind::Frozen => Role::Frozen,
                VarKind::Var if forced.contains(&v) => Role::Input,
                VarKind::Var if self.is_assigned(v) => Role::State,
                VarKind::Var if self.st.next_uses.contains_key(&v) => Role::State,
                VarKind::Var => Role::Input,
            };
            self.st.sys.vars[v.0 as usize].role = role;
        }
        self.domain_constraints()?;
        let output_names: Vec<(String, Span)> = match &options.outputs {
            Some(list) => list.iter().map(|n| (n.clone(), eof)).collect(),
            None => names_of(pragmas, PragmaKind::Output)?,
        };
        let output_origin = if options.outputs.is_some() {
            Origin::Option("--outputs")
        } else {
            Origin::Pragma("@output")
        };
        if output_names.is_empty() {
            for d in 0..self.decls.len() {
                let (name, var) = (self.decls[d].name.clone(), self.decls[d].var);
                let expr = match var {
                    Some(v) if self.st.sys.var(v).role == Role::Input => continue,
                    Some(v) => self.st.sys.var_ref(v, None),
                    None => {
                        self.macro_value(d, self.decls[d].span, NextMode::Forbidden("outputs"))?
                    }
                };
                self.st.sys.outputs.push(Output { name, expr });
            }
            self.warn_every_state_observed();
            return Ok(());
        }
        let mut seen = HashSet::new();
        for (name, span) in output_names {
            for named in self.lookup_io(&name, span, output_origin)? {
                let (out_name, expr) = match named {
                    Named::Var(d) => {
                        let n = self.decls[d].name.clone();
                        let e = match self.decls[d].var {
                            Some(v) => self.st.sys.var_ref(v, None),
                            None => self.macro_value(d, span, NextMode::Forbidden("outputs"))?,
                        };
                        (n, e)
                    }
                    Named::Define(i) => {
                        let n = self.defines[i].name.clone();
                        let at = self.defines[i].body.span;
                        let e =
                            self.elab_define(i, at, NextMode::Forbidden("outputs"), None)
                                .map_err(|d| match output_origin {
                                    Origin::Pragma(_) => d,
                                    Origin::Option(_) => output_origin
                                        .error(span, format!("`{name}`: {}", d.message)),
                                })?;
                        (n, e)
                    }
                };
                if seen.insert(out_name.clone()) {
                    self.st.sys.outputs.push(Output {
                        name: out_name,
                        expr,
                    });
                }
            }
        }
        Ok(())
    }

    /// The warning of a model whose outputs are the default: every state variable.
    fn warn_every_state_observed(&mut self) {
        let n = self.st.sys.outputs.len();
        if n == 0 {
            // Nothing is observed at all; the caller warns about a model without outputs.
            return;
        }
        let at = self
            .program
            .modules
            .iter()
            .find(|m| m.name.name == "main")
            .map_or(self.program.eof, |m| m.name.span);
        let noun = if n == 1 { "variable" } else { "variables" };
        self.report(
            Severity::Warning,
            at,
            format!("{OBSERVES_EVERY_STATE} ({n} {noun})"),
        );
    }

    /// Whether `v` has an `init` or `next` assignment.
    fn is_assigned(&self, v: VarId) -> bool {
        self.inits.contains_key(&v) || self.st.sys.var(v).next.is_some()
    }

    /// The variables or DEFINEs an I/O name denotes (arrays: all their elements).
    fn lookup_io(&self, name: &str, span: Span, origin: Origin) -> Result<Vec<Named>, Diag> {
        let mut out = Vec::new();
        let mut stack = vec![name.to_string()];
        while let Some(n) = stack.pop() {
            match self.syms.get(&n).map(|(s, _)| *s) {
                Some(Sym::Var(d)) => out.push(Named::Var(d)),
                Some(Sym::Define(i)) => out.push(Named::Define(i)),
                Some(Sym::Array { lo, hi }) => {
                    stack.extend((lo..=hi).rev().map(|k| format!("{n}[{k}]")));
                }
                Some(Sym::Inst(_)) => {
                    return Err(origin.error(
                        span,
                        format!("`{name}` is a module instance; name its variables"),
                    ))
                }
                Some(Sym::Running(_)) | None => {
                    return Err(origin.error(span, format!("unknown name `{name}`")))
                }
            }
        }
        Ok(out)
    }

    /// Restricts variables with gaps in their integer domain that can take any value.
    fn domain_constraints(&mut self) -> Result<(), Diag> {
        let mut vars: Vec<VarId> = self.domains.keys().copied().collect();
        vars.sort();
        for v in vars {
            let var = self.st.sys.var(v).clone();
            let free = var.role == Role::Input
                || var.init.is_none()
                || (var.role == Role::State && var.next.is_none());
            if !free {
                continue;
            }
            let dom = self.domains[&v].clone();
            let at = var.span.unwrap_or(self.program.eof);
            let x = self.st.sys.var_ref(v, None);
            let mut acc: Option<ExprId> = None;
            for k in dom.iter().rev() {
                let c = self.st.sys.int_const(*k, None);
                let eq = self.mk_raw(ExprKind::Binary(BinOp::Eq, x, c), at)?;
                acc = Some(match acc {
                    None => eq,
                    Some(a) => self.mk_raw(ExprKind::Binary(BinOp::Or, eq, a), at)?,
                });
            }
            if let Some(expr) = acc {
                self.st.sys.constraints.push(Constraint {
                    kind: ConstraintKind::Invariant,
                    expr,
                    span: None,
                });
            }
        }
        Ok(())
    }
}

/// What a model without `-- @output` pragmas and without the `outputs` option is told.
pub(crate) const OBSERVES_EVERY_STATE: &str =
    "no `-- @output` pragma and no --outputs: every state \
    variable is observed as an output, so a test compares whole states and may kill mutants \
    that no real output shows; name the outputs with `-- @output NAME, ...`";

/// The names of all pragmas of one kind (each pragma must name something).
fn names_of(pragmas: &[Pragma], kind: PragmaKind) -> Result<Vec<(String, Span)>, Diag> {
    let mut out = Vec::new();
    for p in pragmas.iter().filter(|p| p.kind == kind) {
        if p.names.is_empty() {
            let which = if kind == PragmaKind::Input {
                "@input"
            } else {
                "@output"
            };
            return Err(Diag::new(p.span, format!("`{which}` pragma without names")));
        }
        out.extend(p.names.iter().cloned());
    }
    Ok(out)
}
