//! The transition system: variables, outputs, constraints, and typed expression building.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

pub use crate::expr::VarId;
use crate::expr::{BinOp, ChoiceId, ExprId, ExprKind, ExprPool, UnOp};
use crate::source::{SourceMap, Span};
use crate::types::{EnumId, EnumType, Type, TypeError};
use crate::value::Value;

/// What a variable is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Role {
    /// Supplied by the environment in every frame.
    Input,
    /// Holds state: `init` (or a free initial value) then `next` (or a free next value).
    State,
    /// Chosen once initially (by `init`, or freely), then constant.
    Frozen,
}

/// A variable of the system.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Var {
    /// Hierarchical source name (`a.b.c`, `wtr`).
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Input, state or frozen.
    pub role: Role,
    /// Initial value; `None` = any value of the type. May read inputs and choices of frame 0
    /// and the initial values of other variables.
    pub init: Option<ExprId>,
    /// Next-state function (state variables only); `None` = any value in every step.
    pub next: Option<ExprId>,
    /// Where it was declared.
    pub span: Option<Span>,
}

/// A named observable expression.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Output {
    /// Name (usually the source variable or define name).
    pub name: String,
    /// The observed value; a Mealy function of state and inputs of the same frame.
    pub expr: ExprId,
}

/// When a constraint must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ConstraintKind {
    /// In frame 0 only.
    Init,
    /// In every frame.
    Invariant,
    /// Between every frame and its successor (may use [`ExprKind::Next`]).
    Trans,
}

/// A boolean constraint on the system's runs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Constraint {
    /// When it applies.
    pub kind: ConstraintKind,
    /// The boolean condition.
    pub expr: ExprId,
    /// Where it was written.
    pub span: Option<Span>,
}

/// A safety property: a boolean that should hold in every reachable frame (SMV `INVARSPEC p`,
/// `AG p`, `G p`). Exported as an AIGER bad property `!p`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Property {
    /// Name (the spec's `NAME`, or its source text).
    pub name: String,
    /// The invariant.
    pub expr: ExprId,
    /// Where it was written.
    pub span: Option<Span>,
}

/// A nondeterministic choice site.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChoiceSite {
    /// Where the choice was written.
    pub span: Option<Span>,
    /// Number of alternatives.
    pub arity: u32,
}

/// A word-level transition system.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct System {
    /// The model's name (e.g. the top module).
    pub name: String,
    /// The sources spans refer to.
    pub sources: SourceMap,
    /// Expression storage.
    pub exprs: ExprPool,
    /// Enumerations referenced by `Type::Enum`.
    pub enums: Vec<EnumType>,
    /// All variables.
    pub vars: Vec<Var>,
    /// Observable outputs.
    pub outputs: Vec<Output>,
    /// Init / invariant / transition constraints.
    pub constraints: Vec<Constraint>,
    /// Choice sites, indexed by [`ChoiceId`].
    pub choices: Vec<ChoiceSite>,
    /// Safety properties to export (not part of the behaviour).
    #[serde(default)]
    pub properties: Vec<Property>,
}

fn ops_err(op: &str, found: String) -> TypeError {
    TypeError::Operands {
        op: op.to_string(),
        found,
    }
}

fn checked(v: i128) -> Result<i64, TypeError> {
    i64::try_from(v).map_err(|_| TypeError::Overflow)
}

impl System {
    /// An empty system with this name.
    pub fn new(name: impl Into<String>) -> Self {
        System {
            name: name.into(),
            ..Default::default()
        }
    }

    /// Adds an enumeration type.
    pub fn add_enum(&mut self, name: impl Into<String>, values: Vec<String>) -> EnumId {
        self.enums.push(EnumType {
            name: name.into(),
            values,
        });
        EnumId(self.enums.len() as u32 - 1)
    }

    /// Adds a variable (init and next unset).
    pub fn add_var(
        &mut self,
        name: impl Into<String>,
        ty: Type,
        role: Role,
        span: Option<Span>,
    ) -> VarId {
        self.vars.push(Var {
            name: name.into(),
            ty,
            role,
            init: None,
            next: None,
            span,
        });
        VarId(self.vars.len() as u32 - 1)
    }

