//! The shared corpus, which lives outside the repository: `../shared/corpus` next to it, or
//! `$HYPERMUT_SHARED_DIR/corpus`. Tests that need it are skipped (they print `SKIPPED: …` and
//! pass) when it is absent.

use std::path::{Path, PathBuf};

/// The design list of the Verilog corpus (`name | top | files`), kept in the repository.
const VERILOG_DESIGNS: &str = include_str!("../../../tests/data/verilog/corpus-designs.txt");

/// The `shared` folder (`$HYPERMUT_SHARED_DIR`, else `shared` next to the repository),
/// canonical so that paths in messages stay short; `None` when it does not exist. Prints
/// nothing: see [`dir`] for the usual skip message.
pub fn shared_dir() -> Option<PathBuf> {
    let base = std::env::var_os("HYPERMUT_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared")).into()
        });
    base.canonicalize().ok().filter(|d| d.is_dir())
}

/// The corpus folder `corpus/<sub>` (`sub` may be empty or nested, e.g. `smv` or
/// `aiger/aiger-examples`); when it is absent, prints that the calling test is skipped and
/// returns `None`.
pub fn dir(sub: &str) -> Option<PathBuf> {
    let found = shared_dir()
        .map(|s| s.join("corpus").join(sub))
        .filter(|d| d.is_dir());
    if found.is_none() {
        let shown = if sub.is_empty() {
            "../shared/corpus".to_string()
        } else {
            format!("../shared/corpus/{sub}")
        };
        eprintln!("SKIPPED: the shared corpus ({shown}) is not available");
    }
    found
}

/// Every file below `dir` (recursively) whose extension is one of `exts`, sorted; empty when
/// `dir` cannot be read.
pub fn files(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| exts.contains(&x))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// All `.aag` / `.aig` files below `corpus/aiger/<sub>`, sorted; empty (with a `SKIPPED`
/// message) when there are none.
pub fn aiger_files(sub: &str) -> Vec<PathBuf> {
    let found = shared_dir()
        .map(|s| files(&s.join("corpus/aiger").join(sub), &["aag", "aig"]))
        .unwrap_or_default();
    if found.is_empty() {
        eprintln!("SKIPPED: no AIGER files under ../shared/corpus/aiger/{sub}");
    }
    found
}

/// One design of the Verilog corpus list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Design {
    /// The name the tests and scripts use for it.
    pub name: String,
    /// Its top module.
    pub top: String,
    /// Its files, relative to `corpus/verilog`.
    pub files: Vec<String>,
}

impl Design {
    /// The design's files below the corpus folder `dir` (as [`dir`]`("verilog")` returns).
    pub fn paths(&self, dir: &Path) -> Vec<PathBuf> {
        self.files.iter().map(|f| dir.join(f)).collect()
    }
}

/// The designs of `tests/data/verilog/corpus-designs.txt`, in its order (blank lines and
/// `#` comments skipped). Panics on a malformed line: the list is part of the repository.
pub fn verilog_designs() -> Vec<Design> {
    VERILOG_DESIGNS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let [name, top, files] = fields.as_slice() else {
                panic!("malformed design line `{line}`");
            };
            Design {
                name: name.to_string(),
                top: top.to_string(),
                files: files.split_whitespace().map(String::from).collect(),
            }
        })
        .collect()
}

/// The design called `name` in the list.
pub fn verilog_design(name: &str) -> Option<Design> {
    verilog_designs().into_iter().find(|d| d.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_design_list_parses() {
        let designs = verilog_designs();
        assert!(designs.len() > 50, "{}", designs.len());
        assert!(designs
            .iter()
            .all(|d| !d.top.is_empty() && !d.files.is_empty()));
        assert!(verilog_design("s27").is_some());
    }

    #[test]
    fn files_are_found_recursively_and_sorted() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let found = files(&src, &["rs"]);
        assert!(found.iter().any(|p| p.ends_with("corpus.rs")));
        let mut sorted = found.clone();
        sorted.sort();
        assert_eq!(found, sorted);
        assert!(files(&src.join("no such folder"), &["rs"]).is_empty());
    }
}
