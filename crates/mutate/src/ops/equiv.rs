//! Local equivalence of two small expressions over the same operands, decided by evaluating
//! both with the IR interpreter: exhaustively when the operands have few values together,
//! otherwise on a deterministic sample (edge values and pseudo-random ones).
//!
//! Used to drop mutants that are equivalent by construction (`x + 0` → `x - 0`, `a + b` →
//! `a - b` on one bit, `(a + b) - c` → `a + (b - c)` on few values). Only an exhaustive
//! agreement drops a mutant ([`same`]): agreement on a sample proves nothing, so such a
//! mutant is kept and the prover decides it (`docs/method.md` §10).

use num_bigint::{BigInt, BigUint};
use num_traits::One;

use hypermut_ir::{
    EnumType, ExprId, Frame, Interpreter, Role, System, Type, TypeError, Value, VarId,
};

use crate::sample::SplitMix64;

/// An operand: a known constant or any value of a type.
#[derive(Clone, Debug)]
pub(crate) enum Leaf {
    /// A constant operand.
    Const(Type, Value),
    /// A free operand of this type.
    Free(Type),
}

/// Builds an expression over the operand nodes (one per leaf, in order).
pub(crate) type Shape<'a> = &'a dyn Fn(&mut System, &[ExprId]) -> Result<ExprId, TypeError>;

/// Exhaustive evaluation up to this many valuations.
const EXHAUSTIVE: u64 = 4096;
/// Sampled valuations otherwise.
const SAMPLES: usize = 512;

/// All values of a type if there are at most `limit`.
fn all_values(ty: Type, enums: &[EnumType], limit: u64) -> Option<Vec<Value>> {
    let n = ty.cardinality(enums)?;
    if n > limit {
        return None;
    }
    Some(match ty {
        Type::Bool => vec![Value::Bool(false), Value::Bool(true)],
        Type::BitVec { width, .. } => (0..n).map(|k| Value::bits(width, k)).collect(),
        Type::Enum(_) => (0..n as u32).map(Value::Enum).collect(),
        Type::Int { lo, .. } => (0..n as i64).map(|k| Value::Int(lo + k)).collect(),
    })
}

/// Edge values and pseudo-random values of a type.
fn sample_values(ty: Type, rng: &mut SplitMix64, n: usize) -> Vec<Value> {
    match ty {
        Type::Bool => vec![Value::Bool(false), Value::Bool(true)],
        Type::Enum(_) => vec![Value::Enum(0)],
        Type::Int { lo, hi } => {
            let mut v = vec![
                lo,
                hi,
                lo.saturating_add(1).min(hi),
                hi.saturating_sub(1).max(lo),
            ];
            if lo <= 0 && 0 <= hi {
                v.extend([0, 1.min(hi), (-1).max(lo)]);
            }
            let span = (hi as i128 - lo as i128 + 1) as u128;
            for _ in 0..n {
                let off = (rng.next() as u128 % span.max(1)) as i128;
                v.push((lo as i128 + off) as i64);
            }
            v.into_iter().map(Value::Int).collect()
        }
        Type::BitVec { width, .. } => {
            let ones = (BigUint::one() << width) - BigUint::one();
            let half = BigUint::one() << (width - 1);
            let mut v = vec![
                BigUint::from(0u8),
                BigUint::one(),
                BigUint::from(2u8),
                ones.clone(),
                &ones - BigUint::one(),
                half.clone(),
                &half - BigUint::one(),
            ];
            for _ in 0..n {
                let mut x = BigUint::from(0u8);
                for _ in 0..width.div_ceil(64) {
                    x = (x << 64) | BigUint::from(rng.next());
                }
                v.push(x);
            }
            v.into_iter().map(|b| Value::bits(width, b)).collect()
        }
    }
}

