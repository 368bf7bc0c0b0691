//! Truth tables of functions of up to six variables in one `u64` (bit `m` is the value on
//! minterm `m`, variable `i` is bit `i` of `m`). A function of fewer variables is the same
//! table with the unused variables ignored, so every table is a full 64-bit word.

/// A truth table over at most [`MAX_VARS`] variables.
pub type Tt = u64;

/// Most variables a [`Tt`] holds.
pub const MAX_VARS: usize = 6;

/// The table of variable `i` (`i < MAX_VARS`).
pub const VARS: [Tt; MAX_VARS] = [
    0xAAAA_AAAA_AAAA_AAAA,
    0xCCCC_CCCC_CCCC_CCCC,
    0xF0F0_F0F0_F0F0_F0F0,
    0xFF00_FF00_FF00_FF00,
    0xFFFF_0000_FFFF_0000,
    0xFFFF_FFFF_0000_0000,
];

/// The cofactor of `t` with variable `i` set to 0 (as a table that ignores `i`).
pub fn cof0(t: Tt, i: usize) -> Tt {
    let s = 1u32 << i;
    let lo = t & !VARS[i];
    lo | (lo << s)
}

/// The cofactor of `t` with variable `i` set to 1 (as a table that ignores `i`).
pub fn cof1(t: Tt, i: usize) -> Tt {
    let s = 1u32 << i;
    let hi = t & VARS[i];
    hi | (hi >> s)
}

/// Whether `t` depends on variable `i`.
pub fn depends(t: Tt, i: usize) -> bool {
    cof0(t, i) != cof1(t, i)
}

/// The variables `t` depends on, as a bit mask.
pub fn support(t: Tt) -> u32 {
    (0..MAX_VARS)
        .filter(|&i| depends(t, i))
        .fold(0, |m, i| m | 1 << i)
}

/// `∃ vars . t` for the variables in the bit mask `vars`.
pub fn exists(t: Tt, vars: u32) -> Tt {
    (0..MAX_VARS)
        .filter(|i| vars >> i & 1 == 1)
        .fold(t, |t, i| cof0(t, i) | cof1(t, i))
}

/// `t` with the variables of the bit mask `vars` set to 0.
pub fn zero_cofactor(t: Tt, vars: u32) -> Tt {
    (0..MAX_VARS).filter(|i| vars >> i & 1 == 1).fold(t, cof0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of `t` on the assignment `m` read bit by bit, against direct evaluation.
    #[test]
    fn cofactors_fix_one_variable() {
        let t: Tt = 0x1234_5678_9abc_def0;
        for i in 0..MAX_VARS {
            for m in 0..64u32 {
                let bit = |t: Tt, m: u32| t >> m & 1 == 1;
                assert_eq!(bit(cof0(t, i), m), bit(t, m & !(1 << i)), "cof0 {i} {m}");
                assert_eq!(bit(cof1(t, i), m), bit(t, m | 1 << i), "cof1 {i} {m}");
            }
        }
    }

    #[test]
    fn support_and_quantification() {
        let f = VARS[0] & (VARS[2] | !VARS[5]);
        assert_eq!(support(f), 0b100101);
        assert_eq!(exists(f, 0b1), VARS[2] | !VARS[5]);
        assert_eq!(zero_cofactor(f, 0b100), VARS[0] & !VARS[5]);
        assert_eq!(support(VARS[3] ^ VARS[3]), 0);
    }
}
