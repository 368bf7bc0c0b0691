//! Test support: random well-typed IR systems driven by a number tape (so proptest shrinks
//! them).

use hypermut_ir::{
    BinOp, ConstraintKind, EnumId, ExprId, ExprKind, FileId, Output, Role, Span, System, Type,
    UnOp, Value, VarId,
};

/// A source of choices; reads past the end give 0, the simplest choice.
pub struct ChoiceTape {
    data: Vec<u32>,
    pos: usize,
}

impl ChoiceTape {
    /// A tape over `data`.
    pub fn new(data: Vec<u32>) -> Self {
        ChoiceTape { data, pos: 0 }
    }

    /// A number in `0..n` (0 when `n == 0`).
    pub fn pick(&mut self, n: u32) -> u32 {
        let v = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        if n == 0 {
            0
        } else {
            v % n
        }
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.pick((hi - lo + 1) as u32) as i64
    }
}

/// Builds random expressions of requested types into a system.
pub struct RandomSystemBuilder {
    /// The system under construction.
    pub sys: System,
    tape: ChoiceTape,
    readable: Vec<VarId>,
    nexts: Vec<VarId>,
    spans: usize,
}

const BOOL_OPS: [BinOp; 5] = [
    BinOp::And,
    BinOp::Or,
    BinOp::Xor,
    BinOp::Implies,
    BinOp::Iff,
];
const CMP_OPS: [BinOp; 6] = [
    BinOp::Eq,
    BinOp::Ne,
    BinOp::Lt,
    BinOp::Le,
    BinOp::Gt,
    BinOp::Ge,
];
const ARITH_OPS: [BinOp; 5] = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Mod];

impl RandomSystemBuilder {
    /// A fresh empty span. `ExprPool` hash-conses constants by value and span only, so two
    /// constants with equal values but different types (signed/unsigned words, indices of
    /// different enumerations) need distinct spans to stay distinct nodes.
    fn fresh_span(&mut self) -> Option<Span> {
        self.spans += 1;
        Some(Span::new(FileId(0), self.spans, self.spans))
    }

    fn mk(&mut self, k: ExprKind) -> Option<ExprId> {
        self.sys.mk(k, None).ok()
    }

    fn op<const N: usize>(&mut self, ops: [BinOp; N]) -> BinOp {
        ops[self.tape.pick(N as u32) as usize]
    }

    /// A random type (bool, word of 1..=8 bits, small integer range, or an enumeration).
    pub fn ty(&mut self) -> Type {
        match self.tape.pick(4) {
            0 => Type::Bool,
            1 => {
                let w = 1 + self.tape.pick(8);
                self.bv_ty(w)
            }
            2 => {
                let lo = self.tape.range(-8, 8);
                Type::Int {
                    lo,
                    hi: lo + self.tape.range(0, 10),
                }
            }
            _ => Type::Enum(EnumId(self.tape.pick(self.sys.enums.len() as u32))),
        }
    }

    fn bv_ty(&mut self, width: u32) -> Type {
        Type::BitVec {
            width,
            signed: self.tape.pick(2) == 1,
        }
    }

    fn int_ty(&mut self) -> Type {
        Type::Int { lo: 0, hi: 0 }
    }

    /// A constant of type `ty` (for `Int`: of a singleton range inside `ty`).
    pub fn constant(&mut self, ty: Type) -> ExprId {
        match ty {
            Type::Bool => {
                let b = self.tape.pick(2) == 1;
                self.sys.bool_const(b, None)
            }
            Type::BitVec { width, .. } => {
                let v = Value::bits(width, self.tape.pick(1 << width));
                let span = self.fresh_span();
                self.sys.bv_const(ty, v, span)
            }
            Type::Int { lo, hi } => {
                let v = self.tape.range(lo, hi);
                self.sys.int_const(v, None)
            }
            Type::Enum(e) => {
                let n = self.sys.enums[e.0 as usize].values.len() as u32;
                let i = self.tape.pick(n);
                let span = self.fresh_span();
                self.sys.enum_const(e, i, span)
            }
        }
    }

    fn leaf(&mut self, ty: Type) -> ExprId {
        let same = |t: Type| t == ty || (t.is_int() && ty.is_int());
        let mut cands: Vec<ExprKind> = Vec::new();
        for v in &self.readable {
            if same(self.sys.var(*v).ty) {
                cands.push(ExprKind::Var(*v));
            }
        }
        for v in &self.nexts {
            if same(self.sys.var(*v).ty) {
                cands.push(ExprKind::Next(*v));
            }
        }
        let k = self.tape.pick(cands.len() as u32 + 1) as usize;
        match k.checked_sub(1).and_then(|i| cands.get(i).cloned()) {
            Some(kind) => self.mk(kind).expect("variables are well-typed"),
            None if ty.is_int() => {
                let v = self.tape.range(-10, 10);
                self.sys.int_const(v, None)
            }
            None => self.constant(ty),
        }
    }

