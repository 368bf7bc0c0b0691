//! Engine schedules: several engines run one after another on the same problem, sharing one
//! [`Limits`] (so the whole schedule has one deadline), each in a slice of the time left
//! (`docs/method.md` §7.4), with the stage that answered.
//!
//! The schedule `testgen` uses for each mutant is [`Schedule::sliced`]: signal correspondence
//! first (equivalent mutants are proved at once), BMC up to a bound for the shortest
//! killing tests, BDD reachability (small circuits are decided whatever the depth of their
//! kills), then IC3 for deeper tests and the remaining proofs, and a last slice of
//! BMC without bound for kills hundreds of frames deep whose frames are easy (random runs
//! under quiet inputs, for kills behind counters, and the quick induction over mined
//! clauses, for equivalences that need facts besides equalities, go between a BMC that
//! covered its bound and IC3); neither the
//! kills nor the proofs wait for the whole time limit of the other. When
//! correspondence proves equalities but not safety, IC3 starts from the latch equalities
//! among them (`Ic3::with_lemmas`).

use hypermut_aig::continued::continued_witness;
use hypermut_aig::explore::{explore_witness, EXPLORE};
use hypermut_aig::wordsim::{random_witness, sparse_witness, SPARSE};
use hypermut_aig::{Aig, Lit, Witness};

use crate::bmc::{bmc_while_cheap, searched_up_to, searched_whole_bound, Bmc};
use crate::engine::Engine;
use crate::houdini::Houdini;
use crate::ic3::{Ic3, Ic3Options};
use crate::leap::LeapBmc;
use crate::limits::Limits;
use crate::reach::Reach;
use crate::reduced_verdict::checked_witness;
use crate::scorr::{Kept, Scorr};
use crate::suspend::{self, Held, Started};
use crate::verdict::Verdict;

/// How far BMC without bound unrolls at most, as frames times AND gates of the circuit: a
/// bound on the solver's memory when frames are cheap (the time slice bounds the rest).
pub const DEEP_BMC_GATE_FRAMES: usize = 8_000_000;

/// Conflicts the first BMC stage of [`Schedule::sliced`] may spend on one frame: the
/// shortest kills are found while frames are easy, and when a frame gets hard (as on an
/// equivalent mutant, whose every frame is unsatisfiable) the time goes to IC3, which both
/// proves and kills, instead of to the rest of the bound.
pub const SHORT_BMC_FRAME_CONFLICTS: u32 = 5_000;

/// Conflicts BMC without bound may spend on one frame: it goes deep only while frames are
/// cheap, and gives the rest of its slice back to IC3 otherwise.
pub const DEEP_BMC_FRAME_CONFLICTS: u32 = 10_000;

/// How deep the random runs under sparse stimuli of [`Schedule::sliced`] go.
pub const SPARSE_FRAMES: usize = 1024;

/// How deep they go in a later try ([`Schedule::retried`], [`Schedule::last_try`]).
pub const RETRY_SPARSE_FRAMES: usize = 4096;

/// How far the runs of a [`Stage::Simulate`] go at most, as frames times AND gates of the
/// circuit (each of its rounds), so that a large circuit does not take seconds there.
pub const SIMULATE_GATE_FRAMES: usize = 50_000_000;

/// Rounds of 64 runs of a [`Stage::Uniform`].
pub const UNIFORM_ROUNDS: usize = 8;

/// How deep the runs of the first try's [`Stage::Uniform`] go, as a multiple of the BMC
/// bound ([`Schedule::sliced`]).
pub const UNIFORM_DEPTH_PER_BOUND: usize = 4;

/// The seed of the random runs of [`Stage::Simulate`] (the runs are reproducible).
pub const SIMULATE_SEED: u64 = 0x5eed;

/// One stage of a [`Schedule`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Signal correspondence (proves safety only).
    Scorr(Scorr),
    /// Induction over clauses mined from random simulation ([`Houdini`]): proves safety
    /// when their inductive subset excludes the bad states (finds no counterexamples).
    Houdini(Houdini),
    /// BMC of depths `0..=bound` (finds counterexamples only).
    Bmc {
        /// Deepest frame searched.
        bound: usize,
    },
    /// BMC of depths `0..=bound` while each frame takes at most `frame_conflicts` conflicts
    /// (`bmc_while_cheap`); `usize::MAX` searches until the stage's slice of time ends (at
    /// most [`DEEP_BMC_GATE_FRAMES`] frames times gates), and is skipped without a deadline.
    CheapBmc {
        /// Deepest frame searched.
        bound: usize,
        /// Conflicts one frame may take before the stage gives up.
        frame_conflicts: u32,
    },
    /// Random runs under sparse stimuli, one round of 64 per stimulus of
    /// [`hypermut_aig::wordsim::SPARSE`], each at most `frames` deep (finds counterexamples
    /// only: kills behind counters that need long quiet stretches of the inputs). It runs only
    /// after an earlier stage of the same run has ruled out the short kills a solver would
    /// find (a bounded BMC stage that searched its whole bound, or an IC3 stage), so that its
    /// long tests never stand in for a shorter one.
    Simulate {
        /// Deepest frame of a run (fewer on large circuits, [`SIMULATE_GATE_FRAMES`]).
        frames: usize,
    },
    /// Random runs of uniform inputs ([`UNIFORM_ROUNDS`] rounds of 64), each at most `frames`
    /// deep (fewer on large circuits): the shortest hit (finds counterexamples only). It
    /// runs once a bounded BMC stage has searched at least a quarter of its bound in full and
    /// found the frames after that hard (or once the short kills were searched): a kill
    /// just past the frames a solver finds cheap, which one random run reaches at once,
    /// while a solver would need seconds to reach it (`docs/method.md` §7.4).
    Uniform {
        /// Deepest frame of a run.
        frames: usize,
    },
    /// The run's given input sequences ([`Schedule::run_hinted`]: tests found for similar
    /// circuits) continued past their end with their last inputs held
    /// ([`hypermut_aig::continued::continued_witness`]), each run at most `frames` deep (fewer
    /// on large circuits). Finds counterexamples only; like [`Stage::Simulate`] it runs only
    /// after the short kills were searched, and it is skipped without sequences.
    Continue {
        /// Deepest frame of a run (fewer on large circuits, [`SIMULATE_GATE_FRAMES`]).
        frames: usize,
    },
    /// Coverage-guided exploration ([`hypermut_aig::explore`]): random runs that go on from
    /// every state showing new values of the control registers, for kills behind long
    /// sequences of right moves (a game won after many rounds). Finds counterexamples only,
    /// runs only under a deadline, and, like [`Stage::Simulate`], only after the short kills
    /// were searched.
    Explore,
    /// IC3/PDR with the given options (complete).
    Ic3(Ic3Options),
    /// IC3/PDR from nothing: without the lemmas earlier stages carried, even in a seeded
    /// schedule (seeds change IC3's way through a problem, and neither way wins everywhere:
    /// a short unseeded run before a seeded one catches the problems seeds slow down,
    /// `docs/method.md` §7.4). Complete; it hands nothing on. Left out on circuits without
    /// latches, where a later IC3 stage would ask the same question again.
    Unseeded(Ic3Options),
    /// BDD reachability (complete while its BDDs stay small; gives up at once on circuits
    /// with many latches). Without a deadline it stops after [`UNTIMED_REACH_CAP`].
    Reach(Reach),
    /// IC3 with the given options for at most `first` (within its slice), then held while
    /// the next stages run: the schedule's next [`Stage::Ic3`] resumes it where it was, with
    /// its frames, solvers and learnt clauses, instead of starting over (that stage's own
    /// options are then ignored, and its slice bounds the resumed run). On a circuit without
    /// latches it runs uncapped, like a capped IC3 stage.
    HeldIc3 {
        /// The IC3 options.
        options: Ic3Options,
        /// How long it runs before it is held.
        first: std::time::Duration,
    },
    /// BMC by leaps ([`LeapBmc`]) for at most `first` (within its slice), then held: the
    /// schedule's next [`Stage::Ic3`] that resumes a held IC3 lets the two take turns,
    /// [`LEAP_SHARE`] of each turn to the leaps (finds counterexamples only).
    HeldLeaps {
        /// The depths asked about.
        leaps: LeapBmc,
        /// How long it runs before it is held.
        first: std::time::Duration,
    },
    /// Another stage, for at most `at_most` (within its slice).
    Capped {
        /// The stage.
        stage: Box<Stage>,
        /// The longest it may run.
        at_most: std::time::Duration,
    },
}

/// The share of a last try's time left that induction over mined clauses may use
/// ([`Schedule::last_try`]; with orders between registers, `b12`'s proofs take 8–12 s, with
/// the stored-word relations of a memory 23–33 s; a search that ends without a proof hands
/// the rest on: `docs/method.md` §7.13).
pub const HOUDINI_SHARE: f64 = 0.8;

/// The share of a last try's time left that IC3 from nothing may use before IC3 starts
/// from the carried lemmas ([`Schedule::last_try`], [`Stage::Unseeded`]).
pub const UNSEEDED_IC3_SHARE: f64 = 0.25;

/// The share of a first try's time left that the quick induction over mined clauses may
/// use ([`Schedule::sliced`]).
pub const QUICK_HOUDINI_SHARE: f64 = 0.4;

/// Nodes one BDD may have in the BDD stages of [`Schedule::bdd_then_ic3`] and of
/// [`Schedule::sliced`]: lower than [`crate::reach::REACH_NODE_LIMIT`], so that a circuit
/// whose BDDs blow up hands over to the next engine soon (a mutant's last try,
/// [`Schedule::last_try`], has the full limit).
pub const SEQUENCE_REACH_NODES: usize = 100_000;

