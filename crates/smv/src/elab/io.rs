//! The input/output partition: `-- @input` / `-- @output` pragmas and the defaults.
//!
//! * Inputs: every IVAR, every VAR named by `@input` (it must not be assigned), and every VAR
//!   that has neither `init` nor `next` assignment and is never read under `next()` in a
//!   TRANS constraint. An input VAR keeps its declared type.
//! * Every other VAR is state (`init`/`next` may be absent: free value); FROZENVARs are frozen.
//! * Outputs: if any `@output` pragma is present, exactly the listed variables and DEFINEs
//!   (in pragma order, each once); otherwise every state and frozen variable, in declaration
//!   order. A DEFINE output observes the expanded DEFINE.

use std::collections::HashSet;

use hypermut_ir::{Output, Role, VarId};

use crate::ast::VarKind;
use crate::error::Diag;
use crate::lexer::{Pragma, PragmaKind};

use super::{Decl, Elab, NextMode};

impl Elab<'_> {
    /// Sets variable roles and the outputs.
    pub(super) fn io(&mut self, pragmas: &[Pragma]) -> Result<(), Diag> {
        let mut forced: HashSet<VarId> = HashSet::new();
        for p in pragmas.iter().filter(|p| p.kind == PragmaKind::Input) {
            if p.names.is_empty() {
                return Err(Diag::new(p.span, "`@input` pragma without names"));
            }
            for (name, span) in &p.names {
                let decl = self.names.get(name).map(|(d, _)| *d);
                let v = match decl {
                    None => {
                        return Err(Diag::new(
                            *span,
                            format!("unknown name `{name}` in @input pragma"),
                        ))
                    }
                    Some(Decl::Define(_)) => {
                        return Err(Diag::new(
                            *span,
                            format!(
                                "@input names the DEFINE `{name}`; only variables can be inputs"
                            ),
                        ))
                    }
                    Some(Decl::Var(_, VarKind::Frozen)) => {
                        return Err(Diag::new(
                            *span,
                            format!("frozen variable `{name}` cannot be an input"),
                        ))
                    }
                    Some(Decl::Var(v, _)) => v,
                };
                if self.assigned.contains_key(&v) {
                    return Err(Diag::new(
                        *span,
                        format!("variable `{name}` is assigned and cannot be an input"),
                    ));
                }
                if self.st.next_uses.contains_key(&v) {
                    return Err(Diag::new(
                        *span,
                        format!("variable `{name}` is read under next() and cannot be an input"),
                    ));
                }
                forced.insert(v);
            }
        }
        for &(v, kind) in &self.var_order {
            let role = match kind {
                VarKind::IVar => Role::Input,
                VarKind::Frozen => Role::Frozen,
                VarKind::Var if forced.contains(&v) => Role::Input,
                VarKind::Var if self.assigned.contains_key(&v) => Role::State,
                VarKind::Var if self.st.next_uses.contains_key(&v) => Role::State,
                VarKind::Var => Role::Input,
            };
            self.st.sys.vars[v.0 as usize].role = role;
        }
        let listed: Vec<&(String, hypermut_ir::Span)> = pragmas
            .iter()
            .filter(|p| p.kind == PragmaKind::Output)
            .flat_map(|p| p.names.iter())
            .collect();
        if let Some(p) = pragmas
            .iter()
            .find(|p| p.kind == PragmaKind::Output && p.names.is_empty())
        {
            return Err(Diag::new(p.span, "`@output` pragma without names"));
        }
        if listed.is_empty() {
            for &(v, _) in &self.var_order {
                if self.st.sys.var(v).role != Role::Input {
                    let expr = self.st.sys.var_ref(v, None);
                    let name = self.st.sys.var(v).name.clone();
                    self.st.sys.outputs.push(Output { name, expr });
                }
            }
            return Ok(());
        }
        let mut seen = HashSet::new();
        for (name, span) in listed {
            if !seen.insert(name.as_str()) {
                continue;
            }
            let expr = match self.names.get(name).map(|(d, _)| *d) {
                None => {
                    return Err(Diag::new(
                        *span,
                        format!("unknown name `{name}` in @output pragma"),
                    ))
                }
                Some(Decl::Var(v, _)) => self.st.sys.var_ref(v, None),
                Some(Decl::Define(i)) => {
                    self.elab_define(i, *span, NextMode::Forbidden("outputs"), None)?
                }
            };
            self.st.sys.outputs.push(Output {
                name: name.clone(),
                expr,
            });
        }
        Ok(())
    }
}
