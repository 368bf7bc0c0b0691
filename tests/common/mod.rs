//! Helpers shared by the end-to-end tests: running the binary, and handing hypermut's AIGs to
//! the independent tools. The rest (the repository, the tools, ABC, py-aiger) comes from
//! `hypermut-testkit`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hypermut_aig::aiger::{write_aiger_with, AigerFormat, WriteOptions};
use hypermut_aig::{write_aiger, Aig, Witness};
use hypermut_testkit::abc;
use hypermut_testkit::pyaiger::PyCase;
#[allow(unused_imports)]
pub use hypermut_testkit::repo::root;
#[allow(unused_imports)]
pub use hypermut_testkit::tools::{have, nusmv, run};

/// Runs `hypermut` with `args`.
pub fn hypermut(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hypermut"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the hypermut binary runs")
}

/// Runs `hypermut` and insists on success, returning stdout.
pub fn hypermut_ok(args: &[&str]) -> String {
    let out = hypermut(args);
    assert!(
        out.status.success(),
        "hypermut {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Writes `aig` as binary AIGER to `dir/<name>` with its ordinary outputs removed (ABC checks
/// outputs as properties too, before the bad properties).
fn bad_only(aig: &Aig, dir: &Path, name: &str) -> PathBuf {
    let mut g = aig.clone();
    g.outputs.clear();
    let file = dir.join(name);
    std::fs::write(&file, write_aiger(&g, AigerFormat::Binary)).expect("write file for ABC");
    file
}

/// ABC's BMC on `aig` with its ordinary outputs removed (written into `dir`), over frames
/// `0..=bound`.
pub fn abc_bmc_bad_only(aig: &Aig, dir: &Path, bound: usize) -> abc::Bmc {
    abc::bmc(&bad_only(aig, dir, "abc-bad-only.aig"), bound + 1)
}

/// ABC's PDR (`read; fold; pdr`) on `aig` with its ordinary outputs removed (written into
/// `dir`).
pub fn abc_pdr_bad_only(aig: &Aig, dir: &Path) -> abc::Pdr {
    abc::pdr(&bad_only(aig, dir, "abc-pdr-bad-only.aig"), 120)
}

/// Whether ABC (`read; sat`) finds the single output of the combinational circuit `g`
/// (written into `dir` as `<tag>.aig`) satisfiable.
pub fn abc_comb_sat(g: &Aig, dir: &Path, tag: &str) -> bool {
    let file = dir.join(format!("{tag}.aig"));
    std::fs::write(&file, write_aiger(g, AigerFormat::Binary)).expect("write file for ABC");
    abc::sat(&file)
}

/// The py-aiger replay of witness `w` of `problem`: its legacy file with every object named
/// (`<tag>.aag` in `dir`), reporting the first output (the first safety property).
pub fn py_case(problem: &Aig, w: &Witness, dir: &Path, tag: &str) -> PyCase {
    let opts = WriteOptions {
        format: AigerFormat::Ascii,
        legacy: true,
        name_all: true,
    };
    let file = dir.join(format!("{tag}.aag"));
    std::fs::write(&file, write_aiger_with(problem, &opts)).expect("write legacy file");
    PyCase::read_legacy_aag(&file, 0, &w.init, &w.inputs).unwrap_or_else(|e| panic!("{e}"))
}
