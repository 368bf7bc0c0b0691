//! What the binary prints: diagnostics, errors, the per-mutant table and the summary, and the
//! progress bar.

use hypermut_ir::Diagnostic;
use hypermut_testgen::{
    Counts, KillClass, MutantRecord, MutantVerdict, Progress, RunReport, TableProgress,
};
use indicatif::{ProgressBar, ProgressStyle};

/// Prints the front-end's warnings and notes on stderr.
pub fn print_diagnostics(diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        eprintln!("{d}");
    }
}

/// Prints an error on stderr: a located front-end error as it is (`file:line:col: error:`
/// with a caret), anything else behind `error: `.
pub fn print_error(e: &anyhow::Error) {
    let located = e
        .downcast_ref::<hypermut_testgen::Error>()
        .is_some_and(|e| e.is_located());
    let msg = error_text(e);
    if located {
        eprint!("{msg}");
        if !msg.ends_with('\n') {
            eprintln!();
        }
    } else {
        eprintln!("error: {msg}");
    }
}

/// The error and its causes, `: `-separated; a cause is left out when the text before it
/// already says it (most errors print their own source).
fn error_text(e: &anyhow::Error) -> String {
    let mut msg = e.to_string();
    for cause in e.chain().skip(1) {
        let cause = cause.to_string();
        if !msg.contains(&cause) {
            msg.push_str(": ");
            msg.push_str(&cause);
        }
    }
    msg
}

/// Most characters of a mutation shown in the per-mutant table (the JSON keeps it whole).
const MUTATION_WIDTH: usize = 60;

