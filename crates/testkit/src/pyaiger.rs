//! Replaying witnesses with py-aiger, an independent AIGER simulator. It reads only the
//! legacy format (properties as outputs, constraints folded), so a case is built from a
//! legacy ASCII file that names every object (as `hypermut`'s legacy writer does). The file
//! is read here with a reader of its own, independent of the crate under test.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The py-aiger interpreter of the oracle install.
pub const PYAIGER: &str = "/opt/anchors/pyaiger-venv/bin/python";

/// Whether py-aiger is installed; prints why the calling check is skipped if not.
pub fn have_pyaiger() -> bool {
    let ok = Path::new(PYAIGER).is_file();
    if !ok {
        eprintln!(
            "SKIPPED: py-aiger is not installed at {PYAIGER} (run ../shared/scripts/install-oracles.sh apt pyaiger)"
        );
    }
    ok
}

/// One run to replay: a legacy file, the initial value of each latch and the input values of
/// each frame (by name), and the output to report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyCase {
    /// The legacy ASCII file.
    pub file: PathBuf,
    /// Initial value per latch name.
    pub latches: Vec<(String, bool)>,
    /// Input names, in file order.
    pub inputs: Vec<String>,
    /// The output whose value is reported.
    pub output: String,
    /// Input values per frame, in the order of `inputs`.
    pub frames: Vec<Vec<bool>>,
}

impl PyCase {
    /// A case for the legacy ASCII file `file`, reporting its output number `output`. Latches
    /// with reset 0 or 1 start there; uninitialised ones (reset = own literal) take their
    /// value from `init` (by latch index; missing or `None` is 0), so that a witness's
    /// initial state can be passed whole even when the file has an extra fold latch. Unset
    /// input values (`None`) are 0.
    pub fn read_legacy_aag(
        file: &Path,
        output: usize,
        init: &[Option<bool>],
        frames: &[Vec<Option<bool>>],
    ) -> Result<PyCase, String> {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let legacy = LegacyAag::parse(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        let latches = legacy
            .latches
            .iter()
            .enumerate()
            .map(|(k, (name, reset))| {
                let v = reset.unwrap_or_else(|| init.get(k).copied().flatten().unwrap_or(false));
                (name.clone(), v)
            })
            .collect();
        let output = legacy
            .outputs
            .get(output)
            .cloned()
            .ok_or_else(|| format!("{}: no output {output}", file.display()))?;
        Ok(PyCase {
            file: file.to_path_buf(),
            latches,
            inputs: legacy.inputs,
            output,
            frames: frames
                .iter()
                .map(|f| f.iter().map(|v| v.unwrap_or(false)).collect())
                .collect(),
        })
    }
}

/// The names and resets of a legacy ASCII AIGER file.
struct LegacyAag {
    inputs: Vec<String>,
    /// Name and reset value per latch (`None`: uninitialised).
    latches: Vec<(String, Option<bool>)>,
    outputs: Vec<String>,
}

impl LegacyAag {
    fn parse(text: &str) -> Result<LegacyAag, String> {
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
        let count = |k: usize| -> Result<usize, String> {
            header
                .get(k)
                .and_then(|c| c.parse().ok())
                .ok_or_else(|| format!("not a legacy ASCII AIGER header: {header:?}"))
        };
        if header.first() != Some(&"aag") || header.len() != 6 {
            return Err(format!("not a legacy ASCII AIGER header: {header:?}"));
        }
        let (ni, nl, no, na) = (count(2)?, count(3)?, count(4)?, count(5)?);
        let mut next = |what: &str| lines.next().ok_or_else(|| format!("missing {what} line"));
        for _ in 0..ni {
            next("input")?;
        }
        let mut resets = Vec::new();
        for _ in 0..nl {
            let f: Vec<&str> = next("latch")?.split_whitespace().collect();
            resets.push(match f.as_slice() {
                [_, _] | [_, _, "0"] => Some(false),
                [_, _, "1"] => Some(true),
                [lit, _, r] if lit == r => None,
                _ => return Err(format!("unsupported latch line {f:?}")),
            });
        }
        for _ in 0..no + na {
            next("output or AND")?;
        }
        let mut inputs = vec![String::new(); ni];
        let mut latch_names = vec![String::new(); nl];
        let mut outputs = vec![String::new(); no];
        for line in lines.by_ref() {
            if line == "c" {
                break;
            }
            let (sym, name) = line
                .split_once(' ')
                .ok_or_else(|| format!("bad symbol line `{line}`"))?;
            let (kind, index) = sym.split_at(1);
            let k: usize = index
                .parse()
                .map_err(|_| format!("bad symbol line `{line}`"))?;
            let slot = match kind {
                "i" => inputs.get_mut(k),
                "l" => latch_names.get_mut(k),
                "o" => outputs.get_mut(k),
                _ => None,
            };
            *slot.ok_or_else(|| format!("bad symbol line `{line}`"))? = name.to_string();
        }
        if inputs
            .iter()
            .chain(&latch_names)
            .chain(&outputs)
            .any(String::is_empty)
        {
            return Err("an object without a name (write every name)".into());
        }
        Ok(LegacyAag {
            inputs,
            latches: latch_names.into_iter().zip(resets).collect(),
            outputs,
        })
    }
}

/// A Python string literal.
fn py_str(s: &str) -> String {
    format!("{s:?}")
}

/// A Python boolean.
fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// Runs py-aiger once on all cases: for each, the value of its output in every frame. `None`
/// (with a `SKIPPED` message) when py-aiger is not installed; fails the test when py-aiger
/// fails.
pub fn output_traces(cases: &[PyCase]) -> Option<Vec<Vec<bool>>> {
    if !have_pyaiger() {
        return None;
    }
    let mut script = String::from("import aiger, sys\ncases = [\n");
    for c in cases {
        let latches: Vec<String> = c
            .latches
            .iter()
            .map(|(n, v)| format!("{}: {}", py_str(n), py_bool(*v)))
            .collect();
        let frames: Vec<String> = c
            .frames
            .iter()
            .map(|f| {
                let kv: Vec<String> = c
                    .inputs
                    .iter()
                    .zip(f)
                    .map(|(n, v)| format!("{}: {}", py_str(n), py_bool(*v)))
                    .collect();
                format!("{{{}}}", kv.join(", "))
            })
            .collect();
        script += &format!(
            "  ({}, {{{}}}, [{}], {}),\n",
            py_str(&c.file.display().to_string()),
            latches.join(", "),
            frames.join(", "),
            py_str(&c.output)
        );
    }
    script += "]\nfor f, l, ins, o in cases:\n    c = aiger.load(f)\n    res = c.simulate(ins, latches=l)\n    print(f, ''.join('1' if r[0][o] else '0' for r in res))\n";
    // The script goes through stdin: with many cases it exceeds the argument-size limit.
    let mut child = Command::new(PYAIGER)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(script.as_bytes())
        .expect("script written to python");
    let out = child.wait_with_output().expect("python finishes");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "py-aiger failed:\n{}\n{}",
        text,
        String::from_utf8_lossy(&out.stderr)
    );
    let traces: Vec<Vec<bool>> = text
        .lines()
        .map(|l| {
            l.rsplit(' ')
                .next()
                .unwrap_or("")
                .chars()
                .map(|c| c == '1')
                .collect()
        })
        .collect();
    assert_eq!(traces.len(), cases.len(), "{text}");
    Some(traces)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A legacy toggle: one input, one uninitialised latch, one named output.
    const FILE: &str =
        "aag 3 1 1 1 1\n2\n4 2 4\n6\n6 2 4\ni0 go\nl0 state\no0 both high\nc\nnote\n";