/// How long IC3 runs before it is held for BMC and BDD reachability in
/// [`Schedule::bdd_then_ic3`]: problems IC3 decides at once (most small ones) are not
/// delayed by building BDDs, which took 0.3–1.8 s on corpus files IC3 decides in 0.05 s, nor
/// by the quick BMC stage; since the held IC3 later goes on where it was, the slice costs
/// only the problems BMC or the BDDs decide (`docs/method.md` §7.9).
pub const QUICK_IC3: std::time::Duration = std::time::Duration::from_millis(600);

/// How long BMC runs, while its frames are cheap, after the quick IC3 stage of
/// [`Schedule::bdd_then_ic3`]: counterexamples 7–85 frames deep behind easy frames are
/// found in 0.1–0.4 s where IC3 took 5–29 s (`docs/method.md` §7.9).
pub const QUICK_BMC: std::time::Duration = std::time::Duration::from_millis(500);

/// The last IC3 stage of [`Schedule::bdd_then_ic3`] generalises like ABC's `pdr` (no CTGs,
/// every literal tried) while it has fewer frames than this, and with CTGs from then on:
/// deep counterexamples found over few frames come faster without CTGs, and proofs that
/// need many frames faster with them (`docs/method.md` §7.3).
pub const PLAIN_GENERALISATION_FRAMES: usize = 12;

/// How long BMC by leaps runs before it is held in [`Schedule::bdd_then_ic3`].
pub const QUICK_LEAPS: std::time::Duration = std::time::Duration::from_millis(100);

/// The share of each turn that a held side engine has while it takes turns with a held IC3
/// ([`Stage::HeldLeaps`]).
pub const LEAP_SHARE: f64 = 0.2;

/// The first turn of a held IC3 and a held side engine ([`Stage::HeldLeaps`]); each turn
/// is twice the one before.
pub const FIRST_TURN: std::time::Duration = std::time::Duration::from_secs(1);

/// How long a BDD reachability stage runs when the schedule has no deadline.
pub const UNTIMED_REACH_CAP: std::time::Duration = std::time::Duration::from_secs(10);

impl Stage {
    /// The stage's engine name, as results record it (`bmc`, `ic3`).
    pub fn name(&self) -> &'static str {
        match self {
            Stage::Scorr(_) => "scorr",
            Stage::Houdini(_) => "houdini",
            Stage::Bmc { .. } | Stage::CheapBmc { .. } | Stage::HeldLeaps { .. } => "bmc",
            Stage::Ic3(_) | Stage::Unseeded(_) | Stage::HeldIc3 { .. } => "ic3",
            Stage::Reach(_) => "bdd",
            Stage::Simulate { .. } | Stage::Uniform { .. } => "simulation",
            Stage::Continue { .. } => "continued",
            Stage::Explore => "exploration",
            Stage::Capped { stage, .. } => stage.name(),
        }
    }

    /// The stage as it runs on a circuit without latches, or `None` when it is left out.
    /// Such a problem is one satisfiability question (bad under the constraints, over the
    /// inputs) that IC3 answers with a SAT call or two: BDD reachability is left out (it
    /// would build the BDD of the whole combinational function), and a capped IC3 stage runs
    /// without its cap (cutting it would only make the next IC3 stage ask the same question
    /// again; `docs/method.md` §7.9).
    fn on_stateless(&self) -> Option<&Stage> {
        match self {
            Stage::Reach(_) | Stage::Unseeded(_) | Stage::HeldLeaps { .. } => None,
            Stage::Capped { stage, .. } if matches!(**stage, Stage::Ic3(_)) => Some(stage),
            other => Some(other),
        }
    }

    /// Whether the stage finds kills by random runs ([`Stage::Simulate`], [`Stage::Uniform`],
    /// [`Stage::Continue`], [`Stage::Explore`]):
    /// long tests, so it waits for the short kills to be searched, and a schedule without
    /// random runs leaves it out.
    pub fn runs_randomly(&self) -> bool {
        matches!(
            self,
            Stage::Simulate { .. }
                | Stage::Uniform { .. }
                | Stage::Continue { .. }
                | Stage::Explore
        )
    }

    /// Runs the stage within `limits` (its slice of `whole`, the schedule's limits). A
    /// correspondence stage adds its latch equalities to the carried lemmas (as clauses), or,
    /// when it stopped early because it could no longer prove safety, leaves the
    /// correspondence pending; an IC3 stage computes a pending one first (within its slice)
    /// and starts from the lemmas (`Ic3::with_lemmas`). A correspondence found within the
    /// slice is confirmed within `whole`. A continuation stage continues `prefixes`.
    fn check(
        &self,
        aig: &Aig,
        limits: &Limits,
        whole: &Limits,
        carried: &mut Carried,
        prefixes: &[Witness],
    ) -> Verdict {
        match self {
            Stage::Scorr(scorr) => {
                let (verdict, kept) = scorr.check_confirming(aig, limits, whole);
                match kept {
                    Kept::Found(c) => carried.lemmas.extend(c.latch_clauses(aig)),
                    Kept::Unprovable => carried.pending = Some(scorr.clone()),
                    Kept::Nothing => {}
                }
                verdict
            }
            Stage::Houdini(h) => h.clone().check_limited(aig, limits),
            Stage::CheapBmc {
                bound,
                frame_conflicts,
            } => {
                let frames = match *bound {
                    usize::MAX => DEEP_BMC_GATE_FRAMES / aig.num_ands().max(1),
                    b => b,
                };
                bmc_while_cheap(aig, frames, limits, *frame_conflicts)
            }
            Stage::Bmc { bound } => Bmc::new(*bound).check_limited(aig, limits),
            Stage::Simulate { frames } => {
                let frames = (*frames).min(SIMULATE_GATE_FRAMES / aig.num_ands().max(1));
                match sparse_witness(aig, frames, SIMULATE_SEED) {
                    Some(w) => checked_witness(aig, w),
                    None => Verdict::Unknown(format!(
                        "no random run under sparse stimuli hits bad within {frames} frames \
                         ({} runs)",
                        64 * SPARSE.len()
                    )),
                }
            }
            Stage::Uniform { frames } => {
                let frames = (*frames).min(SIMULATE_GATE_FRAMES / aig.num_ands().max(1));
                match random_witness(aig, frames, UNIFORM_ROUNDS, SIMULATE_SEED) {
                    Some(w) => checked_witness(aig, w),
                    None => Verdict::Unknown(format!(
                        "no random run hits bad within {frames} frames ({} runs)",
                        64 * UNIFORM_ROUNDS
                    )),
                }
            }
            Stage::Continue { frames } => {
                let frames = (*frames).min(SIMULATE_GATE_FRAMES / aig.num_ands().max(1));
                match continued_witness(aig, prefixes, frames, SIMULATE_SEED) {
                    Some(w) => checked_witness(aig, w),
                    None => Verdict::Unknown(format!(
                        "no given test continued with its inputs held hits bad within {frames} \
                         frames ({} tests)",
                        prefixes.len()
                    )),
                }
            }
            Stage::Explore => match explore_witness(aig, &EXPLORE, &|| limits.reached()) {
                Some(w) => checked_witness(aig, w),
                None => Verdict::Unknown(
                    "exploration of the control registers' values found no kill".into(),
                ),
            },
            Stage::HeldIc3 { options, first } => {
                let mut ic3 = Ic3 {
                    options: options.clone(),
                    time_limit: None,
                    lemmas: carried.lemmas.clone(),
                };
                if aig.latches.is_empty() {
                    return ic3.check_limited(aig, limits);
                }
                // The held run may go on until the schedule's deadline; its first slice ends
                // with this stage's.
                let first = first_slice(limits, *first);
                match suspend::start(ic3, aig, whole, first) {
                    Started::Done(v) => v,
                    Started::Held(h) => {
                        carried.held = Some(h);
                        Verdict::Unknown(format!("IC3 held after {first:?}"))
                    }
                }
            }
            Stage::HeldLeaps { leaps, first } => {
                let first = first_slice(limits, *first);
                match suspend::start(leaps.clone(), aig, whole, first) {
                    Started::Done(v) => v,
                    Started::Held(h) => {
                        carried.side = Some(h);
                        Verdict::Unknown(format!("BMC by leaps held after {first:?}"))
                    }
                }
            }
            Stage::Ic3(options) => {
                if let Some(held) = carried.held.take() {
                    return match carried.side.take() {
                        Some(side) => take_turns(held, side, limits),
                        None => held.resume(limits),
                    };
                }
                if let Some(scorr) = carried.pending.take() {
                    if let Ok(c) = scorr.correspondence(aig, limits) {
                        carried.lemmas.extend(c.latch_clauses(aig));
                    }
                }
                Ic3 {
                    options: options.clone(),
                    time_limit: None,
                    lemmas: carried.lemmas.clone(),
                }
                .check_limited(aig, limits)
            }
            Stage::Unseeded(options) => Ic3 {
                options: options.clone(),
                ..Ic3::default()
            }
            .check_limited(aig, limits),
            Stage::Reach(reach) => {
                let mut capped = limits.clone();
                if capped.deadline.is_none() {
                    capped.deadline = Some(std::time::Instant::now() + UNTIMED_REACH_CAP);
                }
                reach.clone().check_limited(aig, &capped)
            }
            Stage::Capped { stage, at_most } => {
                let mut capped = limits.clone();
                let cap = std::time::Instant::now() + *at_most;
                capped.deadline = Some(capped.deadline.map_or(cap, |d| d.min(cap)));
                stage.check(aig, &capped, whole, carried, prefixes)
            }
        }
    }
}

