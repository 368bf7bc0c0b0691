//! Word-level circuit builders: bit vectors of literals (LSB first) and the arithmetic,
//! comparison and shift circuits the bit-blaster composes.
//!
//! Every function takes operands of the widths it documents; callers resize first. All
//! gates go through [`Aig::and`], so constant operands fold away.

use crate::graph::{Aig, Lit};

/// A bit vector of literals, least significant bit first.
pub type Bits = Vec<Lit>;

/// The `w`-bit two's complement pattern of `v` (bits above 127 repeat the sign).
pub fn const_int(v: i128, w: u32) -> Bits {
    (0..w)
        .map(|i| Lit::constant((v >> i.min(127)) & 1 == 1))
        .collect()
}

/// Truncates `a` to `w` bits, or extends it with its sign bit (`signed`) or zeros.
pub fn resize(a: &[Lit], w: u32, signed: bool) -> Bits {
    let w = w as usize;
    let fill = if signed {
        a.last().copied().unwrap_or(Lit::FALSE)
    } else {
        Lit::FALSE
    };
    let mut out: Bits = a.iter().copied().take(w).collect();
    out.resize(w, fill);
    out
}

/// Bitwise complement.
pub fn not(a: &[Lit]) -> Bits {
    a.iter().map(|l| !*l).collect()
}

/// Bitwise combination of two equally wide vectors.
pub fn zip(g: &mut Aig, a: &[Lit], b: &[Lit], f: impl Fn(&mut Aig, Lit, Lit) -> Lit) -> Bits {
    a.iter().zip(b).map(|(x, y)| f(g, *x, *y)).collect()
}

/// Per-bit multiplexer `c ? t : e` over equally wide vectors.
pub fn mux(g: &mut Aig, c: Lit, t: &[Lit], e: &[Lit]) -> Bits {
    t.iter().zip(e).map(|(x, y)| g.ite(c, *x, *y)).collect()
}

/// Disjunction of all bits (false for an empty vector).
pub fn or_reduce(g: &mut Aig, a: &[Lit]) -> Lit {
    g.or_all(a.iter().copied())
}

/// Whether two equally wide vectors are equal.
pub fn eq(g: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    let diffs = zip(g, a, b, Aig::xor);
    !or_reduce(g, &diffs)
}

/// Ripple-carry sum of equally wide vectors with carry-in; returns the sum and carry-out.
pub fn add_carry(g: &mut Aig, a: &[Lit], b: &[Lit], mut carry: Lit) -> (Bits, Lit) {
    let mut sum = Vec::with_capacity(a.len());
    for (x, y) in a.iter().zip(b) {
        let t = g.xor(*x, *y);
        sum.push(g.xor(t, carry));
        let both = g.and(*x, *y);
        let prop = g.and(t, carry);
        carry = g.or(both, prop);
    }
    (sum, carry)
}

/// `a + b` modulo `2^w` (equal widths `w`).
pub fn add(g: &mut Aig, a: &[Lit], b: &[Lit]) -> Bits {
    add_carry(g, a, b, Lit::FALSE).0
}

/// `a - b` modulo `2^w` (equal widths `w`).
pub fn sub(g: &mut Aig, a: &[Lit], b: &[Lit]) -> Bits {
    add_carry(g, a, &not(b), Lit::TRUE).0
}

/// `-a` modulo `2^w`.
pub fn neg(g: &mut Aig, a: &[Lit]) -> Bits {
    let zero = vec![Lit::FALSE; a.len()];
    sub(g, &zero, a)
}

/// `a · b` modulo `2^w` (equal widths `w`): shift-and-add, dropping bits at or above `w`.
pub fn mul(g: &mut Aig, a: &[Lit], b: &[Lit]) -> Bits {
    let w = a.len();
    let mut acc = vec![Lit::FALSE; w];
    for (i, bi) in b.iter().take(w).enumerate() {
        // Partial product (a << i) & b_i, restricted to the bits that survive mod 2^w.
        let hi: Bits = a[..w - i].iter().map(|x| g.and(*x, *bi)).collect();
        let (upper, _) = add_carry(g, &acc[i..], &hi, Lit::FALSE);
        acc.splice(i.., upper);
    }
    acc
}

/// `a <u b` for equally wide vectors.
pub fn ult(g: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    // a < b iff a - b borrows, i.e. a + !b + 1 has no carry-out.
    let (_, carry) = add_carry(g, a, &not(b), Lit::TRUE);
    !carry
}

