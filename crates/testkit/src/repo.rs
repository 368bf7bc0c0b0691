//! The repository and its bundled models.

use std::path::{Path, PathBuf};

/// The repository root (the folder holding `crates/`, `models/` and `tests/`).
pub fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .canonicalize()
        .unwrap_or_else(|_| Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).into())
}

/// A file of the repository, by its path relative to the root (e.g. `models/smv/counter.smv`).
pub fn path(rel: &str) -> PathBuf {
    root().join(rel)
}

/// The text of a bundled model below `models/` (e.g. `smv/counter.smv`), or `None` (with a
/// `SKIPPED` message) when it cannot be read.
pub fn model_text(rel: &str) -> Option<String> {
    let p = root().join("models").join(rel);
    match std::fs::read_to_string(&p) {
        Ok(text) => Some(text),
        Err(e) => {
            eprintln!("SKIPPED: models/{rel} not found ({e})");
            None
        }
    }
}
