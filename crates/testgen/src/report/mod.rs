//! Reports of a run for people and tools (`docs/formats.md` §13): a self-contained HTML page
//! with the summary, Tables 3 and 4 of the model, the source files with every mutant marked
//! and a section per mutant ([`html`]), and the mutation coverage per line as an lcov
//! tracefile for `genhtml` and coverage viewers ([`lcov`]). [`place`] puts the records of a
//! results directory into the model's source files, [`segment`] splits overlapping mutants
//! into non-overlapping pieces of text.

pub mod escape;
pub mod html;
pub mod lcov;
pub mod place;
pub mod segment;

use std::path::{Component, Path, PathBuf};

pub use place::{place, Mark, Placed, ShownFile, Status};

use crate::decide::original_ands;
use crate::error::{Error, Result};
use crate::load::Model;
use crate::record::Summary;
use crate::store::write_atomic;
use crate::table::model_row;

/// Where a report goes: the HTML page and the lcov tracefile, each optional.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReportFiles {
    /// The HTML page.
    pub html: Option<PathBuf>,
    /// The lcov tracefile.
    pub lcov: Option<PathBuf>,
}

impl ReportFiles {
    /// The files of the command line's `--report HTML` and `--lcov FILE`: the tracefile goes
    /// where `--lcov` says, else next to the HTML page with the extension `.info`
    /// (`report.html` → `report.info`); `--lcov` alone writes only the tracefile.
    pub fn from_options(html: Option<&Path>, lcov: Option<&Path>) -> ReportFiles {
        ReportFiles {
            html: html.map(Path::to_path_buf),
            lcov: lcov
                .map(Path::to_path_buf)
                .or_else(|| html.map(|h| h.with_extension("info"))),
        }
    }

    /// Whether nothing is to be written.
    pub fn is_empty(&self) -> bool {
        self.html.is_none() && self.lcov.is_none()
    }
}

/// Reads `summary.json` of the results directory `dir` (written at the end of `testgen` and
/// by `merge`).
pub fn read_summary(dir: &Path) -> Result<Summary> {
    let path = dir.join("summary.json");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Error::OutDir(format!(
                "{} has no summary.json: finish the run first (`hypermut testgen --resume`, or `hypermut merge` for shards)",
                dir.display()
            ))
        } else {
            Error::io(format!("cannot read {}", path.display()), e)
        }
    })?;
    serde_json::from_str(&text).map_err(|e| Error::Damaged {
        what: format!("{} is not a hypermut summary", path.display()),
        detail: e.to_string(),
    })
}

/// Writes the report of `summary`, the results of `model` in the results directory
/// `results`, to `files`. Each file is written atomically, and only after both are built:
/// an error leaves neither a partial file nor (when it comes before writing) any file.
/// The summary must be one of this model ([`place`]).
pub fn write_report(
    model: &Model,
    results: &Path,
    summary: &Summary,
    files: &ReportFiles,
) -> Result<()> {
    let placed = place(model, summary)?;
    let page = match &files.html {
        Some(path) => Some((path, html_page(model, results, summary, &placed, path)?)),
        None => None,
    };
    let tracefile = files
        .lcov
        .as_ref()
        .map(|path| (path, lcov::tracefile(&test_name(&summary.model), &placed)));
    for (path, text) in page.iter().chain(tracefile.iter()) {
        write_atomic(path, text.as_bytes())?;
    }
    Ok(())
}

/// The HTML page of the report that will be written to `path`: links to the evidence files
/// lead from the page's folder into `results`.
fn html_page(
    model: &Model,
    results: &Path,
    summary: &Summary,
    placed: &Placed,
    path: &Path,
) -> Result<String> {
    let row = model_row(&model.system, original_ands(&model.system)?, summary);
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(folder)
        .map_err(|e| Error::io(format!("cannot create {}", folder.display()), e))?;
    let canonical = |p: &Path| {
        std::fs::canonicalize(p).map_err(|e| Error::io(format!("cannot find {}", p.display()), e))
    };
    let folder = canonical(folder)?;
    let results = canonical(results)?;
    let link = |rel: &str| -> Option<String> {
        let rel = Path::new(rel);
        // Only paths inside the results directory (as `docs/formats.md` §1.2 writes them).
        if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
            return None;
        }
        let file = results.join(rel);
        file.is_file()
            .then(|| escape::href(&escape::relative(&folder, &file)))
    };
    Ok(html::render(&html::Page {
        summary,
        placed,
        row: &row,
        link: &link,
    }))
}

/// The lcov test name of a model: `hypermut_` and the stem of its (first) file.
fn test_name(model: &str) -> String {
    let first = model
        .split_whitespace()
        .find(|w| !w.starts_with('-'))
        .unwrap_or(model);
    let stem = Path::new(first)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("hypermut_{stem}")
}

#[cfg(test)]
mod tests;
