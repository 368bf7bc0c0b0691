//! Exhaustiveness of `case` guards.
//!
//! NuSMV rejects a model when a `case` whose guards can all be false matters ("case
//! conditions are not exhaustive"): the missing default is a failure value that propagates
//! through the enclosing expression unless an operator's other operand decides the result
//! (`FALSE & x`, `TRUE | x`, `FALSE -> x`, the unselected branch of `?:`). NuSMV decides
//! this over all values of the variables (not only reachable states). hypermut follows it:
//!
//! 1. Each `case` is checked in isolation by enumerating the values its guards read (at most
//!    [`MAX_COMBINATIONS`]). A last guard that is the constant `TRUE` needs no check.
//! 2. A `case` that is not exhaustive in isolation is re-checked in the top-level expression
//!    it ends up in (assignment, constraint, property) with the failure semantics above, by
//!    enumerating the values that expression reads; it is rejected if a failure reaches the
//!    top.
//! 3. When either enumeration would be too large, the model is accepted with a note; the
//!    value when no guard holds is then the last branch's value.

use std::collections::HashMap;

use hypermut_ir::{
    BinOp, ChoiceId, ExprId, ExprKind, Frame, Interpreter, Role, Severity, Span, System, Type,
    UnOp, Value, VarId,
};

use crate::error::Diag;

use super::state::{Elab, PendingCase};

/// Most value combinations enumerated for one check.
const MAX_COMBINATIONS: u64 = 4096;

/// Most nodes of a top-level expression that the context check evaluates.
const MAX_CONTEXT_NODES: usize = 400;

/// A value source read by an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Leaf {
    Cur(VarId),
    Next(VarId),
    Choice(ChoiceId, u32),
}

/// A value, or the failure of a `case` without a true guard.
#[derive(Clone, Debug, PartialEq)]
enum Tri {
    Val(Value),
    Fail,
}

/// One valuation of the leaves.
struct Env {
    cur: Vec<Option<Value>>,
    next: Vec<Option<Value>>,
    frame: Frame,
}

