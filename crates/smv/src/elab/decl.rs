//! Declarations: names, duplicate checks, variable types and enumerations.

use hypermut_ir::{Role, Span, Type};

use crate::ast::{Bound, EnumItem, ExprKind, Module, Section, TypeKind, TypeSpec, VarKind};
use crate::error::Diag;

use super::{Decl, Elab};

impl<'a> Elab<'a> {
    /// Registers every variable and DEFINE of `main`, in source order.
    pub(super) fn declare(&mut self, main: &'a Module) -> Result<(), Diag> {
        // DEFINEs first: range bounds may name DEFINEs declared later.
        let mut order: Vec<(&crate::ast::Ident, Option<(VarKind, &TypeSpec)>)> = Vec::new();
        for s in &main.sections {
            match s {
                Section::Vars(kind, decls) => {
                    order.extend(decls.iter().map(|d| (&d.name, Some((*kind, &d.ty)))))
                }
                Section::Defines(defs) => {
                    for d in defs {
                        order.push((&d.name, None));
                        self.defines.push(d);
                    }
                }
                _ => {}
            }
        }
        self.define_used = vec![false; self.defines.len()];
        let mut next_define = 0;
        for (name, var) in &order {
            if let Some((_, first)) = self.names.get(&name.name) {
                let line = self.st.sys.sources.location(*first).line;
                return Err(Diag::new(
                    name.span,
                    format!(
                        "duplicate declaration of `{}` (first declared on line {line})",
                        name.name
                    ),
                ));
            }
            let decl = match var {
                None => {
                    next_define += 1;
                    Decl::Define(next_define - 1)
                }
                // Placeholder: variables get their id once their type is known.
                Some((kind, _)) => Decl::Var(hypermut_ir::VarId(u32::MAX), *kind),
            };
            self.names.insert(name.name.clone(), (decl, name.span));
        }
        for (name, var) in &order {
            let Some((kind, ty)) = var else { continue };
            let ty = self.var_type(&name.name, ty)?;
            let role = match kind {
                VarKind::IVar => Role::Input,
                VarKind::Var => Role::State,
                VarKind::Frozen => Role::Frozen,
            };
            let v = self
                .st
                .sys
                .add_var(name.name.clone(), ty, role, Some(name.span));
            self.names
                .insert(name.name.clone(), (Decl::Var(v, *kind), name.span));
            self.var_order.push((v, *kind));
        }
        Ok(())
    }

    /// The IR type of a declared type.
    fn var_type(&mut self, var: &str, ty: &TypeSpec) -> Result<Type, Diag> {
        match &ty.kind {
            TypeKind::Boolean => Ok(Type::Bool),
            TypeKind::Range(lo, hi) => {
                let (l, h) = (self.bound(lo)?, self.bound(hi)?);
                if l > h {
                    return Err(Diag::new(
                        ty.span,
                        format!("empty range {l}..{h}: the lower bound exceeds the upper bound"),
                    ));
                }
                Ok(Type::Int { lo: l, hi: h })
            }
            TypeKind::Enum(items) => self.enum_type(var, items),
            TypeKind::Named(m) => Err(if self.modules.contains(&m.name) {
                Diag::new(ty.span, "module instances are not supported yet")
            } else {
                Diag::new(m.span, format!("unknown type `{}`", m.name))
            }),
        }
    }

    /// The value of a range bound.
    fn bound(&self, (b, span): &(Bound, Span)) -> Result<i64, Diag> {
        match b {
            Bound::Int(v) => Ok(*v),
            Bound::Name(n) => match self.names.get(n) {
                Some((super::Decl::Define(i), _)) => match self.defines[*i].body.kind {
                    ExprKind::Int(v) => Ok(v),
                    _ => Err(Diag::new(
                        *span,
                        format!("range bound `{n}` must be a DEFINE of an integer constant"),
                    )),
                },
                Some(_) => Err(Diag::new(
                    *span,
                    format!("range bound `{n}` must be a constant"),
                )),
                None => Err(Diag::new(*span, format!("undefined identifier `{n}`"))),
            },
        }
    }

    /// The IR enumeration for a symbolic value list (shared by identical lists).
    fn enum_type(&mut self, var: &str, items: &[(EnumItem, Span)]) -> Result<Type, Diag> {
        let mut values: Vec<String> = Vec::new();
        for (item, span) in items {
            let name = match item {
                EnumItem::Symbol(s) => s,
                EnumItem::Int(_) => {
                    return Err(Diag::new(
                        *span,
                        "enumerations with integer values are not supported yet",
                    ))
                }
            };
            if values.contains(name) {
                return Err(Diag::new(
                    *span,
                    format!("duplicate value `{name}` in enumeration"),
                ));
            }
            if self.names.contains_key(name) {
                return Err(Diag::new(
                    *span,
                    format!("symbolic constant `{name}` has the same name as a variable or DEFINE"),
                ));
            }
            values.push(name.clone());
        }
        if let Some(id) = self.enum_index.get(&values) {
            return Ok(Type::Enum(*id));
        }
        let id = self.st.sys.add_enum(var, values.clone());
        for v in &values {
            self.consts.entry(v.clone()).or_default().push(id);
        }
        self.enum_index.insert(values, id);
        Ok(Type::Enum(id))
    }
}