    /// The variable with this id.
    ///
    /// # Panics
    /// If the id is not from this system (internal error).
    pub fn var(&self, v: VarId) -> &Var {
        &self.vars[v.0 as usize]
    }

    /// Looks a variable up by name.
    pub fn var_by_name(&self, name: &str) -> Option<VarId> {
        self.vars
            .iter()
            .position(|v| v.name == name)
            .map(|i| VarId(i as u32))
    }

    /// Ids of all variables with the given role, in declaration order.
    pub fn vars_with_role(&self, role: Role) -> Vec<VarId> {
        (0..self.vars.len() as u32)
            .map(VarId)
            .filter(|v| self.var(*v).role == role)
            .collect()
    }

    /// Type of an expression.
    pub fn ty(&self, e: ExprId) -> Type {
        self.exprs.ty(e)
    }

    fn describe(&self, t: Type) -> String {
        t.describe(&self.enums)
    }

    /// The common type of two alternatives (`ite` branches, choice options): integer ranges
    /// are joined, other types must be equal.
    pub fn unify(&self, a: Type, b: Type) -> Option<Type> {
        match (a, b) {
            (Type::Int { lo: l1, hi: h1 }, Type::Int { lo: l2, hi: h2 }) => Some(Type::Int {
                lo: l1.min(l2),
                hi: h1.max(h2),
            }),
            _ if a == b => Some(a),
            _ => None,
        }
    }

    /// Type of `kind`, or why it is ill-typed.
    pub fn type_of(&self, kind: &ExprKind) -> Result<Type, TypeError> {
        let t = |e: &ExprId| self.ty(*e);
        Ok(match kind {
            ExprKind::Const(v) => match v {
                Value::Bool(_) => Type::Bool,
                Value::Bits { width, .. } => Type::ubv(*width),
                Value::Int(i) => Type::Int { lo: *i, hi: *i },
                Value::Enum(_) => {
                    return Err(TypeError::Width(
                        "enum constants must be built with System::enum_const".into(),
                    ))
                }
            },
            ExprKind::Var(v) | ExprKind::Next(v) => self
                .vars
                .get(v.0 as usize)
                .map(|v| v.ty)
                .ok_or_else(|| TypeError::Width(format!("unknown variable #{}", v.0)))?,
            ExprKind::Choice { options, .. } => {
                let mut it = options.iter().map(t);
                let first = it
                    .next()
                    .ok_or_else(|| TypeError::Width("empty choice".into()))?;
                it.try_fold(first, |acc, x| {
                    self.unify(acc, x).ok_or_else(|| {
                        ops_err(
                            "{..}",
                            format!("{} and {}", self.describe(acc), self.describe(x)),
                        )
                    })
                })?
            }
            ExprKind::Unary(op, a) => match (op, t(a)) {
                (UnOp::Not, ty @ (Type::Bool | Type::BitVec { .. })) => ty,
                (UnOp::Neg, ty @ Type::BitVec { .. }) => ty,
                (UnOp::Neg, Type::Int { lo, hi }) => Type::Int {
                    lo: checked(-(hi as i128))?,
                    hi: checked(-(lo as i128))?,
                },
                (op, ty) => return Err(ops_err(&format!("{op:?}"), self.describe(ty))),
            },
            ExprKind::Binary(op, a, b) => self.binary_type(*op, t(a), t(b))?,
            ExprKind::Ite(c, a, b) => {
                if !t(c).is_bool() {
                    return Err(ops_err(
                        "?:",
                        format!("condition of type {}", self.describe(t(c))),
                    ));
                }
                self.unify(t(a), t(b)).ok_or_else(|| {
                    ops_err(
                        "?:",
                        format!("{} and {}", self.describe(t(a)), self.describe(t(b))),
                    )
                })?
            }
            ExprKind::Extract { arg, hi, lo } => match t(arg) {
                Type::BitVec { width, .. } if lo <= hi && *hi < width => Type::ubv(hi - lo + 1),
                ty => {
                    return Err(TypeError::Width(format!(
                        "bit select [{hi}:{lo}] out of range for {}",
                        self.describe(ty)
                    )))
                }
            },
            ExprKind::Cast(a, to) => {
                let from = t(a);
                let ok = match (from, *to) {
                    (Type::Bool, Type::BitVec { .. } | Type::Int { .. } | Type::Bool) => true,
                    (Type::BitVec { .. }, Type::Bool | Type::BitVec { .. } | Type::Int { .. }) => {
                        true
                    }
                    (Type::Int { .. }, Type::BitVec { .. } | Type::Int { .. }) => true,
                    (Type::Enum(x), Type::Enum(y)) => x == y,
                    _ => false,
                };
                if !ok || to.bv_width() == Some(0) {
                    return Err(ops_err(
                        "cast",
                        format!("{} to {}", self.describe(from), self.describe(*to)),
                    ));
                }
                *to
            }
        })
    }