/// `text` on one line: every run of whitespace (line breaks included) becomes one space, and
/// text longer than `max` characters is cut with `…`.
fn one_line(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let mut cut: String = flat.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The per-mutant table and the summary of a run, on stdout.
pub fn print_run(report: &RunReport) {
    let s = &report.summary;
    println!(
        "{:>4}  {:<32} {:<8} {:<28} {:<11} {:>5}  kill",
        "id", "location", "operator", "mutation", "verdict", "depth"
    );
    for r in &s.results {
        let verdict = match r.outcome {
            MutantVerdict::Error => "ERROR",
            v => v.name(),
        };
        println!(
            "{:>4}  {:<32} {:<8} {:<28} {:<11} {:>5}  {}",
            r.id,
            r.location,
            r.operator,
            one_line(
                &format!("{} → {}", r.original, r.replacement),
                MUTATION_WIDTH
            ),
            verdict,
            r.depth.map(|d| d.to_string()).unwrap_or_else(|| "-".into()),
            r.kill_class.map_or("-", KillClass::name)
        );
        if r.outcome == MutantVerdict::Error {
            println!("      {}", r.reason);
        }
    }
    let c = &s.counts;
    println!(
        "\n{} mutants: {} killed, {} equivalent, {} unknown, {} invalid, {} errors; mutation score {} (killed / valid non-equivalent)",
        s.mutants,
        c.killed,
        c.equivalent,
        c.unknown,
        c.invalid,
        c.errors,
        c.score()
            .map_or_else(|| "n/a (nothing to kill)".to_string(), |p| format!("{p:.1}%"))
    );
    if c.killed > 0 {
        let classes = Counts::of(&s.results);
        let [definite, potential, controlled] = KillClass::ALL.map(|k| classes.kills_of(k));
        println!(
            "killing tests: {definite} definite (the inputs kill whatever the system chooses), \
             {potential} potential (the mutant fails for some of its choices), {controlled} \
             need control of nondeterminism (nd values in the test files)"
        );
        println!("{}", class_scores(&classes));
    }
    for line in report.suite_lines() {
        println!("{line}");
    }
}

/// The line with the mutation score per kill class (`docs/method.md` §11.3): counting the
/// definite kills only, the potential and definite ones, and every kill.
fn class_scores(c: &Counts) -> String {
    let show = |p: Option<f64>| p.map_or_else(|| "n/a".to_string(), |p| format!("{p:.1}%"));
    format!(
        "mutation score by kill class: definite {}, potential or better {}, any kill {} \
         (of the valid non-equivalent mutants)",
        show(c.score_at_least(KillClass::Definite)),
        show(c.score_at_least(KillClass::Potential)),
        show(c.score())
    )
}

/// A progress bar on stderr: mutants decided, counts per verdict, ETA.
pub struct Bar {
    bar: Option<ProgressBar>,
}

impl Bar {
    /// A bar that appears when a run starts.
    pub fn new() -> Self {
        Bar { bar: None }
    }
}

fn message(c: &Counts) -> String {
    format!(
        "killed {}  equivalent {}  unknown {}  invalid {}  errors {}",
        c.killed, c.equivalent, c.unknown, c.invalid, c.errors
    )
}

impl Progress for Bar {
    fn started(&mut self, total: usize, done: &Counts) {
        let bar = ProgressBar::new(total as u64);
        bar.set_position(done.total() as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:30} {pos}/{len} mutants  {msg}  ETA {eta}")
        {
            bar.set_style(style);
        }
        self.bar = Some(bar);
    }

    fn decided(&mut self, _record: &MutantRecord, counts: &Counts) {
        if let Some(bar) = &self.bar {
            bar.set_message(message(counts));
            bar.inc(1);
        }
    }

    fn warning(&mut self, message: &str) {
        match &self.bar {
            Some(bar) => bar.println(format!("warning: {message}")),
            None => eprintln!("warning: {message}"),
        }
    }

    fn finished(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl TableProgress for Bar {
    fn as_progress(&mut self) -> &mut dyn Progress {
        self
    }

    fn note(&mut self, line: &str) {
        eprintln!("{line}");
    }

    fn diagnostics(&mut self, diagnostics: &[Diagnostic]) {
        print_diagnostics(diagnostics);
    }
}

#[cfg(test)]
mod tests {
    use super::{class_scores, error_text, one_line};
    use hypermut_testgen::{Counts, KillClass, MutantRecord, MutantVerdict};

    #[test]
    fn the_class_score_line_counts_each_class_over_the_killable_mutants() {
        // 4 kills (definite, potential, potential, controlled), 1 equivalent, 1 unknown:
        // 5 mutants left to kill.
        let classes = [
            Some(KillClass::Definite),
            Some(KillClass::Potential),
            Some(KillClass::Potential),
            Some(KillClass::Controlled),
        ];
        let mut records: Vec<MutantRecord> = classes
            .iter()
            .enumerate()
            .map(|(id, class)| MutantRecord {
                outcome: MutantVerdict::Killed,
                kill_class: *class,
                ..MutantRecord::undecided(id, "ror", "m.smv:1:1", "<", "<=")
            })
            .collect();
        for (id, v) in [(4, MutantVerdict::Equivalent), (5, MutantVerdict::Unknown)] {
            records.push(MutantRecord {
                outcome: v,
                ..MutantRecord::undecided(id, "ror", "m.smv:1:1", "<", "<=")
            });
        }
        let line = class_scores(&Counts::of(&records));
        // 1/5, 3/5 and 4/5.
        assert!(
            line.contains("definite 20.0%, potential or better 60.0%, any kill 80.0%"),
            "{line}"
        );
        assert!(class_scores(&Counts::default()).contains("definite n/a"));
    }

    /// A cause that the message already includes is said once; another is appended.
    #[test]
    fn error_causes_are_said_once() {
        let io = || std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let said = anyhow::Error::new(io()).context(format!("m.smv: cannot read: {}", io()));
        assert_eq!(error_text(&said), "m.smv: cannot read: no such file");
        let unsaid = anyhow::Error::new(io()).context("m.smv: cannot read");
        assert_eq!(error_text(&unsaid), "m.smv: cannot read: no such file");
    }

    #[test]
    fn mutations_are_shown_on_one_shortened_line() {
        let multi = "case\n      a : b;\n      TRUE : c;\n    esac → out";
        assert_eq!(one_line(multi, 60), "case a : b; TRUE : c; esac → out");
        let long = one_line(&"x ".repeat(50), 10);
        assert_eq!(long.chars().count(), 10);
        assert!(long.ends_with('…') && !long.contains('\n'));
        assert_eq!(one_line("2 → 1", 60), "2 → 1");
    }
}
