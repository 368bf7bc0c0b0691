//! Helpers for tests: reading corpus files and simulation comparisons (the corpus itself
//! and the external tools are found with `hypermut-testkit`).

use std::path::Path;

use crate::sim::simulate;
use crate::Aig;

/// Reads a corpus file with our reader, panicking with the error (test helper).
pub(crate) fn read_file(path: &Path) -> Aig {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    crate::aiger::read_aiger(&bytes, &path.display().to_string()).unwrap_or_else(|e| panic!("{e}"))
}

/// Deterministic pseudo-random bits for stimuli.
pub(crate) fn stimuli(seed: u64, frames: usize, width: usize) -> Vec<Vec<Option<bool>>> {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..frames)
        .map(|_| {
            (0..width)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    Some(x >> 63 == 1)
                })
                .collect()
        })
        .collect()
}

/// Whether `a` and `b` (same interface) agree on outputs, properties, constraints and latch
/// values under the same random stimuli and random initial values.
pub(crate) fn same_behaviour(a: &Aig, b: &Aig, frames: usize, seed: u64) -> bool {
    let init = stimuli(seed ^ 0x5555, 1, a.latches.len()).remove(0);
    let inputs = stimuli(seed, frames, a.inputs.len());
    let (ta, tb) = (simulate(a, &init, &inputs), simulate(b, &init, &inputs));
    ta == tb
}
