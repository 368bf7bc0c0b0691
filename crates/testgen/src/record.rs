//! What a run records: one [`MutantRecord`] per mutant, the [`Counts`] of verdicts, the
//! [`Summary`] and the [`RunInfo`] a results directory is identified by (formats in
//! `docs/formats.md` §3–§5).

use serde::{Deserialize, Serialize};

use crate::select::Shard;

/// The verdict for one mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MutantVerdict {
    /// A test distinguishes mutant and original.
    Killed,
    /// Proven to behave like the original on every input sequence.
    Equivalent,
    /// Not killed within the bound, not proven equivalent.
    Unknown,
    /// The mutant could not be built or its verdict could not be confirmed.
    Error,
    /// The mutant is not a valid model (it can leave a variable's range, its initial values
    /// are circular, or NuSMV's static checks reject its source).
    Invalid,
}

impl MutantVerdict {
    /// Every verdict, in the order results are reported.
    pub const ALL: [MutantVerdict; 5] = [
        MutantVerdict::Killed,
        MutantVerdict::Equivalent,
        MutantVerdict::Unknown,
        MutantVerdict::Invalid,
        MutantVerdict::Error,
    ];

    /// The name results use (`killed`, `equivalent`, …).
    pub fn name(self) -> &'static str {
        match self {
            MutantVerdict::Killed => "killed",
            MutantVerdict::Equivalent => "equivalent",
            MutantVerdict::Unknown => "unknown",
            MutantVerdict::Error => "error",
            MutantVerdict::Invalid => "invalid",
        }
    }
}

/// Sizes of a product circuit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProductSize {
    /// Inputs (shared by both copies).
    pub inputs: usize,
    /// Latches in total.
    pub latches: usize,
    /// Latches shared by both copies.
    pub shared_latches: usize,
    /// Latches duplicated because they lie in the mutation's fan-out (counted once).
    pub duplicated_latches: usize,
    /// AND gates.
    pub ands: usize,
}

/// How a killing test kills its mutant when the tester does not choose the nd values
/// (choices, free values, power-up values; `docs/method.md` §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KillClass {
    /// The test's inputs kill whatever nd values the original and the mutant take.
    Definite,
    /// Under the test's inputs, the mutant's behaviour with the test's nd values is no
    /// behaviour of the original: the test fails the mutant for some of its choices.
    Potential,
    /// The test kills only when the tester also applies its nd values.
    Controlled,
}

impl KillClass {
    /// How strongly a test of this class kills: 0 definite, 1 potential, 2 controlled
    /// (lower is stronger).
    pub fn rank(self) -> u8 {
        match self {
            KillClass::Definite => 0,
            KillClass::Potential => 1,
            KillClass::Controlled => 2,
        }
    }

    /// Every class, strongest first.
    pub const ALL: [KillClass; 3] = [
        KillClass::Definite,
        KillClass::Potential,
        KillClass::Controlled,
    ];

    /// The name used in files and reports.
    pub fn name(self) -> &'static str {
        match self {
            KillClass::Definite => "definite",
            KillClass::Potential => "potential",
            KillClass::Controlled => "controlled",
        }
    }
}

/// One line of `results.jsonl` and one entry of `summary.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MutantRecord {
    /// Mutant id.
    pub id: usize,
    /// Operator name.
    pub operator: String,
    /// `file:line:col` of the mutated expression.
    pub location: String,
    /// Original text.
    pub original: String,
    /// Replacement text.
    pub replacement: String,
    /// Verdict.
    pub outcome: MutantVerdict,
    /// Frame of the first differing output (killed mutants).
    pub depth: Option<usize>,
    /// How the test kills the mutant without control of nondeterminism (killed mutants).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kill_class: Option<KillClass>,
    /// A killed mutant whose test is not definite: no definite test exists of any length up
    /// to this depth (the ∃∀ search, `docs/method.md` §4.7, got this far).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_definite_up_to: Option<usize>,
    /// A killed mutant whose test needs nd control: no potential test exists of any length
    /// up to this depth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_potential_up_to: Option<usize>,
    /// Test file, relative to the output directory (killed mutants).
    pub test: Option<String>,
    /// Certificate circuit (Certifaiger format, over the product of `hypermut product`),
    /// relative to the output directory (mutants proved equivalent by IC3).
    #[serde(default)]
    pub certificate: Option<String>,
    /// Why the verdict is what it is.
    pub reason: String,
    /// Product size.
    pub product: ProductSize,
    /// Wall-clock time for this mutant, in milliseconds.
    pub millis: u64,
    /// The kill depends on the test's nd values (its class is `controlled`): applying it
    /// requires control of the model's nondeterminism.
    #[serde(default)]
    pub requires_nd_control: bool,
    /// AND gates of the original model (after the nd transformation), for ΔGates.
    #[serde(default)]
    pub ands_orig: Option<usize>,
    /// AND gates of the conditional mutant (after the nd transformation), for ΔGates.
    #[serde(default)]
    pub ands_cm: Option<usize>,
    /// What decided the verdict: `bmc`, `ic3`, `static` (structural check) or `range`
    /// (validity check).
    #[serde(default)]
    pub engine: Option<String>,
}