/// `a <s b` for equally wide two's complement vectors.
pub fn slt(g: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    let flip = |v: &[Lit]| {
        let mut v = v.to_vec();
        if let Some(m) = v.last_mut() {
            *m = !*m;
        }
        v
    };
    ult(g, &flip(a), &flip(b))
}

/// Unsigned quotient and remainder of equally wide vectors by restoring division.
/// Division by zero gives the all-ones quotient and remainder `a` (SMT-LIB `bvudiv`/`bvurem`).
pub fn udivrem(g: &mut Aig, a: &[Lit], b: &[Lit]) -> (Bits, Bits) {
    let w = a.len();
    let b_ext = resize(b, w as u32 + 1, false);
    let mut rem = vec![Lit::FALSE; w + 1];
    let mut q = vec![Lit::FALSE; w];
    for i in (0..w).rev() {
        // rem = (rem << 1) | a_i; the top bit of rem is always 0 before the shift.
        rem.pop();
        rem.insert(0, a[i]);
        let (diff, carry) = add_carry(g, &rem, &not(&b_ext), Lit::TRUE);
        // carry-out set means rem >= b.
        q[i] = carry;
        rem = mux(g, carry, &diff, &rem);
    }
    rem.truncate(w);
    (q, rem)
}

/// `c ? -a : a` modulo `2^w`.
pub fn cond_neg(g: &mut Aig, c: Lit, a: &[Lit]) -> Bits {
    // (a xor c…c) + c
    let flipped: Bits = a.iter().map(|x| g.xor(*x, c)).collect();
    let zero = vec![Lit::FALSE; a.len()];
    add_carry(g, &flipped, &zero, c).0
}

/// Signed quotient and remainder of equally wide two's complement vectors: division of the
/// magnitudes with the quotient negated when the signs differ and the remainder taking the
/// dividend's sign (SMT-LIB `bvsdiv`/`bvsrem`; results modulo `2^w`).
pub fn sdivrem(g: &mut Aig, a: &[Lit], b: &[Lit]) -> (Bits, Bits) {
    let sa = a.last().copied().unwrap_or(Lit::FALSE);
    let sb = b.last().copied().unwrap_or(Lit::FALSE);
    let ma = cond_neg(g, sa, a);
    let mb = cond_neg(g, sb, b);
    let (q, r) = udivrem(g, &ma, &mb);
    let qs = g.xor(sa, sb);
    (cond_neg(g, qs, &q), cond_neg(g, sa, &r))
}

/// How a right shift fills the vacated bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shift {
    /// Left shift, zeros enter at the bottom.
    Left,
    /// Logical right shift, zeros enter at the top.
    Logical,
    /// Arithmetic right shift, copies of the sign bit enter at the top.
    Arithmetic,
}

