//! Helpers shared by the end-to-end tests: running the binary and the independent tools.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A bundled model, by path relative to the repository root.
pub fn model(rel: &str) -> PathBuf {
    root().join(rel)
}

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

/// Whether an external tool is on PATH; prints why a check is skipped if not.
pub fn have(tool: &str) -> bool {
    let ok = Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool}"))
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        eprintln!("SKIPPED: `{tool}` is not installed (run ../shared/scripts/install-oracles.sh apt pyaiger)");
    }
    ok
}

/// Runs a shell tool and returns stdout+stderr and success.
pub fn run(cmd: &mut Command) -> (bool, String) {
    let out = cmd.output().expect("the tool starts");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// What ABC's BMC reported.
#[derive(Debug, PartialEq, Eq)]
pub enum AbcBmc {
    /// A bad state in this frame.
    Asserted(usize),
    /// No bad state within the bound.
    NotAsserted,
    /// ABC refused because the property has no sequential logic ("Does not work for
    /// combinational networks"), e.g. when it is the constant false.
    Combinational,
}

/// ABC's BMC on a binary AIGER file with constraints folded in, over frames `0..=bound`.
pub fn abc_bmc(aig: &Path, bound: usize) -> AbcBmc {
    let script = format!("read {}; fold; bmc3 -F {}", aig.display(), bound + 1);
    let (_, text) = run(Command::new("berkeley-abc").arg("-c").arg(&script));
    if text.contains("Does not work for combinational networks") {
        return AbcBmc::Combinational;
    }
    assert!(
        !text.contains("Error") && !text.contains("Cannot"),
        "ABC failed on {}:\n{text}",
        aig.display()
    );
    let Some(idx) = text.find("was asserted in frame ") else {
        return AbcBmc::NotAsserted;
    };
    let rest = &text[idx + "was asserted in frame ".len()..];
    let num: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    AbcBmc::Asserted(num.parse().expect("ABC prints a frame number"))
}

pub mod pyaiger;
#[allow(unused_imports)]
pub use pyaiger::PYAIGER;

/// ABC's BMC on `aig` with its ordinary outputs removed (ABC checks outputs as properties too,
/// before the bad properties), written as binary AIGER into `dir`.
pub fn abc_bmc_bad_only(aig: &hypermut_aig::Aig, dir: &Path, bound: usize) -> AbcBmc {
    let mut g = aig.clone();
    g.outputs.clear();
    let file = dir.join("abc-bad-only.aig");
    std::fs::write(
        &file,
        hypermut_aig::write_aiger(&g, hypermut_aig::AigerFormat::Binary),
    )
    .expect("write file for ABC");
    abc_bmc(&file, bound)
}

/// What ABC's PDR reported.
#[derive(Debug, PartialEq, Eq)]
pub enum AbcPdr {
    /// The property holds.
    Proved,
    /// A counterexample exists.
    Falsified,
    /// ABC refused because the property is combinational (e.g. the constant false).
    Combinational,
    /// No answer within ABC's limits.
    Undecided,
}

/// ABC's PDR (`read; fold; pdr`) on `aig` with its ordinary outputs removed, written as binary
/// AIGER into `dir`.
pub fn abc_pdr_bad_only(aig: &hypermut_aig::Aig, dir: &Path) -> AbcPdr {
    let mut g = aig.clone();
    g.outputs.clear();
    let file = dir.join("abc-pdr-bad-only.aig");
    std::fs::write(
        &file,
        hypermut_aig::write_aiger(&g, hypermut_aig::AigerFormat::Binary),
    )
    .expect("write file for ABC");
    let script = format!("read {}; fold; pdr -T 120", file.display());
    let (_, text) = run(Command::new("berkeley-abc").arg("-c").arg(&script));
    if text.contains("Does not work for combinational networks") {
        AbcPdr::Combinational
    } else if text.contains("Property proved") {
        AbcPdr::Proved
    } else if text.contains("was asserted in frame") {
        AbcPdr::Falsified
    } else {
        AbcPdr::Undecided
    }
}

/// Whether ABC (`read; sat`) finds the single output of the combinational circuit `g`
/// satisfiable.
pub fn abc_comb_sat(g: &hypermut_aig::Aig, dir: &Path, tag: &str) -> bool {
    let file = dir.join(format!("{tag}.aig"));
    std::fs::write(
        &file,
        hypermut_aig::write_aiger(g, hypermut_aig::AigerFormat::Binary),
    )
    .expect("write file for ABC");
    let script = format!("read {}; sat", file.display());
    let (_, text) = run(Command::new("berkeley-abc").arg("-c").arg(&script));
    if text.contains("UNSATISFIABLE") {
        false
    } else if text.contains("SATISFIABLE") {
        true
    } else {
        panic!("unexpected ABC output for {}:\n{text}", file.display())
    }
}

/// NuSMV (`/opt/anchors/nusmv/bin/NuSMV`, else `NuSMV` on PATH); prints why a check is
/// skipped if neither is there.
pub fn nusmv() -> Option<PathBuf> {
    let anchored = PathBuf::from("/opt/anchors/nusmv/bin/NuSMV");
    if anchored.is_file() {
        return Some(anchored);
    }
    have("NuSMV").then(|| PathBuf::from("NuSMV"))
}
