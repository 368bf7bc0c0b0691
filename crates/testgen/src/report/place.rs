//! Where each mutant of a results directory lies in the source files a report shows, and how
//! its verdict reads there ([`Status`]; `docs/formats.md` §13.2).

use std::collections::HashMap;
use std::path::PathBuf;

use hypermut_ir::{FileId, Language};
use hypermut_mutate::Mutant;

use crate::error::{Error, Result};
use crate::load::Model;
use crate::record::{KillClass, MutantRecord, MutantVerdict, Summary};
use crate::select::{all_mutants, Locator};

/// How a mutant's verdict reads in a report, weakest first: where mutants overlap, the text
/// takes the weakest status that covers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// Not killed: `unknown` (no test within the bound, no proof) or `error`.
    Survived,
    /// Killed by a test recorded without a kill class (results of older versions).
    Unclassified,
    /// Killed only when the tester also applies the test's nd values.
    Controlled,
    /// Killed potentially: the mutant fails the test for some of its choices.
    Potential,
    /// Killed definitely: the inputs alone kill it.
    Definite,
    /// Proven equivalent: there is nothing to kill.
    Equivalent,
    /// Not a valid model: not counted in any score.
    Invalid,
}

impl Status {
    /// Every status, weakest first.
    pub const ALL: [Status; 7] = [
        Status::Survived,
        Status::Unclassified,
        Status::Controlled,
        Status::Potential,
        Status::Definite,
        Status::Equivalent,
        Status::Invalid,
    ];

    /// The status of a record.
    pub fn of(r: &MutantRecord) -> Status {
        match r.outcome {
            MutantVerdict::Killed => match r.kill_class {
                Some(KillClass::Definite) => Status::Definite,
                Some(KillClass::Potential) => Status::Potential,
                Some(KillClass::Controlled) => Status::Controlled,
                None => Status::Unclassified,
            },
            MutantVerdict::Equivalent => Status::Equivalent,
            MutantVerdict::Invalid => Status::Invalid,
            MutantVerdict::Unknown | MutantVerdict::Error => Status::Survived,
        }
    }

    /// The name used in the report's CSS classes and legend (`survived`, `definite`, …).
    pub fn name(self) -> &'static str {
        match self {
            Status::Survived => "survived",
            Status::Unclassified => "unclassified",
            Status::Controlled => "controlled",
            Status::Potential => "potential",
            Status::Definite => "definite",
            Status::Equivalent => "equivalent",
            Status::Invalid => "invalid",
        }
    }

    /// What the status means, for the legend.
    pub fn meaning(self) -> &'static str {
        match self {
            Status::Survived => "survived: unknown or error",
            Status::Unclassified => "killed, kill class not recorded",
            Status::Controlled => "killed under controlled nondeterminism",
            Status::Potential => "killed potentially",
            Status::Definite => "killed definitely",
            Status::Equivalent => "equivalent",
            Status::Invalid => "invalid mutant",
        }
    }

    /// Whether the mutant is killed (any class).
    pub fn killed(self) -> bool {
        matches!(
            self,
            Status::Unclassified | Status::Controlled | Status::Potential | Status::Definite
        )
    }
}

/// A source file the report shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownFile {
    /// The name the model's sources give it (the path as the user gave it).
    pub name: String,
    /// Its text.
    pub text: String,
    /// The preprocessed text of an SMV model read with `--pre` (shown only when a mutant
    /// could not be traced back to the files the user wrote).
    pub preprocessed: bool,
    /// The absolute path of the file on disk, when it is one and holds this text (the
    /// lcov tracefile names it).
    pub path: Option<PathBuf>,
}

/// One mutant placed in a shown file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Mutant id.
    pub id: usize,
    /// Index of the file in [`Placed::files`].
    pub file: usize,
    /// First byte of the mutated text.
    pub start: usize,
    /// One past its last byte (`start` for an empty span).
    pub end: usize,
    /// 1-based line of `start`.
    pub line: usize,
    /// 1-based column of `start`, in characters.
    pub column: usize,
    /// How the verdict reads.
    pub status: Status,
}

/// The files of a report and every mutant placed in them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Placed {
    /// The files shown, in the order of the model's sources.
    pub files: Vec<ShownFile>,
    /// One mark per record, in the order of the records.
    pub marks: Vec<Mark>,
}