impl Elab<'_> {
    /// Checks a `case` (node `node`, spanning `whole`) with guards `conds` and branch values
    /// `vals` in isolation; a definite failure is remembered for the context check.
    pub(crate) fn check_exhaustive(
        &mut self,
        node: ExprId,
        conds: &[ExprId],
        vals: &[ExprId],
        whole: Span,
    ) -> Result<(), Diag> {
        let Some(last) = conds.last() else {
            return Ok(());
        };
        if self.const_only || self.fold(*last) == Some(Value::Bool(true)) {
            return Ok(());
        }
        // A one-branch `case` elaborates to its value's own node, so what is remembered about
        // that node (e.g. an exhaustive inner `case`) says nothing about this one.
        let own_node = !(vals.len() == 1 && vals[0] == node);
        if own_node
            && (self.pending_cases.contains_key(&node) || self.exhaustive_ok.contains(&node))
        {
            return Ok(());
        }
        if self.skeleton_exhaustive(conds) {
            if own_node {
                self.exhaustive_ok.insert(node);
            }
            return Ok(());
        }
        match self.enumerate(conds, |interp, env| {
            conds.iter().any(|c| {
                interp
                    .eval(*c, &env.cur, &env.frame, Some(&env.next))
                    .is_ok_and(|v| v == Value::Bool(true))
            })
        }) {
            Some(true) => {
                if own_node {
                    self.exhaustive_ok.insert(node);
                }
            }
            Some(false) => {
                self.pending_cases.insert(
                    node,
                    PendingCase {
                        guards: conds.to_vec(),
                        values: vals.to_vec(),
                        span: whole,
                    },
                );
            }
            None => self.report(
                Severity::Warning,
                whole,
                "could not check that the `case` conditions are exhaustive (too many values); \
                 when no condition holds, the last branch's value is used",
            ),
        }
        Ok(())
    }

    /// Whether the guards are exhaustive by their boolean structure alone: every maximal
    /// sub-expression that is not a boolean connective is treated as an independent atom
    /// (sound; it settles e.g. `r : …; on & !r : …; !on & !r : …` over any `r`).
    /// Connectives deeper than a limit count as atoms too; limits 1, 2, … are tried.
    fn skeleton_exhaustive(&self, conds: &[ExprId]) -> bool {
        let sys = &self.st.sys;
        for limit in 1..=8u32 {
            let mut atoms: Vec<ExprId> = Vec::new();
            let mut stack: Vec<(ExprId, u32)> = conds.iter().map(|c| (*c, 0)).collect();
            let mut deeper = false;
            while let Some((e, depth)) = stack.pop() {
                match &sys.exprs.node(e).kind {
                    ExprKind::Const(Value::Bool(_)) => continue,
                    _ if depth >= limit => deeper = true,
                    ExprKind::Unary(UnOp::Not, a) => {
                        stack.push((*a, depth + 1));
                        continue;
                    }
                    ExprKind::Binary(
                        BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Iff | BinOp::Xor,
                        a,
                        b,
                    ) if sys.ty(*a).is_bool() => {
                        stack.extend([(*a, depth + 1), (*b, depth + 1)]);
                        continue;
                    }
                    _ => {}
                }
                if !atoms.contains(&e) {
                    atoms.push(e);
                }
            }
            if atoms.len() > 12 {
                return false;
            }
            let taut = (0u32..1 << atoms.len()).all(|bits| {
                conds
                    .iter()
                    .any(|c| skeleton_eval(sys, *c, &atoms, bits).unwrap_or(false))
            });
            if taut {
                return true;
            }
            if !deeper {
                return false;
            }
        }
        false
    }

    /// Rejects a top-level expression in which a non-exhaustive `case` can decide the value.
    pub(crate) fn check_case_failures(&mut self, root: ExprId) -> Result<(), Diag> {
        if self.pending_cases.is_empty() {
            return Ok(());
        }
        let cone = self.local_cone(&[root]);
        let Some(first) = cone
            .iter()
            .filter_map(|n| self.pending_cases.get(n))
            .min_by_key(|p| (p.span.file, p.span.start))
            .cloned()
        else {
            return Ok(());
        };
        if cone.len() > MAX_CONTEXT_NODES {
            self.warn_unchecked(first.span);
            return Ok(());
        }
        // Nodes whose value may be a failure: those with a pending case in their cone.
        let mut tainted: HashMap<ExprId, bool> = HashMap::new();
        for n in &cone {
            let node = self.st.sys.exprs.node(*n);
            let t = self.pending_cases.contains_key(n)
                || node
                    .kind
                    .children()
                    .iter()
                    .any(|c| tainted.get(c).copied().unwrap_or(false));
            tainted.insert(*n, t);
        }
        let pending = &self.pending_cases;
        let sys = &self.st.sys;
        let failed = self.enumerate(&[root], |interp, env| {
            let mut memo = HashMap::new();
            let ctx = Ctx {
                sys,
                interp,
                env,
                tainted: &tainted,
                pending,
            };
            tri(&ctx, root, &mut memo) != Tri::Fail
        });
        match failed {
            Some(true) => Ok(()),
            Some(false) => Err(Diag::new(first.span, "case conditions are not exhaustive")),
            None => {
                self.warn_unchecked(first.span);
                Ok(())
            }
        }
    }

    fn warn_unchecked(&mut self, span: Span) {
        self.report(
            Severity::Warning,
            span,
            "the `case` conditions are not exhaustive; whether that matters could not be \
             checked (too many values); when no condition holds, the last branch's value is used",
        );
    }

    /// Calls `ok` on every valuation of the leaves read by `roots`; `Some(false)` as soon as
    /// one is not ok, `Some(true)` if all are, `None` if there are too many.
    fn enumerate(
        &self,
        roots: &[ExprId],
        mut ok: impl FnMut(&Interpreter, &Env) -> bool,
    ) -> Option<bool> {
        let sys = &self.st.sys;
        let mut leaves: Vec<Leaf> = Vec::new();
        for id in self.local_cone(roots) {
            let leaf = match &sys.exprs.node(id).kind {
                ExprKind::Var(v) => Leaf::Cur(*v),
                ExprKind::Next(v) => Leaf::Next(*v),
                ExprKind::Choice { id, options } => Leaf::Choice(*id, options.len() as u32),
                _ => continue,
            };
            if !leaves.contains(&leaf) {
                leaves.push(leaf);
            }
            if leaves.len() > 64 {
                return None;
            }
        }
        let domains: Vec<Vec<Value>> = leaves
            .iter()
            .map(|l| self.leaf_values(*l))
            .collect::<Option<_>>()?;
        let total = domains
            .iter()
            .try_fold(1u64, |acc, d| acc.checked_mul(d.len() as u64))?;
        if total > MAX_COMBINATIONS {
            return None;
        }
        let n = sys.vars.len();
        let interp = Interpreter::new(sys);
        let mut idx = vec![0usize; leaves.len()];
        // The state vectors are kept between calls (models have many variables and many
        // `case`s); only the leaves' entries are set, and cleared again before returning.
        let (mut cur, mut next) = self.eval_buffers.take();
        cur.resize(n, None);
        next.resize(n, None);
        let mut env = Env {
            cur,
            next,
            frame: Frame::default(),
        };
        let verdict = loop {
            env.frame = Frame::default();
            for (k, leaf) in leaves.iter().enumerate() {
                let val = domains[k][idx[k]].clone();
                match leaf {
                    Leaf::Cur(v) if sys.var(*v).role == Role::Input => {
                        env.frame.inputs.insert(*v, val);
                    }
                    Leaf::Cur(v) => env.cur[v.0 as usize] = Some(val),
                    Leaf::Next(v) => env.next[v.0 as usize] = Some(val),
                    Leaf::Choice(c, _) => {
                        if let Value::Int(i) = val {
                            env.frame.choices.insert(*c, i as u32);
                        }
                    }
                }
            }
            if !ok(&interp, &env) {
                break false;
            }
            // Next combination (odometer).
            let mut k = 0;
            let done = loop {
                if k == idx.len() {
                    break true;
                }
                idx[k] += 1;
                if idx[k] < domains[k].len() {
                    break false;
                }
                idx[k] = 0;
                k += 1;
            };
            if done {
                break true;
            }
        };
        for leaf in &leaves {
            match leaf {
                Leaf::Cur(v) => env.cur[v.0 as usize] = None,
                Leaf::Next(v) => env.next[v.0 as usize] = None,
                Leaf::Choice(..) => {}
            }
        }
        self.eval_buffers.set((env.cur, env.next));
        Some(verdict)
    }

    /// The values a leaf ranges over (`None` if too many).
    fn leaf_values(&self, leaf: Leaf) -> Option<Vec<Value>> {
        let v = match leaf {
            Leaf::Choice(_, n) => return Some((0..n as i64).map(Value::Int).collect()),
            Leaf::Cur(v) | Leaf::Next(v) => v,
        };
        if let Some(dom) = self.domains.get(&v) {
            return Some(dom.iter().map(|x| Value::Int(*x)).collect());
        }
        let ty = self.st.sys.var(v).ty;
        let card = ty.cardinality(&self.st.sys.enums)?;
        if card > MAX_COMBINATIONS {
            return None;
        }
        Some(match ty {
            Type::Bool => vec![Value::Bool(false), Value::Bool(true)],
            Type::Int { lo, .. } => (0..card as i64).map(|k| Value::Int(lo + k)).collect(),
            Type::Enum(_) => (0..card as u32).map(Value::Enum).collect(),
            Type::BitVec { width, .. } => (0..card).map(|k| Value::bits(width, k)).collect(),
        })
    }
}

