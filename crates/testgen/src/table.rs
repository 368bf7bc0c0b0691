//! Tables 3 and 4 of the method paper (`docs/method.md` §11) for a set of models:
//! each model is run (or its earlier results are reused), then one row per model and the
//! aggregates μ, σ, min and max are rendered as Markdown and CSV.
//!
//! Counting: percentages are over the *valid* mutants (all mutants minus the invalid ones,
//! which NuSMV would reject); invalid mutants have their own column. The killed mutants are
//! also split by kill class (definite, potential, controlled), and the mutation score is given
//! three times: counting every kill, the potential and definite kills, and the definite kills
//! only, each over the valid non-equivalent mutants (`docs/method.md` §11.3). Test length is
//! the paper's, the depth n of the killing test (n + 1 steps). Times are sums / means of the
//! per-mutant wall-clock times, as if the mutants were decided one after another. σ is the
//! population standard deviation over the models that have the value.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use hypermut_ir::{Role, System};
use hypermut_mutate::make_controllable;

use crate::decide::original_ands;
use crate::error::{Error, Result};
use crate::filelist::ModelSource;
use crate::load::{language_of, FrontendOptions, Language, Model};
use crate::record::{Counts, KillClass, MutantRecord, MutantVerdict, Summary};
use crate::run::{run, Options, Progress};
use crate::store::Existing;

/// Options of a table run.
#[derive(Clone, Debug, PartialEq)]
pub struct TableOptions {
    /// The models: NuSMV `.smv` or Verilog `.v` files, one per model, or file lists (`.f`,
    /// [`crate::filelist`]) naming the files of one Verilog design each.
    pub models: Vec<PathBuf>,
    /// How each model is run (`out` and `existing` are replaced per model: see `out`,
    /// `fresh`).
    pub run: Options,
    /// Folder of the per-model results directories (`out/<model name>`). Results already
    /// there for the same model and options are reused and interrupted runs continued.
    pub out: PathBuf,
    /// Discard earlier results and decide every mutant again.
    pub fresh: bool,
    /// Front-end options for every model; each model takes those of its language
    /// ([`FrontendOptions::for_language`]).
    pub frontend: FrontendOptions,
}

/// One model's row of Tables 3 and 4.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelRow {
    /// Model path as given.
    pub model: String,
    /// Input variables of the model (before the nd transformation).
    pub inputs: usize,
    /// Outputs.
    pub outputs: usize,
    /// State variables (state and frozen).
    pub latches: usize,
    /// AND gates of the model's circuit (after the nd transformation).
    pub ands: usize,
    /// All mutants, invalid ones included.
    pub mutants: usize,
    /// Invalid mutants.
    pub invalid: usize,
    /// Killed, equivalent, undecided (timeout) and failed mutants.
    pub killed: usize,
    /// Equivalent mutants.
    pub equivalent: usize,
    /// Undecided mutants.
    pub unknown: usize,
    /// Failed mutants.
    pub errors: usize,
    /// Killed mutants whose test kills definitely.
    pub definite: usize,
    /// Killed mutants whose test kills potentially.
    pub potential: usize,
    /// Killed mutants whose test kills only under controlled nondeterminism.
    pub controlled: usize,
    /// Mean |ANDs(conditional mutant) − ANDs(original)| / ANDs(original), in %.
    pub dgates_pct: Option<f64>,
    /// Killed / valid mutants, in %.
    pub killed_pct: Option<f64>,
    /// Killed definitely / valid mutants, in %.
    pub definite_pct: Option<f64>,
    /// Killed potentially / valid mutants, in %.
    pub potential_pct: Option<f64>,
    /// Killed only under controlled nondeterminism / valid mutants, in %.
    pub controlled_pct: Option<f64>,
    /// Equivalent / valid mutants, in %.
    pub equiv_pct: Option<f64>,
    /// Undecided / valid mutants, in %.
    pub timeout_pct: Option<f64>,
    /// Mean depth of the killing tests.
    pub avg_test_len: Option<f64>,
    /// Largest depth of a killing test.
    pub max_test_len: Option<f64>,
    /// Mean time per killed mutant, in seconds.
    pub avg_time_killed_s: Option<f64>,
    /// Mean time per equivalent mutant, in seconds.
    pub avg_time_equiv_s: Option<f64>,
    /// Sum of the per-mutant times, in seconds.
    pub total_time_s: f64,
    /// Mutation score in %: killed / (valid − equivalent).
    pub score_pct: Option<f64>,
    /// Potential-or-better score in %: (definite + potential) / (valid − equivalent).
    pub score_potential_pct: Option<f64>,
    /// Definite score in %: definite / (valid − equivalent).
    pub score_definite_pct: Option<f64>,
    /// Tests of the minimised suite, if it was built.
    pub suite_tests: Option<usize>,
}

fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

fn pct(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| 100.0 * part as f64 / whole as f64)
}

/// ΔGates of one mutant, in %.
fn dgates(r: &MutantRecord) -> Option<f64> {
    match (r.ands_orig, r.ands_cm) {
        (Some(o), Some(c)) if o > 0 => Some(100.0 * (c as f64 - o as f64).abs() / o as f64),
        _ => None,
    }
}

/// The row of one model from its system and summary.
pub fn model_row(sys: &System, ands: usize, s: &Summary) -> ModelRow {
    let rs = &s.results;
    let of = |o: MutantVerdict| rs.iter().filter(move |r| r.outcome == o);
    let secs = |r: &MutantRecord| r.millis as f64 / 1000.0;
    let valid = s.mutants - s.counts.invalid;
    let depths: Vec<f64> = of(MutantVerdict::Killed)
        .filter_map(|r| r.depth)
        .map(|d| d as f64)
        .collect();
    let d: Vec<f64> = rs.iter().filter_map(dgates).collect();
    let killed_times: Vec<f64> = of(MutantVerdict::Killed).map(secs).collect();
    let equiv_times: Vec<f64> = of(MutantVerdict::Equivalent).map(secs).collect();
    // The classes are counted from the records, so that summaries written before the class
    // counts existed give them too.
    let classes = Counts::of(rs);
    ModelRow {
        model: s.model.clone(),
        inputs: sys.vars_with_role(Role::Input).len(),
        outputs: sys.outputs.len(),
        latches: sys.vars_with_role(Role::State).len() + sys.vars_with_role(Role::Frozen).len(),
        ands,
        mutants: s.mutants,
        invalid: s.counts.invalid,
        killed: s.counts.killed,
        equivalent: s.counts.equivalent,
        unknown: s.counts.unknown,
        errors: s.counts.errors,
        definite: classes.definite,
        potential: classes.potential,
        controlled: classes.controlled,
        dgates_pct: mean(&d),
        killed_pct: pct(s.counts.killed, valid),
        definite_pct: pct(classes.definite, valid),
        potential_pct: pct(classes.potential, valid),
        controlled_pct: pct(classes.controlled, valid),
        equiv_pct: pct(s.counts.equivalent, valid),
        timeout_pct: pct(s.counts.unknown, valid),
        avg_test_len: mean(&depths),
        max_test_len: depths.iter().copied().reduce(f64::max),
        avg_time_killed_s: mean(&killed_times),
        avg_time_equiv_s: mean(&equiv_times),
        total_time_s: rs.iter().map(secs).sum(),
        score_pct: classes.score(),
        score_potential_pct: classes.score_at_least(KillClass::Potential),
        score_definite_pct: classes.score_at_least(KillClass::Definite),
        suite_tests: None,
    }
}

/// A numeric column of the tables: header, CSV name, value.
type Column = (&'static str, &'static str, fn(&ModelRow) -> Option<f64>);

const TABLE3: &[Column] = &[
    ("#Input", "inputs", |r| Some(r.inputs as f64)),
    ("#Output", "outputs", |r| Some(r.outputs as f64)),
    ("#State", "latches", |r| Some(r.latches as f64)),
    ("#And", "ands", |r| Some(r.ands as f64)),
    ("ΔGates (%)", "dgates_pct", |r| r.dgates_pct),
    ("#Mutants", "mutants", |r| Some(r.mutants as f64)),
    ("#Invalid", "invalid", |r| Some(r.invalid as f64)),
];

