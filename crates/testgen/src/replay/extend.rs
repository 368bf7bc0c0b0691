//! Pooled tests continued past their end (`docs/method.md` §7.8, "continued tests"): the
//! pool's tests as input sequences of a mutant's product, for
//! [`hypermut_aig::continued::continued_witness`] (before a later try's engines here, and in
//! the schedule's continuation stage of a first try).

use hypermut_aig::continued::continued_witness;
use hypermut_aig::{Aig, Witness};

use super::{witness, Mapping, TestPool};

/// Most pooled tests continued (the strongest first, as the pool orders them).
pub const CONTINUED_TESTS: usize = 256;

/// Seed of the continuations' random stimuli.
const SEED: u64 = 0xc07e57;

impl TestPool {
    /// The first [`CONTINUED_TESTS`] pooled tests (strongest class first) as input sequences
    /// of `product`, each whole (inputs and power-up values the test does not name are 0).
    pub fn prefixes(&self, product: &Aig) -> Vec<Witness> {
        let (tests, map) = {
            let pool = self.lock();
            let n = pool.tests.len().min(CONTINUED_TESTS);
            (pool.tests[..n].to_vec(), Mapping::new(&pool, product))
        };
        tests
            .iter()
            .filter(|t| !t.frames.is_empty())
            .map(|t| witness(product, &map, t, t.frames.len() - 1))
            .collect()
    }

    /// A counterexample of `product` (its first bad property) from a pooled test continued
    /// past its end with its last input values held ([`continued_witness`]), each run at
    /// most `max_frames` frames with every constraint held: the shortest hit, or `None`.
    pub fn continued(&self, product: &Aig, max_frames: usize) -> Option<Witness> {
        continued_witness(product, &self.prefixes(product), max_frames, SEED)
    }
}
