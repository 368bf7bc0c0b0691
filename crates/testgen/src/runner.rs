//! Running a test suite against any model with the same interface (`hypermut run`,
//! `docs/method.md` §4.1 and §4.1.1): the original, a mutant's emitted source or another
//! implementation, simulated step by step in the word-level interpreter. Each test passes,
//! fails or is inconclusive; [`junit_xml`] writes the verdicts for CI tools.
//!
//! Nondeterminism of the model under test: it is made controllable
//! ([`hypermut_mutate::make_controllable`]) and its nd inputs take the test's nd values of the
//! same name. A `controlled` or `potential` test needs them: when the model lacks one of the
//! test's nd inputs, or has one the test does not set, the test is not runnable
//! (inconclusive). A `definite` test kills by its inputs alone, so its nd values are only
//! borrowed where the names match; any other nd input of the model takes the value of code 0
//! ([`crate::init::zero_value`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use hypermut_hyper::suite::parse_value;
use hypermut_hyper::Blocked;
use hypermut_ir::{
    ConstraintKind, EvalError, Frame, Interpreter, Role, System, Type, Value, VarId,
};
use hypermut_mutate::make_controllable;

use crate::allowed::{judge, AllowedOutputs, StepVerdict};
use crate::init::{zero_value, InitOption};
use crate::load::{FrontendOptions, Model};
use crate::record::KillClass;
use crate::reset::{ResetOption, ResetSpec};
use crate::testfile::TestFile;

/// Values of some variables in one frame.
type Values = HashMap<VarId, Value>;

/// Why a suite cannot be run on a model.
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    /// The test uses an input or output the model does not have, or a value its type cannot
    /// hold.
    #[error("mutant-{mutant}: the model does not have the test's interface: {why}")]
    Interface {
        /// The test's mutant.
        mutant: usize,
        /// What does not match.
        why: String,
    },
    /// A test's `initial_state` that names no known convention, or tests that disagree.
    #[error("{0}")]
    Convention(String),
    /// The interpreter could not run the model on a test.
    #[error("mutant-{mutant}, step {step}: cannot simulate the model: {source}")]
    Eval {
        /// The test's mutant.
        mutant: usize,
        /// The step.
        step: usize,
        /// The interpreter's error.
        source: EvalError,
    },
    /// Making the model's nondeterminism controllable failed.
    #[error(transparent)]
    Mutate(#[from] hypermut_mutate::MutateError),
}

/// The verdict of one test on the model under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TestVerdict {
    /// Every step gave the expected outputs.
    Pass,
    /// Some step gave outputs the original does not allow, or took a step it should not.
    Fail,
    /// Some step gave other outputs that the original allows: the test says nothing more.
    Inconclusive,
    /// The test needs control of nondeterminism the model does not offer.
    NotRunnable,
}

impl TestVerdict {
    /// `pass`, `fail`, `inconclusive` or `not runnable`.
    pub fn name(self) -> &'static str {
        match self {
            TestVerdict::Pass => "pass",
            TestVerdict::Fail => "fail",
            TestVerdict::Inconclusive => "inconclusive",
            TestVerdict::NotRunnable => "not runnable",
        }
    }
}

/// One test's verdict and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TestOutcome {
    /// The test's mutant id (`tests/mutant-N.json`).
    pub mutant: usize,
    /// The verdict.
    pub verdict: TestVerdict,
    /// The step the verdict was reached at (`None` for a pass or a test not run).
    pub step: Option<usize>,
    /// Why, for every verdict but a pass.
    pub reason: String,
}

/// The verdicts of a suite, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RunCounts {
    /// Tests that passed.
    pub pass: usize,
    /// Tests that failed.
    pub fail: usize,
    /// Tests that were inconclusive.
    pub inconclusive: usize,
    /// Tests that could not be run.
    pub not_runnable: usize,
}