impl MutantRecord {
    /// The record of mutant `id` (`operator`, at `location`, `original` → `replacement`)
    /// before it is decided: verdict `error` with no reason, no evidence, no sizes.
    pub fn undecided(
        id: usize,
        operator: &str,
        location: &str,
        original: &str,
        replacement: &str,
    ) -> MutantRecord {
        MutantRecord {
            id,
            operator: operator.into(),
            location: location.into(),
            original: original.into(),
            replacement: replacement.into(),
            outcome: MutantVerdict::Error,
            depth: None,
            kill_class: None,
            no_definite_up_to: None,
            no_potential_up_to: None,
            test: None,
            certificate: None,
            reason: String::new(),
            product: ProductSize::default(),
            millis: 0,
            requires_nd_control: false,
            ands_orig: None,
            ands_cm: None,
            engine: None,
        }
    }
}

/// How many mutants got each verdict, and how many of the killed ones have each kill class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Killed mutants.
    pub killed: usize,
    /// Equivalent mutants.
    pub equivalent: usize,
    /// Mutants without a verdict.
    pub unknown: usize,
    /// Mutants that are not valid models.
    pub invalid: usize,
    /// Mutants that failed.
    pub errors: usize,
    /// Killed mutants whose test kills definitely (`docs/method.md` §4.5). Absent from
    /// summaries written before kill classes were counted (read as 0).
    #[serde(default)]
    pub definite: usize,
    /// Killed mutants whose test kills potentially.
    #[serde(default)]
    pub potential: usize,
    /// Killed mutants whose test kills only under controlled nondeterminism.
    #[serde(default)]
    pub controlled: usize,
}