/// What evaluating two shapes found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Agreement {
    /// They agree on every valuation of the free leaves: checked exhaustively.
    Exact,
    /// They agree on every sampled valuation, but there were too many to try them all.
    Sampled,
    /// They differ on some valuation, or a shape does not type-check or evaluate.
    Differ,
}

/// Whether `f` and `g` compute the same function of the leaves, exactly: only an exhaustive
/// check answers `true` (see [`check`]).
pub(crate) fn same(enums: &[EnumType], leaves: &[Leaf], f: Shape, g: Shape) -> bool {
    check(enums, leaves, f, g) == Agreement::Exact
}

/// Evaluates `f` and `g` on every valuation of the free leaves when there are at most
/// [`EXHAUSTIVE`], otherwise on a deterministic sample. Answers [`Agreement::Differ`] when
/// either shape does not type-check or cannot be evaluated.
pub(crate) fn check(enums: &[EnumType], leaves: &[Leaf], f: Shape, g: Shape) -> Agreement {
    let mut s = System::new("equiv");
    s.enums = enums.to_vec();
    let mut nodes = Vec::new();
    let mut free: Vec<(VarId, Type)> = Vec::new();
    for (k, leaf) in leaves.iter().enumerate() {
        match leaf {
            Leaf::Const(ty, v) => nodes.push(s.constant(*ty, v.clone(), None)),
            Leaf::Free(ty) => {
                let var = s.add_var(format!("x{k}"), *ty, Role::Input, None);
                free.push((var, *ty));
                nodes.push(s.var_ref(var, None));
            }
        }
    }
    let (Ok(a), Ok(b)) = (f(&mut s, &nodes), g(&mut s, &nodes)) else {
        return Agreement::Differ;
    };
    let interp = Interpreter::new(&s);
    let verdict = |agreed: bool, exhaustive: bool| match (agreed, exhaustive) {
        (false, _) => Agreement::Differ,
        (true, true) => Agreement::Exact,
        (true, false) => Agreement::Sampled,
    };
    let agree = |vals: &[Value]| -> bool {
        let mut frame = Frame::default();
        for ((var, _), v) in free.iter().zip(vals) {
            frame.inputs.insert(*var, v.clone());
        }
        match (
            interp.eval(a, &[], &frame, None),
            interp.eval(b, &[], &frame, None),
        ) {
            (Ok(x), Ok(y)) => numeric(&x, s.ty(a)) == numeric(&y, s.ty(b)),
            _ => false,
        }
    };
    // Exhaustive when small.
    let domains: Option<Vec<Vec<Value>>> = free
        .iter()
        .map(|(_, ty)| all_values(*ty, enums, EXHAUSTIVE))
        .collect();
    if let Some(d) = domains {
        let total = d
            .iter()
            .try_fold(1u64, |acc, x| acc.checked_mul(x.len() as u64));
        if total.is_some_and(|t| t <= EXHAUSTIVE) {
            return verdict(product_all(&d, &agree), true);
        }
    }
    // Sampled otherwise: every combination of edge values, then random combinations.
    let mut rng = SplitMix64::new(0x5eed_0fe9);
    let pools: Vec<Vec<Value>> = free
        .iter()
        .map(|(_, ty)| sample_values(*ty, &mut rng, 8))
        .collect();
    let small: Vec<Vec<Value>> = pools.iter().map(|p| p[..p.len().min(7)].to_vec()).collect();
    if !product_all(&small, &agree) {
        return Agreement::Differ;
    }
    for _ in 0..SAMPLES {
        let vals: Vec<Value> = pools
            .iter()
            .map(|p| p[rng.next() as usize % p.len()].clone())
            .collect();
        if !agree(&vals) {
            return Agreement::Differ;
        }
    }
    verdict(true, false)
}

/// Value as a number, so that integers of different ranges compare by value.
fn numeric(v: &Value, ty: Type) -> (BigInt, bool) {
    (v.to_bigint(ty), matches!(v, Value::Bool(_)))
}