/// `first`, or less if `limits` end sooner: the first slice of a held engine.
fn first_slice(limits: &Limits, first: std::time::Duration) -> std::time::Duration {
    limits.deadline.map_or(first, |d| {
        first.min(d.saturating_duration_since(std::time::Instant::now()))
    })
}

/// A held IC3 (`main`) and another held engine (`side`) take turns until one answers or
/// `limits` are reached: turns of [`FIRST_TURN`], doubling, of which `side` has
/// [`LEAP_SHARE`]. A side engine that ends without an answer leaves the rest to IC3; an IC3
/// that ends without one (not for the limits) leaves it to the side engine.
fn take_turns(mut main: Held, side: Held, limits: &Limits) -> Verdict {
    let mut side = Some(side);
    let mut turn = FIRST_TURN;
    loop {
        let Some(mut other) = side.take() else {
            return main.resume(limits);
        };
        if let Some(v) = main.run_for(turn.mul_f64(1.0 - LEAP_SHARE), limits) {
            return match v {
                Verdict::Unknown(_) if !limits.reached() => other.resume(limits),
                v => v,
            };
        }
        match other.run_for(turn.mul_f64(LEAP_SHARE), limits) {
            None => side = Some(other),
            Some(Verdict::Unknown(_)) if !limits.reached() => {}
            Some(v) => return v,
        }
        turn = turn.saturating_mul(2);
    }
}

/// What the stages of one run hand on to later ones.
#[derive(Default)]
struct Carried {
    /// The clauses IC3 starts from (given seeds, proved latch equalities).
    lemmas: Vec<Vec<Lit>>,
    /// A correspondence stage that stopped early: IC3 computes its correspondence first.
    pending: Option<Scorr>,
    /// An IC3 held after its first slice ([`Stage::HeldIc3`]), stopped if no later IC3
    /// stage resumes it.
    held: Option<Held>,
    /// An engine held to take turns with the held IC3 ([`Stage::HeldLeaps`]).
    side: Option<Held>,
}

/// Engines run in sequence until one gives a definite answer or the limits are reached.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// The stages, in order.
    pub stages: Vec<Stage>,
    /// Per stage: the share of the time left when it starts that it may use (1.0: all of
    /// it; only meaningful under a deadline).
    pub shares: Vec<f64>,
    /// Whether IC3 starts from the latch equalities a correspondence stage proved.
    pub seeded: bool,
}

/// What a schedule answered and which stage answered last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// The verdict of the last stage that ran.
    pub verdict: Verdict,
    /// Index in [`Schedule::stages`] of the last stage that ran (`None` when none ran).
    pub stage: Option<usize>,
}

impl Schedule {
    /// BMC to `bound`, then (when `prove`) IC3 with default options.
    pub fn bmc_then_ic3(bound: usize, prove: bool) -> Self {
        let mut stages = vec![Stage::Bmc { bound }];
        if prove {
            stages.push(Stage::Ic3(Ic3Options::default()));
        }
        let shares = vec![1.0; stages.len()];
        Schedule {
            stages,
            shares,
            seeded: true,
        }
    }

    /// IC3 that generalises without CTGs below [`PLAIN_GENERALISATION_FRAMES`] frames, for at
    /// most [`QUICK_IC3`], then held while BMC runs while frames are cheap for at most
    /// [`QUICK_BMC`], BMC by leaps ([`LeapBmc`]) for [`QUICK_LEAPS`] and BDD reachability for
    /// a tenth of the time (at most [`UNTIMED_REACH_CAP`] without a deadline), then the same
    /// IC3 resumed, taking turns with the held leaps ([`LEAP_SHARE`] of each turn to them):
    /// one thread's engines for any AIGER problem (what IC3 decides at once is not delayed by
    /// building BDDs; deep counterexamples behind easy frames are found by BMC, those behind
    /// hard shallow frames by the leaps; small circuits are decided at any depth; the others
    /// go to IC3, which loses nothing to the stages between).
    pub fn bdd_then_ic3() -> Self {
        Schedule {
            stages: vec![
                Stage::HeldIc3 {
                    options: Ic3Options {
                        plain_below_frame: PLAIN_GENERALISATION_FRAMES,
                        ..Ic3Options::default()
                    },
                    first: QUICK_IC3,
                },
                Stage::Capped {
                    stage: Box::new(Stage::CheapBmc {
                        bound: usize::MAX,
                        frame_conflicts: DEEP_BMC_FRAME_CONFLICTS,
                    }),
                    at_most: QUICK_BMC,
                },
                Stage::HeldLeaps {
                    leaps: LeapBmc::default(),
                    first: QUICK_LEAPS,
                },
                Stage::Reach(Reach {
                    node_limit: SEQUENCE_REACH_NODES,
                    ..Reach::default()
                }),
                Stage::Ic3(Ic3Options {
                    plain_below_frame: PLAIN_GENERALISATION_FRAMES,
                    ..Ic3Options::default()
                }),
            ],
            shares: vec![1.0, 1.0, 1.0, 0.1, 1.0],
            seeded: true,
        }
    }

    /// The schedule for mutants: when `prove`, signal correspondence (a fifth of the time;
    /// it stops as soon as it can no longer prove the mutant, and the IC3 stage finishes it
    /// for its seeds), BMC to `bound` while its frames are cheap (half of what is left: the
    /// shortest kills, in milliseconds on most products), BDD reachability (a quarter of
    /// what is left, BDDs of at most [`SEQUENCE_REACH_NODES`]; it decides small circuits at
    /// any depth), random
    /// runs under sparse stimuli up to [`SPARSE_FRAMES`] deep (only when BMC covered its
    /// bound, so that they never stand in for a shorter kill), the given tests continued
    /// past their end up to [`RETRY_SPARSE_FRAMES`] deep (once BMC covered at least half its
    /// bound, even if it gave up at a hard frame after that), the quick induction over mined
    /// clauses ([`Houdini::quick`], [`QUICK_HOUDINI_SHARE`]: paid only by mutants that
    /// survived the short kills), IC3 (85 % of what is left), then BMC without bound while
    /// frames are cheap (the rest: kills deeper than `bound` that IC3 is slow to reach);
    /// otherwise BMC alone (the paper's setting: kills up to `bound`).
    pub fn sliced(bound: usize, prove: bool) -> Self {
        if !prove {
            return Schedule::bmc_then_ic3(bound, false);
        }
        Schedule {
            stages: vec![
                Stage::Scorr(Scorr {
                    stop_when_unprovable: true,
                    ..Scorr::default()
                }),
                Stage::CheapBmc {
                    bound,
                    frame_conflicts: SHORT_BMC_FRAME_CONFLICTS,
                },
                Stage::Reach(Reach {
                    node_limit: SEQUENCE_REACH_NODES,
                    ..Reach::default()
                }),
                Stage::Uniform {
                    frames: UNIFORM_DEPTH_PER_BOUND * bound.max(1),
                },
                Stage::Simulate {
                    frames: SPARSE_FRAMES,
                },
                Stage::Continue {
                    frames: RETRY_SPARSE_FRAMES,
                },
                Stage::Houdini(Houdini::quick()),
                Stage::Ic3(Ic3Options::default()),
                Stage::CheapBmc {
                    bound: usize::MAX,
                    frame_conflicts: DEEP_BMC_FRAME_CONFLICTS,
                },
            ],
            shares: vec![
                0.2,
                0.5,
                0.25,
                1.0,
                1.0,
                1.0,
                QUICK_HOUDINI_SHARE,
                0.85,
                1.0,
            ],
            seeded: true,
        }
    }

    /// The schedule of a last try on a mutant that shorter tries left open: signal
    /// correspondence, induction over mined clauses with orders between registers
    /// ([`Houdini::with_orders`], [`HOUDINI_SHARE`]; seconds on products of 3,000–5,000
    /// gates, so paid only by the hardest mutants), BDD
    /// reachability, IC3 from nothing ([`UNSEEDED_IC3_SHARE`]), IC3 from the carried lemmas
    /// (60 % of what is left), random runs under sparse stimuli up to
    /// [`RETRY_SPARSE_FRAMES`] deep, coverage-guided exploration (80 % of what is left:
    /// kills behind long sequences of right moves), then BMC without bound and without a
    /// conflict limit per frame for the rest. The hard middle frames of a
    /// large product, on which the cheap BMC stages give up, are searched in full here: a
    /// kill a few frames deep behind one frame of 100,000 conflicts is in reach of BMC,
    /// where IC3 needs a much longer run (`docs/method.md` §7.4).
    pub fn last_try() -> Self {
        Schedule {
            stages: vec![
                Stage::Scorr(Scorr::default()),
                Stage::Houdini(Houdini::with_orders()),
                Stage::Reach(Reach::default()),
                Stage::Unseeded(Ic3Options::default()),
                Stage::Ic3(Ic3Options::default()),
                Stage::Simulate {
                    frames: RETRY_SPARSE_FRAMES,
                },
                Stage::Explore,
                Stage::CheapBmc {
                    bound: usize::MAX,
                    frame_conflicts: u32::MAX,
                },
            ],
            shares: vec![
                0.2,
                HOUDINI_SHARE,
                0.25,
                UNSEEDED_IC3_SHARE,
                0.6,
                1.0,
                0.8,
                1.0,
            ],
            seeded: true,
        }
    }

    /// The same schedule with IC3 started from nothing: another run of IC3 on the same
    /// problem (seeds change which frames and lemmas IC3 goes through, and neither way wins
    /// everywhere: `docs/method.md` §7.4).
    pub fn unseeded(mut self) -> Self {
        self.seeded = false;
        self
    }