impl Counts {
    /// The counts of `records`.
    pub fn of<'a>(records: impl IntoIterator<Item = &'a MutantRecord>) -> Counts {
        let mut c = Counts::default();
        for r in records {
            c.add_record(r);
        }
        c
    }

    /// Counts one more mutant with verdict `v` (no kill class: see [`Counts::add_record`]).
    pub fn add(&mut self, v: MutantVerdict) {
        *self.slot(v) += 1;
    }

    /// Counts one more mutant: its verdict and, when it is killed with a class, its class.
    pub fn add_record(&mut self, r: &MutantRecord) {
        self.add(r.outcome);
        if r.outcome == MutantVerdict::Killed {
            if let Some(class) = r.kill_class {
                *self.class_slot(class) += 1;
            }
        }
    }

    /// The number of killed mutants of class `class`.
    pub fn kills_of(&self, class: KillClass) -> usize {
        match class {
            KillClass::Definite => self.definite,
            KillClass::Potential => self.potential,
            KillClass::Controlled => self.controlled,
        }
    }

    /// The number of killed mutants whose class is `class` or a stronger one
    /// ([`KillClass::ALL`] lists the classes strongest first).
    pub fn kills_at_least(&self, class: KillClass) -> usize {
        KillClass::ALL
            .iter()
            .take_while(|k| **k != class)
            .chain(std::iter::once(&class))
            .map(|k| self.kills_of(*k))
            .sum()
    }

    fn class_slot(&mut self, class: KillClass) -> &mut usize {
        match class {
            KillClass::Definite => &mut self.definite,
            KillClass::Potential => &mut self.potential,
            KillClass::Controlled => &mut self.controlled,
        }
    }

    /// The number of mutants with verdict `v`.
    pub fn get(&self, v: MutantVerdict) -> usize {
        match v {
            MutantVerdict::Killed => self.killed,
            MutantVerdict::Equivalent => self.equivalent,
            MutantVerdict::Unknown => self.unknown,
            MutantVerdict::Invalid => self.invalid,
            MutantVerdict::Error => self.errors,
        }
    }

    fn slot(&mut self, v: MutantVerdict) -> &mut usize {
        match v {
            MutantVerdict::Killed => &mut self.killed,
            MutantVerdict::Equivalent => &mut self.equivalent,
            MutantVerdict::Unknown => &mut self.unknown,
            MutantVerdict::Invalid => &mut self.invalid,
            MutantVerdict::Error => &mut self.errors,
        }
    }

    /// All mutants counted.
    pub fn total(&self) -> usize {
        MutantVerdict::ALL.iter().map(|v| self.get(*v)).sum()
    }

    /// The mutants a score is taken over: all but the equivalent and the invalid ones.
    fn killable(&self) -> usize {
        self.total() - self.equivalent - self.invalid
    }

    /// The mutation score in %: killed / (mutants − equivalent − invalid); `None` when
    /// nothing is left to kill (a score of 100 % would claim a suite that kills something).
    pub fn score(&self) -> Option<f64> {
        let decided = self.killable();
        (decided > 0).then(|| 100.0 * self.killed as f64 / decided as f64)
    }

    /// The mutation score in % counting only the kills of class `class` or stronger
    /// (`docs/method.md` §11.3): [`KillClass::Definite`] gives the definite score,
    /// [`KillClass::Potential`] the potential-or-better score. The denominator is that of
    /// [`Counts::score`]; `None` when nothing is left to kill. Kills recorded without a class
    /// count in no class score.
    pub fn score_at_least(&self, class: KillClass) -> Option<f64> {
        let decided = self.killable();
        (decided > 0).then(|| 100.0 * self.kills_at_least(class) as f64 / decided as f64)
    }
}

/// `summary.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Model path as given.
    pub model: String,
    /// Hash of the model's sources.
    pub model_hash: String,
    /// BMC bound used.
    pub bound: usize,
    /// Number of mutants.
    pub mutants: usize,
    /// Mutants per verdict.
    #[serde(flatten)]
    pub counts: Counts,
    /// Per-mutant records, by id.
    pub results: Vec<MutantRecord>,
}

impl Summary {
    /// The summary of `records` (sorted by id here).
    pub fn new(
        model: &str,
        model_hash: &str,
        bound: usize,
        mut records: Vec<MutantRecord>,
    ) -> Self {
        records.sort_by_key(|r| r.id);
        Summary {
            model: model.to_string(),
            model_hash: model_hash.to_string(),
            bound,
            mutants: records.len(),
            counts: Counts::of(&records),
            results: records,
        }
    }
}

