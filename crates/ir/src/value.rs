//! Concrete values, as computed by the interpreter.

use num_bigint::{BigInt, BigUint};
use num_traits::{One, ToPrimitive, Zero};
use serde::{Deserialize, Serialize};

use crate::types::{EnumType, Type};

/// A concrete value of some [`Type`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Value {
    /// Boolean.
    Bool(bool),
    /// Bit-vector: `bits` is the unsigned pattern, always `< 2^width`.
    Bits {
        /// Width in bits.
        width: u32,
        /// The bit pattern as an unsigned number.
        bits: BigUint,
    },
    /// Mathematical integer.
    Int(i64),
    /// Index into an enumeration's values.
    Enum(u32),
}

impl Value {
    /// The bit-vector `bits mod 2^width`.
    pub fn bits(width: u32, bits: impl Into<BigUint>) -> Value {
        let bits: BigUint = bits.into();
        Value::Bits {
            width,
            bits: bits & mask(width),
        }
    }

    /// The bit-vector holding `v mod 2^width` (two's complement for negative `v`).
    pub fn bits_from_int(width: u32, v: &BigInt) -> Value {
        let m = BigInt::from(BigUint::one() << width);
        let mut r = v % &m;
        if r < BigInt::zero() {
            r += &m;
        }
        Value::Bits {
            width,
            bits: r.to_biguint().unwrap_or_default(),
        }
    }

    /// The boolean inside, if any.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The integer inside, if any.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The value as a number under `ty`'s interpretation (two's complement for signed
    /// bit-vectors, index for enums, 0/1 for booleans).
    pub fn to_bigint(&self, ty: Type) -> BigInt {
        match self {
            Value::Bool(b) => BigInt::from(*b as u8),
            Value::Int(i) => BigInt::from(*i),
            Value::Enum(e) => BigInt::from(*e),
            Value::Bits { width, bits } => {
                let signed = matches!(ty, Type::BitVec { signed: true, .. });
                if signed && *width > 0 && bits.bit(*width as u64 - 1) {
                    BigInt::from(bits.clone()) - BigInt::from(BigUint::one() << *width)
                } else {
                    BigInt::from(bits.clone())
                }
            }
        }
    }

    /// Bit `i` (LSB = 0) of the value's storage pattern under the standard encoding of `ty`
    /// (the one the bit-blaster uses: offset binary `v - lo` for `Int`, index for `Enum`).
    pub fn storage_bit(&self, ty: Type, i: u32) -> bool {
        match (self, ty) {
            (Value::Bool(b), _) => i == 0 && *b,
            (Value::Bits { bits, .. }, _) => bits.bit(i as u64),
            (Value::Enum(e), _) => i < 32 && (e >> i) & 1 == 1,
            (Value::Int(v), Type::Int { lo, .. }) => {
                let off = (*v as i128 - lo as i128) as u128;
                i < 128 && (off >> i) & 1 == 1
            }
            (Value::Int(v), _) => i < 64 && (*v >> i.min(63)) & 1 == 1,
        }
    }

    /// Decodes a storage bit pattern (LSB first) into a value of type `ty`.
    pub fn from_storage_bits(ty: Type, bits: &[bool]) -> Value {
        let mut n = BigUint::zero();
        for (i, b) in bits.iter().enumerate() {
            if *b {
                n.set_bit(i as u64, true);
            }
        }
        match ty {
            Type::Bool => Value::Bool(bits.first().copied().unwrap_or(false)),
            Type::BitVec { width, .. } => Value::bits(width, n),
            Type::Enum(_) => Value::Enum(n.to_u32().unwrap_or(u32::MAX)),
            Type::Int { lo, .. } => Value::Int(
                (lo as i128 + n.to_i128().unwrap_or(i128::MAX))
                    .clamp(i64::MIN as i128, i64::MAX as i128) as i64,
            ),
        }
    }

    /// Whether the value is a member of type `ty`.
    pub fn fits(&self, ty: Type, enums: &[EnumType]) -> bool {
        match (self, ty) {
            (Value::Bool(_), Type::Bool) => true,
            (Value::Bits { width, .. }, Type::BitVec { width: w, .. }) => *width == w,
            (Value::Int(v), Type::Int { lo, hi }) => lo <= *v && *v <= hi,
            (Value::Enum(e), Type::Enum(id)) => enums
                .get(id.0 as usize)
                .is_some_and(|t| (*e as usize) < t.values.len()),
            _ => false,
        }
    }

    /// Renders the value the way the source language would write it.
    pub fn display(&self, ty: Type, enums: &[EnumType]) -> String {
        match (self, ty) {
            (Value::Bool(b), _) => if *b { "TRUE" } else { "FALSE" }.into(),
            (Value::Int(i), _) => i.to_string(),
            (Value::Enum(e), Type::Enum(id)) => enums
                .get(id.0 as usize)
                .and_then(|t| t.values.get(*e as usize))
                .cloned()
                .unwrap_or_else(|| format!("#{e}")),
            (Value::Enum(e), _) => format!("#{e}"),
            (Value::Bits { width, .. }, _) => {
                let signed = matches!(ty, Type::BitVec { signed: true, .. });
                format!(
                    "0{}d{width}_{}",
                    if signed { "s" } else { "u" },
                    self.to_bigint(ty)
                )
            }
        }
    }
}

/// `2^width - 1`.
pub fn mask(width: u32) -> BigUint {
    (BigUint::one() << width) - BigUint::one()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_interpretation() {
        let v = Value::bits(4, 0b1110u32);
        assert_eq!(v.to_bigint(Type::sbv(4)), BigInt::from(-2));
        assert_eq!(v.to_bigint(Type::ubv(4)), BigInt::from(14));
        assert_eq!(Value::bits_from_int(4, &BigInt::from(-2)), v);
    }

    #[test]
    fn storage_round_trip_int() {
        let ty = Type::Int { lo: -3, hi: 4 };
        for v in -3..=4 {
            let bits: Vec<bool> = (0..3).map(|i| Value::Int(v).storage_bit(ty, i)).collect();
            assert_eq!(Value::from_storage_bits(ty, &bits), Value::Int(v));
        }
    }
}
