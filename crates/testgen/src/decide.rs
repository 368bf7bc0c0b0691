//! Deciding one mutant (`docs/method.md` §7): the validity checks, the product, the engine
//! schedule within the time budget, and the checked evidence of the verdict. No file I/O:
//! the result is a [`Decision`] value that the store writes.

use std::sync::Arc;
use std::time::{Duration, Instant};

use hypermut_aig::blast::{blast, BlastOptions};
use hypermut_aig::wordsim::{random_witness, SPARSE};
use hypermut_aig::{Aig, Lit, Witness};
use hypermut_hyper::{extract_test, range_check, HyperError, MutantProduct, Product, RangeCheck};
use hypermut_ir::System;
use hypermut_mutate::{make_controllable, Mutant};
use hypermut_prove::bmc::{bmc_while_cheap, check_bound, BmcError};
use hypermut_prove::schedule::{RETRY_SPARSE_FRAMES, SIMULATE_GATE_FRAMES, UNIFORM_ROUNDS};
use hypermut_prove::{
    witness_circuit, Certificate, Engine, Limits, Reach, Schedule, Scorr, Stage, Verdict,
};
use hypermut_smv::SmvOptions;

use crate::allowed::{allowed_outputs, nondeterministic_inputs};
use crate::error::{Error, Result};
use crate::kill_class::{classify, definite_at_once, strengthen};
use crate::layout;
use crate::lemma_pool::LemmaPool;
use crate::load::Model;
use crate::record::{KillClass, MutantRecord, MutantVerdict, ProductSize};
use crate::replay::TestPool;
use crate::select::Locator;
use crate::testfile::TestFile;
use crate::waveform;

/// At most this many pooled tests are checked for a definite kill by three-valued
/// simulation when the first is not definite (`docs/method.md` §7.8).
const REPLAY_CANDIDATES: usize = 64;

/// Of those, at most this many are classified by SAT.
const REPLAY_CLASSIFIED: usize = 8;

/// At most this many allowed output valuations are listed per test step.
const ALLOWED_CAP: usize = 16;

/// Longest test whose kill class is checked, strengthened and given allowed outputs: each of
/// these unrolls the circuit for the whole test, which for tests thousands of frames deep
/// costs gigabytes and minutes. A longer test is classed as needing control of
/// nondeterminism (true of every φ1 test, `docs/method.md` §4.5) and says so.
pub const DEEPEST_CLASSIFIED: usize = 256;

/// Time limit of the SAT sweep of [`solver_circuit`]: only a safety net. The sweep's own
/// effort limit (a number of gates per gate of the circuit) ends it first, so that the same
/// circuit always gives the same result — the circuit `hypermut product` writes is the one
/// testgen's engines and certificates refer to.
pub const SWEEP_BUDGET: Duration = Duration::from_secs(3600);

/// Rounds of 64 random runs (each at most the BMC bound deep in a first try, at most
/// [`DEEP_RANDOM_FRAMES`] in a later one) tried on a product before the engines.
pub const RANDOM_ROUNDS: usize = 8;

/// How deep the random runs of a later try go: as deep as a test's kill class is still
/// checked. A kill the first try's BMC missed may lie just past its bound, where one random
/// run reaches it at once (`docs/method.md` §7.8).
pub const DEEP_RANDOM_FRAMES: usize = DEEPEST_CLASSIFIED;

/// How deep the continued pooled tests of a later try run on `product`: as deep as its
/// runs under sparse stimuli (fewer frames on large circuits).
fn continued_frames(product: &Aig) -> usize {
    RETRY_SPARSE_FRAMES.min(SIMULATE_GATE_FRAMES / product.num_ands().max(1))
}

/// Which random runs found a kill.
#[derive(Clone, Copy, Debug)]
enum Stimuli {
    /// [`RANDOM_ROUNDS`] rounds of uniform random inputs.
    Uniform,
    /// One round per sparse stimulus ([`hypermut_aig::wordsim::SPARSE`]): the schedule's
    /// stage after BMC (`Stage::Simulate`).
    Sparse,
    /// The schedule's uniform random runs up to `frames` deep (`Stage::Uniform`), after BMC
    /// found the frames past a point hard: the kill need not be the shortest.
    UniformPastBmc {
        /// How deep the runs went at most.
        frames: usize,
    },
    /// Coverage-guided exploration (`Stage::Explore`) of a last try.
    Explored,
    /// Pooled tests continued past their end ([`TestPool::continued`]).
    Continued,
}