/// Whether `agree` holds on every combination of the domains.
fn product_all(domains: &[Vec<Value>], agree: &dyn Fn(&[Value]) -> bool) -> bool {
    if domains.iter().any(Vec::is_empty) {
        return true;
    }
    let mut idx = vec![0usize; domains.len()];
    loop {
        let vals: Vec<Value> = idx
            .iter()
            .zip(domains)
            .map(|(i, d)| d[*i].clone())
            .collect();
        if !agree(&vals) {
            return false;
        }
        let mut k = 0;
        loop {
            if k == idx.len() {
                return true;
            }
            idx[k] += 1;
            if idx[k] < domains[k].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_ir::{BinOp, ExprKind};

    fn bin(op: BinOp) -> impl Fn(&mut System, &[ExprId]) -> Result<ExprId, TypeError> {
        move |s, n| s.mk(ExprKind::Binary(op, n[0], n[1]), None)
    }

    #[test]
    fn neutral_constants_make_operators_agree() {
        // 8 bits: 256 values, checked exhaustively.
        let x = Leaf::Free(Type::ubv(8));
        let zero = Leaf::Const(Type::ubv(8), Value::bits(8, 0u8));
        let one = Leaf::Const(Type::ubv(8), Value::bits(8, 1u8));
        let leaves = [x.clone(), zero];
        assert!(same(&[], &leaves, &bin(BinOp::Add), &bin(BinOp::Sub)));
        assert!(!same(&[], &leaves, &bin(BinOp::Add), &bin(BinOp::Mul)));
        let leaves = [x, one];
        assert!(same(&[], &leaves, &bin(BinOp::Mul), &bin(BinOp::Div)));
        assert!(!same(&[], &leaves, &bin(BinOp::Add), &bin(BinOp::Sub)));
    }

    #[test]
    fn agreement_on_a_sample_is_not_equivalence() {
        // x + 0 and x - 0 on 16 bits agree everywhere, but 65536 values are too many to try:
        // the sample agrees, and that does not make them the same.
        let x16 = Leaf::Free(Type::ubv(16));
        let zero = Leaf::Const(Type::ubv(16), Value::bits(16, 0u8));
        let leaves = [x16, zero];
        let (add, sub) = (bin(BinOp::Add), bin(BinOp::Sub));
        assert_eq!(check(&[], &leaves, &add, &sub), Agreement::Sampled);
        assert!(!same(&[], &leaves, &add, &sub));
        // A function that differs from x on one 32-bit value the sample does not hit: the
        // sample calls it equal, and it is not.
        let special = 0x1234_5677u32;
        let x32 = [Leaf::Free(Type::ubv(32))];
        let ident = |_: &mut System, n: &[ExprId]| -> Result<ExprId, TypeError> { Ok(n[0]) };
        let bumped = move |s: &mut System, n: &[ExprId]| -> Result<ExprId, TypeError> {
            let k = s.constant(Type::ubv(32), Value::bits(32, special), None);
            let one = s.constant(Type::ubv(32), Value::bits(32, 1u8), None);
            let hit = s.mk(ExprKind::Binary(BinOp::Eq, n[0], k), None)?;
            let plus = s.mk(ExprKind::Binary(BinOp::Add, n[0], one), None)?;
            s.mk(ExprKind::Ite(hit, plus, n[0]), None)
        };
        assert_eq!(check(&[], &x32, &ident, &bumped), Agreement::Sampled);
        assert!(!same(&[], &x32, &ident, &bumped));
        // The same shape over 4 bits, where every value is tried, is told apart.
        let special4 = 0b1001u8;
        let x4 = [Leaf::Free(Type::ubv(4))];
        let bumped4 = move |s: &mut System, n: &[ExprId]| -> Result<ExprId, TypeError> {
            let k = s.constant(Type::ubv(4), Value::bits(4, special4), None);
            let one = s.constant(Type::ubv(4), Value::bits(4, 1u8), None);
            let hit = s.mk(ExprKind::Binary(BinOp::Eq, n[0], k), None)?;
            let plus = s.mk(ExprKind::Binary(BinOp::Add, n[0], one), None)?;
            s.mk(ExprKind::Ite(hit, plus, n[0]), None)
        };
        assert_eq!(check(&[], &x4, &ident, &bumped4), Agreement::Differ);
    }

    /// The mutants of `next(w) := w + 0` on a word of `width` bits, as replacement texts,
    /// and the number dropped as equivalent by construction.
    fn plus_zero(width: u32) -> (Vec<String>, usize) {
        let text = format!(
            "MODULE main\nVAR w : unsigned word[{width}];\nASSIGN\n  init(w) := 0ud{width}_1;\n  \
             next(w) := w + 0ud{width}_0;\n"
        );
        let sys = hypermut_smv::parse_smv("w.smv", &text).expect("parses");
        let e = crate::enumeration(&sys, &crate::Operator::ALL);
        assert_eq!(e.mutants, crate::enumerate(&sys, &crate::Operator::ALL));
        let texts = e.mutants.iter().map(|m| m.replacement.clone()).collect();
        (texts, e.dropped_equivalent)
    }

    #[test]
    fn only_an_exhaustive_check_drops_a_mutant() {
        // `w - 0` and `w mod 0` compute `w` (the IR's `x mod 0` is `x`), `w * 0` and `w / 0`
        // do not. 8 bits: checked on all 256 values, the two are dropped and counted.
        let (texts, dropped) = plus_zero(8);
        for t in ["w - 0ud8_0", "w mod 0ud8_0"] {
            assert!(!texts.iter().any(|x| x == t), "{t}: {texts:?}");
        }
        assert!(texts.iter().any(|t| t == "w * 0ud8_0"), "{texts:?}");
        assert_eq!(dropped, 2, "{texts:?}");
        // 16 bits: the same edits are only sampled, so `w - 0` is kept for the prover to
        // decide, and nothing is counted as dropped; `w mod 0` agrees with the kept `w - 0`
        // on the sample and is dropped as its duplicate, not as equivalent.
        let (texts, dropped) = plus_zero(16);
        assert!(texts.iter().any(|x| x == "w - 0ud16_0"), "{texts:?}");
        assert!(!texts.iter().any(|x| x == "w mod 0ud16_0"), "{texts:?}");
        assert_eq!(dropped, 0, "{texts:?}");
    }

    #[test]
    fn one_bit_sum_is_difference() {
        let leaves = [Leaf::Free(Type::ubv(1)), Leaf::Free(Type::ubv(1))];
        assert!(same(&[], &leaves, &bin(BinOp::Add), &bin(BinOp::Sub)));
        assert!(!same(&[], &leaves, &bin(BinOp::Add), &bin(BinOp::Mul)));
        let wide = [Leaf::Free(Type::ubv(32)), Leaf::Free(Type::ubv(32))];
        assert!(!same(&[], &wide, &bin(BinOp::Add), &bin(BinOp::Sub)));
    }

    #[test]
    fn integer_ranges_are_respected() {
        let leaves = [
            Leaf::Free(Type::Int { lo: 0, hi: 7 }),
            Leaf::Const(Type::Int { lo: 8, hi: 8 }, Value::Int(8)),
        ];
        // x mod 8 = x + 0 only because x < 8; x mod 8 vs x - 8 differ.
        assert!(!same(&[], &leaves, &bin(BinOp::Mod), &bin(BinOp::Sub)));
        let wrong = |s: &mut System, _: &[ExprId]| -> Result<ExprId, TypeError> {
            let t = s.bool_const(true, None);
            let one = s.int_const(1, None);
            s.mk(ExprKind::Binary(BinOp::Add, t, one), None)
        };
        assert!(!same(&[], &leaves, &bin(BinOp::Mod), &wrong), "ill-typed");
    }
}