    fn binary_type(&self, op: BinOp, a: Type, b: Type) -> Result<Type, TypeError> {
        use BinOp::*;
        let err = || {
            ops_err(
                op.symbol(),
                format!("{} and {}", self.describe(a), self.describe(b)),
            )
        };
        Ok(match op {
            And | Or | Xor => match (a, b) {
                (Type::Bool, Type::Bool) => Type::Bool,
                (Type::BitVec { width: w1, signed }, Type::BitVec { width: w2, .. })
                    if w1 == w2 =>
                {
                    Type::BitVec { width: w1, signed }
                }
                _ => return Err(err()),
            },
            Implies | Iff => match (a, b) {
                (Type::Bool, Type::Bool) => Type::Bool,
                _ => return Err(err()),
            },
            Eq | Ne => {
                if self.unify(a, b).is_none() {
                    return Err(err());
                }
                Type::Bool
            }
            Lt | Le | Gt | Ge => match (a, b) {
                (Type::Int { .. }, Type::Int { .. }) => Type::Bool,
                (
                    Type::BitVec {
                        width: w1,
                        signed: s1,
                    },
                    Type::BitVec {
                        width: w2,
                        signed: s2,
                    },
                ) if w1 == w2 && s1 == s2 => Type::Bool,
                _ => return Err(err()),
            },
            Add | Sub | Mul | Div | Mod => match (a, b) {
                (Type::Int { lo: l1, hi: h1 }, Type::Int { lo: l2, hi: h2 }) => {
                    let (l1, h1, l2, h2) = (l1 as i128, h1 as i128, l2 as i128, h2 as i128);
                    let (lo, hi) = match op {
                        Add => (l1 + l2, h1 + h2),
                        Sub => (l1 - h2, h1 - l2),
                        Mul => {
                            let p = [l1 * l2, l1 * h2, h1 * l2, h1 * h2];
                            (*p.iter().min().unwrap_or(&0), *p.iter().max().unwrap_or(&0))
                        }
                        Div => {
                            let m = l1.abs().max(h1.abs());
                            if l1 >= 0 && l2 >= 0 {
                                (0, h1)
                            } else {
                                (-m, m)
                            }
                        }
                        _ => {
                            // |r| < |b| and |r| <= |a|; r has the dividend's sign; r = a if b = 0
                            let mb = (l2.abs().max(h2.abs()) - 1).max(0);
                            let m = l1.abs().max(h1.abs());
                            let bound = mb.max(if l2 <= 0 && h2 >= 0 { m } else { 0 }).min(m);
                            if l1 >= 0 {
                                (0, bound)
                            } else {
                                (-bound, bound)
                            }
                        }
                    };
                    Type::Int {
                        lo: checked(lo)?,
                        hi: checked(hi)?,
                    }
                }
                (
                    Type::BitVec {
                        width: w1,
                        signed: s1,
                    },
                    Type::BitVec {
                        width: w2,
                        signed: s2,
                    },
                ) if w1 == w2 && s1 == s2 => a,
                _ => return Err(err()),
            },
            Shl | Shr => match (a, b) {
                (Type::BitVec { .. }, Type::BitVec { .. } | Type::Int { .. }) => a,
                _ => return Err(err()),
            },
            Concat => match (a, b) {
                (Type::BitVec { width: w1, .. }, Type::BitVec { width: w2, .. }) => {
                    Type::ubv(w1 + w2)
                }
                _ => return Err(err()),
            },
        })
    }