impl RunCounts {
    /// The counts of `outcomes`.
    pub fn of(outcomes: &[TestOutcome]) -> RunCounts {
        let mut c = RunCounts::default();
        for o in outcomes {
            *match o.verdict {
                TestVerdict::Pass => &mut c.pass,
                TestVerdict::Fail => &mut c.fail,
                TestVerdict::Inconclusive => &mut c.inconclusive,
                TestVerdict::NotRunnable => &mut c.not_runnable,
            } += 1;
        }
        c
    }
}

/// The model under test, its nondeterminism made controllable.
pub struct Runner {
    sys: System,
    nd: BTreeSet<String>,
}

impl Runner {
    /// Prepares `model` (loaded with the tests' convention, [`frontend_for`]) for running.
    pub fn new(model: &Model) -> Result<Runner, RunnerError> {
        let mut sys = model.system.clone();
        let nd = make_controllable(&mut sys, &[])?;
        let nd = nd.iter().map(|n| sys.var(n.var).name.clone()).collect();
        Ok(Runner { sys, nd })
    }

    /// Runs every test, in order; the first interface mismatch or simulation error stops.
    pub fn run_all(&self, tests: &[TestFile]) -> Result<Vec<TestOutcome>, RunnerError> {
        tests.iter().map(|t| self.run(t)).collect()
    }

    /// Runs one test (`docs/method.md` §4.1.1): checks the interface, then simulates step by
    /// step until the outputs leave the test's.
    pub fn run(&self, t: &TestFile) -> Result<TestOutcome, RunnerError> {
        let mutant = t.test.mutant;
        let interface = |why: String| RunnerError::Interface { mutant, why };
        let sys = &self.sys;
        let outputs = self.output_types(t).map_err(interface)?;
        let frames = self.input_frames(t).map_err(interface)?;
        let outcome = |verdict, step, reason: String| TestOutcome {
            mutant,
            verdict,
            step,
            reason,
        };
        let (nd, defaulted) = match self.nd_values(t) {
            Ok(v) => v,
            Err(why) => return Ok(outcome(TestVerdict::NotRunnable, None, why)),
        };
        let frames: Vec<Frame> = frames
            .into_iter()
            .zip(nd)
            .map(|(mut inputs, nd)| {
                inputs.extend(nd);
                Frame {
                    inputs,
                    ..Frame::default()
                }
            })
            .collect();
        let interp = Interpreter::new(sys);
        let eval = |step: usize| {
            move |source| RunnerError::Eval {
                mutant,
                step,
                source,
            }
        };
        let Some(first) = frames.first() else {
            return Ok(outcome(TestVerdict::Pass, None, String::new()));
        };
        let mut state = match interp.initial_state(first, &HashMap::new()) {
            Err(EvalError::OutOfRange { var, value }) => {
                let why = format!("the initial value {value} of `{var}` is outside its type");
                return Ok(outcome(TestVerdict::Fail, Some(0), why));
            }
            other => other.map_err(eval(0))?,
        };
        for (k, frame) in frames.iter().enumerate() {
            let observed_values = interp.outputs(&state, frame).map_err(eval(k))?;
            let next = match interp.step(&state, frame) {
                Err(EvalError::OutOfRange { var, value }) => {
                    let why = format!("step {k}: `{var}` takes {value}, outside its type");
                    return Ok(outcome(TestVerdict::Fail, Some(k), why));
                }
                other => other.map_err(eval(k))?,
            };
            let mut kinds = vec![ConstraintKind::Invariant, ConstraintKind::Trans];
            if k == 0 {
                kinds.push(ConstraintKind::Init);
            }
            let takes = interp
                .constraints_hold(&kinds, &state, frame, Some(&next))
                .map_err(eval(k))?;
            let last = k + 1 == frames.len();
            // `docs/method.md` §5.3: the original refuses the last step of such a test.
            if last && t.test.blocked == Some(Blocked::Original) {
                return Ok(if takes {
                    let why = format!("step {k}: the model takes the step the original refuses");
                    outcome(TestVerdict::Fail, Some(k), why)
                } else {
                    outcome(TestVerdict::Pass, None, String::new())
                });
            }
            if !takes {
                return Ok(if defaulted.is_empty() {
                    let why = format!("step {k}: the model's constraints forbid the step");
                    outcome(TestVerdict::Fail, Some(k), why)
                } else {
                    let why = format!(
                        "step {k}: the model's constraints forbid the step with its nd inputs \
                         {} at value 0 (not set by the test)",
                        defaulted.join(", ")
                    );
                    outcome(TestVerdict::Inconclusive, Some(k), why)
                });
            }
            let observed: BTreeMap<String, String> = sys
                .outputs
                .iter()
                .zip(&observed_values)
                .filter(|(o, _)| outputs.contains_key(&o.name))
                .map(|(o, v)| (o.name.clone(), v.display(sys.ty(o.expr), &sys.enums)))
                .collect();
            let expected =
                canonical(sys, &outputs, &t.test.frames[k].outputs).map_err(interface)?;
            // A step without a list allows the test's outputs only; the testbench judges the
            // same way (`crate::testbench`).
            let step = match t.allowed.get(k) {
                Some(step) => AllowedOutputs {
                    values: step
                        .values
                        .iter()
                        .map(|v| canonical(sys, &outputs, v))
                        .collect::<Result<_, _>>()
                        .map_err(interface)?,
                    capped: step.capped,
                },
                None => AllowedOutputs {
                    values: vec![expected.clone()],
                    capped: false,
                },
            };
            let verdict = judge(&step, &expected, &observed);
            let differ = || {
                format!(
                    "step {k}: outputs {} where the test expects {}",
                    show(&observed),
                    show(&expected)
                )
            };
            match verdict {
                StepVerdict::Pass => {}
                StepVerdict::Inconclusive => {
                    let why = format!("{}, which the original allows", differ());
                    return Ok(outcome(TestVerdict::Inconclusive, Some(k), why));
                }
                StepVerdict::Fail => return Ok(outcome(TestVerdict::Fail, Some(k), differ())),
            }
            state = next;
        }
        Ok(outcome(TestVerdict::Pass, None, String::new()))
    }

