//! Running one external preprocessor with [`std::process::Command`].
//!
//! * cpp: `cpp -x c FILE`, as NuSMV runs its configured C preprocessor (`gcc -E -x c`): an
//!   ISO C preprocessor with its line markers, which say which file and line each output
//!   line comes from. Later stages read their input from standard input (`cpp -x c -I DIR
//!   -`, DIR being the model's folder, so that `#include "f"` finds files next to the model
//!   as it does for the model file itself).
//! * m4: `m4 -s -I DIR FILE` (or `-` for standard input): `-s` makes GNU m4 write
//!   `#line` markers where its output lines stop following the input's (NuSMV runs plain
//!   `m4 FILE`; the markers only add lines, which hypermut removes); `-I DIR` lets
//!   `include(f)` find files next to the model after looking in the current folder.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::error::SmvError;
use crate::options::Preprocessor;

/// What a preprocessor reads.
pub(crate) enum Input<'a> {
    /// The model file, by its path (only the first preprocessor).
    File(&'a Path),
    /// Text on standard input.
    Text(&'a str),
}

/// What a preprocessor wrote.
#[derive(Debug)]
pub(crate) struct Output {
    /// Standard output: the preprocessed text with line markers.
    pub text: String,
    /// Standard error (warnings, when the program succeeded).
    pub messages: String,
}

/// The arguments of `pre` for `input`; `dir` is the model's folder.
pub(crate) fn arguments(pre: Preprocessor, input: &Input, dir: Option<&Path>) -> Vec<String> {
    let mut args: Vec<String> = match pre {
        Preprocessor::Cpp => vec!["-x".into(), "c".into()],
        Preprocessor::M4 => vec!["-s".into()],
    };
    let search_dir = match (pre, input) {
        // cpp looks next to the file it reads first.
        (Preprocessor::Cpp, Input::File(_)) => None,
        _ => dir,
    };
    if let Some(d) = search_dir {
        let d = if d.as_os_str().is_empty() {
            Path::new(".")
        } else {
            d
        };
        args.push("-I".into());
        args.push(d.display().to_string());
    }
    args.push(match input {
        Input::File(p) => p.display().to_string(),
        Input::Text(_) => "-".into(),
    });
    args
}

/// Runs `pre` on `input` (`name` is the model's display name, for messages).
pub(crate) fn run(
    pre: Preprocessor,
    input: &Input,
    dir: Option<&Path>,
    name: &str,
) -> Result<Output, SmvError> {
    execute(pre.name(), &arguments(pre, input, dir), input, name)
}

/// Runs `program` with `args` on `input`; a program that is missing or fails is an error
/// that names it.
fn execute(program: &str, args: &[String], input: &Input, name: &str) -> Result<Output, SmvError> {
    let failed = |message: String| SmvError::Preprocessor {
        program: program.to_string(),
        message,
    };
    let mut child = Command::new(program)
        .args(args)
        .stdin(match input {
            Input::File(_) => Stdio::null(),
            Input::Text(_) => Stdio::piped(),
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            failed(if e.kind() == std::io::ErrorKind::NotFound {
                format!(
                    "{name}: cannot preprocess with `{program}`: no program `{program}` is \
                     installed (on PATH)"
                )
            } else {
                format!("{name}: cannot run the preprocessor `{program}`: {e}")
            })
        })?;
    // Standard input is written by another thread while this one reads the output, so that
    // neither program blocks on a full pipe.
    let feeder = match (input, child.stdin.take()) {
        (Input::Text(text), Some(mut stdin)) => {
            let bytes = text.as_bytes().to_vec();
            Some(std::thread::spawn(move || stdin.write_all(&bytes)))
        }
        _ => None,
    };
    let out = child
        .wait_with_output()
        .map_err(|e| failed(format!("{name}: the preprocessor `{program}` failed: {e}")))?;
    if let Some(f) = feeder {
        // A program that stops reading early (an error) closes the pipe: its own message
        // says why, so a broken pipe here is not reported.
        let _ = f.join();
    }
    let messages = String::from_utf8_lossy(&out.stderr).trim_end().to_string();
    if !out.status.success() {
        let status = out.status.code().map_or_else(
            || "killed by a signal".to_string(),
            |c| format!("exit status {c}"),
        );
        let said = if messages.is_empty() {
            String::new()
        } else {
            format!(":\n{messages}")
        };
        return Err(failed(format!(
            "{name}: the preprocessor `{program} {}` failed ({status}){said}",
            args.join(" ")
        )));
    }
    Ok(Output {
        text: String::from_utf8_lossy(&out.stdout).into_owned(),
        messages,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines() {
        let dir = Some(Path::new("models"));
        let file = Input::File(Path::new("models/m.smv"));
        let text = Input::Text("");
        let table = [
            (Preprocessor::Cpp, &file, "-x c models/m.smv"),
            (Preprocessor::Cpp, &text, "-x c -I models -"),
            (Preprocessor::M4, &file, "-s -I models models/m.smv"),
            (Preprocessor::M4, &text, "-s -I models -"),
        ];
        for (pre, input, want) in table {
            assert_eq!(arguments(pre, input, dir).join(" "), want);
        }
        // A model in the current folder: `-I .`; no folder known: no `-I`.
        let here = arguments(
            Preprocessor::M4,
            &Input::File(Path::new("m.smv")),
            Some(Path::new("")),
        );
        assert_eq!(here.join(" "), "-s -I . m.smv");
        assert_eq!(
            arguments(Preprocessor::Cpp, &text, None).join(" "),
            "-x c -"
        );
    }

    #[test]
    fn a_missing_program_is_named() {
        let e = execute(
            "hypermut-no-such-preprocessor",
            &[],
            &Input::Text(""),
            "m.smv",
        )
        .expect_err("the program does not exist");
        assert_eq!(
            e.to_string(),
            "m.smv: cannot preprocess with `hypermut-no-such-preprocessor`: no program \
             `hypermut-no-such-preprocessor` is installed (on PATH)"
        );
        assert!(
            matches!(e, SmvError::Preprocessor { ref program, .. } if program == "hypermut-no-such-preprocessor")
        );
    }
}
