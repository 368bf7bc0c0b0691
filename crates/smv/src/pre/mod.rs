//! NuSMV's `-pre`: the model text goes through external preprocessors (cpp, m4) before it is
//! parsed, and every line of the result is traced back to the original file and line it came
//! from.
//!
//! NuSMV runs the preprocessors of its `-pre "p1 p2 …"` list one after the other, each on
//! the previous one's output, and parses the last output. hypermut does the same
//! ([`run`] says how each program is called). After each program its line markers
//! ([`crate::markers`]) are read and removed: a line is traced to a line of an included file, or
//! to a line of the program's input, which is traced through the previous program in turn.
//! The final text carries cpp-style markers (`# 12 "inc.smv"`) wherever the origin of its
//! lines jumps, so that the text is still a valid NuSMV model (NuSMV skips such lines and
//! counts lines from them) and shows where each part came from.

mod run;

use std::collections::HashMap;
use std::path::Path;

use crate::error::SmvError;
use crate::markers;
use crate::options::Preprocessor;

use run::Input;

/// A model after its preprocessors.
#[derive(Clone, Debug)]
pub(crate) struct Preprocessed {
    /// The text to parse, with `# N "file"` markers where the origin of its lines jumps.
    pub text: String,
    /// The original files the text came from, as (display name, text): the model first, then
    /// the files it includes in the order their first line appears.
    pub files: Vec<(String, String)>,
    /// For each line of `text`: its original file (index into `files`) and 1-based line;
    /// `None` for markers and lines of unknown origin.
    pub lines: Vec<Option<(usize, u32)>>,
    /// The warnings the preprocessors printed.
    pub warnings: Vec<Warning>,
}

/// A warning a preprocessor printed (on a successful run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Warning {
    /// Where, when the program said so: original file (index into
    /// [`Preprocessed::files`]), 1-based line and 1-based column (0: not known).
    pub at: Option<(usize, u32, u32)>,
    /// The message, starting with the program's name.
    pub message: String,
}

/// Runs the model `text` (displayed as `name`, read from `path` if it is a file) through the
/// preprocessors `pre`, in order.
pub(crate) fn preprocess(
    name: &str,
    text: &str,
    path: Option<&Path>,
    pre: &[Preprocessor],
) -> Result<Preprocessed, SmvError> {
    let dir = path.and_then(Path::parent);
    let mut files = vec![(name.to_string(), text.to_string())];
    let mut known: HashMap<String, Option<usize>> = HashMap::new();
    let mut current = text.to_string();
    let mut lines: Vec<Option<(usize, u32)>> = (1..=text.split('\n').count() as u32)
        .map(|n| Some((0, n)))
        .collect();
    let mut warnings = Vec::new();
    for (k, &p) in pre.iter().enumerate() {
        let input = match path {
            Some(path) if k == 0 => Input::File(path),
            _ => Input::Text(&current),
        };
        let input_names = match input {
            Input::File(path) => vec![path.display().to_string()],
            Input::Text(_) => vec!["<stdin>".into(), "stdin".into(), "-".into()],
        };
        let out = run::run(p, &input, dir, name)?;
        let mut tracer = Tracer {
            input_names,
            input_lines: &lines,
            input_is_original: k == 0,
            files: &mut files,
            known: &mut known,
        };
        let (next_text, next_lines) = tracer.split(&out.text);
        warnings.extend(tracer.warnings(p, &out.messages));
        current = next_text;
        lines = next_lines;
    }
    let (text, lines) = with_markers(&current, &lines, &files);
    Ok(Preprocessed {
        text,
        files,
        lines,
        warnings,
    })
}

/// Traces the lines of one program's output to the original files.
struct Tracer<'a> {
    /// The names the program's markers give its input.
    input_names: Vec<String>,
    /// The origin of each line of the program's input.
    input_lines: &'a [Option<(usize, u32)>],
    /// Whether the input is the model file as written (so that columns in the program's
    /// messages are columns of the original).
    input_is_original: bool,
    /// The original files read so far.
    files: &'a mut Vec<(String, String)>,
    /// File name (as markers give it) → index in `files` (`None`: it cannot be read).
    known: &'a mut HashMap<String, Option<usize>>,
}