    /// The same schedule for a later try on a problem that an earlier try left open: without
    /// its bounded BMC stages, which would search the same frames within the same conflict
    /// limits again (the unbounded BMC stage stays: a longer slice takes it deeper), without
    /// its induction over mined clauses (which would mine and keep the same clauses; the
    /// last try has its own), and with its random runs [`RETRY_SPARSE_FRAMES`] deep right
    /// after IC3 (with no bounded BMC before them they wait for IC3's slice).
    pub fn retried(mut self) -> Self {
        let bounded = |s: &Stage| {
            matches!(s, Stage::Bmc { .. })
                || matches!(s, Stage::CheapBmc { bound, .. } if *bound != usize::MAX)
        };
        let is_simulation = |s: &Stage| matches!(s, Stage::Simulate { .. });
        // A later try continues the given tests before its engines (the caller's part).
        let continues = |s: &Stage| matches!(s, Stage::Continue { .. });
        let simulates = self.stages.iter().any(is_simulation);
        let mut stages = Vec::new();
        let mut shares = Vec::new();
        for (s, f) in self.stages.iter().zip(&self.shares) {
            let uniform = matches!(s, Stage::Uniform { .. });
            if bounded(s)
                || is_simulation(s)
                || uniform
                || continues(s)
                || matches!(s, Stage::Houdini(_))
            {
                continue;
            }
            stages.push(s.clone());
            shares.push(*f);
            if simulates && matches!(s, Stage::Ic3(_)) {
                stages.push(Stage::Simulate {
                    frames: RETRY_SPARSE_FRAMES,
                });
                shares.push(1.0);
            }
        }
        self.stages = stages;
        self.shares = shares;
        self
    }

    /// The same schedule without its random-run stages ([`Stage::runs_randomly`]): every
    /// counterexample then comes from a solver (for tests as short as the solvers find them).
    pub fn without_simulation(mut self) -> Self {
        let (stages, shares) = self
            .stages
            .iter()
            .zip(&self.shares)
            .filter(|(s, _)| !s.runs_randomly())
            .map(|(s, f)| (s.clone(), *f))
            .unzip();
        self.stages = stages;
        self.shares = shares;
        self
    }

    /// Runs the stages in order: a later stage starts only when the earlier ones answered
    /// `Unknown` and the limits are not reached yet.
    pub fn run(&self, aig: &Aig, limits: &Limits) -> Scheduled {
        self.run_seeded(aig, limits, &[])
    }

    /// [`Schedule::run`] with the IC3 stages of a seeded schedule starting from `seeds`
    /// too: clauses over latch literals of `aig` believed to be invariant (e.g. proved of a
    /// similar circuit); IC3 keeps the largest subset that is inductive, so a wrong seed
    /// never makes a verdict wrong. An unseeded schedule ignores them.
    pub fn run_seeded(&self, aig: &Aig, limits: &Limits, seeds: &[Vec<Lit>]) -> Scheduled {
        self.run_hinted(aig, limits, seeds, &[])
    }

    /// [`Schedule::run_seeded`] with input sequences for the continuation stages
    /// ([`Stage::Continue`]): witnesses of similar problems over the same inputs and latches
    /// (tests found for other mutants), continued past their end.
    pub fn run_hinted(
        &self,
        aig: &Aig,
        limits: &Limits,
        seeds: &[Vec<Lit>],
        prefixes: &[Witness],
    ) -> Scheduled {
        let mut last = Scheduled {
            verdict: Verdict::Unknown("no engine ran".into()),
            stage: None,
        };
        let mut carried = Carried {
            lemmas: if self.seeded {
                seeds.to_vec()
            } else {
                Vec::new()
            },
            pending: None,
            held: None,
            side: None,
        };
        // Whether the short kills are ruled out (or left to IC3) before a random-run stage.
        let mut short_kills_searched = false;
        // Whether a bounded BMC stage covered at least half its bound, even if it gave up at
        // a hard frame after that: enough for a continuation stage, whose runs start with
        // tests of other problems (a BMC that gave up in its first frames would leave the
        // continuation standing in for a kill a solver finds a few frames deep).
        let mut short_kills_tried = false;
        // Whether a bounded BMC stage covered at least a quarter of its bound: enough for
        // uniform random runs (a kill past the cheap frames, `Stage::Uniform`).
        let mut short_kills_begun = false;
        let stateless = aig.latches.is_empty();
        for (k, stage) in self.stages.iter().enumerate() {
            if k > 0 && limits.reached() {
                break;
            }
            let Some(stage) = (if stateless {
                stage.on_stateless()
            } else {
                Some(stage)
            }) else {
                continue;
            };
            let waits = match stage {
                Stage::Continue { .. } => !(short_kills_searched || short_kills_tried),
                Stage::Uniform { .. } => !(short_kills_searched || short_kills_begun),
                _ => !short_kills_searched,
            };
            if stage.runs_randomly() && waits {
                continue;
            }
            let unbounded = matches!(
                stage,
                Stage::CheapBmc {
                    bound: usize::MAX,
                    ..
                } | Stage::Explore
            );
            if unbounded && limits.deadline.is_none() {
                continue;
            }
            if matches!(stage, Stage::Continue { .. }) && prefixes.is_empty() {
                continue;
            }
            let share = self.shares.get(k).copied().unwrap_or(1.0);
            if !self.seeded {
                carried = Carried {
                    held: carried.held.take(),
                    side: carried.side.take(),
                    ..Carried::default()
                };
            }
            last = Scheduled {
                verdict: stage.check(aig, &limits.slice(share), limits, &mut carried, prefixes),
                stage: Some(k),
            };
            let bmc_gave_up = bounded_bmc_gave_up(stage, &last.verdict);
            short_kills_tried |= bmc_gave_up.is_some_and(|(reason, b)| covers(reason, b, 2));
            short_kills_begun |= bmc_gave_up.is_some_and(|(reason, b)| covers(reason, b, 4));
            short_kills_searched |= matches!(stage, Stage::Ic3(_) | Stage::Unseeded(_))
                || bmc_gave_up.is_some_and(|(reason, b)| searched_whole_bound(reason, b));
            if !matches!(last.verdict, Verdict::Unknown(_)) {
                break;
            }
        }
        last
    }

    /// Whether a stage continues given input sequences ([`Stage::Continue`]): whether
    /// [`Schedule::run_hinted`] has a use for them.
    pub fn continues_prefixes(&self) -> bool {
        self.stages.iter().any(|s| match s {
            Stage::Continue { .. } => true,
            Stage::Capped { stage, .. } => matches!(**stage, Stage::Continue { .. }),
            _ => false,
        })
    }

    /// The name of stage `k` (`bmc`, `ic3`), if there is one.
    pub fn stage_name(&self, k: Option<usize>) -> Option<&'static str> {
        k.and_then(|k| self.stages.get(k)).map(Stage::name)
    }
}

/// The reason and bound of `verdict` when it is the `Unknown` of a bounded BMC stage.
fn bounded_bmc_gave_up<'v>(stage: &Stage, verdict: &'v Verdict) -> Option<(&'v str, usize)> {
    match (stage, verdict) {
        (Stage::Bmc { bound } | Stage::CheapBmc { bound, .. }, Verdict::Unknown(reason))
            if *bound != usize::MAX =>
        {
            Some((reason.as_str(), *bound))
        }
        _ => None,
    }
}

/// Whether `reason`, the `Unknown` of a bounded BMC search to `bound`, says that at least
/// `1 / part` of the bound was searched in full (the gate of [`Stage::Continue`] with half,
/// of [`Stage::Uniform`] with a quarter).
fn covers(reason: &str, bound: usize, part: usize) -> bool {
    searched_up_to(reason).is_some_and(|k| part * k >= bound)
}

impl Engine for Schedule {
    fn check(&mut self, aig: &Aig) -> Verdict {
        self.run(aig, &Limits::none()).verdict
    }