    #[test]
    fn legacy_files_are_read_with_names_and_resets() {
        let dir = tempfile::tempdir().expect("temp dir");
        let f = dir.path().join("t.aag");
        std::fs::write(&f, FILE).expect("write");
        let frames = [vec![Some(true)], vec![None]];
        let c = PyCase::read_legacy_aag(&f, 0, &[Some(true)], &frames).expect("reads");
        assert_eq!(c.inputs, ["go"]);
        assert_eq!(c.latches, [("state".to_string(), true)]);
        assert_eq!(c.output, "both high");
        assert_eq!(c.frames, [[true], [false]]);
        assert!(PyCase::read_legacy_aag(&f, 1, &[], &[]).is_err());
        std::fs::write(&f, "aag 1 1 0 0 0\n2\n").expect("write");
        assert!(PyCase::read_legacy_aag(&f, 0, &[], &[]).is_err(), "no name");
        std::fs::write(&f, "aag 1 1 0 0 0 1\n2\n2\ni0 x\n").expect("write");
        assert!(
            PyCase::read_legacy_aag(&f, 0, &[], &[]).is_err(),
            "a 1.9 header"
        );
    }

    #[test]
    fn pyaiger_simulates_the_toggle() {
        let dir = tempfile::tempdir().expect("temp dir");
        let f = dir.path().join("t.aag");
        std::fs::write(&f, FILE).expect("write");
        let frames = [vec![Some(true)], vec![Some(true)], vec![Some(false)]];
        let c = PyCase::read_legacy_aag(&f, 0, &[Some(false)], &frames).expect("reads");
        if let Some(traces) = output_traces(&[c]) {
            // state: 0, 1 (next = go), 1; output: go & state.
            assert_eq!(traces, [[false, true, false]]);
        }
    }
}