impl Stimuli {
    /// Which runs found the kill, for a record's reason.
    fn describe(self) -> String {
        match self {
            Stimuli::Uniform => format!("the shortest hit of {} runs", 64 * RANDOM_ROUNDS),
            Stimuli::UniformPastBmc { frames } => format!(
                "the shortest hit of {} runs up to {frames} frames deep, once BMC found the \
                 frames past its first ones hard: a shorter kill may exist",
                64 * UNIFORM_ROUNDS
            ),
            Stimuli::Sparse => format!(
                "the shortest hit of {} runs of quiet inputs",
                64 * SPARSE.len()
            ),
            Stimuli::Explored => "coverage-guided exploration: runs that go on from every new \
                                  value of the control registers"
                .into(),
            Stimuli::Continued => "pooled tests continued with their last inputs held".into(),
        }
    }
}

/// The engines of one try on a mutant.
#[derive(Clone, Copy, Debug)]
struct Engines<'s> {
    /// How long they may run.
    within: Duration,
    /// Which, in which order.
    schedule: &'s Schedule,
    /// How deep the random runs before them go.
    random_frames: usize,
    /// Whether IC3 starts from the invariants proved for other mutants (a first try only:
    /// the later tries start from nothing or from the correspondence, `docs/method.md`
    /// §7.11).
    pooled_lemmas: bool,
    /// Whether the pooled tests are also continued past their end before the engines run
    /// (a later try only, `docs/method.md` §7.8).
    continued_tests: bool,
}

/// Share of a mutant's engine time that BDD reachability may use on the unoptimised product
/// before the schedule starts (`docs/method.md` §7.9).
pub const QUICK_BDD_SHARE: f64 = 0.25;

/// BDD variables (inputs plus twice the latches) of the whole unoptimised product up to
/// which BDD reachability runs on it before the schedule; a larger product gets its BDD
/// stage in the schedule, after the product is optimised and signal correspondence tried.
pub const QUICK_BDD_VARIABLES: usize = 80;

/// Deepest frame of the shallow BMC run on the unoptimised product before it is optimised
/// and the schedule starts (`docs/method.md` §7.4): most kills random simulation misses lie
/// a few frames deep, and finding them there spares those mutants the optimisation and
/// signal correspondence.
pub const QUICK_BMC_FRAMES: usize = 3;

/// Conflicts one frame of that run may take before it gives up (an equivalent mutant pays
/// at most this much per frame).
pub const QUICK_BMC_FRAME_CONFLICTS: u32 = 1_000;

/// The circuit the engines get for a product or model circuit `aig`, and the one `hypermut
/// aiger` and `hypermut product` write: `aig` logic-optimised (`docs/method.md` §7.7): the
/// same inputs and latches, every output, property, constraint and next-state function the
/// same function of them, so witnesses and certificates of one are those of the other.
pub fn solver_circuit(aig: &Aig) -> Aig {
    hypermut_prove::optimize(aig, SWEEP_BUDGET)
}

/// How much effort one mutant gets.
#[derive(Clone, Debug, PartialEq)]
pub struct DecideOptions {
    /// BMC bound: the deepest frame searched before IC3.
    pub bound: usize,
    /// Time limit per mutant, for BMC and IC3 together.
    pub timeout: Duration,
    /// Whether to run IC3 after BMC (to prove equivalence or find deeper tests).
    pub prove: bool,
    /// Time limit per mutant for the search of a stronger test than φ1's (a definite or a
    /// potential one, `docs/method.md` §4.7), within `timeout`; zero turns the search off.
    pub search_timeout: Duration,
    /// Whether the tests found so far are replayed on a mutant's product before any engine
    /// runs (fault dropping, `docs/method.md` §7.8). A replayed test may be longer than the
    /// shortest killing test.
    pub replay: bool,
    /// Whether the mutants the first pass leaves open are searched across, per mutated
    /// site, before their own later tries (`docs/method.md` §7.10). Off by default: on the
    /// designs measured it found no kill that the mutants' own tries did not find sooner.
    pub across: bool,
}

