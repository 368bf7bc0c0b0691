//! Running the independent tools the tests compare against. A test whose tool is missing
//! prints `SKIPPED: …` and passes without checking.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where NuSMV is installed by the oracle install script (else it is looked up on `PATH`).
pub const NUSMV_ANCHOR: &str = "/opt/anchors/nusmv/bin/NuSMV";

/// The full path of `tool` (a name looked up on `PATH`, or a path to a file), without any
/// message.
pub fn find(tool: &str) -> Option<PathBuf> {
    let direct = Path::new(tool);
    if direct.components().count() > 1 {
        return direct.is_file().then(|| direct.to_path_buf());
    }
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
}

/// Whether `tool` is installed; prints why the calling check is skipped if not.
pub fn have(tool: &str) -> bool {
    let ok = find(tool).is_some();
    if !ok {
        eprintln!(
            "SKIPPED: `{tool}` is not installed (run ../shared/scripts/install-oracles.sh apt pyaiger)"
        );
    }
    ok
}

/// Runs a command to its end: whether it succeeded, and its standard output followed by its
/// standard error. Panics (failing the test) when the command cannot be started.
pub fn run(cmd: &mut Command) -> (bool, String) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{:?} does not start: {e}", cmd.get_program()));
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// NuSMV ([`NUSMV_ANCHOR`], else `NuSMV` on `PATH`); prints why the check is skipped if
/// neither is there.
pub fn nusmv() -> Option<PathBuf> {
    let anchored = PathBuf::from(NUSMV_ANCHOR);
    if anchored.is_file() {
        return Some(anchored);
    }
    have("NuSMV").then(|| PathBuf::from("NuSMV"))
}

/// `yosys -q -p SCRIPT`: whether it succeeded, and its output.
pub fn yosys(script: &str) -> (bool, String) {
    run(Command::new("yosys").arg("-q").arg("-p").arg(script))
}

/// `yosys -q -s FILE` on a script file: whether it succeeded, and its output.
pub fn yosys_file(script: &Path) -> (bool, String) {
    run(Command::new("yosys").arg("-q").arg("-s").arg(script))
}

/// Compiles `files` with iverilog into the executable `exe`, top module `top`, with the
/// language `flags` (e.g. `-g2005`) and include folders `includes`: whether it succeeded,
/// and iverilog's messages.
pub fn iverilog(
    flags: &[&str],
    top: &str,
    includes: &[&Path],
    files: &[&Path],
    exe: &Path,
) -> (bool, String) {
    let mut cmd = Command::new("iverilog");
    cmd.args(flags).arg("-o").arg(exe).arg("-s").arg(top);
    for d in includes {
        cmd.arg("-I").arg(d);
    }
    run(cmd.args(files))
}

/// Runs an executable compiled by [`iverilog`] with `vvp -n`: whether it succeeded, and its
/// output.
pub fn vvp(exe: &Path) -> (bool, String) {
    run(Command::new("vvp").arg("-n").arg(exe))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_are_found_on_path_or_by_file() {
        assert!(find("sh").is_some(), "a POSIX shell is on PATH");
        assert!(find("/bin/sh").is_some());
        assert!(find("no-such-tool-hypermut").is_none());
        assert!(!have("no-such-tool-hypermut"));
    }

    #[test]
    fn run_joins_stdout_and_stderr() {
        let (ok, text) = run(Command::new("sh").arg("-c").arg("echo out; echo err >&2"));
        assert!(ok);
        assert_eq!(text, "out\nerr\n");
        let (ok, _) = run(Command::new("sh").arg("-c").arg("exit 3"));
        assert!(!ok);
    }
}