/// The boolean skeleton of `e` under an assignment of its atoms (bit k of `bits` is atom k).
fn skeleton_eval(sys: &System, e: ExprId, atoms: &[ExprId], bits: u32) -> Option<bool> {
    if let Some(k) = atoms.iter().position(|a| *a == e) {
        return Some(bits >> k & 1 == 1);
    }
    let ev = |x: ExprId| skeleton_eval(sys, x, atoms, bits);
    Some(match &sys.exprs.node(e).kind {
        ExprKind::Const(Value::Bool(b)) => *b,
        ExprKind::Unary(UnOp::Not, a) => !ev(*a)?,
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (ev(*a)?, ev(*b)?);
            match op {
                BinOp::And => x && y,
                BinOp::Or => x || y,
                BinOp::Implies => !x || y,
                BinOp::Iff => x == y,
                BinOp::Xor => x != y,
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// What the three-valued evaluation reads.
struct Ctx<'c> {
    sys: &'c System,
    interp: &'c Interpreter<'c>,
    env: &'c Env,
    tainted: &'c HashMap<ExprId, bool>,
    pending: &'c HashMap<ExprId, PendingCase>,
}

/// Three-valued evaluation: pending cases without a true guard fail; a failure propagates
/// unless the other operand decides the result.
fn tri(c: &Ctx, e: ExprId, memo: &mut HashMap<ExprId, Tri>) -> Tri {
    if let Some(t) = memo.get(&e) {
        return t.clone();
    }
    let plain = |x: ExprId| match c
        .interp
        .eval(x, &c.env.cur, &c.env.frame, Some(&c.env.next))
    {
        Ok(v) => Tri::Val(v),
        Err(_) => Tri::Fail,
    };
    let r = if !c.tainted.get(&e).copied().unwrap_or(false) {
        plain(e)
    } else if let Some(p) = c.pending.get(&e) {
        let mut out = Tri::Fail;
        for (g, v) in p.guards.iter().zip(&p.values) {
            match tri(c, *g, memo) {
                Tri::Val(Value::Bool(true)) => {
                    // A one-branch `case` elaborates to its value's own node.
                    out = if *v == e { plain(*v) } else { tri(c, *v, memo) };
                    break;
                }
                Tri::Val(_) => continue,
                Tri::Fail => break,
            }
        }
        out
    } else {
        let t = Tri::Val(Value::Bool(true));
        let f = Tri::Val(Value::Bool(false));
        match c.sys.exprs.node(e).kind.clone() {
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or | BinOp::Implies), a, b) => {
                let (x, y) = (tri(c, a, memo), tri(c, b, memo));
                let decides = |v: &Tri, left: bool| match op {
                    BinOp::And => *v == f,
                    BinOp::Or => *v == t,
                    _ => (left && *v == f) || (!left && *v == t),
                };
                if decides(&x, true) || decides(&y, false) {
                    plain(e)
                } else if x == Tri::Fail || y == Tri::Fail {
                    Tri::Fail
                } else {
                    plain(e)
                }
            }
            ExprKind::Ite(cond, a, b) => match tri(c, cond, memo) {
                Tri::Val(Value::Bool(true)) => tri(c, a, memo),
                Tri::Val(_) => tri(c, b, memo),
                Tri::Fail => Tri::Fail,
            },
            ExprKind::Unary(UnOp::Not, a) => match tri(c, a, memo) {
                Tri::Fail => Tri::Fail,
                _ => plain(e),
            },
            other => {
                let kids = other.children();
                if kids.iter().any(|k| tri(c, *k, memo) == Tri::Fail) {
                    Tri::Fail
                } else {
                    plain(e)
                }
            }
        }
    };
    memo.insert(e, r.clone());
    r
}
