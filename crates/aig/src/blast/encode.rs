//! Bit encodings of IR types.
//!
//! * **Expression representation**: `Bool` 1 bit; `BitVec{w}` its `w` bits; `Enum` the
//!   value's index in `bits_for(n)` bits; `Int{lo,hi}` two's complement just wide enough for
//!   every value of `lo..=hi`.
//! * **Storage representation** (inputs and latches): as above, except `Int{lo,hi}` is the
//!   offset `v - lo` in `bits_for(hi - lo + 1)` bits.

use hypermut_ir::{EnumType, Type, Value};

use super::words::{self, Bits};
use crate::graph::{Aig, Lit};

/// Widest vector the bit-blaster builds; larger types are rejected rather than exhausting
/// memory.
pub const MAX_WIDTH: u32 = 1 << 16;

/// Which encoding a bit pattern uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repr {
    /// How inputs and latches store a variable (offset binary for `Int`).
    Storage,
    /// How expressions and outputs carry a value (two's complement for `Int`).
    Expr,
}

/// Bit widths of a type in both encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Width of the expression representation.
    pub expr: u32,
    /// Width of the storage representation.
    pub storage: u32,
}

/// Number of two's complement bits needed to hold `v` (at least 1).
pub fn signed_width(v: i64) -> u32 {
    let mag = if v < 0 { !v } else { v };
    65 - mag.leading_zeros()
}

/// Number of bits needed for `n` distinct codes (at least 1).
fn code_bits(n: u128) -> u32 {
    if n <= 2 {
        1
    } else {
        128 - (n - 1).leading_zeros()
    }
}

/// Number of codes of a type whose storage has spare codes: `Some(n)` when `n < 2^storage`.
pub fn spare_codes_below(ty: Type, enums: &[EnumType]) -> Option<u128> {
    let n = match ty {
        Type::Int { lo, hi } => (hi as i128 - lo as i128 + 1) as u128,
        Type::Enum(e) => enums.get(e.0 as usize)?.values.len() as u128,
        Type::Bool | Type::BitVec { .. } => return None,
    };
    let s = code_bits(n);
    (s < 128 && n < 1u128 << s).then_some(n)
}

/// Widths of `ty`, or why it cannot be encoded.
pub fn layout(ty: Type, enums: &[EnumType]) -> Result<Layout, String> {
    let same = |w: u32| Layout {
        expr: w,
        storage: w,
    };
    let l = match ty {
        Type::Bool => same(1),
        Type::BitVec { width: 0, .. } => return Err("bit-vector of width 0".into()),
        Type::BitVec { width, .. } => same(width),
        Type::Enum(e) => match enums.get(e.0 as usize) {
            None => return Err(format!("unknown enumeration #{}", e.0)),
            Some(t) if t.values.is_empty() => {
                return Err(format!("enumeration `{}` has no values", t.name))
            }
            Some(t) => same(code_bits(t.values.len() as u128)),
        },
        Type::Int { lo, hi } if lo > hi => return Err(format!("empty integer range {lo}..{hi}")),
        Type::Int { lo, hi } => Layout {
            expr: signed_width(lo).max(signed_width(hi)),
            storage: code_bits((hi as i128 - lo as i128 + 1) as u128),
        },
    };
    if l.expr > MAX_WIDTH {
        return Err(format!(
            "width {} exceeds the supported {MAX_WIDTH} bits",
            l.expr
        ));
    }
    Ok(l)
}

/// The expression representation of constant `v` of type `ty`, or why it does not fit.
pub fn const_bits(v: &Value, ty: Type, enums: &[EnumType], width: u32) -> Result<Bits, String> {
    let ok = match (v, ty) {
        (Value::Int(x), Type::Int { lo, hi }) => {
            if lo <= *x && *x <= hi {
                return Ok(words::const_int(*x as i128, width));
            }
            false
        }
        _ => v.fits(ty, enums),
    };
    if !ok {
        return Err(format!(
            "constant {} does not belong to its type {}",
            v.display(ty, enums),
            ty.describe(enums)
        ));
    }
    Ok((0..width)
        .map(|i| Lit::constant(v.storage_bit(ty, i)))
        .collect())
}

/// Converts a variable's storage bits to the expression representation of its type.
pub fn storage_to_expr(g: &mut Aig, ty: Type, lay: Layout, storage: &[Lit]) -> Bits {
    match ty {
        Type::Int { lo, .. } => {
            let w = (lay.storage + 1).max(signed_width(lo)) + 1;
            let code = words::resize(storage, w, false);
            let sum = words::add(g, &code, &words::const_int(lo as i128, w));
            words::resize(&sum, lay.expr, true)
        }
        _ => storage.to_vec(),
    }
}

/// Converts the expression bits `bits` of type `src` (assigned to a variable of type `ty`)
/// to the variable's storage: `v - lo` truncated for `Int`, unchanged otherwise.
pub fn expr_to_storage(g: &mut Aig, ty: Type, lay: Layout, bits: &[Lit]) -> Bits {
    match ty {
        Type::Int { lo, .. } => {
            let w = (bits.len() as u32).max(signed_width(lo)) + 1;
            let v = words::resize(bits, w, true);
            let d = words::sub(g, &v, &words::const_int(lo as i128, w));
            words::resize(&d, lay.storage, false)
        }
        _ => words::resize(bits, lay.storage, false),
    }
}

