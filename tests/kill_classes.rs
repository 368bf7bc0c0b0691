//! Kill classes checked by brute force: for every killed mutant of small nondeterministic
//! models whose test is short enough, an enumerator written apart from the SAT-based
//! classification runs the word-level conditional mutant (no nd transformation) under the
//! test's inputs with every combination of choices, free next values and power-up values, and
//! derives the class from the sets of output sequences (`docs/method.md` §4.2):
//! definite when no original behaviour answers like any mutant behaviour; potential when
//! the mutant's behaviour with the test's own nd values is no behaviour of the original;
//! controlled otherwise. It must equal the class hypermut reports.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use hypermut_ir::{Frame, Interpreter, Role, System, Value, VarId};
use hypermut_mutate::{conditional, enumerate, make_controllable, Operator};
use hypermut_testgen::{
    DecideOptions, Existing, FrontendOptions, KillClass, Model, MutantVerdict, Options, Quiet,
    TestFile,
};
use hypermut_testkit::sim::{parse_test_value, value_of_code};

/// Largest number of runs enumerated per side and mutant.
const MAX_RUNS: u64 = 2_000;

/// Most killed mutants checked per model and class (the shallowest tests first).
const MAX_PER_CLASS: usize = 10;

/// A model with choices, free next values and a power-up value, small enough to enumerate.
const TINY: &str = "-- @output o\nMODULE main\nIVAR go : boolean;\nVAR s : 0..3; c : boolean;\n\
    ASSIGN init(s) := 0;\n\
    next(s) := case go & s < 2 : s + {1, 2}; go : 0; TRUE : s; esac;\n\
    next(c) := {TRUE, FALSE};\n\
    DEFINE o := s = 3 | (c & s = 2);\n";

/// Every value of the type of `v`, or `None` if there are too many.
fn domain(sys: &System, v: VarId) -> Option<Vec<Value>> {
    let ty = sys.var(v).ty;
    let n = ty.cardinality(&sys.enums).filter(|n| *n <= 16)?;
    Some((0..n).map(|c| value_of_code(sys, ty, c)).collect())
}

/// One way the system resolves its nondeterminism in one frame.
#[derive(Clone, Debug, Default)]
struct Resolution {
    choices: Vec<(u32, u32)>,
    free_next: Vec<(VarId, Value)>,
}

/// Every resolution of one frame: each choice site's alternative, each free next value.
fn resolutions(sys: &System) -> Option<Vec<Resolution>> {
    let mut all = vec![Resolution::default()];
    for (i, c) in sys.choices.iter().enumerate() {
        all = all
            .into_iter()
            .flat_map(|r| {
                (0..c.arity.max(1)).map(move |k| {
                    let mut r = r.clone();
                    r.choices.push((i as u32, k));
                    r
                })
            })
            .collect();
    }
    for (i, v) in sys.vars.iter().enumerate() {
        if v.role == Role::State && v.next.is_none() {
            let d = domain(sys, VarId(i as u32))?;
            all = all
                .into_iter()
                .flat_map(|r| {
                    d.iter().map(move |val| {
                        let mut r = r.clone();
                        r.free_next.push((VarId(i as u32), val.clone()));
                        r
                    })
                })
                .collect();
        }
    }
    Some(all)
}

/// The output sequences of every behaviour of `sys` with selector `sel` = `side` under
/// `inputs` (one map per frame): all power-up values and all resolutions of every frame,
/// keeping the runs whose constraints hold in every frame. `None` if there are too many.
fn behaviours(
    sys: &System,
    sel: VarId,
    side: bool,
    inputs: &[HashMap<VarId, Value>],
) -> Option<HashSet<Vec<Vec<Value>>>> {
    let per_frame = resolutions(sys)?;
    let mut inits: Vec<HashMap<VarId, Value>> = vec![HashMap::from([(sel, Value::Bool(side))])];
    for (i, v) in sys.vars.iter().enumerate() {
        let id = VarId(i as u32);
        if v.role != Role::Input && v.init.is_none() && id != sel {
            let d = domain(sys, id)?;
            inits = inits
                .into_iter()
                .flat_map(|m| {
                    d.iter().map(move |val| {
                        let mut m = m.clone();
                        m.insert(id, val.clone());
                        m
                    })
                })
                .collect();
        }
    }
    let runs = (inits.len() as u64)
        .checked_mul((per_frame.len() as u64).checked_pow(u32::try_from(inputs.len()).ok()?)?)?;
    if runs > MAX_RUNS {
        return None;
    }
    let interp = Interpreter::new(sys);
    let mut found = HashSet::new();
    for init in &inits {
        let mut index = vec![0usize; inputs.len()];
        loop {
            let frames: Vec<Frame> = inputs
                .iter()
                .zip(&index)
                .map(|(ins, k)| Frame {
                    inputs: ins.clone(),
                    choices: per_frame[*k]
                        .choices
                        .iter()
                        .map(|(c, a)| (hypermut_ir::ChoiceId(*c), *a))
                        .collect(),
                    free_next: per_frame[*k].free_next.iter().cloned().collect(),
                })
                .collect();
            if let Ok(t) = interp.run(init, &frames) {
                if t.constraints_ok.iter().all(|ok| *ok) {
                    found.insert(t.outputs);
                }
            }
            // Next combination (odometer).
            let mut pos = 0;
            while pos < index.len() {
                index[pos] += 1;
                if index[pos] < per_frame.len() {
                    break;
                }
                index[pos] = 0;
                pos += 1;
            }
            if pos == index.len() {
                break;
            }
        }
    }
    Some(found)
}