    fn check_limited(&mut self, aig: &Aig, limits: &Limits) -> Verdict {
        self.run(aig, limits).verdict
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{assert_witness_valid, counter_to_seven, eval_frame, lit_val};
    use hypermut_aig::{Named, Reset};
    use std::time::Duration;

    /// A 3-bit counter from 0 whose bad state is `counter = 7` when `reach` (depth 7), or a
    /// state it never reaches (counter = 7 and a constant-0 latch) otherwise.
    #[test]
    fn bmc_answers_within_its_bound_and_ic3_after_it() {
        let s = Schedule::bmc_then_ic3(10, true);
        let r = s.run(&counter_to_seven(true), &Limits::none());
        assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
        assert_eq!(s.stage_name(r.stage), Some("bmc"));

        // Bound 3 < 7: BMC gives up, IC3 finds the counterexample.
        let s = Schedule::bmc_then_ic3(3, true);
        let r = s.run(&counter_to_seven(true), &Limits::none());
        assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
        assert_eq!(s.stage_name(r.stage), Some("ic3"));

        // Unreachable: only IC3 can say so.
        let r = s.run(&counter_to_seven(false), &Limits::none());
        assert!(matches!(r.verdict, Verdict::Safe(_)));
        assert_eq!(s.stage_name(r.stage), Some("ic3"));

        // Without the proof stage the answer stays open.
        let s = Schedule::bmc_then_ic3(3, false);
        let r = s.run(&counter_to_seven(false), &Limits::none());
        assert!(matches!(r.verdict, Verdict::Unknown(_)));
        assert_eq!(s.stage_name(r.stage), Some("bmc"));
    }

    /// `s` with its BDD stage limited to no variables, so that it gives up at once (as on
    /// a large circuit).
    fn without_bdd(mut s: Schedule) -> Schedule {
        for stage in &mut s.stages {
            if let Stage::Reach(r) = stage {
                r.max_variables = 0;
            }
        }
        s
    }

    #[test]
    fn the_sliced_schedule_kills_small_circuits_by_bdd_reachability() {
        let s = Schedule::sliced(3, true);
        let limits = Limits::timeout(Some(Duration::from_secs(60)));
        let r = s.run(&counter_to_seven(true), &limits);
        assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
        assert_eq!(s.stage_name(r.stage), Some("bdd"));
    }

    #[test]
    fn the_sliced_schedule_proves_by_correspondence_and_kills_by_bmc() {
        let s = without_bdd(Schedule::sliced(10, true));
        let limits = Limits::timeout(Some(Duration::from_secs(60)));
        let r = s.run(&counter_to_seven(false), &limits);
        assert!(matches!(r.verdict, Verdict::Safe(_)));
        assert_eq!(s.stage_name(r.stage), Some("scorr"));
        let r = s.run(&counter_to_seven(true), &limits);
        assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
        assert_eq!(s.stage_name(r.stage), Some("bmc"));
        // A kill deeper than the bound, with and without a deadline.
        let s = without_bdd(Schedule::sliced(3, true));
        for limits in [limits.clone(), Limits::none()] {
            let r = s.run(&counter_to_seven(true), &limits);
            assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
        }
        // Without a deadline, the unbounded BMC stage is skipped: a safe problem ends.
        assert!(matches!(
            s.run(&counter_to_seven(false), &Limits::none()).verdict,
            Verdict::Safe(_)
        ));
        // BMC without bound: searches until its slice ends, skipped without a deadline.
        let deep = Schedule {
            stages: vec![Stage::CheapBmc {
                bound: usize::MAX,
                frame_conflicts: DEEP_BMC_FRAME_CONFLICTS,
            }],
            shares: vec![1.0],
            seeded: true,
        };
        let r = deep.run(&counter_to_seven(true), &limits);
        assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
        let r = deep.run(
            &counter_to_seven(false),
            &Limits::timeout(Some(Duration::from_millis(300))),
        );
        assert!(matches!(r.verdict, Verdict::Unknown(_)));
        assert!(matches!(
            deep.run(&counter_to_seven(true), &Limits::none()).verdict,
            Verdict::Unknown(_)
        ));
        // The unseeded schedule answers alike.
        let s = without_bdd(Schedule::sliced(3, true)).unseeded();
        assert!(!s.seeded);
        assert!(matches!(
            s.run(&counter_to_seven(false), &limits).verdict,
            Verdict::Safe(_)
        ));
        assert!(matches!(
            &s.run(&counter_to_seven(true), &limits).verdict,
            Verdict::Unsafe(w) if w.depth() == 7
        ));
        // Without random runs, the same schedule as before them.
        let plain = Schedule::sliced(3, true).without_simulation();
        assert_eq!(plain.stages.len(), plain.shares.len());
        assert!(plain.stages.iter().all(|s| s.name() != "simulation"));
        assert_eq!(
            plain.shares,
            [0.2, 0.5, 0.25, QUICK_HOUDINI_SHARE, 0.85, 1.0]
        );
        // Without proofs: BMC alone.
        let s = Schedule::sliced(10, false);
        assert_eq!(s.stages, vec![Stage::Bmc { bound: 10 }]);
    }

    /// Seeds that are invariant, that are not, or that contradict each other change no
    /// verdict: the kill is found, the proof's certificate checks, and an unseeded
    /// schedule ignores them.
    #[test]
    fn seeds_never_change_a_verdict() {
        let safe = counter_to_seven(false);
        let lit = |k: usize| safe.latches[k].lit;
        let seeds = vec![
            vec![!lit(3)],
            vec![!lit(0)],
            vec![lit(0)],
            vec![lit(1), !lit(2)],
        ];
        for s in [
            Schedule::bmc_then_ic3(0, true),
            Schedule::bmc_then_ic3(0, true).unseeded(),
        ] {
            let r = s.run_seeded(&safe, &Limits::none(), &seeds);
            let Verdict::Safe(cert) = &r.verdict else {
                panic!("{:?}", r.verdict);
            };
            assert_eq!(s.stage_name(r.stage), Some("ic3"));
            crate::certificate::check_certificate(&safe, cert).expect("the invariant checks");
            let r = s.run_seeded(&counter_to_seven(true), &Limits::none(), &seeds);
            assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
        }
    }

    /// An unseeded IC3 stage in a seeded schedule decides by itself whatever the seeds
    /// (the kill at depth 7, a proof whose certificate checks), under the name `ic3`; on a
    /// circuit without latches it is left out and the seeded stage after it answers. The
    /// last try has one, before its seeded IC3.
    #[test]
    fn an_unseeded_stage_answers_alone_and_is_left_out_without_latches() {
        let s = Schedule {
            stages: vec![
                Stage::Unseeded(Ic3Options::default()),
                Stage::Ic3(Ic3Options::default()),
            ],
            shares: vec![1.0, 1.0],
            seeded: true,
        };
        let safe = counter_to_seven(false);
        let lit = |k: usize| safe.latches[k].lit;
        let seeds = vec![vec![!lit(3)], vec![lit(0)], vec![lit(1), !lit(2)]];
        let r = s.run_seeded(&safe, &Limits::none(), &seeds);
        let Verdict::Safe(cert) = &r.verdict else {
            panic!("{:?}", r.verdict);
        };
        assert_eq!((r.stage, s.stage_name(r.stage)), (Some(0), Some("ic3")));
        crate::certificate::check_certificate(&safe, cert).expect("the invariant checks");
        let r = s.run_seeded(&counter_to_seven(true), &Limits::none(), &seeds);
        assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
        assert_eq!(r.stage, Some(0));
        for reachable in [true, false] {
            let r = s.run(&two_input_check(reachable), &Limits::none());
            assert_eq!(r.stage, Some(1), "{:?}", r.verdict);
            assert_eq!(matches!(r.verdict, Verdict::Unsafe(_)), reachable);
        }
        let last = Schedule::last_try();
        let at = |f: fn(&Stage) -> bool| last.stages.iter().position(f);
        let unseeded = at(|s| matches!(s, Stage::Unseeded(_)));
        assert!(unseeded.is_some() && unseeded < at(|s| matches!(s, Stage::Ic3(_))));
    }

    /// A lock of 20 one-bit digits, one taken every fourth frame (the code is a parity
    /// pattern of the progress counter; a wrong digit sends it back to 0), with a register
    /// that shows the progress: BMC to 5 and sparse runs miss it, the exploration stage opens
    /// it (a witness that replays); the stage runs only under a deadline, and not in a
    /// schedule without random runs.
    #[test]
    fn the_exploration_stage_opens_a_lock() {
        let mut g = Aig::new();
        let digit = g.add_input("digit");
        let progress: Vec<_> = (0..5)
            .map(|i| g.add_latch(format!("progress[{i}]"), Reset::Zero))
            .collect();
        let tick: Vec<_> = (0..2)
            .map(|i| g.add_latch(format!("tick[{i}]"), Reset::Zero))
            .collect();
        let t0 = !tick[0];
        let t1 = g.xor(tick[1], tick[0]);
        g.set_next(tick[0], t0);
        g.set_next(tick[1], t1);
        let take = g.and(tick[0], tick[1]);
        let want = g.xor(progress[0], progress[2]);
        let right = g.xnor(digit, want);
        let mut carry = hypermut_aig::Lit::TRUE;
        for &p in &progress {
            let inc = g.xor(p, carry);
            carry = g.and(p, carry);
            let moved = g.and(inc, right);
            let next = g.ite(take, moved, p);
            g.set_next(p, next);
        }
        let shown = g.add_latch("shown", Reset::Zero);
        g.set_next(shown, want);
        let bad = g.and_all(
            progress
                .iter()
                .enumerate()
                .map(|(i, b)| b.xor(20 >> i & 1 == 0)),
        );
        g.bad.push(Named {
            lit: bad,
            name: "open".into(),
        });
        let s = Schedule {
            stages: vec![
                Stage::Bmc { bound: 5 },
                Stage::Simulate { frames: 64 },
                Stage::Explore,
            ],
            shares: vec![1.0, 1.0, 1.0],
            seeded: true,
        };
        let limits = Limits::timeout(Some(Duration::from_secs(60)));
        let r = s.run(&g, &limits);
        let Verdict::Unsafe(w) = &r.verdict else {
            panic!("{:?}", r.verdict);
        };
        assert_eq!(s.stage_name(r.stage), Some("exploration"));
        assert_eq!(hypermut_aig::check_witness(&g, w), Ok(w.depth()));
        assert!(w.depth() >= 4 * 20 - 1);
        assert_eq!(s.run(&g, &Limits::none()).stage, Some(1));
        let plain = s.without_simulation();
        assert_eq!(plain.stages, vec![Stage::Bmc { bound: 5 }]);
    }

    /// A 9-bit counter that input `clr` clears, bad at 300: BMC to 20 misses it, the runs
    /// under sparse stimuli find it (a witness that replays), and not within 100 frames.
    #[test]
    fn the_simulation_stage_kills_behind_a_quiet_counter() {
        let mut g = Aig::new();
        let clr = g.add_input("clr");
        let bits: Vec<_> = (0..9)
            .map(|i| g.add_latch(format!("c{i}"), Reset::Zero))
            .collect();
        let mut carry = hypermut_aig::Lit::TRUE;
        for &b in &bits {
            let sum = g.xor(b, carry);
            carry = g.and(b, carry);
            let next = g.and(sum, !clr);
            g.set_next(b, next);
        }
        let bad = g.and_all(
            bits.iter()
                .enumerate()
                .map(|(i, b)| b.xor(300 >> i & 1 == 0)),
        );
        g.bad.push(Named {
            lit: bad,
            name: "bad".into(),
        });
        let s = Schedule {
            stages: vec![
                Stage::Bmc { bound: 20 },
                Stage::Simulate {
                    frames: SPARSE_FRAMES,
                },
            ],
            shares: vec![1.0, 1.0],
            seeded: true,
        };
        let r = s.run(&g, &Limits::none());
        let Verdict::Unsafe(w) = &r.verdict else {
            panic!("{:?}", r.verdict);
        };
        assert_eq!(s.stage_name(r.stage), Some("simulation"));
        assert_eq!(hypermut_aig::check_witness(&g, w), Ok(w.depth()));
        assert!(w.depth() >= 300);
        let short = Stage::Simulate { frames: 100 };
        assert!(matches!(
            short.check(
                &g,
                &Limits::none(),
                &Limits::none(),
                &mut Carried::default(),
                &[]
            ),
            Verdict::Unknown(_)
        ));
        // Without a stage before it that searched the short kills, the runs do not start;
        // nor after BMC that stopped short of its bound.
        let alone = Schedule {
            stages: vec![s.stages[1].clone()],
            shares: vec![1.0],
            seeded: true,
        };
        assert_eq!(alone.run(&g, &Limits::none()).stage, None);
        let stopped = Schedule {
            stages: vec![
                Stage::CheapBmc {
                    bound: 20,
                    frame_conflicts: 0,
                },
                s.stages[1].clone(),
            ],
            shares: vec![1.0, 1.0],
            seeded: true,
        };
        let r = stopped.run(&g, &Limits::none());
        assert!(matches!(r.verdict, Verdict::Unknown(_)), "{:?}", r.verdict);
        assert_eq!(r.stage, Some(0));
    }

    #[test]
    fn a_retried_schedule_skips_bounded_bmc_and_still_decides() {
        let s = without_bdd(Schedule::sliced(10, true)).retried();
        assert_eq!(s.stages.len(), s.shares.len());
        let names: Vec<_> = (0..s.stages.len()).map(|k| s.stage_name(Some(k))).collect();
        assert_eq!(
            names,
            [
                Some("scorr"),
                Some("bdd"),
                Some("ic3"),
                Some("simulation"),
                Some("bmc")
            ],
            "{s:?}"
        );
        assert_eq!(
            s.stages[3],
            Stage::Simulate {
                frames: RETRY_SPARSE_FRAMES
            }
        );
        assert!(matches!(
            s.stages.last(),
            Some(Stage::CheapBmc {
                bound: usize::MAX,
                ..
            })
        ));
        // The shares stay with their stages.
        assert_eq!(s.shares, [0.2, 0.25, 0.85, 1.0, 1.0]);
        let limits = Limits::timeout(Some(Duration::from_secs(60)));
        let r = s.run(&counter_to_seven(true), &limits);
        assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
        assert_eq!(s.stage_name(r.stage), Some("ic3"));
        let r = s.clone().unseeded().run(&counter_to_seven(false), &limits);
        assert!(matches!(r.verdict, Verdict::Safe(_)));
        // BMC alone has nothing left to retry.
        assert!(Schedule::bmc_then_ic3(5, false).retried().stages.is_empty());
    }

    /// What correspondence cannot prove (a mutant that differs only in an unreachable
    /// state), the first and the last try prove by induction over mined clauses, before
    /// IC3; the retried schedule (the search across mutants), which has no such stage, by
    /// IC3.
    #[test]
    fn the_first_and_last_tries_prove_by_mined_clauses() {
        let g = crate::testutil::unreachable_state_mutant();
        let limits = Limits::timeout(Some(Duration::from_secs(60)));
        for s in [Schedule::last_try(), Schedule::sliced(10, true)] {
            let s = without_bdd(s);
            let r = s.run(&g, &limits);
            assert!(matches!(r.verdict, Verdict::Safe(_)), "{:?}", r.verdict);
            assert_eq!(s.stage_name(r.stage), Some("houdini"));
        }
        let s = without_bdd(Schedule::sliced(10, true).unseeded().retried());
        let r = s.run(&g, &limits);
        assert!(matches!(r.verdict, Verdict::Safe(_)), "{:?}", r.verdict);
        assert_eq!(s.stage_name(r.stage), Some("ic3"));
    }

    /// The quick variant gives up on a problem its candidates cannot prove (an unsafe one)
    /// and proves what the full one proves.
    #[test]
    fn the_quick_induction_gives_up_on_a_kill() {
        let mut quick = Houdini::quick();
        // The counter reaches 7 while `z` stays 0: `¬z` is mined, but does not exclude it.
        let mut g = counter_to_seven(true);
        let z = g.latches[3].lit;
        g.bad[0].lit = g.and(g.bad[0].lit, !z);
        let v = quick.check(&g);
        assert!(
            matches!(&v, Verdict::Unknown(reason) if reason.contains("cannot exclude")),
            "{v:?}"
        );
        let g = crate::testutil::unreachable_state_mutant();
        assert!(matches!(quick.check(&g), Verdict::Safe(_)));
    }

    #[test]
    fn the_last_try_proves_and_kills_beyond_any_bound() {
        let s = without_bdd(Schedule::last_try());
        assert_eq!(s.stages.len(), s.shares.len());
        let limits = Limits::timeout(Some(Duration::from_secs(60)));
        assert!(matches!(
            s.run(&counter_to_seven(false), &limits).verdict,
            Verdict::Safe(_)
        ));
        let r = s.run(&counter_to_seven(true), &limits);
        assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
        // Its BMC stage alone: no bound and no conflict limit, until the deadline.
        let bmc = Schedule {
            stages: s.stages[5..].to_vec(),
            shares: vec![1.0],
            seeded: true,
        };
        let r = bmc.run(&counter_to_seven(true), &limits);
        assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
        assert_eq!(bmc.stage_name(r.stage), Some("bmc"));
    }

    #[test]
    fn bdd_then_ic3_decides_small_circuits_by_bdd_and_others_by_ic3() {
        // What IC3 decides at once, it decides before the BDDs are built.
        let s = Schedule::bdd_then_ic3();
        assert!(matches!(s.stages[0], Stage::HeldIc3 { first, .. } if first == QUICK_IC3));
        let r = s.run(&counter_to_seven(false), &Limits::none());
        assert!(matches!(r.verdict, Verdict::Safe(_)));
        assert_eq!((r.stage, s.stage_name(r.stage)), (Some(0), Some("ic3")));
        // Past the quick IC3 stage: a counterexample behind easy frames is found by the quick
        // BMC stage; on a safe circuit that stage stops at its cap and the BDDs answer.
        assert!(matches!(s.stages[1], Stage::Capped { at_most, .. } if at_most == QUICK_BMC));
        let bmc_first = Schedule {
            stages: s.stages[1..].to_vec(),
            shares: s.shares[1..].to_vec(),
            seeded: true,
        };
        let r = bmc_first.run(&counter_to_seven(true), &Limits::none());
        let Verdict::Unsafe(w) = &r.verdict else {
            panic!("not unsafe: {:?}", r.verdict);
        };
        assert_eq!(w.depth(), 7);
        assert_witness_valid(&counter_to_seven(true), w);
        assert_eq!(
            (r.stage, bmc_first.stage_name(r.stage)),
            (Some(0), Some("bmc"))
        );
        // (The leaps stage after it refutes its depths on this counter at once.)
        assert!(matches!(s.stages[2], Stage::HeldLeaps { first, .. } if first == QUICK_LEAPS));
        let r = bmc_first.run(&counter_to_seven(false), &Limits::none());
        assert!(matches!(r.verdict, Verdict::Safe(_)));
        assert_eq!(
            (r.stage, bmc_first.stage_name(r.stage)),
            (Some(2), Some("bdd"))
        );
        // Past the quick IC3, BMC and leaps stages: BDD reachability, with or without a
        // deadline.
        let mut s = Schedule::bdd_then_ic3();
        s.stages.drain(..3);
        s.shares.drain(..3);
        for limits in [
            Limits::none(),
            Limits::timeout(Some(Duration::from_secs(60))),
        ] {
            let r = s.run(&counter_to_seven(true), &limits);
            assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
            assert_eq!(s.stage_name(r.stage), Some("bdd"));
            let r = s.run(&counter_to_seven(false), &limits);
            assert!(matches!(r.verdict, Verdict::Safe(_)));
            assert_eq!(s.stage_name(r.stage), Some("bdd"));
        }
        // The BDD stage gives up (as on a circuit with many latches): IC3 answers.
        if let Stage::Reach(r) = &mut s.stages[0] {
            r.max_variables = 0;
        }
        let r = s.run(&counter_to_seven(false), &Limits::none());
        assert!(matches!(r.verdict, Verdict::Safe(_)));
        assert_eq!(s.stage_name(r.stage), Some("ic3"));
    }

    #[test]
    fn a_held_ic3_answers_when_the_last_ic3_stage_resumes_it() {
        // Held at once, then a BMC stage too shallow for the counterexample at depth 7: the
        // last stage resumes the held IC3, which answers (the witness replays).
        let s = Schedule {
            stages: vec![
                Stage::HeldIc3 {
                    options: Ic3Options::default(),
                    first: Duration::ZERO,
                },
                Stage::Bmc { bound: 3 },
                Stage::Ic3(Ic3Options::default()),
            ],
            shares: vec![1.0; 3],
            seeded: true,
        };
        for limits in [
            Limits::none(),
            Limits::timeout(Some(Duration::from_secs(60))),
        ] {
            let r = s.run(&counter_to_seven(true), &limits);
            let Verdict::Unsafe(w) = &r.verdict else {
                panic!("not unsafe: {:?}", r.verdict);
            };
            assert_eq!((w.depth(), r.stage), (7, Some(2)));
            assert_witness_valid(&counter_to_seven(true), w);
            let r = s.run(&counter_to_seven(false), &limits);
            assert!(matches!(r.verdict, Verdict::Safe(_)));
            assert_eq!(r.stage, Some(2));
        }
        // Given time, the held stage answers by itself.
        let mut quick = s.clone();
        quick.stages[0] = Stage::HeldIc3 {
            options: Ic3Options::default(),
            first: Duration::from_secs(60),
        };
        let r = quick.run(&counter_to_seven(false), &Limits::none());
        assert!(matches!(r.verdict, Verdict::Safe(_)));
        assert_eq!(r.stage, Some(0));
        // Its first slice ends with its stage's slice (here none at all), but the held run
        // goes on within the schedule's deadline once resumed.
        let mut sliced = quick.clone();
        sliced.shares[0] = 0.0;
        let r = sliced.run(
            &counter_to_seven(false),
            &Limits::timeout(Some(Duration::from_secs(60))),
        );
        assert!(matches!(r.verdict, Verdict::Safe(_)), "{:?}", r.verdict);
        assert_eq!(r.stage, Some(2));
        // No IC3 stage after it: the held IC3 is stopped with the run, which stays open.
        let mut alone = s.clone();
        alone.stages.truncate(2);
        alone.shares.truncate(2);
        let r = alone.run(&counter_to_seven(false), &Limits::none());
        assert!(matches!(r.verdict, Verdict::Unknown(_)), "{:?}", r.verdict);
        // On a circuit without latches it runs uncapped and answers.
        let r = s.run(&two_input_check(true), &Limits::none());
        assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 0));
        assert_eq!(r.stage, Some(0));
    }

    /// A test engine: checks its limits every 0.1 ms for `ticks` checks, then answers
    /// `verdict` (or `Unknown("stopped")` at its limits); `ended` is set when it returns.
    struct Spin {
        ticks: usize,
        verdict: Verdict,
        ended: std::sync::Arc<std::sync::atomic::AtomicBool>,
    }

    impl Spin {
        fn new(ticks: usize, verdict: Verdict) -> Self {
            Spin {
                ticks,
                verdict,
                ended: Default::default(),
            }
        }
    }

    impl Engine for Spin {
        fn check(&mut self, aig: &Aig) -> Verdict {
            self.check_limited(aig, &Limits::none())
        }

        fn check_limited(&mut self, _aig: &Aig, limits: &Limits) -> Verdict {
            let mut v = self.verdict.clone();
            for _ in 0..self.ticks {
                if limits.reached() {
                    v = Verdict::Unknown("stopped".into());
                    break;
                }
                std::thread::sleep(Duration::from_micros(100));
            }
            self.ended.store(true, std::sync::atomic::Ordering::SeqCst);
            v
        }
    }

    fn held<E: Engine + Send + 'static>(engine: E, aig: &Aig) -> Held {
        match suspend::start(engine, aig, &Limits::none(), Duration::ZERO) {
            Started::Held(h) => h,
            Started::Done(v) => panic!("ended at once: {v:?}"),
        }
    }

    #[test]
    fn held_leaps_and_a_held_engine_take_turns_until_one_answers() {
        let g = counter_to_seven(true);
        let leaps = |d: usize| LeapBmc {
            depths: vec![d],
            ..LeapBmc::default()
        };
        let safe = Verdict::Safe(crate::Certificate::Trivial);
        // The main engine never answers; the leaps find bad at depth 71 in their turn (the
        // witness is cut at the path's first bad frame).
        let v = take_turns(
            held(Spin::new(usize::MAX, safe.clone()), &g),
            held(leaps(71), &g),
            &Limits::none(),
        );
        let Verdict::Unsafe(w) = &v else {
            panic!("not unsafe: {v:?}");
        };
        assert_eq!(w.depth(), 7);
        assert_witness_valid(&g, w);
        // The main engine answers; the side engine, which never would, is stopped.
        let side = Spin::new(usize::MAX, safe.clone());
        let side_ended = side.ended.clone();
        let v = take_turns(
            held(Spin::new(50, safe.clone()), &g),
            held(side, &g),
            &Limits::none(),
        );
        assert_eq!(v, safe);
        assert!(side_ended.load(std::sync::atomic::Ordering::SeqCst));
        // The leaps refute their depth and end: the main engine goes on alone, past its
        // first turn, to its answer.
        let v = take_turns(
            held(Spin::new(15_000, safe.clone()), &g),
            held(leaps(64), &g),
            &Limits::none(),
        );
        assert_eq!(v, safe);
        // The main engine ends without an answer: the leaps go on alone.
        let v = take_turns(
            held(Spin::new(10, Verdict::Unknown("gave up".into())), &g),
            held(leaps(71), &g),
            &Limits::none(),
        );
        assert!(matches!(&v, Verdict::Unsafe(w) if w.depth() == 7), "{v:?}");
        // At the limits both are stopped.
        let main = Spin::new(usize::MAX, safe.clone());
        let main_ended = main.ended.clone();
        let v = take_turns(
            held(main, &g),
            held(Spin::new(usize::MAX, safe.clone()), &g),
            &Limits::timeout(Some(Duration::from_millis(50))),
        );
        assert_eq!(v, Verdict::Unknown("stopped".into()));
        assert!(main_ended.load(std::sync::atomic::Ordering::SeqCst));
    }

    #[test]
    fn held_leaps_answer_in_their_first_slice_or_are_stopped_with_the_run() {
        let stage = |first| Stage::HeldLeaps {
            leaps: LeapBmc {
                depths: vec![71],
                ..LeapBmc::default()
            },
            first,
        };
        let s = Schedule {
            stages: vec![stage(Duration::from_secs(60))],
            shares: vec![1.0],
            seeded: true,
        };
        let r = s.run(&counter_to_seven(true), &Limits::none());
        assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
        assert_eq!((r.stage, s.stage_name(r.stage)), (Some(0), Some("bmc")));
        // Held at once with no IC3 stage to take turns with: the run stays open.
        let s = Schedule {
            stages: vec![stage(Duration::ZERO)],
            shares: vec![1.0],
            seeded: true,
        };
        let r = s.run(&counter_to_seven(true), &Limits::none());
        assert!(matches!(r.verdict, Verdict::Unknown(_)), "{:?}", r.verdict);
    }

    #[test]
    fn a_circuit_without_latches_goes_to_ic3_uncapped_and_skips_the_bdds() {
        // IC3 capped at nothing, then BDD reachability, then IC3: on a circuit with
        // latches the cap stops the first stage at once and the BDDs answer.
        let s = Schedule {
            stages: vec![
                Stage::Capped {
                    stage: Box::new(Stage::Ic3(Ic3Options::default())),
                    at_most: Duration::ZERO,
                },
                Stage::Reach(Reach::default()),
                Stage::Ic3(Ic3Options::default()),
            ],
            shares: vec![1.0, 0.1, 1.0],
            seeded: true,
        };
        let r = s.run(&counter_to_seven(false), &Limits::none());
        assert!(matches!(r.verdict, Verdict::Safe(_)));
        assert_eq!(r.stage, Some(1));
        // Without latches the first stage runs uncapped and answers, safe or unsafe; the
        // verdict agrees with evaluating bad on every input vector, and a counterexample
        // replays on the circuit.
        for reachable in [false, true] {
            let g = two_input_check(reachable);
            let some_input_is_bad = (0..4u32).any(|v| {
                let val = eval_frame(&g, &[], &[v & 1 == 1, v & 2 == 2]);
                lit_val(&val, g.bad[0].lit)
            });
            assert_eq!(some_input_is_bad, reachable);
            let r = s.run(&g, &Limits::none());
            assert_eq!(r.stage, Some(0), "reachable {reachable}: {:?}", r.verdict);
            match r.verdict {
                Verdict::Unsafe(w) => {
                    assert!(reachable && w.depth() == 0);
                    assert_witness_valid(&g, &w);
                }
                Verdict::Safe(_) => assert!(!reachable),
                Verdict::Unknown(why) => panic!("unknown: {why}"),
            }
        }
        // A capped stage of another engine keeps its cap, and the BDD stage is left out:
        // the last IC3 stage answers.
        let mut s = s;
        s.stages[0] = Stage::Capped {
            stage: Box::new(Stage::Bmc { bound: 1 }),
            at_most: Duration::ZERO,
        };
        let r = s.run(&two_input_check(false), &Limits::none());
        assert!(matches!(r.verdict, Verdict::Safe(_)));
        assert_eq!(r.stage, Some(2));
    }

    /// A circuit without latches: bad = a ∧ (a ∧ b), or, when not `reachable`, the
    /// contradiction a ∧ (¬a ∧ b), built without simplification so that an engine must
    /// decide it.
    fn two_input_check(reachable: bool) -> Aig {
        let mut g = Aig::new();
        let a = g.add_input("a");
        let b = g.add_input("b");
        let inner = g.add_raw_and(if reachable { a } else { !a }, b);
        let bad = g.add_raw_and(a, inner);
        g.bad.push(Named {
            lit: bad,
            name: "bad".into(),
        });
        g
    }

    #[test]
    fn a_capped_stage_stops_at_its_cap() {
        let capped = |at_most| Schedule {
            stages: vec![Stage::Capped {
                stage: Box::new(Stage::CheapBmc {
                    bound: usize::MAX,
                    frame_conflicts: u32::MAX,
                }),
                at_most,
            }],
            shares: vec![1.0],
            seeded: true,
        };
        // BMC without bound on a safe problem runs until its deadline: the cap's.
        let limits = Limits::timeout(Some(Duration::from_secs(60)));
        let start = std::time::Instant::now();
        let r = capped(Duration::from_millis(200)).run(&counter_to_seven(false), &limits);
        assert!(matches!(r.verdict, Verdict::Unknown(_)));
        assert!(start.elapsed() < Duration::from_secs(30));
        let r = capped(Duration::from_secs(60)).run(&counter_to_seven(true), &limits);
        assert!(matches!(&r.verdict, Verdict::Unsafe(w) if w.depth() == 7));
        assert_eq!(capped(QUICK_IC3).stage_name(Some(0)), Some("bmc"));
    }

    #[test]
    fn a_slice_ends_at_its_share_of_the_time_left() {
        let limits = Limits::timeout(Some(Duration::from_secs(100)));
        let half = limits.slice(0.5);
        let left = half
            .deadline
            .expect("a deadline")
            .saturating_duration_since(std::time::Instant::now());
        assert!(left <= Duration::from_secs(50) && left > Duration::from_secs(45));
        assert_eq!(limits.slice(1.0).deadline, limits.deadline);
        assert_eq!(Limits::none().slice(0.5).deadline, None);
    }

    #[test]
    fn a_reached_deadline_stops_before_the_next_stage() {
        let s = Schedule::bmc_then_ic3(3, true);
        let r = s.run(
            &counter_to_seven(false),
            &Limits::timeout(Some(Duration::ZERO)),
        );
        assert!(matches!(r.verdict, Verdict::Unknown(_)));
        assert_eq!(s.stage_name(r.stage), Some("bmc"));
    }

    /// A 6-bit counter that input `go` starts and `clr` clears; bad at 40 (40 frames after a
    /// start, deeper than the BMC stage before the continuation).
    fn started_counter() -> Aig {
        let mut g = Aig::new();
        let go = g.add_input("go");
        let clr = g.add_input("clr");
        let run = g.add_latch("run", Reset::Zero);
        let started = g.or(run, go);
        let next_run = g.and(started, !clr);
        g.set_next(run, next_run);
        let bits: Vec<_> = (0..6)
            .map(|i| g.add_latch(format!("c{i}"), Reset::Zero))
            .collect();
        let mut carry = run;
        for &b in &bits {
            let sum = g.xor(b, carry);
            carry = g.and(b, carry);
            let next = g.and(sum, !clr);
            g.set_next(b, next);
        }
        let mut at = hypermut_aig::Lit::TRUE;
        for (i, &b) in bits.iter().enumerate() {
            at = g.and(at, if 40 >> i & 1 == 1 { b } else { !b });
        }
        g.bad.push(Named {
            lit: at,
            name: "b".into(),
        });
        g
    }

    /// A 4-bit counter that counts the frames with input `inc` set; bad when it reaches 12
    /// (at least 12 frames deep; uniform random runs get there after about 24).
    fn input_counter() -> Aig {
        let mut g = Aig::new();
        let inc = g.add_input("inc");
        let bits: Vec<_> = (0..4)
            .map(|i| g.add_latch(format!("c{i}"), Reset::Zero))
            .collect();
        let mut carry = inc;
        for &b in &bits {
            let next = g.xor(b, carry);
            carry = g.and(b, carry);
            g.set_next(b, next);
        }
        let twelve = g.and(bits[2], bits[3]);
        g.bad.push(Named {
            lit: twelve,
            name: "b".into(),
        });
        g
    }

    /// Uniform random runs kill past a BMC stage's bound, once that stage searched its
    /// frames; alone (no BMC before them) they do not run.
    #[test]
    fn uniform_runs_kill_past_the_bmc_bound_after_it() {
        let g = input_counter();
        let s = Schedule {
            stages: vec![Stage::Bmc { bound: 5 }, Stage::Uniform { frames: 64 }],
            shares: vec![1.0, 1.0],
            seeded: false,
        };
        let r = s.run(&g, &Limits::none());
        let Verdict::Unsafe(w) = &r.verdict else {
            panic!("{:?}", r.verdict);
        };
        assert_eq!(r.stage, Some(1));
        assert_eq!(s.stage_name(r.stage), Some("simulation"));
        assert_eq!(hypermut_aig::check_witness(&g, w), Ok(w.depth()));
        assert!((12..=64).contains(&w.depth()), "{}", w.depth());
        let alone = Schedule {
            stages: vec![Stage::Uniform { frames: 64 }],
            shares: vec![1.0],
            seeded: false,
        };
        assert_eq!(alone.run(&g, &Limits::none()).stage, None);
        // Too shallow runs miss it.
        let shallow = Schedule {
            stages: vec![Stage::Bmc { bound: 5 }, Stage::Uniform { frames: 11 }],
            shares: vec![1.0, 1.0],
            seeded: false,
        };
        assert!(matches!(
            shallow.run(&g, &Limits::none()).verdict,
            Verdict::Unknown(_)
        ));
    }

    /// A BMC that gave up at a hard frame opens the continuation only past half its bound.
    #[test]
    fn continuation_waits_for_half_the_bound() {
        let gave_up = |k: usize| {
            format!(
                "frame {} needs more than the conflicts allowed per frame; no counterexample \
                 up to bound {k}",
                k + 1
            )
        };
        let covers_half = |reason: &str, bound: usize| covers(reason, bound, 2);
        assert!(!covers_half(&gave_up(3), 20));
        assert!(!covers_half(&gave_up(9), 20));
        assert!(covers_half(&gave_up(10), 20));
        assert!(covers_half(&gave_up(18), 20));
        assert!(covers_half("no counterexample up to bound 20", 20));
        assert!(covers_half(
            "time limit reached; no counterexample up to bound 12",
            20
        ));
        assert!(!covers_half("time limit reached; no bound checked", 20));
        assert!(!covers_half("BMC failed: no bad property", 20));
        // The uniform runs' gate: a quarter.
        assert!(!covers(&gave_up(4), 20, 4));
        assert!(covers(&gave_up(5), 20, 4));
        assert!(!covers("time limit reached; no bound checked", 20, 4));
        // In a schedule: a BMC stage allowed no conflict per frame gives up early, and the
        // continuation, which would find the kill, does not run.
        let g = started_counter();
        let frame = |go: bool, clr: bool| vec![Some(go), Some(clr)];
        let test = Witness {
            properties: vec!["b0".into()],
            init: vec![Some(false); g.latches.len()],
            inputs: vec![frame(true, false), frame(false, true)],
        };
        let early = Stage::CheapBmc {
            bound: 20,
            frame_conflicts: 0,
        };
        let alone = Schedule {
            stages: vec![early.clone()],
            shares: vec![1.0],
            seeded: false,
        };
        let gave_up = match alone.run(&g, &Limits::none()).verdict {
            Verdict::Unknown(reason) => reason,
            other => panic!("expected BMC to give up, got {other:?}"),
        };
        assert!(!covers_half(&gave_up, 20), "{gave_up}");
        let gated = Schedule {
            stages: vec![early, Stage::Continue { frames: 100 }],
            shares: vec![1.0, 1.0],
            seeded: false,
        };
        let run = gated.run_hinted(&g, &Limits::none(), &[], &[test]);
        assert!(
            matches!(run.verdict, Verdict::Unknown(_)),
            "{:?}",
            run.verdict
        );
        assert_eq!(run.stage, Some(0));
    }

    /// The continuation stage continues the given tests once a bounded BMC stage has covered
    /// its bound: the deep kill is found (checked witness, the stage named `continued`); it
    /// is skipped without tests, and before the short kills were searched.
    #[test]
    fn given_tests_are_continued_after_the_short_kills() {
        let g = started_counter();
        let frame = |go: bool, clr: bool| vec![Some(go), Some(clr)];
        let test = Witness {
            properties: vec!["b0".into()],
            init: vec![Some(false); g.latches.len()],
            inputs: vec![frame(true, false), frame(false, true)],
        };
        let schedule = |stages: Vec<Stage>| Schedule {
            shares: vec![1.0; stages.len()],
            stages,
            seeded: false,
        };
        let bmc = Stage::Bmc { bound: 5 };
        let cont = Stage::Continue { frames: 100 };
        let after = schedule(vec![bmc.clone(), cont.clone()]);
        assert!(after.continues_prefixes());
        let run = after.run_hinted(&g, &Limits::none(), &[], std::slice::from_ref(&test));
        assert_eq!(run.stage, Some(1));
        assert_eq!(after.stage_name(run.stage), Some("continued"));
        match run.verdict {
            Verdict::Unsafe(w) => {
                assert_witness_valid(&g, &w);
                assert_eq!(w.depth(), 41);
            }
            other => panic!("expected the continued kill, got {other:?}"),
        }
        let none = after.run_hinted(&g, &Limits::none(), &[], &[]);
        assert!(matches!(none.verdict, Verdict::Unknown(_)));
        assert_eq!(none.stage, Some(0));
        let before = schedule(vec![cont, bmc]);
        let run = before.run_hinted(&g, &Limits::none(), &[], &[test]);
        assert!(matches!(run.verdict, Verdict::Unknown(_)));
        assert!(!Schedule::sliced(20, true).retried().continues_prefixes());
        assert!(Schedule::sliced(20, true).continues_prefixes());
    }
}