/// Shifts `a` by the unsigned amount `amt` (any width). Amounts `≥ w` shift every bit out
/// (result 0, or all sign bits for [`Shift::Arithmetic`]).
pub fn shift(g: &mut Aig, a: &[Lit], amt: &[Lit], kind: Shift) -> Bits {
    let w = a.len();
    let fill = match kind {
        Shift::Arithmetic => a.last().copied().unwrap_or(Lit::FALSE),
        _ => Lit::FALSE,
    };
    let mut cur = a.to_vec();
    let mut overflow = Lit::FALSE;
    for (i, bit) in amt.iter().enumerate() {
        let step = if i < usize::BITS as usize - 1 {
            1usize << i
        } else {
            usize::MAX
        };
        if step >= w {
            overflow = g.or(overflow, *bit);
            continue;
        }
        let shifted: Bits = (0..w)
            .map(|j| match kind {
                Shift::Left => j.checked_sub(step).map_or(Lit::FALSE, |s| cur[s]),
                _ => cur.get(j + step).copied().unwrap_or(fill),
            })
            .collect();
        cur = mux(g, *bit, &shifted, &cur);
    }
    let all_out = vec![fill; w];
    mux(g, overflow, &all_out, &cur)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Evaluates combinational literals of an AIG without latches under input values.
    fn eval(g: &Aig, ins: &[bool], lits: &[Lit]) -> Vec<bool> {
        let mut val = vec![false; g.num_vars() as usize];
        for (v, n) in g.nodes().iter().enumerate() {
            val[v] = match n {
                crate::graph::Node::Const => false,
                crate::graph::Node::Input(i) => ins[*i as usize],
                crate::graph::Node::Latch(_) => false,
                crate::graph::Node::And(a, b) => {
                    (val[a.var() as usize] ^ a.is_neg()) && (val[b.var() as usize] ^ b.is_neg())
                }
            };
        }
        lits.iter()
            .map(|l| val[l.var() as usize] ^ l.is_neg())
            .collect()
    }

    fn num(bits: &[bool]) -> u64 {
        bits.iter().rev().fold(0, |acc, b| acc << 1 | *b as u64)
    }

    fn sx(v: u64, w: u32) -> i64 {
        ((v << (64 - w)) as i64) >> (64 - w)
    }

    /// Exhaustively checks every word operation on all pairs of `w`-bit operands against
    /// native arithmetic.
    #[test]
    fn word_ops_match_native_arithmetic() {
        for w in 1..=4u32 {
            let mut g = Aig::new();
            let a: Bits = (0..w).map(|i| g.add_input(format!("a{i}"))).collect();
            let b: Bits = (0..w).map(|i| g.add_input(format!("b{i}"))).collect();
            let ops: Vec<(&str, Bits)> = vec![
                ("add", add(&mut g, &a, &b)),
                ("sub", sub(&mut g, &a, &b)),
                ("mul", mul(&mut g, &a, &b)),
                ("neg", neg(&mut g, &a)),
                ("udiv", udivrem(&mut g, &a, &b).0),
                ("urem", udivrem(&mut g, &a, &b).1),
                ("sdiv", sdivrem(&mut g, &a, &b).0),
                ("srem", sdivrem(&mut g, &a, &b).1),
                ("shl", shift(&mut g, &a, &b, Shift::Left)),
                ("lshr", shift(&mut g, &a, &b, Shift::Logical)),
                ("ashr", shift(&mut g, &a, &b, Shift::Arithmetic)),
                ("ult", vec![ult(&mut g, &a, &b)]),
                ("slt", vec![slt(&mut g, &a, &b)]),
                ("eq", vec![eq(&mut g, &a, &b)]),
            ];
            let m = (1u64 << w) - 1;
            for x in 0..=m {
                for y in 0..=m {
                    let ins: Vec<bool> = (0..w)
                        .map(|i| x >> i & 1 == 1)
                        .chain((0..w).map(|i| y >> i & 1 == 1))
                        .collect();
                    let (sxv, syv) = (sx(x, w), sx(y, w));
                    for (name, bits) in &ops {
                        let got = num(&eval(&g, &ins, bits));
                        let want = match *name {
                            "add" => (x + y) & m,
                            "sub" => x.wrapping_sub(y) & m,
                            "mul" => (x * y) & m,
                            "neg" => x.wrapping_neg() & m,
                            "udiv" => x.checked_div(y).unwrap_or(m),
                            "urem" => x.checked_rem(y).unwrap_or(x),
                            "sdiv" if y == 0 => {
                                if sxv < 0 {
                                    1
                                } else {
                                    m
                                }
                            }
                            "sdiv" => (sxv / syv) as u64 & m,
                            "srem" if y == 0 => x,
                            "srem" => (sxv % syv) as u64 & m,
                            "shl" => (x << y.min(63)) & m,
                            "lshr" => x >> y.min(63),
                            "ashr" => (sxv >> y.min(63)) as u64 & m,
                            "ult" => (x < y) as u64,
                            "slt" => (sxv < syv) as u64,
                            "eq" => (x == y) as u64,
                            _ => unreachable!(),
                        };
                        assert_eq!(got, want, "{name} w={w} x={x} y={y}");
                    }
                }
            }
        }
    }

    #[test]
    fn shift_by_wide_amount_saturates() {
        let mut g = Aig::new();
        let a = const_int(0b1001, 4);
        // amount 16 (bit 4 set) in a 6-bit amount vector
        let amt = const_int(16, 6);
        assert_eq!(shift(&mut g, &a, &amt, Shift::Left), const_int(0, 4));
        assert_eq!(shift(&mut g, &a, &amt, Shift::Arithmetic), const_int(-1, 4));
        assert_eq!(
            shift(&mut g, &a, &const_int(1, 6), Shift::Arithmetic),
            const_int(0b1100, 4)
        );
    }

    #[test]
    fn resize_extends_and_truncates() {
        let v = const_int(-3, 3);
        assert_eq!(resize(&v, 5, true), const_int(-3, 5));
        assert_eq!(resize(&v, 5, false), const_int(0b101, 5));
        assert_eq!(resize(&v, 2, true), const_int(1, 2));
    }
}
