//! Types of IR expressions and variables.

use serde::{Deserialize, Serialize};

/// Index of an enumeration in [`crate::System::enums`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct EnumId(pub u32);

/// A named finite set of symbolic values.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EnumType {
    /// Name for diagnostics (front-ends may synthesise one, e.g. the variable name).
    pub name: String,
    /// The symbolic values, in declaration order; a value is its index here.
    pub values: Vec<String>,
}

impl EnumType {
    /// Index of a symbolic value.
    pub fn index_of(&self, value: &str) -> Option<u32> {
        self.values
            .iter()
            .position(|v| v == value)
            .map(|i| i as u32)
    }
}

/// The type of an expression or variable.
///
/// `Int` is a mathematical integer known to lie in `lo..=hi` (SMV ranges and the results of
/// arithmetic on them); `BitVec` wraps modulo `2^width` (SMV words, Verilog vectors).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Type {
    /// Boolean.
    Bool,
    /// Bit-vector of `width ≥ 1` bits, two's complement when `signed`.
    BitVec {
        /// Number of bits.
        width: u32,
        /// Whether comparisons, shifts, division and extension treat it as signed.
        signed: bool,
    },
    /// Value of an enumeration.
    Enum(EnumId),
    /// Integer in the closed range `lo..=hi`.
    Int {
        /// Smallest value.
        lo: i64,
        /// Largest value.
        hi: i64,
    },
}

/// A type error found while building an expression.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TypeError {
    /// The operands of an operator have incompatible types.
    #[error("operator `{op}` cannot be applied to {found}")]
    Operands {
        /// Operator name.
        op: String,
        /// Description of the operand types.
        found: String,
    },
    /// A bit-select or width is out of bounds.
    #[error("{0}")]
    Width(String),
    /// An integer range overflowed the 64-bit bounds hypermut supports.
    #[error("integer range overflows 64 bits")]
    Overflow,
}

impl Type {
    /// An unsigned bit-vector type.
    pub fn ubv(width: u32) -> Type {
        Type::BitVec {
            width,
            signed: false,
        }
    }

    /// A signed bit-vector type.
    pub fn sbv(width: u32) -> Type {
        Type::BitVec {
            width,
            signed: true,
        }
    }

    /// Whether this is `Bool`.
    pub fn is_bool(self) -> bool {
        matches!(self, Type::Bool)
    }

    /// Whether this is `Int`.
    pub fn is_int(self) -> bool {
        matches!(self, Type::Int { .. })
    }

    /// Width of a bit-vector type.
    pub fn bv_width(self) -> Option<u32> {
        match self {
            Type::BitVec { width, .. } => Some(width),
            _ => None,
        }
    }

    /// Number of distinct values of a finite type whose values are all allowed (`None` for
    /// bit-vectors wider than 63 bits).
    pub fn cardinality(self, enums: &[EnumType]) -> Option<u64> {
        match self {
            Type::Bool => Some(2),
            Type::BitVec { width, .. } => (width < 64).then(|| 1u64 << width),
            Type::Enum(e) => enums.get(e.0 as usize).map(|e| e.values.len() as u64),
            Type::Int { lo, hi } => u64::try_from(hi as i128 - lo as i128 + 1).ok(),
        }
    }

    /// Human-readable type name.
    pub fn describe(self, enums: &[EnumType]) -> String {
        match self {
            Type::Bool => "boolean".into(),
            Type::BitVec { width, signed } => {
                format!(
                    "{} word[{width}]",
                    if signed { "signed" } else { "unsigned" }
                )
            }
            Type::Enum(e) => match enums.get(e.0 as usize) {
                Some(t) => format!("{{{}}}", t.values.join(", ")),
                None => "enum".into(),
            },
            Type::Int { lo, hi } => format!("{lo}..{hi}"),
        }
    }
}

/// Number of bits needed to store `n ≥ 1` distinct codes (at least 1).
pub fn bits_for(n: u64) -> u32 {
    if n <= 2 {
        1
    } else {
        64 - (n - 1).leading_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_for_counts() {
        assert_eq!(bits_for(1), 1);
        assert_eq!(bits_for(2), 1);
        assert_eq!(bits_for(3), 2);
        assert_eq!(bits_for(4), 2);
        assert_eq!(bits_for(5), 3);
        assert_eq!(bits_for(256), 8);
        assert_eq!(bits_for(257), 9);
    }

    #[test]
    fn cardinality_of_range() {
        assert_eq!(Type::Int { lo: -2, hi: 2 }.cardinality(&[]), Some(5));
        assert_eq!(Type::ubv(3).cardinality(&[]), Some(8));
    }
}
