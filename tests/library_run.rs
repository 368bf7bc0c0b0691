//! The whole job in-process through the library API (`hypermut_testgen::run`), without the
//! binary: every selected mutant is decided and reported to the `Progress` once, the counts
//! add up, the files on disk say what the returned report says, every killing test replays
//! on the original and on the mutant simulated separately, and a resumed run decides nothing
//! again.

use std::collections::HashMap;
use std::path::PathBuf;

use hypermut_ir::{Frame, Value};
use hypermut_mutate::{conditional, enumerate, make_controllable, Operator};
use hypermut_testgen::{
    Counts, DecideOptions, Existing, FrontendOptions, Model, MutantRecord, MutantVerdict, Options,
    Progress, Summary, TestFile,
};
use hypermut_testkit::sim::{parse_test_value, selector_kills};

const BEVERAGE: &str = "models/smv/beverage.smv";

/// Remembers what the run told it.
#[derive(Default)]
struct Recorder {
    total: Option<usize>,
    already: Counts,
    decided: Vec<usize>,
    last_counts: Counts,
    finished: usize,
}

impl Progress for Recorder {
    fn started(&mut self, total: usize, done: &Counts) {
        self.total = Some(total);
        self.already = *done;
    }
    fn decided(&mut self, record: &MutantRecord, counts: &Counts) {
        self.decided.push(record.id);
        self.last_counts = *counts;
    }
    fn warning(&mut self, message: &str) {
        panic!("unexpected warning: {message}");
    }
    fn finished(&mut self) {
        self.finished += 1;
    }
}

fn beverage() -> Model {
    let path = hypermut_testkit::repo::path(BEVERAGE);
    let (model, diagnostics) =
        Model::load(&[path], &FrontendOptions::default()).expect("beverage loads");
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    model
}

fn options(out: PathBuf, existing: Existing) -> Options {
    Options {
        decide: DecideOptions {
            bound: 12,
            ..DecideOptions::default()
        },
        jobs: Some(2),
        out,
        existing,
        ..Options::default()
    }
}

/// Replays `file` (the test of `rec`) on the conditional mutant rebuilt from the source:
/// the original must give the expected outputs in every frame, and the mutant must be told
/// apart by the time the test ends.
fn replay(model: &Model, rec: &MutantRecord, file: &TestFile) {
    let sys = &model.system;
    let mutant = enumerate(sys, &Operator::ALL)
        .into_iter()
        .find(|m| m.id == rec.id)
        .expect("the mutant exists");
    assert_eq!(
        (mutant.replacement.as_str(), mutant.operator.name()),
        (rec.replacement.as_str(), rec.operator.as_str())
    );
    let mut cm = conditional(sys, &mutant).expect("conditional mutant");
    make_controllable(&mut cm.system, &[cm.mut_var]).expect("nd transformation");
    let s = &cm.system;
    let frames: Vec<Frame> = file
        .test
        .frames
        .iter()
        .map(|f| {
            let mut fr = Frame::default();
            for (name, text) in f.inputs.iter().chain(&f.nd) {
                let var = s.var_by_name(name).expect("a known input");
                let value = parse_test_value(s, s.var(var).ty, text).expect("a valid value");
                fr.inputs.insert(var, value);
            }
            fr
        })
        .collect();
    assert_eq!(frames.len(), file.test.depth + 1, "mutant {}", rec.id);
    assert_eq!(
        selector_kills(s, cm.mut_var, &frames),
        Some(true),
        "mutant {}: the test does not kill it in simulation",
        rec.id
    );
    if file.test.blocked.is_some() {
        return;
    }
    let trace = hypermut_ir::Interpreter::new(s)
        .run(&HashMap::from([(cm.mut_var, Value::Bool(false))]), &frames)
        .expect("the original runs");
    for (k, f) in file.test.frames.iter().enumerate() {
        for (o, value) in s.outputs.iter().zip(&trace.outputs[k]) {
            let expected = parse_test_value(s, s.ty(o.expr), &f.outputs[&o.name])
                .expect("a valid expected output");
            assert_eq!(*value, expected, "mutant {}, frame {k}, {}", rec.id, o.name);
        }
    }
}

#[test]
fn a_run_through_the_library_decides_every_mutant_and_its_tests_replay() {
    let model = beverage();
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");

    let mut progress = Recorder::default();
    let report = hypermut_testgen::run(
        &model,
        &options(out.clone(), Existing::Refuse),
        &mut progress,
    )
    .expect("the run succeeds");
    let summary = &report.summary;

    // Every mutant was decided exactly once and reported to the progress.
    let selected = enumerate(&model.system, &Operator::ALL).len();
    assert_eq!(summary.mutants, selected);
    assert_eq!(progress.total, Some(selected));
    assert_eq!(progress.already.total(), 0);
    let mut ids = progress.decided.clone();
    ids.sort_unstable();
    assert_eq!(ids, (0..selected).collect::<Vec<_>>());
    assert_eq!(progress.finished, 1);
    assert_eq!(progress.last_counts, summary.counts);
    assert_eq!(summary.counts, Counts::of(&summary.results));
    assert_eq!(summary.counts.total(), selected);
    assert_eq!(summary.counts.errors, 0);
    assert!(summary.counts.killed > 0 && summary.counts.equivalent > 0);

    // The files say what the report says.
    let on_disk: Summary = serde_json::from_str(
        &std::fs::read_to_string(out.join("summary.json")).expect("summary.json"),
    )
    .expect("summary.json parses");
    assert_eq!(&on_disk, summary);
    let lines = std::fs::read_to_string(out.join("results.jsonl")).expect("results.jsonl");
    assert_eq!(lines.lines().count(), selected);
    let suite = report.suite.as_ref().expect("a suite");
    assert!(out.join("suite.json").is_file());
    assert!(!suite.minimised.is_empty());

    // Every killing test replays on original and mutant, simulated separately.
    for rec in &summary.results {
        let test = rec.test.as_ref();
        assert_eq!(
            test.is_some(),
            rec.outcome == MutantVerdict::Killed,
            "{rec:?}"
        );
        if let Some(rel) = test {
            let file: TestFile =
                serde_json::from_str(&std::fs::read_to_string(out.join(rel)).expect("test file"))
                    .expect("test file parses");
            assert_eq!(file.test.mutant, rec.id);
            assert_eq!(Some(file.test.depth), rec.depth);
            replay(&model, rec, &file);
        }
    }

    // Resuming decides nothing again and reports the same counts.
    let mut again = Recorder::default();
    let resumed =
        hypermut_testgen::run(&model, &options(out.clone(), Existing::Resume), &mut again)
            .expect("the resumed run succeeds");
    assert!(again.decided.is_empty(), "{:?}", again.decided);
    assert_eq!(again.already, summary.counts);
    assert_eq!(resumed.summary.counts, summary.counts);

    // Refusing a directory that holds results is an error, not a silent overwrite.
    let refused = hypermut_testgen::run(
        &model,
        &options(out, Existing::Refuse),
        &mut Recorder::default(),
    );
    assert!(refused.is_err());
}