const TABLE4: &[Column] = &[
    ("Killed (%)", "killed_pct", |r| r.killed_pct),
    ("Definite (%)", "definite_pct", |r| r.definite_pct),
    ("Potential (%)", "potential_pct", |r| r.potential_pct),
    ("Controlled (%)", "controlled_pct", |r| r.controlled_pct),
    ("Equivalent (%)", "equiv_pct", |r| r.equiv_pct),
    ("Avg. test length", "avg_test_len", |r| r.avg_test_len),
    ("Max test length", "max_test_len", |r| r.max_test_len),
    ("Avg. time killed (s)", "avg_time_killed_s", |r| {
        r.avg_time_killed_s
    }),
    ("Avg. time equiv. (s)", "avg_time_equiv_s", |r| {
        r.avg_time_equiv_s
    }),
    ("Timeout (%)", "timeout_pct", |r| r.timeout_pct),
    ("Total time (s)", "total_time_s", |r| Some(r.total_time_s)),
    ("Score (%)", "score_pct", |r| r.score_pct),
    ("Score ≥ potential (%)", "score_potential_pct", |r| {
        r.score_potential_pct
    }),
    ("Score definite (%)", "score_definite_pct", |r| {
        r.score_definite_pct
    }),
];

/// The per-model CSV: the `docs/formats.md` §10.1 columns (after `model`), then extra columns.
const CSV_COLUMNS: &[&str] = &[
    "inputs",
    "outputs",
    "latches",
    "ands",
    "mutants",
    "dgates_pct",
    "killed_pct",
    "equiv_pct",
    "timeout_pct",
    "avg_test_len",
    "max_test_len",
    "avg_time_killed_s",
    "avg_time_equiv_s",
    "total_time_s",
    "definite_pct",
    "potential_pct",
    "controlled_pct",
    "score_pct",
    "score_potential_pct",
    "score_definite_pct",
];

fn column(name: &str) -> Option<&'static Column> {
    TABLE3.iter().chain(TABLE4).find(|c| c.1 == name)
}

/// μ, σ (population), min, max of a column over the rows that have it.
fn aggregates(rows: &[ModelRow], f: fn(&ModelRow) -> Option<f64>) -> [Option<f64>; 4] {
    let xs: Vec<f64> = rows.iter().filter_map(f).collect();
    let Some(mu) = mean(&xs) else {
        return [None; 4];
    };
    let var = xs.iter().map(|x| (x - mu) * (x - mu)).sum::<f64>() / xs.len() as f64;
    [
        Some(mu),
        Some(var.sqrt()),
        xs.iter().copied().reduce(f64::min),
        xs.iter().copied().reduce(f64::max),
    ]
}