/// The class the enumeration gives to `file`'s test of mutant `id` of `model`, or `None` if
/// the enumeration is too large.
fn enumerated_class(model: &Model, id: usize, file: &TestFile) -> Option<KillClass> {
    let mutant = enumerate(&model.system, &Operator::ALL)
        .into_iter()
        .find(|m| m.id == id)
        .expect("the mutant exists");
    let cm = conditional(&model.system, &mutant).expect("conditional mutant");
    let s = &cm.system;
    let read = |name: &str, text: &str, sys: &System| -> (VarId, Value) {
        let var = sys.var_by_name(name).expect("a known input");
        let value = parse_test_value(sys, sys.var(var).ty, text).expect("a valid value");
        (var, value)
    };
    let inputs: Vec<HashMap<VarId, Value>> = file
        .test
        .frames
        .iter()
        .map(|f| f.inputs.iter().map(|(n, t)| read(n, t, s)).collect())
        .collect();
    let originals = behaviours(s, cm.mut_var, false, &inputs)?;
    let mutants = behaviours(s, cm.mut_var, true, &inputs)?;
    if originals.is_disjoint(&mutants) {
        return Some(KillClass::Definite);
    }
    // The mutant's behaviour with the test's nd values, on the nd-transformed system.
    let mut nd = cm.clone();
    make_controllable(&mut nd.system, &[nd.mut_var]).expect("nd transformation");
    let frames: Vec<Frame> = file
        .test
        .frames
        .iter()
        .map(|f| Frame {
            inputs: f
                .inputs
                .iter()
                .chain(&f.nd)
                .map(|(n, t)| read(n, t, &nd.system))
                .collect(),
            ..Frame::default()
        })
        .collect();
    let chosen = Interpreter::new(&nd.system)
        .run(&HashMap::from([(nd.mut_var, Value::Bool(true))]), &frames)
        .expect("the mutant runs with the test's nd values");
    if chosen.constraints_ok.iter().all(|ok| *ok) && !originals.contains(&chosen.outputs) {
        Some(KillClass::Potential)
    } else {
        Some(KillClass::Controlled)
    }
}

/// Runs the job on `paths` and checks every killed mutant it can enumerate; returns how many
/// of each class were checked.
fn check_model(paths: &[PathBuf]) -> HashMap<KillClass, usize> {
    let (model, _) = Model::load(paths, &FrontendOptions::default()).expect("model loads");
    let dir = tempfile::tempdir().expect("temp dir");
    let options = Options {
        decide: DecideOptions {
            bound: 12,
            ..DecideOptions::default()
        },
        jobs: Some(2),
        out: dir.path().join("out"),
        existing: Existing::Refuse,
        ..Options::default()
    };
    let start = std::time::Instant::now();
    let report = hypermut_testgen::run(&model, &options, &mut Quiet).expect("the run succeeds");
    eprintln!("{}: run in {:?}", model.name, start.elapsed());
    let mut checked = HashMap::new();
    let mut killed: Vec<_> = report
        .summary
        .results
        .iter()
        .filter(|r| r.outcome == MutantVerdict::Killed)
        .collect();
    // Shallow tests first: their enumerations are the smallest.
    killed.sort_by_key(|r| (r.depth, r.id));
    for rec in killed {
        let class = rec.kill_class.expect("a killed mutant has a class");
        if checked.get(&class).copied().unwrap_or(0) >= MAX_PER_CLASS {
            continue;
        }
        assert_eq!(rec.requires_nd_control, class == KillClass::Controlled);
        let rel = rec.test.as_ref().expect("a test file");
        let text = std::fs::read_to_string(options.out.join(rel)).expect("test file");
        let file: TestFile = serde_json::from_str(&text).expect("test file parses");
        assert_eq!(file.kill_class, class);
        if let Some(expected) = enumerated_class(&model, rec.id, &file) {
            assert_eq!(
                class, expected,
                "{}: mutant {} ({} → {} at {})",
                model.name, rec.id, rec.original, rec.replacement, rec.location
            );
            *checked.entry(class).or_insert(0) += 1;
        }
    }
    eprintln!("{}: checked {checked:?}", model.name);
    checked
}

#[test]
fn every_enumerable_kill_class_agrees_with_brute_force() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tiny = dir.path().join("tiny.smv");
    std::fs::write(&tiny, TINY).expect("write");
    let mut total: HashMap<KillClass, usize> = HashMap::new();
    let models = [
        hypermut_testkit::repo::path("models/smv/beverage.smv"),
        hypermut_testkit::repo::path("models/smv/mutex.smv"),
        hypermut_testkit::repo::path("models/smv/car_alarm_timed.smv"),
        hypermut_testkit::repo::path("models/verilog/car_alarm_timed.v"),
        tiny,
    ];
    for m in models {
        let checked = check_model(std::slice::from_ref(&m));
        assert!(
            checked.values().sum::<usize>() > 0,
            "{}: no killed mutant could be enumerated",
            m.display()
        );
        for (k, n) in checked {
            *total.entry(k).or_insert(0) += n;
        }
    }
    for class in KillClass::ALL {
        assert!(
            total.get(&class).copied().unwrap_or(0) > 0,
            "no {} kill was checked: {total:?}",
            class.name()
        );
    }
}