impl Default for DecideOptions {
    fn default() -> Self {
        DecideOptions {
            bound: 20,
            timeout: Duration::from_secs(60),
            prove: true,
            search_timeout: Duration::from_secs(2),
            replay: true,
            across: false,
        }
    }
}

/// What deciding one mutant produced: its record and the evidence to store with it.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The record (its `test` and `certificate` fields name the files of the evidence).
    pub record: MutantRecord,
    /// The killing test, for a killed mutant.
    pub test: Option<TestFile>,
    /// The product's counterexample, for a killed mutant.
    pub witness: Option<Witness>,
    /// The certificate circuit (Certifaiger), for a mutant IC3 proved equivalent.
    pub certificate: Option<Aig>,
    /// The VCD waveform of the killing test ([`crate::waveform`]), when it could be built.
    pub waveform: Option<Vec<u8>>,
    /// What went wrong without changing the verdict (e.g. no waveform for the test).
    pub warnings: Vec<String>,
}

/// Decides mutants of one model (what does not change from mutant to mutant).
#[derive(Clone, Debug)]
pub struct Decider<'a> {
    model: &'a Model,
    options: DecideOptions,
    schedule: Schedule,
    /// The schedule of the search across a site's open mutants (`docs/method.md` §7.10):
    /// IC3 from nothing, no bounded BMC (the first try did it).
    retry: Schedule,
    /// The schedule of a mutant's last try.
    last: Schedule,
    ands_orig: Option<usize>,
    smv_recheck: Option<SmvOptions>,
    locator: Locator,
    pool: Arc<TestPool>,
    /// The clauses of the equivalence proofs so far, seeds of later IC3 runs.
    lemmas: Arc<LemmaPool>,
}

impl<'a> Decider<'a> {
    /// A decider for the mutants of `model`.
    pub fn new(model: &'a Model, options: &DecideOptions) -> Self {
        // Without replay, no random runs either: every test is a solver's (`docs/method.md`
        // §7.8).
        let runs = |s: Schedule| {
            if options.replay {
                s
            } else {
                s.without_simulation()
            }
        };
        Decider {
            model,
            options: options.clone(),
            schedule: runs(Schedule::sliced(options.bound, options.prove)),
            retry: runs(
                Schedule::sliced(options.bound, options.prove)
                    .unseeded()
                    .retried(),
            ),
            last: runs(Schedule::last_try()),
            ands_orig: original_ands(&model.system).ok(),
            smv_recheck: model.smv_recheck(),
            locator: Locator::new(model),
            pool: Arc::new(TestPool::new()),
            lemmas: Arc::new(LemmaPool::new()),
        }
    }

    /// Decides mutant `m`. Failures become the verdicts `invalid` or `error` with the reason.
    pub fn decide(&self, m: &Mutant) -> Decision {
        self.decide_with(m, Some(self.first_try(self.options.timeout)))
    }

