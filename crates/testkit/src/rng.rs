//! The small seeded generators the tests draw from. There are two so that every existing
//! seed keeps giving the stream its tests were written with: [`SplitMix64`] (the generator
//! of `hypermut-mutate`'s sampling) and [`XorShift64`] (Marsaglia's xorshift).

/// The SplitMix64 generator (Steele, Lea, Flood 2014), the same stream as
/// `hypermut_mutate::SplitMix64` for a given seed.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started at `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 pseudo-random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value in `0..n` without modulo bias (0 when `n <= 1`).
    pub fn below(&mut self, n: u64) -> u64 {
        if n <= 1 {
            return 0;
        }
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }
}

/// One step of Marsaglia's xorshift (13, 7, 17) on `state`; returns the new state.
pub(crate) fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Marsaglia's 64-bit xorshift generator (13, 7, 17).
#[derive(Clone, Debug)]
pub struct XorShift64(u64);

impl XorShift64 {
    /// A generator from a seed: the state starts at `seed · φ·2⁶⁴ | 1` (never zero).
    pub fn new(seed: u64) -> Self {
        XorShift64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A generator whose state starts exactly at `state` (which must not be zero).
    pub fn from_state(state: u64) -> Self {
        XorShift64(state)
    }

    /// The next pseudo-random number (the new state).
    pub fn next_u64(&mut self) -> u64 {
        xorshift(&mut self.0)
    }

    /// A number below `n` (`n > 0`), by remainder.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A coin flip.
    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // First outputs for seed 0 of the reference implementation (Vigna's splitmix64.c).
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(g.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(g.below(1), 0);
        assert!((0..100).all(|_| g.below(7) < 7));
    }

    #[test]
    fn xorshift_steps() {
        let mut g = XorShift64::from_state(1);
        // 1 → 1 ^ 1<<13 = 8193; ^ >>7 = 8193 ^ 64 = 8257; ^ <<17.
        assert_eq!(g.next_u64(), 8257 ^ (8257 << 17));
        let (mut a, mut b) = (XorShift64::new(5), XorShift64::new(5));
        assert_eq!(a.next_u64(), b.next_u64());
        assert!((0..100).all(|_| a.below(3) < 3));
    }
}