fn show(v: Option<f64>) -> String {
    match v {
        None => "–".into(),
        Some(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{x:.0}"),
        Some(x) => format!("{x:.2}"),
    }
}

fn csv_num(v: Option<f64>) -> String {
    match v {
        None => String::new(),
        Some(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{x:.0}"),
        Some(x) => format!("{x:.4}"),
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One Markdown table with a row per model and the four aggregate rows.
fn markdown_table(title: &str, rows: &[ModelRow], cols: &[Column]) -> String {
    let mut t = format!("### {title}\n\n| model |");
    for c in cols {
        let _ = write!(t, " {} |", c.0);
    }
    t.push_str("\n|---|");
    t.push_str(&"---:|".repeat(cols.len()));
    t.push('\n');
    for r in rows {
        let _ = write!(t, "| {} |", r.model);
        for c in cols {
            let _ = write!(t, " {} |", show((c.2)(r)));
        }
        t.push('\n');
    }
    let aggs: Vec<[Option<f64>; 4]> = cols.iter().map(|c| aggregates(rows, c.2)).collect();
    for (k, name) in ["μ", "σ", "min", "max"].iter().enumerate() {
        let _ = write!(t, "| **{name}** |");
        for a in &aggs {
            let _ = write!(t, " {} |", show(a[k]));
        }
        t.push('\n');
    }
    t
}

/// The title of Table 3.
pub const TABLE3_TITLE: &str = "Table 3: characteristics of the models";

/// The title of Table 4.
pub const TABLE4_TITLE: &str = "Table 4: results";

/// What the numbers of Tables 3 and 4 count.
pub const TABLES_NOTE: &str = "Percentages are over the valid mutants (invalid ones excluded); definite, potential and controlled split Killed by kill class; the scores are over the valid non-equivalent mutants, counting every kill, the potential and definite kills, and the definite kills only; test length is the depth n of the killing test; times are per-mutant wall-clock seconds.";

/// Tables 3 and 4 of one row as the Markdown shows them: per table its title and the
/// (column header, value) pairs (for reports of a single model, `crate::report`).
pub fn row_cells(row: &ModelRow) -> [(&'static str, Vec<(&'static str, String)>); 2] {
    let cells = |cols: &[Column]| cols.iter().map(|c| (c.0, show((c.2)(row)))).collect();
    [(TABLE3_TITLE, cells(TABLE3)), (TABLE4_TITLE, cells(TABLE4))]
}

/// Tables 3 and 4 as Markdown.
pub fn markdown(rows: &[ModelRow]) -> String {
    format!(
        "{}\n{}\n{TABLES_NOTE}\n",
        markdown_table(TABLE3_TITLE, rows, TABLE3),
        markdown_table(TABLE4_TITLE, rows, TABLE4)
    )
}

/// The per-model CSV (`docs/formats.md` §10.1: `model`, the Table 3/4 values, then `invalid,
/// unknown, errors, killed, equivalent, suite_tests, definite, potential, controlled`), with
/// the aggregate rows `μ`, `σ`, `min`, `max` at the end.
pub fn model_csv(rows: &[ModelRow]) -> String {
    let mut t = format!(
        "model,{},invalid,unknown,errors,killed,equivalent,suite_tests,definite,potential,controlled\n",
        CSV_COLUMNS.join(",")
    );
    let value = |name: &str, r: &ModelRow| column(name).and_then(|c| (c.2)(r));
    for r in rows {
        let nums: Vec<String> = CSV_COLUMNS.iter().map(|n| csv_num(value(n, r))).collect();
        let _ = writeln!(
            t,
            "{},{},{},{},{},{},{},{},{},{},{}",
            csv_field(&r.model),
            nums.join(","),
            r.invalid,
            r.unknown,
            r.errors,
            r.killed,
            r.equivalent,
            r.suite_tests.map(|n| n.to_string()).unwrap_or_default(),
            r.definite,
            r.potential,
            r.controlled
        );
    }
    for (k, name) in ["μ", "σ", "min", "max"].iter().enumerate() {
        let nums: Vec<String> = CSV_COLUMNS
            .iter()
            .map(|n| match column(n) {
                Some(c) => csv_num(aggregates(rows, c.2)[k]),
                None => String::new(),
            })
            .collect();
        let _ = writeln!(t, "{name},{},,,,,,,,,", nums.join(","));
    }
    t
}

/// The verdict column of the per-mutant CSV.
fn verdict(r: &MutantRecord) -> &'static str {
    match r.outcome {
        MutantVerdict::Killed => "killed",
        MutantVerdict::Equivalent if r.engine.as_deref() == Some("static") => "equivalent-static",
        MutantVerdict::Equivalent => "equivalent",
        MutantVerdict::Unknown => "timeout",
        MutantVerdict::Invalid => "invalid",
        MutantVerdict::Error => "error",
    }
}

/// The per-mutant CSV rows of one model (`docs/formats.md` §10.2). A kill's kind is its class
/// (`definite`, `potential`, `controlled`); for records without one (written before classes
/// existed) `nd` tells whether the model has nondeterminism (`controllable-nd`) or not (`det`).
pub fn mutant_csv_rows(s: &Summary, nd: bool) -> String {
    let mut t = String::new();
    for r in &s.results {
        let killed = r.outcome == MutantVerdict::Killed;
        let kind = match (killed, r.kill_class, nd) {
            (false, _, _) => "",
            (true, Some(class), _) => class.name(),
            (true, None, false) => "det",
            (true, None, true) => "controllable-nd",
        };
        let opt = |v: Option<usize>| v.map(|x| x.to_string()).unwrap_or_default();
        let _ = writeln!(
            t,
            "{},{},{},{},{},{},{},{},{},{:.3},{},{}",
            csv_field(&s.model),
            r.id,
            csv_field(&r.operator),
            csv_field(&r.location),
            verdict(r),
            kind,
            opt(r.depth),
            opt(r.depth.filter(|_| killed).map(|d| d + 1)),
            r.engine.as_deref().unwrap_or(""),
            r.millis as f64 / 1000.0,
            opt(r.ands_orig),
            opt(r.ands_cm),
        );
    }
    t
}

/// Header of the per-mutant CSV.
pub const MUTANT_CSV_HEADER: &str =
    "model,mutant_id,operator,site,verdict,kill_kind,depth,test_steps,engine,time_s,ands_orig,ands_cm\n";

/// Whether a model given to a table is a file list (`.f`): the files of one Verilog design.
pub fn is_file_list(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "f")
}

/// A results directory name per model: the file stem, made unique.
fn result_dirs(models: &[PathBuf]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for m in models {
        let stem = m
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("model")
            .to_string();
        let mut name = stem.clone();
        let mut k = 1;
        while names.contains(&name) {
            k += 1;
            name = format!("{stem}-{k}");
        }
        names.push(name);
    }
    names
}

/// Tables 3 and 4 of a model set, and the per-mutant rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Tables {
    /// One row per model.
    pub rows: Vec<ModelRow>,
    /// The per-mutant CSV, header included.
    pub mutant_csv: String,
}