    /// The types of the outputs the test compares (the header's and every frame's).
    fn output_types(&self, t: &TestFile) -> Result<BTreeMap<String, Type>, String> {
        let sys = &self.sys;
        let names = t.outputs.iter().chain(
            t.test.frames.iter().flat_map(|f| f.outputs.keys()).chain(
                t.allowed
                    .iter()
                    .flat_map(|a| a.values.iter().flat_map(|v| v.keys())),
            ),
        );
        let mut types = BTreeMap::new();
        for name in names {
            let o = sys
                .outputs
                .iter()
                .find(|o| &o.name == name)
                .ok_or_else(|| format!("no output `{name}`"))?;
            types.insert(name.clone(), sys.ty(o.expr));
        }
        Ok(types)
    }

    /// The test's input values per frame, read with the model's types. Every input of the
    /// model that is not an nd input must be set in every frame.
    fn input_frames(&self, t: &TestFile) -> Result<Vec<Values>, String> {
        let sys = &self.sys;
        for name in &t.inputs {
            self.input(name)?;
        }
        let needed: Vec<&str> = sys
            .vars
            .iter()
            .filter(|v| v.role == Role::Input && !self.nd.contains(&v.name))
            .map(|v| v.name.as_str())
            .collect();
        t.test
            .frames
            .iter()
            .enumerate()
            .map(|(k, f)| {
                if let Some(missing) = needed.iter().find(|n| !f.inputs.contains_key(**n)) {
                    return Err(format!("step {k} sets no value for the input `{missing}`"));
                }
                f.inputs
                    .iter()
                    .map(|(name, text)| {
                        let v = self.input(name)?;
                        let value = read(sys, sys.var(v).ty, text)
                            .ok_or_else(|| format!("step {k}: input `{name}`: {text:?}"))?;
                        Ok((v, value))
                    })
                    .collect()
            })
            .collect()
    }