/// Places every record of `summary` in the source files of `model`. The summary must come
/// from this model: its hash must match, and every record must name a mutant of the model
/// at the same line, column and original text; otherwise [`Error::OutDir`].
pub fn place(model: &Model, summary: &Summary) -> Result<Placed> {
    if summary.model_hash != model.hash {
        return Err(Error::OutDir(format!(
            "the results are of another model or front-end options (model hash {}, the model given has {})",
            summary.model_hash, model.hash
        )));
    }
    let sys = &model.system;
    let locator = Locator::new(model);
    let every = all_mutants(sys);
    let by_id: HashMap<usize, &Mutant> = every.iter().map(|m| (m.id, m)).collect();
    // A preprocessed SMV model's file 0 is the preprocessor's output; the files the user
    // wrote follow it (`docs/formats.md` §11.2).
    let preprocessed =
        (model.language == Language::Smv && !model.options.pre.is_empty()).then_some(0);
    let sources = sys.sources.files();
    let mut spans = Vec::with_capacity(summary.results.len());
    for r in &summary.results {
        let m = by_id.get(&r.id).ok_or_else(|| {
            Error::OutDir(format!(
                "mutant {} of the results is not a mutant of {} ({} mutants)",
                r.id,
                model.name,
                every.len()
            ))
        })?;
        let span = locator.span(sys, m.span);
        let here = sys.sources.location(span);
        if !same_place(&r.location, here.line, here.column) || r.original != m.original {
            return Err(Error::OutDir(format!(
                "mutant {}: the results have `{}` at {}, the model `{}` at {here}: the results are of another version of the model",
                r.id, r.original, r.location, m.original
            )));
        }
        spans.push((span, here.line, here.column));
    }
    let holds_mutant = |k: usize| spans.iter().any(|(s, _, _)| s.file == FileId(k as u32));
    let mut shown: HashMap<usize, usize> = HashMap::new();
    let mut files = Vec::new();
    for (k, f) in sources.iter().enumerate() {
        let is_pre = preprocessed == Some(k);
        // Pseudo-files (`<define NAME>` of a Verilog macro) are shown only if a mutant lies
        // in them, as is the preprocessed text.
        let pseudo = f.name.starts_with('<');
        if (is_pre || pseudo) && !holds_mutant(k) {
            continue;
        }
        let path = (!is_pre && !pseudo)
            .then(|| std::fs::canonicalize(&f.name).ok())
            .flatten()
            .filter(|p| p.is_file());
        shown.insert(k, files.len());
        files.push(ShownFile {
            name: f.name.clone(),
            text: f.text.clone(),
            preprocessed: is_pre,
            path,
        });
    }
    let mut marks = Vec::with_capacity(spans.len());
    for (r, (span, line, column)) in summary.results.iter().zip(spans) {
        let Some(&file) = shown.get(&(span.file.0 as usize)) else {
            return Err(Error::OutDir(format!(
                "mutant {} lies in no source file of {}",
                r.id, model.name
            )));
        };
        let text = &files[file].text;
        let start = char_floor(text, span.start as usize);
        let end = char_floor(text, span.end as usize).max(start);
        marks.push(Mark {
            id: r.id,
            file,
            start,
            end,
            line,
            column,
            status: Status::of(r),
        });
    }
    Ok(Placed { files, marks })
}

/// Whether a record's `file:line:col` names this line and column (the file name is left
/// out: it is the path as given, which depends on the folder the command ran in).
fn same_place(location: &str, line: usize, column: usize) -> bool {
    let mut parts = location.rsplitn(3, ':');
    let col = parts.next().and_then(|c| c.parse::<usize>().ok());
    let ln = parts.next().and_then(|l| l.parse::<usize>().ok());
    col == Some(column) && ln == Some(line)
}

/// `at`, at most the length of `text`, moved back to the start of the character it falls in.
pub fn char_floor(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(outcome: MutantVerdict, class: Option<KillClass>) -> MutantRecord {
        MutantRecord {
            outcome,
            kill_class: class,
            ..MutantRecord::undecided(0, "ror", "m.smv:1:1", "<", "<=")
        }
    }

    #[test]
    fn statuses_read_the_verdict_and_class() {
        use KillClass::{Controlled, Definite, Potential};
        use MutantVerdict::{Equivalent, Error, Invalid, Killed, Unknown};
        let cases = [
            (Killed, Some(Definite), Status::Definite),
            (Killed, Some(Potential), Status::Potential),
            (Killed, Some(Controlled), Status::Controlled),
            (Killed, None, Status::Unclassified),
            (Equivalent, None, Status::Equivalent),
            (Invalid, None, Status::Invalid),
            (Unknown, None, Status::Survived),
            (Error, None, Status::Survived),
            // A class on a record that is no kill does not make it one.
            (Unknown, Some(Definite), Status::Survived),
        ];
        for (v, c, want) in cases {
            assert_eq!(Status::of(&rec(v, c)), want, "{v:?} {c:?}");
        }
        // Weakest first: every survivor is weaker than every kill, every kill weaker than
        // the mutants there is nothing to kill of.
        let mut sorted = Status::ALL;
        sorted.sort();
        assert_eq!(sorted, Status::ALL);
        let survivors = Status::ALL.iter().filter(|s| **s == Status::Survived);
        let kills: Vec<Status> = Status::ALL.into_iter().filter(|s| s.killed()).collect();
        for s in survivors {
            assert!(kills.iter().all(|k| s < k));
        }
        assert!(kills.iter().all(|k| *k < Status::Equivalent));
    }

    #[test]
    fn places_compare_line_and_column_only() {
        assert!(same_place("models/smv/beverage.smv:15:7", 15, 7));
        assert!(same_place("C:\\m.smv:15:7", 15, 7));
        assert!(!same_place("m.smv:15:8", 15, 7));
        assert!(!same_place("m.smv:7", 15, 7));
        assert!(!same_place("", 1, 1));
    }

    #[test]
    fn offsets_fall_back_to_character_starts() {
        let t = "aé<b";
        assert_eq!(char_floor(t, 2), 1);
        assert_eq!(char_floor(t, 3), 3);
        assert_eq!(char_floor(t, 99), t.len());
    }
}