    /// An expression of type `ty` (for `Int`: of some integer range) of depth ≤ `depth`.
    pub fn expr(&mut self, ty: Type, depth: u32) -> ExprId {
        let e = if depth == 0 {
            None
        } else {
            let d = depth - 1;
            match ty {
                Type::Bool => self.bool_expr(d),
                Type::Int { .. } => self.int_expr(d),
                Type::BitVec { width, signed } => self.bv_expr(width, signed, d),
                Type::Enum(_) => self.enum_expr(ty, d),
            }
        };
        e.unwrap_or_else(|| self.leaf(ty))
    }

    fn bool_expr(&mut self, d: u32) -> Option<ExprId> {
        let b = Type::Bool;
        let k = match self.tape.pick(8) {
            0 => return None,
            1 => ExprKind::Unary(UnOp::Not, self.expr(b, d)),
            2 => {
                let op = self.op(BOOL_OPS);
                ExprKind::Binary(op, self.expr(b, d), self.expr(b, d))
            }
            3 => {
                let t = self.ty();
                let op = self.op([BinOp::Eq, BinOp::Ne]);
                ExprKind::Binary(op, self.expr(t, d), self.expr(t, d))
            }
            4 => {
                let t = if self.tape.pick(2) == 0 {
                    self.int_ty()
                } else {
                    let w = 1 + self.tape.pick(8);
                    self.bv_ty(w)
                };
                let op = self.op(CMP_OPS);
                ExprKind::Binary(op, self.expr(t, d), self.expr(t, d))
            }
            5 => ExprKind::Ite(self.expr(b, d), self.expr(b, d), self.expr(b, d)),
            6 => {
                let w = 1 + self.tape.pick(8);
                let t = self.bv_ty(w);
                ExprKind::Cast(self.expr(t, d), b)
            }
            _ => ExprKind::Cast(self.expr(b, d), b),
        };
        self.mk(k)
    }

    fn int_expr(&mut self, d: u32) -> Option<ExprId> {
        let i = self.int_ty();
        let k = match self.tape.pick(11) {
            0 => return None,
            1 => ExprKind::Unary(UnOp::Neg, self.expr(i, d)),
            2..=6 => {
                let op = self.op(ARITH_OPS);
                ExprKind::Binary(op, self.expr(i, d), self.expr(i, d))
            }
            7 => ExprKind::Ite(self.expr(Type::Bool, d), self.expr(i, d), self.expr(i, d)),
            8 => {
                let w = 1 + self.tape.pick(8);
                let t = self.bv_ty(w);
                let (lo, hi) = match t {
                    Type::BitVec { signed: true, .. } => {
                        (-(1i64 << (w - 1)), (1i64 << (w - 1)) - 1)
                    }
                    _ => (0, (1i64 << w) - 1),
                };
                ExprKind::Cast(self.expr(t, d), Type::Int { lo, hi })
            }
            9 => ExprKind::Cast(self.expr(Type::Bool, d), Type::Int { lo: 0, hi: 1 }),
            _ => {
                let e = self.expr(i, d);
                let Type::Int { lo, hi } = self.sys.ty(e) else {
                    return None;
                };
                let lo = lo - self.tape.range(0, 3);
                let hi = hi + self.tape.range(0, 3);
                ExprKind::Cast(e, Type::Int { lo, hi })
            }
        };
        self.mk(k)
    }

    fn bv_expr(&mut self, w: u32, signed: bool, d: u32) -> Option<ExprId> {
        let t = Type::BitVec { width: w, signed };
        let k = match self.tape.pick(13) {
            0 => return None,
            1 => ExprKind::Unary(UnOp::Not, self.expr(t, d)),
            2 => ExprKind::Unary(UnOp::Neg, self.expr(t, d)),
            3 => {
                let op = self.op([BinOp::And, BinOp::Or, BinOp::Xor]);
                ExprKind::Binary(op, self.expr(t, d), self.expr(t, d))
            }
            4 | 5 => {
                let op = self.op(ARITH_OPS);
                ExprKind::Binary(op, self.expr(t, d), self.expr(t, d))
            }
            6 => {
                let op = self.op([BinOp::Shl, BinOp::Shr]);
                let at = if self.tape.pick(2) == 0 {
                    self.int_ty()
                } else {
                    let aw = 1 + self.tape.pick(5);
                    self.bv_ty(aw)
                };
                ExprKind::Binary(op, self.expr(t, d), self.expr(at, d))
            }
            7 if w >= 2 => {
                let w1 = 1 + self.tape.pick(w - 1);
                let (t1, t2) = (self.bv_ty(w1), self.bv_ty(w - w1));
                let c = ExprKind::Binary(BinOp::Concat, self.expr(t1, d), self.expr(t2, d));
                return self.retype(c, t);
            }
            8 => {
                let sw = w + self.tape.pick(4);
                let st = self.bv_ty(sw);
                let lo = self.tape.pick(sw - w + 1);
                let x = ExprKind::Extract {
                    arg: self.expr(st, d),
                    hi: lo + w - 1,
                    lo,
                };
                return self.retype(x, t);
            }
            9 => ExprKind::Ite(self.expr(Type::Bool, d), self.expr(t, d), self.expr(t, d)),
            10 => {
                let sw = 1 + self.tape.pick(8);
                let st = self.bv_ty(sw);
                ExprKind::Cast(self.expr(st, d), t)
            }
            11 => {
                let i = self.int_ty();
                ExprKind::Cast(self.expr(i, d), t)
            }
            _ => ExprKind::Cast(self.expr(Type::Bool, d), t),
        };
        self.mk(k)
    }

