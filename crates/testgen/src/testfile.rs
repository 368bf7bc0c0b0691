//! The test file of a killed mutant (`tests/mutant-N.json`, `docs/formats.md` §2): the test
//! with what it belongs to and what it assumes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use hypermut_hyper::{Blocked, MutantProduct, Test};
use hypermut_ir::{Role, System};
use hypermut_mutate::{Mutant, NdSource};

use crate::allowed::AllowedOutputs;
use crate::record::KillClass;

/// A test file: the test plus the model, the mutation and the interface it refers to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestFile {
    /// Model path as given.
    pub model: String,
    /// Hash of the model's sources and front-end options.
    pub model_hash: String,
    /// Operator of the mutant the test was generated for.
    pub operator: String,
    /// `file:line:col` of the mutation.
    pub location: String,
    /// Original text.
    pub original: String,
    /// Replacement text.
    pub replacement: String,
    /// The model's inputs (nd inputs excluded).
    pub inputs: Vec<String>,
    /// The model's outputs.
    pub outputs: Vec<String>,
    /// Controllable nondeterminism: nd input name → what it resolves.
    pub nd: BTreeMap<String, String>,
    /// How the test kills the mutant when the tester applies only its inputs.
    pub kill_class: KillClass,
    /// Says whether applying the test needs control of the nd values.
    pub note: String,
    /// How the test kills the mutant.
    pub kill: String,
    /// The initial-state convention the test assumes (`docs/formats.md` §2.1): the reset held
    /// in its first frames and what other registers start with, e.g. `reset: rst held at 1 for
    /// 1 cycle; other registers start with free values` ([`crate::Model::initial_state`]).
    /// Empty in test files written before it was recorded.
    #[serde(default)]
    pub initial_state: String,
    /// The test itself: per frame the inputs, the nd values and the expected outputs.
    #[serde(flatten)]
    pub test: Test,
    /// Per step of the test, the outputs the original allows there given the earlier steps
    /// (`docs/method.md` §4.1.1); empty when not computed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed: Vec<AllowedOutputs>,
}

/// What a test file says about nd control, per kill class.
fn note(class: KillClass, has_nd: bool) -> &'static str {
    match (class, has_nd) {
        (KillClass::Definite, false) => {
            "deterministic: the inputs alone reproduce the expected outputs"
        }
        (KillClass::Definite, true) => {
            "definite: the inputs alone kill the mutant whatever nd values the original and the \
             mutant take; the expected outputs are those of the test's nd values"
        }
        (KillClass::Potential, _) => {
            "potential: with the inputs alone, the mutant fails for some of its nd values (those \
             of the test); apply the nd values as well to kill it for sure"
        }
        (KillClass::Controlled, _) => {
            "requires control of nondeterminism: apply the nd values of every frame as well"
        }
    }
}

impl TestFile {
    /// The test file of `test`, a test for mutant `m` (at `location`) of the model `model`
    /// (hash `model_hash`), extracted from the product `mp`.
    pub fn new(
        model: &str,
        model_hash: &str,
        m: &Mutant,
        location: &str,
        mp: &MutantProduct,
        test: Test,
        kill_class: KillClass,
    ) -> TestFile {
        let sys = &mp.conditional.system;
        let is_nd = |i: usize| mp.nd.iter().any(|n| n.var.0 as usize == i);
        TestFile {
            model: model.to_string(),
            model_hash: model_hash.to_string(),
            operator: m.operator.name().to_string(),
            location: location.to_string(),
            original: m.original.clone(),
            replacement: m.replacement.clone(),
            inputs: sys
                .vars
                .iter()
                .enumerate()
                .filter(|(i, v)| v.role == Role::Input && !is_nd(*i))
                .map(|(_, v)| v.name.clone())
                .collect(),
            outputs: sys.outputs.iter().map(|o| o.name.clone()).collect(),
            nd: mp
                .nd
                .iter()
                .map(|n| (sys.var(n.var).name.clone(), describe_nd(sys, &n.source)))
                .collect(),
            kill_class,
            note: note(kill_class, !mp.nd.is_empty()).to_string(),
            kill: kill_sentence(test.blocked, kill_class, !mp.nd.is_empty()),
            initial_state: String::new(),
            test,
            allowed: Vec::new(),
        }
    }
}

/// How a test with this blocking kills the mutant (`docs/method.md` §5.3). A kill by a
/// blocked step of a model with nd inputs also says what its class means for the refusal.
fn kill_sentence(blocked: Option<Blocked>, class: KillClass, has_nd: bool) -> String {
    let what = match blocked {
        None => return "the mutant's outputs differ from the expected ones in the last frame".into(),
        Some(Blocked::Mutant) => {
            "blocked: the mutant refuses the last step's inputs (its constraints, INIT/INVAR/TRANS, \
             forbid the step, which the original takes with the expected outputs)"
        }
        Some(Blocked::Original) => {
            "blocked: the original refuses the step the mutant takes (the original's constraints, \
             INIT/INVAR/TRANS, forbid the last step, so it has no expected outputs; the kill is \
             that the step is taken)"
        }
    };
    if !has_nd {
        return what.into();
    }
    let how = match class {
        KillClass::Definite => {
            "whatever nd values the original and the mutant take, no run of the mutant answers \
             the test's inputs as a run of the original does"
        }
        KillClass::Potential => {
            "with the test's nd values the mutant's run is no run of the original; with other \
             nd values the mutant may answer like the original"
        }
        KillClass::Controlled => {
            "the test is only known to kill when the tester also applies its nd values"
        }
    };
    format!("{what}; {}: {how}", class.name())
}

/// What an nd input resolves, for people reading a test.
fn describe_nd(sys: &System, src: &NdSource) -> String {
    match src {
        NdSource::Choice { span, arity, .. } => match span {
            Some(sp) => format!(
                "index of the chosen alternative of {} at {}",
                sys.sources.snippet(*sp),
                sys.sources.location(*sp)
            ),
            None => format!("index of the chosen alternative (of {arity})"),
        },
        NdSource::Init { var } => format!("initial value of {var}"),
        NdSource::Next { var } => format!("next value of {var}"),
    }
}