    /// The input `name` (not an nd input) of the model.
    fn input(&self, name: &str) -> Result<VarId, String> {
        self.sys
            .var_by_name(name)
            .filter(|v| self.sys.var(*v).role == Role::Input && !self.nd.contains(name))
            .ok_or_else(|| format!("no input `{name}`"))
    }

    /// The values of the model's nd inputs per frame, and the nd inputs the test does not
    /// set (they take code 0). `Err` says why a test that needs nd control cannot have it.
    fn nd_values(&self, t: &TestFile) -> Result<(Vec<Values>, Vec<String>), String> {
        let sys = &self.sys;
        let needs_control = t.kill_class != KillClass::Definite;
        let given: BTreeSet<&String> =
            t.nd.keys()
                .chain(t.test.frames.iter().flat_map(|f| f.nd.keys()))
                .collect();
        let mut defaulted = Vec::new();
        if needs_control {
            let class = t.kill_class.name();
            // nd values the model has no input for belong to choices of the mutant the test
            // was made for (e.g. a widened constant); the model under test ignores them.
            if let Some(n) = self.nd.iter().find(|n| !given.contains(n)) {
                return Err(format!(
                    "a {class} test needs control of nondeterminism, and it does not set the \
                     model's nd input `{n}`"
                ));
            }
        }
        let frames = t
            .test
            .frames
            .iter()
            .enumerate()
            .map(|(k, f)| {
                let mut vals = HashMap::new();
                for name in &self.nd {
                    let Some(v) = sys.var_by_name(name) else {
                        continue;
                    };
                    let ty = sys.var(v).ty;
                    let value = match f.nd.get(name).map(|text| (text, read(sys, ty, text))) {
                        Some((_, Some(value))) => value,
                        Some((text, None)) if needs_control => {
                            return Err(format!("step {k}: nd input `{name}`: {text:?}"))
                        }
                        _ => {
                            if !defaulted.contains(name) {
                                defaulted.push(name.clone());
                            }
                            zero_value(ty)
                        }
                    };
                    vals.insert(v, value);
                }
                Ok(vals)
            })
            .collect::<Result<_, String>>()?;
        Ok((frames, defaulted))
    }
}

/// A value of the test file read with the model's type (`docs/formats.md` §2.2).
fn read(sys: &System, ty: Type, text: &str) -> Option<Value> {
    parse_value(text, ty, &sys.enums)
}