    /// Builds an unsigned-word node and casts it to `t` when `t` is signed.
    fn retype(&mut self, k: ExprKind, t: Type) -> Option<ExprId> {
        let e = self.mk(k)?;
        if self.sys.ty(e) == t {
            Some(e)
        } else {
            self.mk(ExprKind::Cast(e, t))
        }
    }

    fn enum_expr(&mut self, t: Type, d: u32) -> Option<ExprId> {
        let k = match self.tape.pick(3) {
            0 => return None,
            1 => ExprKind::Ite(self.expr(Type::Bool, d), self.expr(t, d), self.expr(t, d)),
            _ => ExprKind::Cast(self.expr(t, d), t),
        };
        self.mk(k)
    }

    /// A random expression whose values all belong to `ty` (integers are clamped into the
    /// range and then cast to it).
    pub fn fitted(&mut self, ty: Type, depth: u32) -> ExprId {
        let e = self.expr(ty, depth);
        let Type::Int { lo, hi } = ty else {
            return e;
        };
        let build = |s: &mut System| -> Option<ExprId> {
            let l = s.int_const(lo, None);
            let h = s.int_const(hi, None);
            let ge = s.mk(ExprKind::Binary(BinOp::Le, l, e), None).ok()?;
            let le = s.mk(ExprKind::Binary(BinOp::Le, e, h), None).ok()?;
            let c = s.mk(ExprKind::Binary(BinOp::And, ge, le), None).ok()?;
            let ite = s.mk(ExprKind::Ite(c, e, l), None).ok()?;
            s.mk(ExprKind::Cast(ite, ty), None).ok()
        };
        build(&mut self.sys).unwrap_or_else(|| self.sys.int_const(lo, None))
    }
}

/// A random system: enumerations, 1–3 inputs, 1–3 state or frozen variables with constant,
/// free or input-dependent initial values, outputs (one per state variable plus random
/// ones) and occasional init / invariant / transition constraints.
pub fn random_system(tape: Vec<u32>, depth: u32) -> System {
    let mut g = RandomSystemBuilder {
        sys: System::new("rand"),
        tape: ChoiceTape::new(tape),
        readable: vec![],
        nexts: vec![],
        spans: 0,
    };
    g.sys.sources.add("generated", "");
    for k in 0..1 + g.tape.pick(2) {
        let n = 1 + g.tape.pick(5);
        g.sys.add_enum(
            format!("E{k}"),
            (0..n).map(|i| format!("e{k}_{i}")).collect(),
        );
    }
    let mut inputs = Vec::new();
    for k in 0..1 + g.tape.pick(3) {
        let t = g.ty();
        inputs.push(g.sys.add_var(format!("i{k}"), t, Role::Input, None));
    }
    let mut states = Vec::new();
    for k in 0..1 + g.tape.pick(3) {
        let t = g.ty();
        let role = if g.tape.pick(4) == 3 {
            Role::Frozen
        } else {
            Role::State
        };
        states.push(g.sys.add_var(format!("s{k}"), t, role, None));
    }
    for (j, s) in states.iter().enumerate() {
        let ty = g.sys.var(*s).ty;
        g.readable = inputs.iter().chain(&states[..j]).copied().collect();
        g.sys.vars[s.0 as usize].init = match g.tape.pick(3) {
            0 => Some(g.constant(ty)),
            1 => None,
            _ => Some(g.fitted(ty, depth)),
        };
    }
    g.readable = inputs.iter().chain(&states).copied().collect();
    for s in &states {
        if g.sys.var(*s).role == Role::State {
            let ty = g.sys.var(*s).ty;
            g.sys.vars[s.0 as usize].next = Some(g.fitted(ty, depth));
        }
    }
    for s in &states {
        let e = g.sys.var_ref(*s, None);
        let name = format!("o_{}", g.sys.var(*s).name);
        g.sys.outputs.push(Output { name, expr: e });
    }
    for k in 0..1 + g.tape.pick(3) {
        let t = g.ty();
        let expr = g.expr(t, depth);
        g.sys.outputs.push(Output {
            name: format!("o{k}"),
            expr,
        });
    }
    for _ in 0..g.tape.pick(3) {
        let kind = [
            ConstraintKind::Invariant,
            ConstraintKind::Trans,
            ConstraintKind::Init,
        ][g.tape.pick(3) as usize];
        if kind == ConstraintKind::Trans {
            g.nexts = states.clone();
        }
        let expr = g.expr(Type::Bool, depth);
        g.nexts.clear();
        g.sys.constraints.push(hypermut_ir::Constraint {
            kind,
            expr,
            span: None,
        });
    }
    g.sys
}
