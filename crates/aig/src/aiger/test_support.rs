//! Helpers for tests: the shared corpus, external tools, and simulation comparisons.

use std::path::{Path, PathBuf};

use crate::sim::simulate;
use crate::Aig;

/// `shared/` next to the repository, or `None` (with a message) when it is absent.
pub(crate) fn shared_dir() -> Option<PathBuf> {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared"));
    if dir.is_dir() {
        Some(dir.to_path_buf())
    } else {
        eprintln!("skipping: shared corpus not found at {}", dir.display());
        None
    }
}

/// All `.aag` / `.aig` files below `shared/corpus/aiger/<sub>`, sorted; empty (with a
/// message) when the corpus is absent.
pub(crate) fn corpus_files(sub: &str) -> Vec<PathBuf> {
    let Some(shared) = shared_dir() else {
        return Vec::new();
    };
    let root = shared.join("corpus/aiger").join(sub);
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if matches!(p.extension().and_then(|x| x.to_str()), Some("aag" | "aig")) {
                out.push(p);
            }
        }
    }
    out.sort();
    if out.is_empty() {
        eprintln!("skipping: no AIGER files under shared/corpus/aiger/{sub}");
    }
    out
}

/// The full path of `name` on `PATH`, or `None` (with a message).
pub(crate) fn tool(name: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        eprintln!("skipping: `{name}` is not on PATH");
    }
    found
}

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