    /// The engines of a first try for `within`.
    fn first_try(&self, within: Duration) -> Engines<'_> {
        Engines {
            within,
            schedule: &self.schedule,
            random_frames: self.options.bound,
            pooled_lemmas: self.options.replay,
            continued_tests: false,
        }
    }

    /// [`Decider::decide`] with the engines limited to `timeout` instead of the options'
    /// time limit (a first, short pass over all mutants, `docs/method.md` §7.8).
    pub fn decide_within(&self, m: &Mutant, timeout: Duration) -> Decision {
        self.decide_with(m, Some(self.first_try(timeout)))
    }

    /// The last try on a mutant that its first try left unknown, the engines limited to
    /// `timeout` (all the time it has left): the last try's schedule
    /// ([`Schedule::last_try`]), which ends with BMC that searches hard frames in full
    /// (`docs/method.md` §7.4). Random simulation runs deeper than the BMC bound here: the
    /// first try's BMC found no shorter kill.
    pub fn decide_again(&self, m: &Mutant, timeout: Duration) -> Decision {
        let engines = Engines {
            within: timeout,
            schedule: &self.last,
            random_frames: self.options.bound.max(DEEP_RANDOM_FRAMES),
            pooled_lemmas: false,
            continued_tests: self.options.replay,
        };
        self.decide_with(m, Some(engines))
    }

    /// Decides mutant `m` again with the tests pooled since (fault dropping only, no engine):
    /// the decision if a pooled test kills it, else `None`. For mutants left unknown while
    /// the tests that kill them were still to be found.
    pub fn decide_by_replay(&self, m: &Mutant) -> Option<Decision> {
        if !self.options.replay {
            return None;
        }
        let d = self.decide_without_engines(m);
        (d.record.outcome == MutantVerdict::Killed).then_some(d)
    }

    /// Decides mutant `m` without running an engine: killed if a pooled test kills it,
    /// invalid or equivalent if the static checks show it, else unknown.
    pub fn decide_without_engines(&self, m: &Mutant) -> Decision {
        self.decide_with(m, None)
    }

    /// [`Decider::decide`], with the engines of a schedule for a time (none when `None`).
    fn decide_with(&self, m: &Mutant, engines: Option<Engines<'_>>) -> Decision {
        let start = Instant::now();
        let mut d = Decision {
            record: MutantRecord {
                ands_orig: self.ands_orig,
                ..MutantRecord::undecided(
                    m.id,
                    m.operator.name(),
                    &self.locator.location(&self.model.system, m),
                    &m.original,
                    &m.replacement,
                )
            },
            test: None,
            witness: None,
            certificate: None,
            waveform: None,
            warnings: Vec::new(),
        };
        if let Err(e) = self.decide_inner(m, &mut d, start, engines) {
            d.record.outcome = match &e {
                Error::Hyper(HyperError::InvalidMutant(_)) => MutantVerdict::Invalid,
                _ => MutantVerdict::Error,
            };
            d.record.reason = e.to_string();
            d.test = None;
            d.witness = None;
            d.certificate = None;
            d.waveform = None;
        }
        d.record.millis = start.elapsed().as_millis() as u64;
        d
    }

    /// Whether mutant `m`, killed by φ1 only under controlled nondeterminism, just narrows
    /// the original's choices (`docs/method.md` §4.6): the original, choosing at the mutated
    /// choice what the mutant chose, answers alike. Proved on the inclusion product by the
    /// engine schedule until `until`; the engine name and the reason when proved.
    fn narrows(
        &self,
        m: &Mutant,
        d: &mut Decision,
        until: Instant,
    ) -> Result<Option<(String, String)>> {
        let Some(ip) = MutantProduct::build_inclusion(&self.model.system, m)? else {
            return Ok(None);
        };
        let limits = Limits::until(Some(until));
        let circuit = solver_circuit(&ip.product.aig);
        let run = self.schedule.run(&circuit, &limits);
        let Verdict::Safe(cert) = run.verdict else {
            return Ok(None);
        };
        let engine = self.schedule.stage_name(run.stage).unwrap_or("static");
        let how = certified(d, &circuit, &cert, m.id, engine)?;
        Ok(Some((
            format!("inclusion-{engine}"),
            format!(
                "the mutant only narrows the original's choices: with the mutant's choice at the \
                 mutated site the original answers alike (inclusion proof; {how}), so no test \
                 kills it, even potentially; φ1's test needed control of nondeterminism"
            ),
        )))
    }

    /// Why the SMV front-end rejects the mutant's edited source, if it does (NuSMV would
    /// reject that model too, e.g. a `case` left without a branch for some values).
    fn rejected_source(&self, m: &Mutant) -> Option<String> {
        let options = self.smv_recheck.as_ref()?;
        let src = hypermut_mutate::mutant_source(&self.model.system, m).ok()?;
        match hypermut_smv::parse_smv_with(&src.name, &src.text, options) {
            Ok(_) => None,
            Err(e) => Some(format!(
                "the mutated source is not a valid model: {}",
                e.to_string().lines().next().unwrap_or("")
            )),
        }
    }

    fn decide_inner(
        &self,
        m: &Mutant,
        d: &mut Decision,
        start: Instant,
        engines: Option<Engines<'_>>,
    ) -> Result<()> {
        let rec = &mut d.record;
        if let Some(reason) = self.rejected_source(m) {
            rec.outcome = MutantVerdict::Invalid;
            rec.engine = Some("static".into());
            rec.reason = reason;
            return Ok(());
        }
        let mp = MutantProduct::build(&self.model.system, m)?;
        let p = &mp.product;
        rec.product = ProductSize {
            inputs: p.aig.inputs.len(),
            latches: p.aig.latches.len(),
            shared_latches: p.shared_latches,
            duplicated_latches: p.duplicated_latches,
            ands: p.aig.num_ands(),
        };
        rec.ands_cm = Some(mp.blasted.aig.num_ands());
        if let Some(var) = out_of_range(&mp)? {
            rec.outcome = MutantVerdict::Invalid;
            rec.engine = Some("range".into());
            rec.reason = format!(
                "the mutant can assign a value outside the range of {var} (NuSMV rejects such models)"
            );
            return Ok(());
        }
        if !p.observable || p.aig.bad.first().map(|b| b.lit) == Some(Lit::FALSE) {
            rec.outcome = MutantVerdict::Equivalent;
            rec.engine = Some("static".into());
            rec.reason =
                "the mutation leaves the circuit unchanged or reaches no output (structural check)"
                    .into();
            return Ok(());
        }
        let limits = Limits::until(Some(start + self.options.timeout));
        // The engines may have less time than what follows a kill (classifying it).
        let engine_limits = Limits::until(Some(
            start + engines.map_or(self.options.timeout, |e| e.within),
        ));
        // The pooled tests that kill the mutant, best first; the others are tried when the
        // first is not definite (`docs/method.md` §7.8).
        let mut replayed = if self.options.replay {
            self.pool.killing(&p.aig, REPLAY_CANDIDATES)
        } else {
            Vec::new()
        };
        let alternatives = replayed.split_off(replayed.len().min(1));
        let mut circuit = None;
        let mut simulated_by = None;
        let verdict = match replayed.pop() {
            Some(w) => {
                rec.engine = Some("replay".into());
                Verdict::Unsafe(w)
            }
            None => {
                let Some(Engines {
                    schedule,
                    random_frames,
                    pooled_lemmas,
                    continued_tests,
                    ..
                }) = engines
                else {
                    rec.outcome = MutantVerdict::Unknown;
                    rec.reason = "no pooled test kills it (no engine ran)".into();
                    return Ok(());
                };
                // Random simulation before any solver (`docs/method.md` §7.8): most kills
                // are shallow, and a hit needs neither the optimised circuit nor SAT.
                let simulated = self
                    .options
                    .replay
                    .then(|| random_witness(&p.aig, random_frames, RANDOM_ROUNDS, m.id as u64));
                // A later try: the pooled tests continued past their end (a deeper mutant
                // of a site whose shallower sibling's test set up the mode it needs).
                let continued = || {
                    continued_tests
                        .then(|| self.pool.continued(&p.aig, continued_frames(&p.aig)))
                        .flatten()
                };
                let decided = match simulated.flatten() {
                    Some(w) => {
                        rec.engine = Some("simulation".into());
                        simulated_by = Some(Stimuli::Uniform);
                        Some(Verdict::Unsafe(w))
                    }
                    None => match continued() {
                        Some(w) => {
                            rec.engine = Some("continued".into());
                            simulated_by = Some(Stimuli::Continued);
                            Some(Verdict::Unsafe(w))
                        }
                        None => self.quick_stages(p, &engine_limits).map(|(name, v)| {
                            rec.engine = Some(name.into());
                            circuit = Some(p.aig.clone());
                            v
                        }),
                    },
                };
                match decided {
                    Some(v) => v,
                    None => {
                        let c = circuit.insert(solver_circuit(&p.aig));
                        // The invariants proved for other mutants, as IC3's seeds
                        // (`docs/method.md` §7.11).
                        let seeds = if pooled_lemmas {
                            self.lemmas.seeds(c)
                        } else {
                            Vec::new()
                        };
                        // Tests of other mutants to continue past their end (`docs/method.md`
                        // §7.8), for a schedule with such a stage.
                        let prefixes = if self.options.replay && schedule.continues_prefixes() {
                            self.pool.prefixes(&p.aig)
                        } else {
                            Vec::new()
                        };
                        let run = schedule.run_hinted(c, &engine_limits, &seeds, &prefixes);
                        rec.engine = schedule.stage_name(run.stage).map(str::to_string);
                        simulated_by = match run.stage.and_then(|k| schedule.stages.get(k)) {
                            Some(Stage::Simulate { .. }) => Some(Stimuli::Sparse),
                            Some(Stage::Uniform { frames }) => {
                                Some(Stimuli::UniformPastBmc { frames: *frames })
                            }
                            Some(Stage::Explore) => Some(Stimuli::Explored),
                            Some(Stage::Continue { .. }) => Some(Stimuli::Continued),
                            _ => simulated_by,
                        };
                        run.verdict
                    }
                }
            }
        };
        match verdict {
            Verdict::Unsafe(mut w) => {
                let mut test =
                    extract_test(&mp.conditional, &mp.nd, &mp.blasted, &w).map_err(|e| {
                        Error::from(e)
                            .context("the counterexample does not replay on the word-level model")
                    })?;
                let private = nondeterministic_inputs(&mp, self.model.options.x_as_input);
                // The original's run the test comes from: the inputs and nd values per frame.
                let mut run_inputs = w.inputs.clone();
                let deep = test.depth > DEEPEST_CLASSIFIED && private.contains(&true);
                // Three-valued simulation is linear in the test's length: a deep test is
                // still found definite when it is so at once (`docs/method.md` §4.5).
                let mut class = if deep {
                    if definite_at_once(&mp, &private, &w, test.depth) {
                        KillClass::Definite
                    } else {
                        KillClass::Controlled
                    }
                } else {
                    classify(&mp, &private, &w, test.depth, limits.deadline)?
                };
                // Another pooled test may kill this mutant more strongly than the first: a
                // definite one by three-valued simulation among all the candidates, else one
                // classified by SAT among the first few.
                let mut alternatives = alternatives;
                if class != KillClass::Definite && !deep {
                    let at_once = alternatives.iter().position(|alt| {
                        alt.depth() <= DEEPEST_CLASSIFIED
                            && definite_at_once(&mp, &private, alt, alt.depth())
                    });
                    if let Some(k) = at_once {
                        let alt = alternatives.swap_remove(k);
                        if let Ok(t) = extract_test(&mp.conditional, &mp.nd, &mp.blasted, &alt) {
                            test = t;
                            run_inputs = alt.inputs.clone();
                            w = alt;
                            class = KillClass::Definite;
                        }
                    }
                }
                alternatives.truncate(REPLAY_CLASSIFIED - 1);
                for alt in alternatives.into_iter().filter(|_| !deep) {
                    if class == KillClass::Definite || alt.depth() > DEEPEST_CLASSIFIED {
                        break;
                    }
                    let c = classify(&mp, &private, &alt, alt.depth(), limits.deadline)?;
                    if c.rank() < class.rank() {
                        if let Ok(t) = extract_test(&mp.conditional, &mp.nd, &mp.blasted, &alt) {
                            test = t;
                            run_inputs = alt.inputs.clone();
                            w = alt;
                            class = c;
                        }
                    }
                }
                rec.reason = if let Some(Stimuli::Continued) = simulated_by {
                    format!(
                        "a test found for another mutant, continued past its end with its last \
                         inputs held, kills it at depth {} (fault dropping), replayed on the model",
                        w.depth()
                    )
                } else if rec.engine.as_deref() == Some("replay") {
                    format!(
                        "a test found for another mutant kills it at depth {} (fault dropping), \
                         replayed on the model",
                        w.depth()
                    )
                } else if let Some(stimuli) = simulated_by {
                    format!(
                        "random simulation kills it at depth {} ({}), replayed on the model",
                        w.depth(),
                        stimuli.describe()
                    )
                } else {
                    format!(
                        "counterexample at depth {}, replayed on the model",
                        w.depth()
                    )
                };
                if deep && class != KillClass::Definite {
                    rec.reason.push_str(&format!(
                        "; the test is longer than {DEEPEST_CLASSIFIED} frames: beyond \
                         three-valued simulation it is not checked for a stronger kill class \
                         and kept as needing control of nondeterminism"
                    ));
                }
                let budget = || {
                    let until = Instant::now() + self.options.search_timeout;
                    limits.deadline.map_or(until, |d| d.min(until))
                };
                if class == KillClass::Controlled && !self.options.search_timeout.is_zero() && !deep
                {
                    if let Some((engine, reason)) = self.narrows(m, d, budget())? {
                        d.record.outcome = MutantVerdict::Equivalent;
                        d.record.engine = Some(engine);
                        d.record.reason = reason;
                        return Ok(());
                    }
                }
                let rec = &mut d.record;
                if class != KillClass::Definite && !self.options.search_timeout.is_zero() && !deep {
                    let until = budget();
                    let found = class;
                    let mut search = strengthen(
                        &mp,
                        &private,
                        class,
                        test.depth..=self.options.bound.max(test.depth),
                        Some(until),
                    )?;
                    let now = search.test.as_ref().map_or(found, |(c, _)| *c);
                    let described = search.describe(found, now);
                    if let Some((c, (t, run))) = search.test.take() {
                        class = c;
                        test = t;
                        run_inputs = run;
                    }
                    rec.reason.push_str(&described);
                    if class != KillClass::Definite {
                        rec.no_definite_up_to = search.definite_to;
                    }
                    if class == KillClass::Controlled {
                        rec.no_potential_up_to = search.potential_to;
                    }
                }
                test.requires_nd_control = class == KillClass::Controlled;
                if self.options.replay {
                    self.pool.add(&p.aig, &run_inputs, &w.init, class);
                }
                rec.outcome = MutantVerdict::Killed;
                rec.depth = Some(test.depth);
                rec.kill_class = Some(class);
                rec.requires_nd_control = test.requires_nd_control;
                rec.test = Some(layout::test_file(m.id));
                let location = rec.location.clone();
                let depth = test.depth;
                let initial_state = self.model.initial_state();
                let mut file = TestFile::new(
                    &self.model.name,
                    &self.model.hash,
                    m,
                    &location,
                    &mp,
                    test,
                    class,
                );
                file.initial_state = initial_state;
                file.allowed = if deep {
                    Vec::new()
                } else {
                    match allowed_outputs(
                        &mp,
                        &private,
                        &run_inputs,
                        depth,
                        ALLOWED_CAP,
                        limits.deadline,
                    ) {
                        Ok(a) => a,
                        // Out of time: the test is kept without its allowed outputs.
                        Err(Error::Bmc(BmcError::Interrupted)) => Vec::new(),
                        Err(e) => return Err(e),
                    }
                };
                // The waveform is a convenience: a test without one is still stored.
                match waveform::test_vcd(&mp, &file.test) {
                    Ok(vcd) => d.waveform = Some(vcd),
                    Err(e) => d
                        .warnings
                        .push(format!("mutant {}: no waveform: {e}", m.id)),
                }
                d.test = Some(file);
                d.witness = Some(w);
            }
            Verdict::Safe(cert) => {
                d.record.outcome = MutantVerdict::Equivalent;
                let circuit = circuit.unwrap_or_else(|| solver_circuit(&p.aig));
                let engine = d.record.engine.clone().unwrap_or_default();
                if let (true, "ic3", Certificate::Invariant { clauses }) =
                    (self.options.replay, engine.as_str(), &cert)
                {
                    self.lemmas.add(&circuit, clauses);
                }
                d.record.reason = certified(d, &circuit, &cert, m.id, &engine)?;
            }
            Verdict::Unknown(r) => {
                rec.outcome = MutantVerdict::Unknown;
                rec.reason = r;
            }
        }
        Ok(())
    }

    /// The stages run on the unoptimised product before the schedule (`docs/method.md`
    /// §7.8): BDD reachability on a small product, whatever the depth of its kill or the
    /// shape of its invariant; correspondence between the copies' twin latches, the proof of
    /// most equivalent mutants; BMC of the first frames. The engine name and verdict of the
    /// first that decides.
    fn quick_stages(&self, p: &Product, limits: &Limits) -> Option<(&'static str, Verdict)> {
        if self.options.prove {
            match quick_bdd(&p.aig, limits) {
                v @ (Verdict::Safe(_) | Verdict::Unsafe(_)) => return Some(("bdd", v)),
                Verdict::Unknown(_) => {}
            }
            if let v @ Verdict::Safe(_) = quick_twins(p, limits) {
                return Some(("scorr", v));
            }
        }
        match quick_bmc(&p.aig, limits) {
            v @ Verdict::Unsafe(_) => Some(("bmc", v)),
            _ => None,
        }
    }
}