    /// Builds (or finds) a node, computing and checking its type.
    pub fn mk(&mut self, kind: ExprKind, span: Option<Span>) -> Result<ExprId, TypeError> {
        let ty = self.type_of(&kind)?;
        Ok(self.exprs.intern(kind, ty, span))
    }

    /// Builds a node whose type the caller guarantees (used for enum constants).
    fn mk_typed(&mut self, kind: ExprKind, ty: Type, span: Option<Span>) -> ExprId {
        self.exprs.intern(kind, ty, span)
    }

    /// A boolean constant.
    pub fn bool_const(&mut self, b: bool, span: Option<Span>) -> ExprId {
        self.mk_typed(ExprKind::Const(Value::Bool(b)), Type::Bool, span)
    }

    /// An integer constant (type `Int{v..v}`).
    pub fn int_const(&mut self, v: i64, span: Option<Span>) -> ExprId {
        self.mk_typed(
            ExprKind::Const(Value::Int(v)),
            Type::Int { lo: v, hi: v },
            span,
        )
    }

    /// A bit-vector constant of the given type.
    pub fn bv_const(&mut self, ty: Type, v: Value, span: Option<Span>) -> ExprId {
        self.mk_typed(ExprKind::Const(v), ty, span)
    }

    /// The enum constant with index `idx` of enumeration `e`.
    pub fn enum_const(&mut self, e: EnumId, idx: u32, span: Option<Span>) -> ExprId {
        self.mk_typed(ExprKind::Const(Value::Enum(idx)), Type::Enum(e), span)
    }

    /// A constant of any type.
    pub fn constant(&mut self, ty: Type, v: Value, span: Option<Span>) -> ExprId {
        self.mk_typed(ExprKind::Const(v), ty, span)
    }

    /// The current value of `v`.
    pub fn var_ref(&mut self, v: VarId, span: Option<Span>) -> ExprId {
        let ty = self.var(v).ty;
        self.mk_typed(ExprKind::Var(v), ty, span)
    }

    /// A fresh nondeterministic choice site over `options`.
    pub fn choice(
        &mut self,
        options: Vec<ExprId>,
        span: Option<Span>,
    ) -> Result<ExprId, TypeError> {
        let id = ChoiceId(self.choices.len() as u32);
        let kind = ExprKind::Choice {
            id,
            options: options.clone(),
        };
        let ty = self.type_of(&kind)?;
        self.choices.push(ChoiceSite {
            span,
            arity: options.len() as u32,
        });
        Ok(self.mk_typed(kind, ty, span))
    }

    /// Every root expression: init/next functions, outputs and constraints.
    pub fn roots(&self) -> Vec<ExprId> {
        let mut r = Vec::new();
        for v in &self.vars {
            r.extend(v.init);
            r.extend(v.next);
        }
        r.extend(self.outputs.iter().map(|o| o.expr));
        r.extend(self.constraints.iter().map(|c| c.expr));
        r.extend(self.properties.iter().map(|p| p.expr));
        r
    }

    /// Rebuilds every root bottom-up. For each reachable node (children first), the node is
    /// rebuilt over its rewritten children and `f(system, original, rebuilt)` decides the
    /// replacement. Returns the map from original to replacement ids.
    pub fn rewrite(
        &mut self,
        mut f: impl FnMut(&mut System, ExprId, ExprId) -> Result<ExprId, TypeError>,
    ) -> Result<HashMap<ExprId, ExprId>, TypeError> {
        let order = self.exprs.cone(self.roots());
        let mut map: HashMap<ExprId, ExprId> = HashMap::with_capacity(order.len());
        for id in order {
            let node = self.exprs.node(id).clone();
            let kids: Vec<ExprId> = node.kind.children().iter().map(|c| map[c]).collect();
            let rebuilt = if kids == node.kind.children() {
                id
            } else {
                self.mk(node.kind.with_children(&kids), node.span)?
            };
            let new = f(self, id, rebuilt)?;
            map.insert(id, new);
        }
        let m = |e: &mut ExprId| *e = map[e];
        for v in &mut self.vars {
            v.init.as_mut().map(m);
            v.next.as_mut().map(m);
        }
        for o in &mut self.outputs {
            m(&mut o.expr);
        }
        for c in &mut self.constraints {
            m(&mut c.expr);
        }
        for p in &mut self.properties {
            m(&mut p.expr);
        }
        Ok(map)
    }