/// Decodes a bit pattern (LSB first) of type `ty` in the given representation. Expression
/// bits of an `Int` are read as two's complement (saturating at the `i64` bounds).
pub fn decode(ty: Type, bits: &[bool], repr: Repr) -> Value {
    match (ty, repr) {
        (Type::Int { .. }, Repr::Expr) => {
            let sign = bits.last().copied().unwrap_or(false);
            let v = (0..128).rev().fold(0i128, |acc, i| {
                acc << 1 | bits.get(i).copied().unwrap_or(sign) as i128
            });
            Value::Int(v.clamp(i64::MIN as i128, i64::MAX as i128) as i64)
        }
        _ => Value::from_storage_bits(ty, bits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_const(bits: &[Lit]) -> Vec<bool> {
        bits.iter()
            .map(|l| {
                assert!(l.is_const(), "constant operands must fold");
                *l == Lit::TRUE
            })
            .collect()
    }

    #[test]
    fn signed_widths() {
        assert_eq!(signed_width(0), 1);
        assert_eq!(signed_width(-1), 1);
        assert_eq!(signed_width(1), 2);
        assert_eq!(signed_width(-2), 2);
        assert_eq!(signed_width(127), 8);
        assert_eq!(signed_width(-128), 8);
        assert_eq!(signed_width(128), 9);
        assert_eq!(signed_width(i64::MIN), 64);
        assert_eq!(signed_width(i64::MAX), 64);
    }

    #[test]
    fn layouts() {
        let l = layout(Type::Int { lo: -3, hi: 4 }, &[]).unwrap();
        assert_eq!((l.expr, l.storage), (4, 3));
        let l = layout(Type::Int { lo: 10, hi: 10 }, &[]).unwrap();
        assert_eq!((l.expr, l.storage), (5, 1));
        let full = layout(
            Type::Int {
                lo: i64::MIN,
                hi: i64::MAX,
            },
            &[],
        )
        .unwrap();
        assert_eq!((full.expr, full.storage), (64, 64));
        assert!(layout(Type::ubv(0), &[]).is_err());
        assert!(layout(Type::Int { lo: 1, hi: 0 }, &[]).is_err());
        assert!(layout(Type::Enum(hypermut_ir::EnumId(0)), &[]).is_err());
    }

    #[test]
    fn spare_codes() {
        assert_eq!(spare_codes_below(Type::Int { lo: 0, hi: 2 }, &[]), Some(3));
        assert_eq!(spare_codes_below(Type::Int { lo: -2, hi: 1 }, &[]), None);
        assert_eq!(spare_codes_below(Type::Int { lo: 5, hi: 5 }, &[]), Some(1));
        assert_eq!(spare_codes_below(Type::Bool, &[]), None);
        assert_eq!(
            spare_codes_below(
                Type::Int {
                    lo: i64::MIN,
                    hi: i64::MAX
                },
                &[]
            ),
            None
        );
    }

    /// Storage and expression conversions agree with `Value::storage_bit` and `decode` on
    /// every value of a few ranges (constant inputs fold, so no evaluator is needed).
    #[test]
    fn int_conversions_round_trip() {
        for (lo, hi) in [(-3, 4), (0, 2), (5, 9), (-9, -5), (-1, 0), (7, 7)] {
            let ty = Type::Int { lo, hi };
            let lay = layout(ty, &[]).unwrap();
            let mut g = Aig::new();
            for v in lo..=hi {
                let storage: Bits = (0..lay.storage)
                    .map(|i| Lit::constant(Value::Int(v).storage_bit(ty, i)))
                    .collect();
                let e = eval_const(&storage_to_expr(&mut g, ty, lay, &storage));
                assert_eq!(decode(ty, &e, Repr::Expr), Value::Int(v), "{lo}..{hi}: {v}");
                let expr = words::const_int(v as i128, lay.expr);
                let back = eval_const(&expr_to_storage(&mut g, ty, lay, &expr));
                assert_eq!(decode(ty, &back, Repr::Storage), Value::Int(v));
            }
            assert_eq!(g.num_ands(), 0);
        }
    }

    #[test]
    fn constants_are_checked() {
        let ty = Type::Int { lo: 0, hi: 2 };
        assert!(const_bits(&Value::Int(5), ty, &[], 3).is_err());
        assert_eq!(
            const_bits(&Value::Int(-2), Type::Int { lo: -2, hi: 0 }, &[], 2).unwrap(),
            vec![Lit::FALSE, Lit::TRUE]
        );
        assert!(const_bits(&Value::Bool(true), Type::ubv(1), &[], 1).is_err());
        assert!(const_bits(&Value::bits(3, 5u32), Type::ubv(4), &[], 4).is_err());
    }
}