impl Tables {
    /// Tables 3 and 4 as Markdown.
    pub fn markdown(&self) -> String {
        markdown(&self.rows)
    }

    /// The per-model CSV.
    pub fn model_csv(&self) -> String {
        model_csv(&self.rows)
    }
}

/// Runs every model of `options` (reusing and continuing earlier results unless `fresh`)
/// and computes the tables. `progress` hears about each model's run; its notes say where
/// each model's results are and describe its suite.
pub fn tables(options: &TableOptions, progress: &mut dyn TableProgress) -> Result<Tables> {
    let mut rows = Vec::new();
    let mut per_mutant = String::from(MUTANT_CSV_HEADER);
    for (path, dir) in options.models.iter().zip(result_dirs(&options.models)) {
        let list = is_file_list(path);
        let verilog = list || matches!(language_of(path), Ok(Language::Verilog));
        let language = if verilog {
            Language::Verilog
        } else {
            Language::Smv
        };
        let frontend = options.frontend.for_language(language);
        let at = |e: Error| e.context(path.display().to_string());
        let (model, diagnostics) = if list {
            let (mut model, diagnostics) =
                Model::load_sources(&[ModelSource::List(path.clone())], &frontend).map_err(at)?;
            model.name = path.display().to_string();
            (model, diagnostics)
        } else {
            Model::load(std::slice::from_ref(path), &frontend).map_err(at)?
        };
        progress.diagnostics(&diagnostics);
        let run_options = Options {
            out: options.out.join(dir),
            existing: if options.fresh {
                Existing::Discard
            } else {
                Existing::Resume
            },
            ..options.run.clone()
        };
        progress.note(&format!(
            "{}: results in {}",
            path.display(),
            run_options.out.display()
        ));
        let report = run(&model, &run_options, progress.as_progress()).map_err(at)?;
        for line in report.suite_lines() {
            progress.note(&format!("  {line}"));
        }
        let ands = original_ands(&model.system)?;
        let mut nd_sys = model.system.clone();
        let nd = !make_controllable(&mut nd_sys, &[])?.is_empty();
        let mut row = model_row(&model.system, ands, &report.summary);
        row.suite_tests = report.suite.as_ref().ok().map(|s| s.sizes.minimised);
        per_mutant.push_str(&mutant_csv_rows(&report.summary, nd));
        rows.push(row);
    }
    Ok(Tables {
        rows,
        mutant_csv: per_mutant,
    })
}

/// Hears about a table run: each model's run, and notes between runs.
pub trait TableProgress {
    /// The progress of one model's run.
    fn as_progress(&mut self) -> &mut dyn Progress;

    /// A line about the table run (where results are, the suite of a model).
    fn note(&mut self, line: &str) {
        let _ = line;
    }

    /// The front-end's diagnostics of a model.
    fn diagnostics(&mut self, diagnostics: &[hypermut_ir::Diagnostic]) {
        let _ = diagnostics;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: usize, outcome: MutantVerdict, depth: Option<usize>, millis: u64) -> MutantRecord {
        MutantRecord {
            outcome,
            depth,
            millis,
            ands_orig: Some(100),
            ands_cm: Some(100 + 10 * id),
            ..MutantRecord::undecided(id, "ror", "m.smv:1:1", "<", "<=")
        }
    }

