//! Translation of IR expressions to bit vectors over one frame, with memoisation per
//! expression node and lazy resolution of variable reads (including non-constant initial
//! values through the `started` latch).

use hypermut_ir::{BinOp, ExprId, ExprKind, Role, System, Type, UnOp, VarId};

use super::encode::{self, Layout};
use super::error::BlastError;
use super::words::{self, Bits, Shift};
use crate::graph::{Aig, Lit};

/// Where the bits of a variable come from.
#[derive(Clone, Debug)]
pub(super) enum Slot {
    /// Not an input, state or frozen variable set up (yet).
    Unset,
    /// A primary input's storage bits.
    Input(Bits),
    /// Latches; `init` is the non-constant initial value read while `started` is false.
    Latched {
        /// Storage latch literals.
        latches: Bits,
        /// Non-constant initial value (the `started` construction), if any.
        init: Option<ExprId>,
    },
}

/// Translator state shared by every expression of one system.
pub(super) struct Translator<'s> {
    /// The system being blasted.
    pub sys: &'s System,
    /// The circuit under construction.
    pub aig: Aig,
    /// Per variable: where its bits come from.
    pub slots: Vec<Slot>,
    /// Per variable: storage bits of its next-state value (for `next(v)` in transition
    /// constraints).
    pub next_storage: Vec<Option<Bits>>,
    /// The shared `started` latch (false exactly in frame 0), once created.
    pub started: Option<Lit>,
    memo: Vec<Option<Bits>>,
    has_next: Vec<bool>,
    read_storage: Vec<Option<Bits>>,
    reads: Vec<Option<Bits>>,
    reading: Vec<bool>,
    allow_next: bool,
    root: String,
}

impl<'s> Translator<'s> {
    /// A translator with an empty AIG and no variables set up.
    pub fn new(sys: &'s System) -> Self {
        let n = sys.vars.len();
        let m = sys.exprs.len();
        Translator {
            sys,
            aig: Aig::new(),
            slots: vec![Slot::Unset; n],
            next_storage: vec![None; n],
            started: None,
            memo: vec![None; m],
            has_next: vec![false; m],
            read_storage: vec![None; n],
            reads: vec![None; n],
            reading: vec![false; n],
            allow_next: false,
            root: String::new(),
        }
    }

    /// Name of a variable (for messages; `#i` if the id is unknown).
    pub fn var_name(&self, v: VarId) -> String {
        self.sys
            .vars
            .get(v.0 as usize)
            .map_or_else(|| format!("#{}", v.0), |x| x.name.clone())
    }

    /// Description of a node for messages: the current root and the node's source text.
    fn at(&self, id: ExprId) -> String {
        let snippet = if (id.0 as usize) < self.sys.exprs.len() {
            self.sys.source_text(id).unwrap_or("")
        } else {
            ""
        };
        if snippet.is_empty() {
            self.root.clone()
        } else {
            format!("{} (at `{snippet}`)", self.root)
        }
    }

    fn type_err(&self, id: ExprId, detail: impl Into<String>) -> BlastError {
        BlastError::Type {
            at: self.at(id),
            detail: detail.into(),
        }
    }

    /// Layout of the type of node `id`.
    fn layout_at(&self, id: ExprId, ty: Type) -> Result<Layout, BlastError> {
        encode::layout(ty, &self.sys.enums).map_err(|d| self.type_err(id, d))
    }

    /// Checks that `id` names a node of this system's pool.
    fn check_id(&self, id: ExprId) -> Result<(), BlastError> {
        if (id.0 as usize) < self.sys.exprs.len() {
            Ok(())
        } else {
            Err(BlastError::Dangling {
                at: self.root.clone(),
                what: "expression",
                index: id.0,
            })
        }
    }