impl Tracer<'_> {
    /// Whether `file` (as a marker or a message names it) is the program's input.
    fn is_input(&self, file: Option<&str>) -> bool {
        file.is_none_or(|f| self.input_names.iter().any(|n| n == f))
    }

    /// The original file and line of line `line` of `file` (`None`: the program's input).
    fn resolve(&mut self, file: Option<&str>, line: u32) -> Option<(usize, u32)> {
        if self.is_input(file) {
            let at = (line as usize).checked_sub(1)?;
            return self.input_lines.get(at).copied().flatten();
        }
        let name = file?;
        let index = match self.known.get(name) {
            Some(index) => *index,
            None => {
                // Markers also name cpp's own pseudo-files (`<built-in>`); they hold no model
                // text and cannot be read.
                let index = std::fs::read_to_string(name).ok().map(|text| {
                    self.files.push((name.to_string(), text));
                    self.files.len() - 1
                });
                self.known.insert(name.to_string(), index);
                index
            }
        };
        index.map(|i| (i, line))
    }

    /// The program's output without its markers, and the origin of each of its lines.
    fn split(&mut self, output: &str) -> (String, Vec<Option<(usize, u32)>>) {
        let mut text = String::with_capacity(output.len());
        let mut lines = Vec::new();
        let mut file: Option<String> = None;
        let mut next = 1u32;
        for line in output.split_inclusive('\n') {
            let bare = line.trim_end_matches(['\n', '\r']);
            if let Some(m) = markers::parse(bare) {
                next = m.line;
                if m.file.is_some() {
                    file = m.file;
                }
                continue;
            }
            lines.push(self.resolve(file.as_deref(), next));
            text.push_str(line);
            next = next.saturating_add(1);
        }
        // The (empty) line after a final newline.
        if output.is_empty() || output.ends_with('\n') {
            lines.push(None);
        }
        (text, lines)
    }

    /// The warnings in the program's messages: one per distinct message, at the first place
    /// it was reported.
    fn warnings(&mut self, pre: Preprocessor, messages: &str) -> Vec<Warning> {
        let mut out: Vec<(Warning, usize)> = Vec::new();
        for line in messages.lines() {
            let Some((place, message)) = split_warning(line, pre) else {
                continue;
            };
            let at = place.and_then(|(file, line, column)| {
                let (f, l) = self.resolve(Some(file), line)?;
                let exact = self.input_is_original || !self.is_input(Some(file));
                Some((f, l, if exact { column } else { 0 }))
            });
            let message = format!("{}: {message}", pre.name());
            match out.iter_mut().find(|(w, _)| w.message == message) {
                Some((_, n)) => *n += 1,
                None => out.push((Warning { at, message }, 1)),
            }
        }
        out.into_iter()
            .map(|(mut w, n)| {
                if n > 1 {
                    w.message
                        .push_str(&format!(" (reported {n} times; the first is shown)"));
                }
                w
            })
            .collect()
    }
}

/// A place a preprocessor's message names: file, line and column (0: not given).
type Place<'a> = (&'a str, u32, u32);

/// A warning line of a preprocessor's messages: its place (file, line, column or 0) when it
/// names one, and its text. cpp writes `file:3:7: warning: text`, GNU m4
/// `m4:file:3: Warning: text`.
fn split_warning(line: &str, pre: Preprocessor) -> Option<(Option<Place<'_>>, &str)> {
    let line = line
        .strip_prefix(pre.name())
        .and_then(|r| r.strip_prefix(':'))
        .unwrap_or(line);
    let lower = line.to_ascii_lowercase();
    let at = lower.find("warning:")?;
    let message = line[at + "warning:".len()..].trim();
    let head = line[..at].trim_end().trim_end_matches(':');
    let number = |s: &str| s.parse::<u32>().ok();
    let mut parts = head.rsplitn(3, ':');
    let (last, middle, first) = (parts.next(), parts.next(), parts.next());
    let place = match (last.and_then(number), middle, first) {
        (Some(col), Some(l), Some(file)) if number(l).is_some() => {
            number(l).map(|l| (file, l, col))
        }
        (Some(l), Some(_), _) => head.rsplit_once(':').map(|(file, _)| (file, l, 0)),
        _ => None,
    };
    Some((place, message))
}

/// `text` with a `# N "file"` marker before every line whose origin does not follow the
/// previous line's, and the origins of the lines of the result.
fn with_markers(
    text: &str,
    lines: &[Option<(usize, u32)>],
    files: &[(String, String)],
) -> (String, Vec<Option<(usize, u32)>>) {
    let mut out = String::with_capacity(text.len() + 64);
    let mut origins = Vec::with_capacity(lines.len() + 8);
    let mut previous: Option<(usize, u32)> = None;
    let pieces = text.split_inclusive('\n').map(Some).chain([None]);
    for (piece, origin) in pieces.zip(lines.iter().copied()) {
        if let (Some((f, n)), Some(_)) = (origin, piece) {
            if previous != Some((f, n.wrapping_sub(1))) {
                out.push_str(&markers::write(n, &files[f].0));
                out.push('\n');
                origins.push(None);
            }
        }
        if let Some(p) = piece {
            out.push_str(p);
        }
        origins.push(origin);
        previous = origin;
    }
    (out, origins)
}

#[cfg(test)]
mod tests;