/// Correspondence between the twin latches of product `p` in [`QUICK_TWINS_SHARE`] of the
/// time `limits` leave: stops as soon as the twins cannot prove the copies agree.
fn quick_twins(p: &Product, limits: &Limits) -> Verdict {
    let scorr = Scorr {
        stop_when_unprovable: true,
        ..Scorr::default()
    };
    scorr.check_twins(&p.aig, &p.twins, &limits.slice(QUICK_TWINS_SHARE))
}

/// The reason text of an equivalence proved by `cert` (found by `engine`, as results name
/// engines) on the product `aig` of mutant `id`; an invariant or a set of equalities is
/// stored as a certificate circuit in `d`.
fn certified(
    d: &mut Decision,
    aig: &Aig,
    cert: &Certificate,
    id: usize,
    engine: &str,
) -> Result<String> {
    let how = match cert {
        Certificate::Trivial => return Ok("the kill property is constant false".into()),
        Certificate::KInduction { k, .. } => return Ok(format!("k-induction at depth {k}")),
        Certificate::Invariant { clauses } if engine.ends_with("bdd") => format!(
            "BDD reachability: the reachable states as an inductive invariant of {} clauses",
            clauses.len()
        ),
        Certificate::Invariant { clauses } if engine.ends_with("houdini") => format!(
            "induction: {} clauses mined from random simulation, inductive together",
            clauses.len()
        ),
        Certificate::Invariant { clauses } => {
            format!("IC3: an inductive invariant of {} clauses", clauses.len())
        }
        Certificate::Circuit { gates, .. } => format!(
            "BDD reachability: the reachable states as an inductive invariant circuit of {} \
             gates",
            gates.len()
        ),
        Certificate::Equalities { pairs } => format!(
            "signal correspondence: {} {} between the two copies' state, inductive",
            pairs.len(),
            if pairs.len() == 1 {
                "equality"
            } else {
                "equalities"
            }
        ),
    };
    d.certificate = Some(witness_circuit(aig, cert)?);
    d.record.certificate = Some(layout::certificate_file(id));
    Ok(format!("{how}, re-checked by a separate SAT solver"))
}

