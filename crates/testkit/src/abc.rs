//! berkeley-abc on binary AIGER files: reading, BMC, PDR and combinational SAT. Constraints
//! are folded into the property first (`fold`), since ABC's engines otherwise treat them as
//! properties. Check [`crate::have`]`("berkeley-abc")` before calling these.

use std::path::Path;
use std::process::Command;

use crate::tools::run;

/// The ABC executable of the oracle install.
pub const ABC: &str = "berkeley-abc";

/// What ABC prints when an engine declines a property without sequential logic (e.g. the
/// constant false).
const COMBINATIONAL: &str = "Does not work for combinational networks";

/// Runs `berkeley-abc -c SCRIPT` and returns its output (standard output, then error).
pub fn run_script(script: &str) -> String {
    run(Command::new(ABC).arg("-c").arg(script)).1
}

/// Runs `berkeley-abc -c SCRIPT` under `timeout SECONDS`; `Err` when it cannot be started.
pub fn run_script_within(script: &str, seconds: u32) -> Result<String, String> {
    Command::new("timeout")
        .arg(seconds.to_string())
        .arg(ABC)
        .arg("-c")
        .arg(script)
        .output()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
        })
        .map_err(|e| e.to_string())
}

/// The frame of the first `was asserted in frame N` in ABC's output.
pub fn asserted_frame(text: &str) -> Option<usize> {
    let marker = "was asserted in frame ";
    let rest = &text[text.find(marker)? + marker.len()..];
    let num: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    num.parse().ok()
}

/// `read FILE; print_stats`: `Ok` with the statistics when ABC reads the file without
/// complaint, else `Err` with its output.
pub fn read_stats(aig: &Path) -> Result<String, String> {
    let text = run_script(&format!("read {}; print_stats", aig.display()));
    if text.contains("i/o =") && !text.contains("Error") && !text.contains("Cannot") {
        Ok(text)
    } else {
        Err(text)
    }
}

/// What ABC's BMC reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bmc {
    /// A bad state in this frame.
    Asserted(usize),
    /// No bad state within the bound.
    NotAsserted,
    /// ABC declined: the property has no sequential logic (e.g. it is the constant false).
    Combinational,
}

impl Bmc {
    /// The answer for a depth as our engines give it: `Some(frame)` or `None` (nothing
    /// reachable within the bound).
    pub fn from_depth(depth: Option<usize>) -> Bmc {
        depth.map_or(Bmc::NotAsserted, Bmc::Asserted)
    }
}

/// `read FILE; fold; print_stats; bmc3 -F FRAMES`: BMC over frames `0..FRAMES`. Fails the
/// test when ABC cannot read the file or gives an unexpected answer.
pub fn bmc(aig: &Path, frames: usize) -> Bmc {
    let text = run_script(&format!(
        "read {}; fold; print_stats; bmc3 -F {frames}",
        aig.display()
    ));
    if text.contains(COMBINATIONAL) {
        return Bmc::Combinational;
    }
    assert!(
        text.contains("i/o =") && !text.contains("Error") && !text.contains("Cannot"),
        "ABC failed on {}:\n{text}",
        aig.display()
    );
    if text.contains("was asserted in frame ") {
        let frame = asserted_frame(&text).expect("ABC prints a frame number");
        return Bmc::Asserted(frame);
    }
    assert!(
        text.contains("No output asserted")
            || text.contains("Explored all reachable states")
            || text.contains("Reached limit"),
        "unexpected ABC output on {}:\n{text}",
        aig.display()
    );
    Bmc::NotAsserted
}

/// What ABC's PDR reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pdr {
    /// The property holds.
    Proved,
    /// A counterexample exists.
    Falsified,
    /// ABC declined: the property has no sequential logic (e.g. it is the constant false).
    Combinational,
    /// No answer within the time limit.
    Undecided,
}

/// `read FILE; fold; print_stats; pdr -T SECONDS`. Fails the test when ABC cannot read the
/// file.
pub fn pdr(aig: &Path, seconds: u32) -> Pdr {
    let text = run_script(&format!(
        "read {}; fold; print_stats; pdr -T {seconds}",
        aig.display()
    ));
    if text.contains(COMBINATIONAL) {
        return Pdr::Combinational;
    }
    assert!(
        text.contains("i/o ="),
        "ABC did not read {}:\n{text}",
        aig.display()
    );
    if text.contains("Property proved") {
        Pdr::Proved
    } else if text.contains("was asserted in frame") {
        Pdr::Falsified
    } else {
        Pdr::Undecided
    }
}

/// `read FILE; print_stats; sat` on a combinational circuit with one output: whether the
/// output can be 1. Fails the test on any other answer.
pub fn sat(aig: &Path) -> bool {
    let text = run_script(&format!("read {}; print_stats; sat", aig.display()));
    if text.contains("UNSATISFIABLE") {
        false
    } else if text.contains("SATISFIABLE") {
        true
    } else {
        panic!("unexpected ABC output for {}:\n{text}", aig.display())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_asserted_frame_is_read() {
        let text = "Output 0 of miter \"m\" was asserted in frame 7. Time = 0.01 sec";
        assert_eq!(asserted_frame(text), Some(7));
        assert_eq!(asserted_frame("No output asserted in 21 frames."), None);
        assert_eq!(Bmc::from_depth(Some(3)), Bmc::Asserted(3));
        assert_eq!(Bmc::from_depth(None), Bmc::NotAsserted);
    }

    /// A one-latch toggle whose bad state (the latch) is reached in frame 1.
    const TOGGLE: &[u8] = b"aig 1 0 1 0 0 1\n3\n2\n";

    #[test]
    fn abc_answers_on_a_toggle() {
        if !crate::have(ABC) {
            return;
        }
        let dir = tempfile::tempdir().expect("temp folder");
        let f = dir.path().join("toggle.aig");
        std::fs::write(&f, TOGGLE).expect("write");
        assert!(read_stats(&f).is_ok());
        assert_eq!(bmc(&f, 5), Bmc::Asserted(1));
        assert_eq!(bmc(&f, 1), Bmc::NotAsserted);
        assert_eq!(pdr(&f, 10), Pdr::Falsified);
    }
}