/// What a results directory was produced from; a resumed run must match it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// Hash of the model's sources.
    pub model_hash: String,
    /// BMC bound.
    pub bound: usize,
    /// Hash of the mutant list (id, operator, location, replacement): results of another
    /// operator set must not be resumed.
    #[serde(default)]
    pub mutants_hash: String,
    /// The slice decided here (all mutants if absent).
    pub shard: Option<Shard>,
    /// The initial-state convention of the tests (`docs/method.md` §6.1), e.g. `reset: rst
    /// held at 1 for 1 cycle; other registers start with free values`; absent for free
    /// power-up values without reset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_state: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: usize, outcome: MutantVerdict) -> MutantRecord {
        MutantRecord {
            outcome,
            ..MutantRecord::undecided(id, "ror", "m.smv:1:1", "<", "<=")
        }
    }

    #[test]
    fn counts_and_score() {
        let v = [
            MutantVerdict::Killed,
            MutantVerdict::Killed,
            MutantVerdict::Equivalent,
            MutantVerdict::Unknown,
            MutantVerdict::Invalid,
            MutantVerdict::Error,
        ];
        let records: Vec<MutantRecord> = v.iter().enumerate().map(|(i, o)| rec(i, *o)).collect();
        let c = Counts::of(&records);
        assert_eq!(
            c,
            Counts {
                killed: 2,
                equivalent: 1,
                unknown: 1,
                invalid: 1,
                errors: 1,
                ..Counts::default()
            }
        );
        assert_eq!(c.total(), 6);
        // 2 killed of 6 − 1 equivalent − 1 invalid.
        assert_eq!(c.score(), Some(50.0));
        assert_eq!(Counts::default().score(), None);
        let all_equivalent = Counts {
            equivalent: 3,
            ..Counts::default()
        };
        assert_eq!(all_equivalent.score(), None);
    }

    fn killed(id: usize, class: Option<KillClass>) -> MutantRecord {
        MutantRecord {
            kill_class: class,
            ..rec(id, MutantVerdict::Killed)
        }
    }

    #[test]
    fn class_counts_and_scores() {
        use KillClass::{Controlled, Definite, Potential};
        // 10 mutants: kills of class D, D, P, C and one without a class; 2 equivalent,
        // 1 unknown, 1 invalid, 1 error → 10 − 2 − 1 = 7 left to kill.
        let mut records = vec![
            killed(0, Some(Definite)),
            killed(1, Some(Definite)),
            killed(2, Some(Potential)),
            killed(3, Some(Controlled)),
            killed(4, None),
            rec(5, MutantVerdict::Equivalent),
            rec(6, MutantVerdict::Equivalent),
            rec(7, MutantVerdict::Unknown),
            rec(8, MutantVerdict::Invalid),
            rec(9, MutantVerdict::Error),
        ];
        // A class on a record that is not a kill is not counted.
        records[7].kill_class = Some(Definite);
        let c = Counts::of(&records);
        assert_eq!((c.definite, c.potential, c.controlled), (2, 1, 1));
        assert_eq!(c.killed, 5);
        // Independently: the classes of the killed records, strongest first.
        let at_least = |k: usize| {
            records
                .iter()
                .filter(|r| r.outcome == MutantVerdict::Killed)
                .filter_map(|r| r.kill_class)
                .filter(|class| KillClass::ALL[..=k].contains(class))
                .count()
        };
        for (k, class) in KillClass::ALL.iter().enumerate() {
            assert_eq!(c.kills_at_least(*class), at_least(k), "{class:?}");
            let want = 100.0 * at_least(k) as f64 / 7.0;
            let got = c.score_at_least(*class).expect("a score");
            assert!((got - want).abs() < 1e-9, "{class:?}: {got} vs {want}");
        }
        // The score of all kills counts the kill without a class too.
        assert!((c.score().expect("score") - 500.0 / 7.0).abs() < 1e-9);
        assert_eq!(Counts::default().score_at_least(Definite), None);
        // Counting record by record gives the same counts.
        let mut one_by_one = Counts::default();
        records.iter().for_each(|r| one_by_one.add_record(r));
        assert_eq!(one_by_one, c);
    }

    #[test]
    fn summaries_without_class_counts_still_read() {
        let s = Summary::new(
            "m.smv",
            "h",
            20,
            vec![killed(0, Some(KillClass::Potential))],
        );
        let mut v: serde_json::Value = serde_json::to_value(&s).expect("serialises");
        assert_eq!(v["potential"], 1);
        let obj = v.as_object_mut().expect("an object");
        for k in ["definite", "potential", "controlled"] {
            obj.remove(k);
        }
        let back: Summary = serde_json::from_value(v).expect("an old summary reads");
        assert_eq!(back.counts.killed, 1);
        assert_eq!(back.counts.potential, 0);
        assert_eq!(back.results, s.results);
    }

    #[test]
    fn summary_json_keeps_the_flat_counts() {
        let s = Summary::new(
            "m.smv",
            "h",
            20,
            vec![
                rec(1, MutantVerdict::Killed),
                rec(0, MutantVerdict::Invalid),
            ],
        );
        assert_eq!(s.results[0].id, 0);
        let v: serde_json::Value = serde_json::to_value(&s).expect("serialises");
        assert_eq!(v["killed"], 1);
        assert_eq!(v["invalid"], 1);
        assert_eq!(v["results"][1]["outcome"], "killed");
        let back: Summary = serde_json::from_value(v).expect("reads back");
        assert_eq!(back, s);
    }
}