/// Output values of a test respelled as the model displays them (`0sd` and `0ud` words, and
/// plain decimals, compare by value).
fn canonical(
    sys: &System,
    types: &BTreeMap<String, Type>,
    values: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, String>, String> {
    values
        .iter()
        .map(|(name, text)| {
            let ty = *types
                .get(name)
                .ok_or_else(|| format!("no output `{name}`"))?;
            let v = read(sys, ty, text).ok_or_else(|| format!("output `{name}`: {text:?}"))?;
            Ok((name.clone(), v.display(ty, &sys.enums)))
        })
        .collect()
}

/// `{a = 1, b = TRUE}`.
fn show(values: &BTreeMap<String, String>) -> String {
    let items: Vec<String> = values.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    format!("{{{}}}", items.join(", "))
}

/// Reads a test file's `initial_state` back into the `--reset` and `--init` options that
/// give it (the inverse of [`crate::Convention::describe`]); `None` for the empty text of
/// test files written before it was recorded.
pub fn convention_of(
    initial_state: &str,
) -> Result<Option<(ResetOption, InitOption)>, RunnerError> {
    let bad = || RunnerError::Convention(format!("unknown initial_state `{initial_state}`"));
    let rest_init = |rest: &str| match rest {
        "other registers start with free values" => Ok(InitOption::Free),
        "registers without an initial value start at 0" => Ok(InitOption::Zero),
        _ => Err(bad()),
    };
    let text = initial_state.trim();
    if text.is_empty() {
        return Ok(None);
    }
    if let Some(rest) = text.strip_prefix("free: ") {
        return match rest {
            "power-up values are nondeterministic" => {
                Ok(Some((ResetOption::None, InitOption::Free)))
            }
            _ => Err(bad()),
        };
    }
    if let Some(rest) = text.strip_prefix("zero: ") {
        return match rest {
            "registers without an initial value start at 0" => {
                Ok(Some((ResetOption::None, InitOption::Zero)))
            }
            _ => Err(bad()),
        };
    }
    let reset = text.strip_prefix("reset: ").ok_or_else(bad)?;
    let (held, rest) = reset.split_once("; ").ok_or_else(bad)?;
    let mut specs = Vec::new();
    for spec in held.split(", ") {
        let (name, held) = spec.rsplit_once(" held at ").ok_or_else(bad)?;
        let (level, cycles) = held.split_once(" for ").ok_or_else(bad)?;
        let level = match level {
            "0" => false,
            "1" => true,
            _ => return Err(bad()),
        };
        let cycles: u32 = cycles
            .strip_suffix(" cycles")
            .or_else(|| cycles.strip_suffix(" cycle"))
            .and_then(|c| c.parse().ok())
            .ok_or_else(bad)?;
        specs.push(ResetSpec {
            name: name.to_string(),
            level,
            cycles,
        });
    }
    Ok(Some((ResetOption::Hold(specs), rest_init(rest)?)))
}

/// `options` with the reset and initial values the tests assume (their `initial_state`), so
/// that the model under test starts as the original did. Tests that assume different
/// conventions are refused; tests that record none keep `options`.
pub fn frontend_for(
    options: &FrontendOptions,
    tests: &[TestFile],
) -> Result<FrontendOptions, RunnerError> {
    let mut chosen: Option<&TestFile> = None;
    for t in tests.iter().filter(|t| !t.initial_state.trim().is_empty()) {
        match chosen {
            Some(c) if c.initial_state != t.initial_state => {
                return Err(RunnerError::Convention(format!(
                    "mutant-{} assumes `{}` but mutant-{} assumes `{}`: run them separately",
                    c.test.mutant, c.initial_state, t.test.mutant, t.initial_state
                )))
            }
            _ => chosen = Some(t),
        }
    }
    let mut options = options.clone();
    if let Some((reset, init)) = match chosen {
        Some(t) => convention_of(&t.initial_state)?,
        None => None,
    } {
        options.reset = reset;
        options.init = init;
    }
    Ok(options)
}

/// A JUnit XML report of `outcomes`: one `<testsuite>` named `suite`, one `<testcase
/// name="mutant-N" classname="model">` per test, with `<failure>` for a fail and `<skipped>`
/// for an inconclusive or not runnable test.
pub fn junit_xml(suite: &str, model: &str, outcomes: &[TestOutcome]) -> String {
    let c = RunCounts::of(outcomes);
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.push_str(&format!(
        "<testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n",
        xml_escape(suite),
        outcomes.len(),
        c.fail,
        c.inconclusive + c.not_runnable
    ));
    for o in outcomes {
        let open = format!(
            "  <testcase name=\"mutant-{}\" classname=\"{}\"",
            o.mutant,
            xml_escape(model)
        );
        let message = format!("{}: {}", o.verdict.name(), o.reason);
        match o.verdict {
            TestVerdict::Pass => xml.push_str(&format!("{open}/>\n")),
            TestVerdict::Fail => xml.push_str(&format!(
                "{open}>\n    <failure message=\"{}\"/>\n  </testcase>\n",
                xml_escape(&message)
            )),
            TestVerdict::Inconclusive | TestVerdict::NotRunnable => xml.push_str(&format!(
                "{open}>\n    <skipped message=\"{}\"/>\n  </testcase>\n",
                xml_escape(&message)
            )),
        }
    }
    xml.push_str("</testsuite>\n");
    xml
}

/// `text` as XML attribute or element text: the five special characters as entities, and
/// characters XML 1.0 does not allow (control characters other than tab, newline and carriage
/// return) as U+FFFD.
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convention::Convention;
    use serde_json::json;
    use std::path::Path;

    fn beverage() -> Runner {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../models/smv/beverage.smv");
        let text = std::fs::read_to_string(path).expect("models/smv/beverage.smv");
        let sys = hypermut_smv::parse_smv("beverage.smv", &text).expect("the model loads");
        let model =
            Model::new(sys, Path::new("beverage.smv"), &FrontendOptions::default()).expect("model");
        Runner::new(&model).expect("runner")
    }

    /// A beverage test of `class`: per frame (input, nd.0, expected out), with `allowed`
    /// (per frame, the allowed values of `out`) when given. Expected outputs are worked out
    /// by hand from the model's text: `out` shows one frame after a request what `nd.0`
    /// chose (0 = coff, 1 = tea) while there is water.
    fn test(class: &str, frames: &[(&str, &str, &str)], allowed: &[&[&str]]) -> TestFile {
        let frames: Vec<_> = frames
            .iter()
            .map(|(i, nd, o)| json!({"inputs": {"inp": i}, "nd": {"nd.0": nd}, "outputs": {"out": o}}))
            .collect();
        let allowed: Vec<_> = allowed
            .iter()
            .map(|vals| json!({"values": vals.iter().map(|v| json!({"out": v})).collect::<Vec<_>>()}))
            .collect();
        serde_json::from_value(json!({
            "model": "beverage.smv", "model_hash": "0", "operator": "const-1",
            "location": "beverage.smv:1:1", "original": "2", "replacement": "1",
            "inputs": ["inp"], "outputs": ["out"], "nd": {"nd.0": "choice"},
            "kill_class": class, "note": "", "kill": "",
            "mutant": 7, "depth": frames.len() - 1, "frames": frames,
            "mutant_outputs": {"out": "none"}, "requires_nd_control": class == "controlled",
            "allowed": allowed,
        }))
        .expect("a test file")
    }

    const RUN: [(&str, &str, &str); 3] = [
        ("req", "0", "none"),
        ("req", "1", "coff"),
        ("none", "0", "tea"),
    ];

    #[test]
    fn verdicts_follow_the_outputs_step_by_step() {
        let r = beverage();
        let verdict = |t: &TestFile| {
            let o = r.run(t).expect("runs");
            (o.verdict, o.step)
        };
        // The model's own run passes, as definite and as controlled test.
        assert_eq!(
            verdict(&test("definite", &RUN, &[])),
            (TestVerdict::Pass, None)
        );
        assert_eq!(
            verdict(&test("controlled", &RUN, &[])),
            (TestVerdict::Pass, None)
        );
        // Another expected output in step 2: a fail without allowed outputs ...
        let mut other = RUN;
        other[2].2 = "coff";
        assert_eq!(
            verdict(&test("definite", &other, &[])),
            (TestVerdict::Fail, Some(2))
        );
        // ... inconclusive when the original allows what the model answered ...
        let allowed: [&[&str]; 3] = [&["none"], &["coff", "tea"], &["coff", "tea"]];
        assert_eq!(
            verdict(&test("definite", &other, &allowed)),
            (TestVerdict::Inconclusive, Some(2))
        );
        // ... and a fail again when it does not.
        let narrow: [&[&str]; 3] = [&["none"], &["coff", "tea"], &["coff"]];
        assert_eq!(
            verdict(&test("definite", &other, &narrow)),
            (TestVerdict::Fail, Some(2))
        );
        // The first differing step decides, even if later ones differ too.
        let mut early = RUN;
        early[1].2 = "none";
        assert_eq!(
            verdict(&test("definite", &early, &[])),
            (TestVerdict::Fail, Some(1))
        );
    }

    #[test]
    fn nd_control_the_test_does_not_give_makes_a_test_not_runnable() {
        let r = beverage();
        let mut t = test("controlled", &RUN, &[]);
        for f in &mut t.test.frames {
            let v = f.nd.remove("nd.0").expect("nd.0");
            f.nd.insert("nd.9".into(), v);
        }
        t.nd = BTreeMap::from([("nd.9".to_string(), "choice".to_string())]);
        let o = r.run(&t).expect("runs");
        // `nd.9` is no input of the model (ignored); the model's own `nd.0` is left unset.
        assert_eq!(o.verdict, TestVerdict::NotRunnable, "{o:?}");
        assert!(o.reason.contains("nd.0"), "{}", o.reason);
        // A definite test does not need them: its inputs alone are applied, the model's
        // choice takes code 0 (coff), and step 2 expects tea.
        t.kill_class = KillClass::Definite;
        let o = r.run(&t).expect("runs");
        assert_eq!((o.verdict, o.step), (TestVerdict::Fail, Some(2)), "{o:?}");
    }

    #[test]
    fn an_interface_mismatch_is_an_error() {
        let r = beverage();
        let mut bad_input = test("definite", &RUN, &[]);
        bad_input.test.frames[0]
            .inputs
            .insert("coin".into(), "TRUE".into());
        let mut bad_output = test("definite", &RUN, &[]);
        bad_output.outputs.push("light".into());
        let mut bad_value = test("definite", &RUN, &[]);
        bad_value.test.frames[1]
            .outputs
            .insert("out".into(), "milk".into());
        for (t, what) in [
            (bad_input, "coin"),
            (bad_output, "light"),
            (bad_value, "milk"),
        ] {
            match r.run(&t) {
                Err(e @ RunnerError::Interface { .. }) => {
                    assert!(e.to_string().contains(what), "{e}")
                }
                other => panic!("{what}: {other:?}"),
            }
        }
    }

    #[test]
    fn initial_state_reads_back_every_convention() {
        let spec = |name: &str, level, cycles| ResetSpec {
            name: name.into(),
            level,
            cycles,
        };
        let resets = [
            vec![],
            vec![spec("rst", true, 1)],
            vec![spec("io.rst_n", false, 3)],
            vec![spec("wb_rst_i", true, 1), spec("arst_i", false, 2)],
        ];
        for reset in resets {
            for init in [InitOption::Free, InitOption::Zero] {
                let c = Convention {
                    reset: reset.clone(),
                    init,
                    ..Convention::default()
                };
                let want = if reset.is_empty() {
                    (ResetOption::None, init)
                } else {
                    (ResetOption::Hold(reset.clone()), init)
                };
                assert_eq!(convention_of(&c.describe()).expect("known"), Some(want));
            }
        }
        assert_eq!(convention_of("").expect("empty"), None);
        assert!(convention_of("reset: rst held at 2 for 1 cycle; x").is_err());
    }

    #[test]
    fn escaping_leaves_no_markup() {
        let table = [
            ("plain", "plain"),
            ("a<b>&c", "a&lt;b&gt;&amp;c"),
            ("say \"x\" 'y'", "say &quot;x&quot; &apos;y&apos;"),
            ("l1\nl2\t", "l1&#10;l2&#9;"),
            ("bell\u{7}", "bell\u{FFFD}"),
            ("{out = coff}", "{out = coff}"),
        ];
        for (text, want) in table {
            assert_eq!(xml_escape(text), want, "{text:?}");
        }
    }

    #[test]
    fn junit_counts_the_verdicts() {
        let o = |mutant, verdict| TestOutcome {
            mutant,
            verdict,
            step: None,
            reason: "a < b".into(),
        };
        let outcomes = [
            o(1, TestVerdict::Pass),
            o(2, TestVerdict::Fail),
            o(3, TestVerdict::Inconclusive),
            o(4, TestVerdict::NotRunnable),
        ];
        let xml = junit_xml("hypermut run", "m&m.smv", &outcomes);
        assert!(
            xml.contains("tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"2\""),
            "{xml}"
        );
        assert_eq!(xml.matches("<testcase ").count(), 4);
        assert_eq!(xml.matches("<failure ").count(), 1);
        assert_eq!(xml.matches("<skipped ").count(), 2);
        assert!(xml.contains("classname=\"m&amp;m.smv\""));
        assert!(xml.contains("message=\"fail: a &lt; b\""));
    }
}