/// BDD reachability on `aig` in [`QUICK_BDD_SHARE`] of the time `limits` leave, when `aig`
/// has at most [`QUICK_BDD_VARIABLES`] inputs and latch variables.
fn quick_bdd(aig: &Aig, limits: &Limits) -> Verdict {
    if aig.inputs.len() + 2 * aig.latches.len() > QUICK_BDD_VARIABLES {
        return Verdict::Unknown("a product too large for BDD reachability first".into());
    }
    Reach::default().check_limited(aig, &limits.slice(QUICK_BDD_SHARE))
}

/// The share of a mutant's time the correspondence between twin latches may take before
/// the schedule (it usually takes milliseconds).
pub const QUICK_TWINS_SHARE: f64 = 0.05;

/// BMC of frames `0..=`[`QUICK_BMC_FRAMES`] on `aig` while each frame takes at most
/// [`QUICK_BMC_FRAME_CONFLICTS`] conflicts: the shortest kill up to that depth, if one is
/// found.
fn quick_bmc(aig: &Aig, limits: &Limits) -> Verdict {
    bmc_while_cheap(aig, QUICK_BMC_FRAMES, limits, QUICK_BMC_FRAME_CONFLICTS)
}

/// AND gates of the model's circuit after the nd transformation (the base of ΔGates).
pub fn original_ands(sys: &System) -> Result<usize> {
    let mut s = sys.clone();
    make_controllable(&mut s, &[])?;
    let b = blast(&s, &BlastOptions::default())?;
    Ok(b.aig.num_ands())
}

/// The first assignment (`next(x)`, `init(x)`) that the mutant can drive out of range in some
/// state while the original cannot.
fn out_of_range(mp: &MutantProduct) -> Result<Option<String>> {
    let Some(mutant) = range_check(&mp.conditional, true)? else {
        return Ok(None);
    };
    let original = range_check(&mp.conditional, false)?;
    for (k, b) in mutant.aig.bad.iter().enumerate() {
        let violates = |rc: &RangeCheck| -> Result<bool> {
            let Some(g) = rc
                .aig
                .bad
                .iter()
                .position(|x| x.name == b.name)
                .and_then(|i| rc.property(i))
            else {
                return Ok(false);
            };
            Ok(check_bound(&g, 0)?.is_some())
        };
        let orig_violates = match &original {
            Some(o) => violates(o)?,
            None => false,
        };
        if !orig_violates && mutant.property(k).is_some() && violates(&mutant)? {
            return Ok(Some(b.name.clone()));
        }
    }
    Ok(None)
}

pub mod across;

#[cfg(test)]
mod tests;