    /// The nodes reachable from `root` (validated), in increasing id order.
    pub fn cone(&self, root: ExprId, skip_memoized: bool) -> Result<Vec<ExprId>, BlastError> {
        self.check_id(root)?;
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![root];
        let mut out = Vec::new();
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            if skip_memoized && self.memo[id.0 as usize].is_some() {
                if self.has_next[id.0 as usize] && !self.allow_next {
                    return Err(BlastError::NextOutsideTrans { at: self.at(id) });
                }
                continue;
            }
            out.push(id);
            for c in self.sys.exprs.node(id).kind.children() {
                self.check_id(c)?;
                if c >= id {
                    // Children must precede their parents (an ExprPool invariant).
                    return Err(BlastError::Dangling {
                        at: self.at(id),
                        what: "expression (not below its parent)",
                        index: c.0,
                    });
                }
                stack.push(c);
            }
        }
        out.sort();
        Ok(out)
    }

    /// Whether `root` reads no variable, `next` or choice (so it folds to constant bits).
    pub fn is_constant(&self, root: ExprId) -> Result<bool, BlastError> {
        Ok(self.cone(root, false)?.iter().all(|id| {
            !matches!(
                self.sys.exprs.node(*id).kind,
                ExprKind::Var(_) | ExprKind::Next(_) | ExprKind::Choice { .. }
            )
        }))
    }

    /// The expression bits of `root` in the current frame. `root_desc` names the root in
    /// messages; `allow_next` permits `next(v)` (transition constraints only).
    pub fn translate(
        &mut self,
        root: ExprId,
        root_desc: &str,
        allow_next: bool,
    ) -> Result<Bits, BlastError> {
        let saved_next = std::mem::replace(&mut self.allow_next, allow_next);
        let saved_root = std::mem::replace(&mut self.root, root_desc.to_string());
        let r = self.translate_cone(root);
        self.allow_next = saved_next;
        self.root = saved_root;
        r
    }

    fn translate_cone(&mut self, root: ExprId) -> Result<Bits, BlastError> {
        for id in self.cone(root, true)? {
            // A nested initial value may have translated it meanwhile.
            if self.memo[id.0 as usize].is_some() {
                continue;
            }
            let bits = self.node(id)?;
            let kids = self.sys.exprs.node(id).kind.children();
            self.has_next[id.0 as usize] =
                matches!(self.sys.exprs.node(id).kind, ExprKind::Next(_))
                    || kids.iter().any(|c| self.has_next[c.0 as usize]);
            self.memo[id.0 as usize] = Some(bits);
        }
        Ok(self.kid(root).clone())
    }

    /// Bits of an already translated node.
    fn kid(&self, id: ExprId) -> &Bits {
        self.memo[id.0 as usize]
            .as_ref()
            .expect("children are translated before their parents")
    }

    /// Storage bits of a variable's value in the current frame.
    pub fn read_storage(&mut self, v: VarId) -> Result<Bits, BlastError> {
        let i = v.0 as usize;
        if let Some(b) = &self.read_storage[i] {
            return Ok(b.clone());
        }
        let bits = match self.slots[i].clone() {
            Slot::Unset => {
                return Err(BlastError::Dangling {
                    at: self.root.clone(),
                    what: "variable",
                    index: v.0,
                })
            }
            Slot::Input(bits)
            | Slot::Latched {
                latches: bits,
                init: None,
            } => bits,
            Slot::Latched {
                latches,
                init: Some(e),
            } => {
                if std::mem::replace(&mut self.reading[i], true) {
                    return Err(BlastError::CyclicInit {
                        var: self.var_name(v),
                    });
                }
                let desc = format!("init({})", self.var_name(v));
                let val = self.assigned(v, e, &desc);
                self.reading[i] = false;
                let init_storage = val?;
                let started = self
                    .started
                    .expect("the started latch exists before non-constant initial values are read");
                words::mux(&mut self.aig, started, &latches, &init_storage)
            }
        };
        self.read_storage[i] = Some(bits.clone());
        Ok(bits)
    }

    /// The storage bits of expression `e` assigned to variable `v` (init or next), after
    /// checking that its type fits the variable's.
    pub fn assigned(&mut self, v: VarId, e: ExprId, desc: &str) -> Result<Bits, BlastError> {
        let bits = self.translate(e, desc, false)?;
        let var = &self.sys.vars[v.0 as usize];
        let ety = self.sys.ty(e);
        let fits = matches!((var.ty, ety), (Type::Int { .. }, Type::Int { .. })) || var.ty == ety;
        if !fits {
            return Err(BlastError::Type {
                at: desc.to_string(),
                detail: format!(
                    "expression of type {} assigned to variable of type {}",
                    ety.describe(&self.sys.enums),
                    var.ty.describe(&self.sys.enums)
                ),
            });
        }
        let lay = self.var_layout(v)?;
        Ok(encode::expr_to_storage(&mut self.aig, var.ty, lay, &bits))
    }

    /// Layout of a variable's type.
    pub fn var_layout(&self, v: VarId) -> Result<Layout, BlastError> {
        let var = &self.sys.vars[v.0 as usize];
        encode::layout(var.ty, &self.sys.enums).map_err(|detail| BlastError::Type {
            at: format!("variable `{}`", var.name),
            detail,
        })
    }

    /// Expression bits of a variable's value in the current frame.
    fn read(&mut self, v: VarId) -> Result<Bits, BlastError> {
        let i = v.0 as usize;
        if let Some(b) = &self.reads[i] {
            return Ok(b.clone());
        }
        let storage = self.read_storage(v)?;
        let lay = self.var_layout(v)?;
        let bits = encode::storage_to_expr(&mut self.aig, self.sys.vars[i].ty, lay, &storage);
        self.reads[i] = Some(bits.clone());
        Ok(bits)
    }

    fn check_var(&self, id: ExprId, v: VarId) -> Result<(), BlastError> {
        if (v.0 as usize) < self.sys.vars.len() {
            Ok(())
        } else {
            Err(BlastError::Dangling {
                at: self.at(id),
                what: "variable",
                index: v.0,
            })
        }
    }

    /// Translates one node whose children are translated.
    fn node(&mut self, id: ExprId) -> Result<Bits, BlastError> {
        let sys = self.sys;
        let node = sys.exprs.node(id);
        let ty = node.ty;
        let lay = self.layout_at(id, ty)?;
        if !matches!(node.kind, ExprKind::Const(_)) {
            let computed = sys
                .type_of(&node.kind)
                .map_err(|e| self.type_err(id, e.to_string()))?;
            if computed != ty {
                return Err(self.type_err(
                    id,
                    format!(
                        "node is typed {} but its operands give {}",
                        ty.describe(&sys.enums),
                        computed.describe(&sys.enums)
                    ),
                ));
            }
        }
        let w = lay.expr;
        let bits = match &node.kind {
            ExprKind::Const(v) => {
                encode::const_bits(v, ty, &sys.enums, w).map_err(|d| self.type_err(id, d))?
            }
            ExprKind::Var(v) => {
                self.check_var(id, *v)?;
                self.read(*v)?
            }
            ExprKind::Next(v) => self.next_of(id, *v)?,
            ExprKind::Choice { id: site, .. } => {
                return Err(BlastError::Choice {
                    at: self.at(id),
                    site: site.0,
                })
            }
            ExprKind::Unary(UnOp::Not, a) => words::not(self.kid(*a)),
            ExprKind::Unary(UnOp::Neg, a) => {
                let x = words::resize(self.kid(*a), w, true);
                words::neg(&mut self.aig, &x)
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, *a, *b, ty, w),
            ExprKind::Ite(c, t, e) => {
                let cond = self.kid(*c)[0];
                let signed = ty.is_int();
                let t = words::resize(self.kid(*t), w, signed);
                let e = words::resize(self.kid(*e), w, signed);
                words::mux(&mut self.aig, cond, &t, &e)
            }
            ExprKind::Extract { arg, hi, lo } => {
                self.kid(*arg)[*lo as usize..=*hi as usize].to_vec()
            }
            ExprKind::Cast(a, to) => {
                let from = sys.ty(*a);
                let x = self.kid(*a).clone();
                match to {
                    Type::Bool => vec![words::or_reduce(&mut self.aig, &x)],
                    Type::Enum(_) => x,
                    Type::BitVec { .. } | Type::Int { .. } => words::resize(&x, w, is_signed(from)),
                }
            }
        };
        debug_assert_eq!(bits.len(), w as usize, "width of {:?}", node.kind);
        Ok(bits)
    }

    /// `next(v)`: the variable's next-state value, as expression bits of its type.
    fn next_of(&mut self, id: ExprId, v: VarId) -> Result<Bits, BlastError> {
        self.check_var(id, v)?;
        if !self.allow_next {
            return Err(BlastError::NextOutsideTrans { at: self.at(id) });
        }
        let var = &self.sys.vars[v.0 as usize];
        let storage = match (var.role, &self.next_storage[v.0 as usize]) {
            (Role::Input, _) | (_, None) => {
                return Err(BlastError::NextUndefined {
                    at: self.at(id),
                    var: var.name.clone(),
                })
            }
            (_, Some(s)) => s.clone(),
        };
        let lay = self.var_layout(v)?;
        Ok(encode::storage_to_expr(
            &mut self.aig,
            var.ty,
            lay,
            &storage,
        ))
    }

    fn binary(&mut self, op: BinOp, a: ExprId, b: ExprId, ty: Type, w: u32) -> Bits {
        use BinOp::*;
        let (ta, tb) = (self.sys.ty(a), self.sys.ty(b));
        let (x, y) = (self.kid(a).clone(), self.kid(b).clone());
        let g = &mut self.aig;
        match op {
            And => words::zip(g, &x, &y, Aig::and),
            Or => words::zip(g, &x, &y, Aig::or),
            Xor => words::zip(g, &x, &y, Aig::xor),
            Implies => vec![g.or(!x[0], y[0])],
            Iff => vec![g.xnor(x[0], y[0])],
            Eq | Ne | Lt | Le | Gt | Ge => {
                // Int operands of different ranges meet in a common two's complement width.
                let cw = x.len().max(y.len()) as u32;
                let (x, y) = (
                    words::resize(&x, cw, ta.is_int()),
                    words::resize(&y, cw, tb.is_int()),
                );
                let lt = |g: &mut Aig, p: &[Lit], q: &[Lit]| {
                    if is_signed(ta) {
                        words::slt(g, p, q)
                    } else {
                        words::ult(g, p, q)
                    }
                };
                vec![match op {
                    Eq => words::eq(g, &x, &y),
                    Ne => !words::eq(g, &x, &y),
                    Lt => lt(g, &x, &y),
                    Le => !lt(g, &y, &x),
                    Gt => lt(g, &y, &x),
                    _ => !lt(g, &x, &y),
                }]
            }
            Add | Sub | Mul => {
                // Int: the result type holds the exact result, so arithmetic modulo 2^w of
                // the operands resized to w is exact.
                let (x, y) = (
                    words::resize(&x, w, ty.is_int()),
                    words::resize(&y, w, ty.is_int()),
                );
                match op {
                    Add => words::add(g, &x, &y),
                    Sub => words::sub(g, &x, &y),
                    _ => words::mul(g, &x, &y),
                }
            }
            Div | Mod if ty.is_int() => {
                // One extra bit so magnitudes and the quotient -min/-1 fit.
                let cw = x.len().max(y.len()) as u32 + 1;
                let (x, y) = (words::resize(&x, cw, true), words::resize(&y, cw, true));
                let (q, r) = words::sdivrem(g, &x, &y);
                let res = if op == Div {
                    // x / 0 = 0 (the magnitude division would give ±1).
                    let nz = words::or_reduce(g, &y);
                    q.iter().map(|l| g.and(*l, nz)).collect()
                } else {
                    r
                };
                words::resize(&res, w, true)
            }
            Div | Mod => {
                let (q, r) = if is_signed(ty) {
                    words::sdivrem(g, &x, &y)
                } else {
                    words::udivrem(g, &x, &y)
                };
                if op == Div {
                    q
                } else {
                    r
                }
            }
            Shl | Shr => {
                // A negative amount (Int or signed word) shifts by 0.
                let amt = if is_signed(tb) {
                    let (mag, sign) = y.split_at(y.len() - 1);
                    mag.iter().map(|l| g.and(*l, !sign[0])).collect()
                } else {
                    y
                };
                let kind = match op {
                    Shl => Shift::Left,
                    _ if is_signed(ta) => Shift::Arithmetic,
                    _ => Shift::Logical,
                };
                words::shift(g, &x, &amt, kind)
            }
            Concat => y.into_iter().chain(x).collect(),
        }
    }
}

/// Whether values of `ty` are two's complement (Int expressions and signed words).
fn is_signed(ty: Type) -> bool {
    matches!(ty, Type::Int { .. } | Type::BitVec { signed: true, .. })
}