    fn summary(results: Vec<MutantRecord>) -> Summary {
        Summary::new("m.smv", "", 20, results)
    }

    #[test]
    fn row_numbers_by_hand() {
        // 5 mutants: 2 killed (depths 1, 4; 1 s, 3 s), 1 equivalent (2 s), 1 unknown (4 s),
        // 1 invalid (0 s); ΔGates of mutant k is 10·k % → mean (0+10+20+30+40)/5 = 20.
        let s = summary(vec![
            rec(0, MutantVerdict::Killed, Some(1), 1000),
            rec(1, MutantVerdict::Killed, Some(4), 3000),
            rec(2, MutantVerdict::Equivalent, None, 2000),
            rec(3, MutantVerdict::Unknown, None, 4000),
            rec(4, MutantVerdict::Invalid, None, 0),
        ]);
        let r = model_row(&System::new("m"), 100, &s);
        assert_eq!(r.mutants, 5);
        assert_eq!(r.invalid, 1);
        assert_eq!(r.killed_pct, Some(50.0));
        assert_eq!(r.equiv_pct, Some(25.0));
        assert_eq!(r.timeout_pct, Some(25.0));
        assert_eq!(r.avg_test_len, Some(2.5));
        assert_eq!(r.max_test_len, Some(4.0));
        assert_eq!(r.avg_time_killed_s, Some(2.0));
        assert_eq!(r.avg_time_equiv_s, Some(2.0));
        assert_eq!(r.total_time_s, 10.0);
        assert_eq!(r.dgates_pct, Some(20.0));
        // No kill has a class: the class columns are 0 %, the class scores 0 of the
        // 5 − 1 invalid − 1 equivalent = 3 mutants left to kill.
        assert_eq!((r.definite_pct, r.controlled_pct), (Some(0.0), Some(0.0)));
        assert!((r.score_pct.expect("score") - 200.0 / 3.0).abs() < 1e-9);
        assert_eq!(r.score_definite_pct, Some(0.0));
    }

    #[test]
    fn class_columns_and_scores_match_the_records() {
        use crate::record::KillClass;
        // A mix of verdicts and classes from a small generator; every number of the row is
        // recomputed here by filtering the records.
        let mut rng = hypermut_mutate::SplitMix64::new(7);
        let verdicts = MutantVerdict::ALL;
        let classes = [
            Some(KillClass::Definite),
            Some(KillClass::Potential),
            Some(KillClass::Controlled),
            None,
        ];
        let records: Vec<MutantRecord> = (0..200)
            .map(|id| {
                let outcome = verdicts[rng.next() as usize % verdicts.len()];
                let mut r = rec(id, outcome, Some(1), 10);
                r.kill_class = classes[rng.next() as usize % classes.len()];
                r
            })
            .collect();
        let row = model_row(&System::new("m"), 100, &summary(records.clone()));
        let count = |p: &dyn Fn(&MutantRecord) -> bool| records.iter().filter(|r| p(r)).count();
        let killed_as = |c: KillClass| {
            count(&|r| r.outcome == MutantVerdict::Killed && r.kill_class == Some(c))
        };
        let valid = count(&|r| r.outcome != MutantVerdict::Invalid) as f64;
        let killable = valid - count(&|r| r.outcome == MutantVerdict::Equivalent) as f64;
        let (d, p, c) = (
            killed_as(KillClass::Definite),
            killed_as(KillClass::Potential),
            killed_as(KillClass::Controlled),
        );
        let killed = count(&|r| r.outcome == MutantVerdict::Killed);
        assert!(
            d > 0 && p > 0 && c > 0 && d + p + c < killed,
            "every case occurs"
        );
        assert_eq!((row.definite, row.potential, row.controlled), (d, p, c));
        let near = |got: Option<f64>, want: f64| {
            let got = got.expect("a value");
            assert!((got - want).abs() < 1e-9, "{got} vs {want}");
        };
        near(row.definite_pct, 100.0 * d as f64 / valid);
        near(row.potential_pct, 100.0 * p as f64 / valid);
        near(row.controlled_pct, 100.0 * c as f64 / valid);
        near(row.killed_pct, 100.0 * killed as f64 / valid);
        near(row.score_pct, 100.0 * killed as f64 / killable);
        near(row.score_potential_pct, 100.0 * (d + p) as f64 / killable);
        near(row.score_definite_pct, 100.0 * d as f64 / killable);
        // The Markdown shows the class columns and the three scores.
        let md = markdown(std::slice::from_ref(&row));
        for h in [
            "Definite (%)",
            "Potential (%)",
            "Controlled (%)",
            "Score (%)",
            "Score ≥ potential (%)",
            "Score definite (%)",
        ] {
            assert!(md.contains(&format!(" {h} |")), "{h}: {md}");
        }
        // The CSV row carries the same numbers under the documented names.
        let csv = model_csv(&[row]);
        let mut lines = csv.lines();
        let header: Vec<&str> = lines.next().expect("header").split(',').collect();
        let values: Vec<&str> = lines.next().expect("a row").split(',').collect();
        let field = |name: &str| -> f64 {
            let k = header.iter().position(|h| *h == name).expect(name);
            values[k].parse().expect("a number")
        };
        assert_eq!(field("definite"), d as f64);
        assert_eq!(field("controlled"), c as f64);
        assert!((field("score_definite_pct") - 100.0 * d as f64 / killable).abs() < 1e-4);
        assert!((field("potential_pct") - 100.0 * p as f64 / valid).abs() < 1e-4);
    }