    /// The source text of an expression's span, if it has one.
    pub fn source_text(&self, e: ExprId) -> Option<&str> {
        self.exprs.node(e).span.map(|s| self.sources.snippet(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_consing_respects_spans() {
        let mut s = System::new("t");
        let a = s.int_const(1, None);
        let b = s.int_const(1, None);
        assert_eq!(a, b);
        let f = s.sources.add("f", "1 1");
        let c = s.int_const(1, Some(Span::new(f, 0, 1)));
        let d = s.int_const(1, Some(Span::new(f, 2, 3)));
        assert_ne!(c, d);
        assert_ne!(a, c);
    }

    #[test]
    fn int_ranges_propagate() {
        let mut s = System::new("t");
        let x = s.add_var("x", Type::Int { lo: 0, hi: 2 }, Role::State, None);
        let xr = s.var_ref(x, None);
        let one = s.int_const(1, None);
        let sub = s.mk(ExprKind::Binary(BinOp::Sub, xr, one), None).unwrap();
        assert_eq!(s.ty(sub), Type::Int { lo: -1, hi: 1 });
        let mul = s.mk(ExprKind::Binary(BinOp::Mul, sub, sub), None).unwrap();
        assert_eq!(s.ty(mul), Type::Int { lo: -1, hi: 1 });
    }

    #[test]
    fn type_errors_are_reported() {
        let mut s = System::new("t");
        let t = s.bool_const(true, None);
        let one = s.int_const(1, None);
        assert!(s.mk(ExprKind::Binary(BinOp::Add, t, one), None).is_err());
        assert!(s.mk(ExprKind::Ite(one, t, t), None).is_err());
    }

    #[test]
    fn rewrite_replaces_leaves_everywhere() {
        let mut s = System::new("t");
        let x = s.add_var("x", Type::Int { lo: 0, hi: 3 }, Role::State, None);
        let xr = s.var_ref(x, None);
        let one = s.int_const(1, None);
        let inc = s.mk(ExprKind::Binary(BinOp::Add, xr, one), None).unwrap();
        s.vars[0].next = Some(inc);
        let two = s.int_const(2, None);
        s.rewrite(|_, orig, new| Ok(if orig == one { two } else { new }))
            .unwrap();
        let next = s.vars[0].next.unwrap();
        assert_eq!(
            s.exprs.node(next).kind,
            ExprKind::Binary(BinOp::Add, xr, two)
        );
    }
}

#[cfg(test)]
mod regression_tests {
    use super::*;

    #[test]
    fn division_by_negative_divisor_has_negative_range() {
        let mut s = System::new("t");
        let x = s.add_var("x", Type::Int { lo: 0, hi: 5 }, Role::Input, None);
        let xr = s.var_ref(x, None);
        let m1 = s.int_const(-1, None);
        let d = s.mk(ExprKind::Binary(BinOp::Div, xr, m1), None).unwrap();
        let Type::Int { lo, hi } = s.ty(d) else {
            panic!("not an int")
        };
        assert!(lo <= -5 && hi >= 0, "{lo}..{hi}");
    }

    #[test]
    fn constants_of_different_types_are_distinct_nodes() {
        let mut s = System::new("t");
        let u = s.bv_const(Type::ubv(3), Value::bits(3, 5u32), None);
        let v = s.bv_const(Type::sbv(3), Value::bits(3, 5u32), None);
        assert_ne!(u, v);
        assert_eq!(s.ty(v), Type::sbv(3));
    }
}
