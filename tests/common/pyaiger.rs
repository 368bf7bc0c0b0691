//! Replaying witnesses with py-aiger (an independent AIGER simulator): the problem is written
//! in the legacy format (properties as outputs, constraints folded), which py-aiger reads.
//! Shared by the prover's corpus test and the end-to-end tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use hypermut_aig::aiger::{write_aiger_with, AigerFormat, WriteOptions};
use hypermut_aig::{read_aiger, Aig, Reset, Witness};

/// The py-aiger interpreter of the oracle install.
pub const PYAIGER: &str = "/opt/anchors/pyaiger-venv/bin/python";

/// A witness to confirm with py-aiger: the legacy file, the names of its latches and inputs,
/// and the witness (with the fold latch appended).
#[derive(Clone, Debug)]
pub struct PyCase {
    /// The legacy ASCII file.
    pub file: PathBuf,
    /// Initial value per latch name.
    pub latches: Vec<(String, bool)>,
    /// Input names, in order.
    pub inputs: Vec<String>,
    /// The output (the first safety property) to report.
    pub output: String,
    /// Input values per frame.
    pub frames: Vec<Vec<bool>>,
}

pub fn py_case(problem: &Aig, w: &Witness, dir: &Path, tag: &str) -> PyCase {
    let opts = WriteOptions {
        format: AigerFormat::Ascii,
        legacy: true,
        name_all: true,
    };
    let file = dir.join(format!("{tag}.aag"));
    let text = write_aiger_with(problem, &opts);
    std::fs::write(&file, &text).expect("write legacy file");
    let named = read_aiger(&text, tag).expect("re-read legacy file");
    let latches = named
        .latches
        .iter()
        .enumerate()
        .map(|(k, l)| {
            let v = match l.reset {
                Reset::Zero => false,
                Reset::One => true,
                Reset::Free => w.init.get(k).copied().flatten().unwrap_or(false),
            };
            (l.name.clone(), v)
        })
        .collect();
    PyCase {
        file,
        latches,
        inputs: named.inputs.iter().map(|i| i.name.clone()).collect(),
        output: named.outputs[0].name.clone(),
        frames: w
            .inputs
            .iter()
            .map(|f| f.iter().map(|v| v.unwrap_or(false)).collect())
            .collect(),
    }
}

fn py_str(s: &str) -> String {
    format!("{s:?}")
}

/// Runs py-aiger once on all cases; for each, the output's value per frame as `0`/`1`
/// characters. `None` (with a message) when the py-aiger venv is missing.
pub fn confirm_with_pyaiger(cases: &[PyCase]) -> Option<Vec<String>> {
    if !Path::new(PYAIGER).is_file() {
        eprintln!("skipping the py-aiger check: no venv at {PYAIGER}");
        return None;
    }
    let mut script = String::from("import aiger, sys\ncases = [\n");
    for c in cases {
        let latches: Vec<String> = c
            .latches
            .iter()
            .map(|(n, v)| format!("{}: {}", py_str(n), if *v { "True" } else { "False" }))
            .collect();
        let frames: Vec<String> = c
            .frames
            .iter()
            .map(|f| {
                let kv: Vec<String> = c
                    .inputs
                    .iter()
                    .zip(f)
                    .map(|(n, v)| format!("{}: {}", py_str(n), if *v { "True" } else { "False" }))
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
    let lines: Vec<String> = text
        .lines()
        .map(|l| l.rsplit(' ').next().unwrap_or("").to_string())
        .collect();
    assert_eq!(lines.len(), cases.len(), "{text}");
    Some(lines)
}