    #[test]
    fn no_valid_mutants_gives_empty_percentages() {
        let s = summary(vec![rec(0, MutantVerdict::Invalid, None, 5)]);
        let r = model_row(&System::new("m"), 0, &s);
        assert_eq!(r.killed_pct, None);
        assert_eq!(r.avg_test_len, None);
        let csv = model_csv(&[r]);
        let line = csv.lines().nth(1).expect("a row");
        assert!(line.starts_with("m.smv,0,0,0,0,1,"), "{line}");
    }

    #[test]
    fn aggregates_by_hand() {
        let rows: Vec<ModelRow> = [2.0, 4.0, 6.0]
            .iter()
            .map(|x| ModelRow {
                killed_pct: Some(*x),
                ..ModelRow::default()
            })
            .chain(std::iter::once(ModelRow::default()))
            .collect();
        let [mu, sigma, min, max] = aggregates(&rows, |r| r.killed_pct);
        assert_eq!(mu, Some(4.0));
        assert!((sigma.expect("σ") - (8.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!((min, max), (Some(2.0), Some(6.0)));
        assert_eq!(aggregates(&[], |r| r.killed_pct), [None; 4]);
    }

    #[test]
    fn csv_layout_and_quoting() {
        let s = summary(vec![rec(0, MutantVerdict::Killed, Some(2), 1500)]);
        let r = model_row(&System::new("m"), 100, &s);
        let csv = model_csv(&[r]);
        let header: Vec<&str> = csv.lines().next().expect("header").split(',').collect();
        assert_eq!(&header[1..1 + CSV_COLUMNS.len()], CSV_COLUMNS);
        assert_eq!(
            &header[1 + CSV_COLUMNS.len()..],
            [
                "invalid",
                "unknown",
                "errors",
                "killed",
                "equivalent",
                "suite_tests",
                "definite",
                "potential",
                "controlled"
            ]
        );
        for line in csv.lines() {
            assert_eq!(line.split(',').count(), header.len(), "{line}");
        }
        assert_eq!(csv.lines().count(), 1 + 1 + 4);
        let m = mutant_csv_rows(&s, true);
        assert_eq!(
            m.trim(),
            "m.smv,0,ror,m.smv:1:1,killed,controllable-nd,2,3,,1.500,100,100"
        );
        let mut potential = rec(0, MutantVerdict::Killed, Some(2), 1500);
        potential.kill_class = Some(crate::record::KillClass::Potential);
        let m = mutant_csv_rows(&summary(vec![potential]), true);
        assert!(m.contains(",killed,potential,2,"), "{m}");
        assert_eq!(csv_field("a,b\"c"), "\"a,b\"\"c\"");
        assert_eq!(
            result_dirs(&["a/x.smv".into(), "b/x.smv".into()]),
            ["x", "x-2"]
        );
    }
}
