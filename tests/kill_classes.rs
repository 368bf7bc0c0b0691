//! Kill classes and the claims of the ∃∀ search, checked by brute force (`docs/method.md`
//! §4.2, §4.5–§4.7). An enumerator written apart from the SAT-based classification runs the
//! original (the model as loaded) and the word-level conditional mutant with its selector at 1
//! (no nd transformation) one frame at a time, with every combination of choices, free next
//! values and power-up values. On small nondeterministic models it checks:
//!
//! * the class of the killing tests (at most [`MAX_PER_CLASS`] per class and model): definite
//!   when no original run answers the test's inputs like any mutant run; potential when the
//!   mutant's run with the test's own nd values is no behaviour of the original; controlled
//!   otherwise. It must equal the class hypermut reports, and the test's expected outputs must
//!   be a behaviour of the original. A test of class definite or potential must also be found
//!   by the exhaustive exploration below, which would otherwise check the claims vacuously;
//! * `no_definite_up_to = n`: no input sequence of at most n + 1 steps definitely kills the
//!   mutant; `no_potential_up_to = n`: none kills it even potentially (§4.2: some output
//!   sequence of the mutant is none of the original's);
//! * a mutant proved equivalent by an inclusion proof (§4.6): up to [`INCLUSION_STEPS`] steps,
//!   every behaviour of the mutant under every input sequence is a behaviour of the original.
//!
//! Constraints (§5.3) prune runs: a run whose constraints fail in a step is blocked there and
//! is no behaviour, unless no run of that side can take the step at all (a deadlock, whose
//! behaviour is the outputs so far and then none). A test needs a run of the original through
//! all its steps, and only unblocked runs answer alike. As in §5.3, a mutant run blocked where
//! the original's run with the same nd values continues kills: the test's class counts the
//! mutant's run with the test's nd values as such a kill, and so does the search for
//! potential tests below (runs paired by their nd values on the conditional mutant).
//!
//! Every input sequence is explored, breadth first: a sequence of k steps maps to the sets of
//! nodes (states) its runs reach, sequences that reach the same sets have the same futures, and
//! a configuration first reached in k steps need not be extended when reached later. This
//! covers every input sequence exactly; an exploration over [`MAX_WORK`] is skipped and counted
//! as skipped.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::Hash;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

use hypermut_hyper::Blocked;
use hypermut_ir::{ChoiceId, ConstraintKind, Frame, Interpreter, Role, System, Value, VarId};
use hypermut_mutate::{conditional, enumerate, make_controllable, ConditionalMutant, Operator};
use hypermut_testgen::{
    DecideOptions, Existing, FrontendOptions, KillClass, Model, MutantRecord, MutantVerdict,
    Options, Quiet, ResetOption, Selection, TestFile,
};
use hypermut_testkit::sim::{parse_test_value, value_of_code};

/// Most killed mutants whose test class is checked, per model and class (shallowest first).
const MAX_PER_CLASS: usize = 10;

/// Largest number of values a variable may have to be enumerated.
const MAX_DOMAIN: u64 = 16;

/// Largest number of ways one frame (or the first frame with its power-up values) may resolve
/// its nondeterminism.
const MAX_RESOLUTIONS: usize = 4_096;

/// Largest number of input valuations per frame for exploring every input sequence.
const MAX_VALUATIONS: usize = 64;

/// Work limit of one exploration: configurations extended by one input valuation.
const MAX_WORK: usize = 12_000;

/// Steps explored for the inclusion check of an equivalent mutant.
const INCLUSION_STEPS: usize = 6;

/// Fewest claims and inclusion proofs that must be checked over all models (about a third of
/// what a run checks: how many searches end before their time limit depends on the load).
const MIN_NO_DEFINITE: usize = 40;
const MIN_NO_POTENTIAL: usize = 15;
const MIN_INCLUSION: usize = 5;

/// A model with choices, free next values and a power-up value, small enough to enumerate,
/// where every class occurs: `!c` for `c` is killed only under controlled nondeterminism (`c`
/// is free, so the mutant has the original's behaviours), dropping an alternative of
/// `{1, 2}` or `{TRUE, FALSE}` only narrows a choice.
const TINY: &str = "-- @output o\nMODULE main\nIVAR go : boolean;\nVAR s : 0..3; c : boolean;\n\
    ASSIGN init(s) := 0;\n\
    next(s) := case go & s < 2 : s + {1, 2}; go : 0; TRUE : s; esac;\n\
    next(c) := {TRUE, FALSE};\n\
    DEFINE o := s = 3 | (c & s = 2);\n";

/// A model with a transition constraint and a variable it alone constrains: `f` has free
/// initial and next values, but may become TRUE only in a step with `go`. Mutants of the
/// constraint block runs the original takes, or let the mutant take steps the original
/// cannot (`docs/method.md` §5.3).
const CONSTRAINED: &str = "-- @output o\nMODULE main\nIVAR go : boolean;\n\
    VAR n : 0..3; f : boolean;\n\
    ASSIGN init(n) := 0;\n\
    next(n) := case go & n < 3 : n + 1; !go & n > 0 : n - {0, 1}; TRUE : n; esac;\n\
    TRANS next(f) -> go\n\
    DEFINE o := n = 2 & f | n = 3;\n";

/// A Verilog design whose registers have neither reset nor initial value: read with
/// `--reset none`, their power-up values are nondeterministic and matter: `hit` depends on
/// the power-up value of `cnt` in every step (nothing resets it), `seen` on its own until
/// `clr` clears it.
const POWER_UP_V: &str = "module powerup(input clk, input en, input clr, output hit,\n\
    \x20                output reg seen);\n\
    \x20 reg [1:0] cnt;\n\
    \x20 assign hit = cnt == 2'd3;\n\
    \x20 always @(posedge clk) begin\n\
    \x20   if (en) cnt <= cnt + 2'd1;\n\
    \x20   if (clr) seen <= 1'b0;\n\
    \x20   else if (hit) seen <= 1'b1;\n\
    \x20 end\n\
    endmodule\n";

/// A Verilog design with a reset (held in the first cycle) that leaves one register alone:
/// `m` has no reset and no initial value, so its power-up value stays nondeterministic; `st`
/// advances by a nondeterministic step.
const STICKY_V: &str = "module sticky(input clk, input rst, input a, output reg [1:0] st,\n\
    \x20             output z);\n\
    \x20 reg m;\n\
    \x20 wire coin = $ND(1'b0, 1'b1);\n\
    \x20 assign z = m ^ st[1];\n\
    \x20 always @(posedge clk) begin\n\
    \x20   if (rst) st <= 2'd0;\n\
    \x20   else if (a) st <= st + {1'b0, coin};\n\
    \x20   m <= a ? !m : m;\n\
    \x20 end\n\
    endmodule\n";

/// Small numbers for values of one kind.
struct Interner<T> {
    ids: HashMap<T, u32>,
    items: Vec<T>,
}

impl<T: Clone + Eq + Hash> Interner<T> {
    fn new() -> Self {
        Interner {
            ids: HashMap::new(),
            items: Vec::new(),
        }
    }

    fn id(&mut self, item: T) -> u32 {
        if let Some(i) = self.ids.get(&item) {
            return *i;
        }
        let i = self.items.len() as u32;
        self.ids.insert(item.clone(), i);
        self.items.push(item);
        i
    }

    fn get(&self, id: u32) -> &T {
        &self.items[id as usize]
    }
}

/// Every value of the type of `v`, or `None` if there are too many.
fn domain(sys: &System, v: VarId) -> Option<Vec<Value>> {
    let ty = sys.var(v).ty;
    let n = ty.cardinality(&sys.enums).filter(|n| *n <= MAX_DOMAIN)?;
    Some((0..n).map(|c| value_of_code(sys, ty, c)).collect())
}

/// Every combination of one value per variable of `vars`, or `None` past `limit`.
fn combinations(sys: &System, vars: &[VarId], limit: usize) -> Option<Vec<HashMap<VarId, Value>>> {
    let mut all = vec![HashMap::new()];
    for v in vars {
        let d = domain(sys, *v)?;
        if all.len() * d.len() > limit {
            return None;
        }
        all = all
            .into_iter()
            .flat_map(|m| {
                d.iter().map(move |val| {
                    let mut m = m.clone();
                    m.insert(*v, val.clone());
                    m
                })
            })
            .collect();
    }
    Some(all)
}

/// One way the system resolves its nondeterminism in one frame.
#[derive(Clone, Debug, Default)]
struct Resolution {
    choices: HashMap<ChoiceId, u32>,
    free_next: HashMap<VarId, Value>,
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
                    r.choices.insert(ChoiceId(i as u32), k);
                    r
                })
            })
            .collect();
    }
    let free: Vec<VarId> = (0..sys.vars.len() as u32)
        .map(VarId)
        .filter(|v| sys.var(*v).role == Role::State && sys.var(*v).next.is_none())
        .collect();
    let values = combinations(sys, &free, MAX_RESOLUTIONS)?;
    let all: Vec<Resolution> = all
        .into_iter()
        .flat_map(|r| {
            values.iter().map(move |v| Resolution {
                choices: r.choices.clone(),
                free_next: v.clone(),
            })
        })
        .collect();
    (all.len() <= MAX_RESOLUTIONS).then_some(all)
}

/// What both sides share: the input valuations and the output valuations, numbered, with
/// the inputs in the original's order.
struct World<'a> {
    sys: &'a System,
    inputs: Vec<VarId>,
    valuations: Interner<Vec<Option<Value>>>,
    outputs: Interner<Vec<Value>>,
}

impl<'a> World<'a> {
    /// The world of the original system `sys`.
    fn new(sys: &'a System) -> World<'a> {
        World {
            sys,
            inputs: (0..sys.vars.len() as u32)
                .map(VarId)
                .filter(|v| sys.var(*v).role == Role::Input)
                .collect(),
            valuations: Interner::new(),
            outputs: Interner::new(),
        }
    }

    /// The valuation that a test step's inputs (by name, as test files write them) give;
    /// inputs it does not list stay unset.
    fn valuation(&mut self, named: &BTreeMap<String, String>) -> u32 {
        let sys = self.sys;
        let v = self
            .inputs
            .iter()
            .map(|i| {
                let var = sys.var(*i);
                named
                    .get(&var.name)
                    .map(|text| parse_test_value(sys, var.ty, text).expect("a valid input value"))
            })
            .collect();
        self.valuations.id(v)
    }

    /// Every valuation of the inputs, or `None` if there are too many.
    fn all_valuations(&mut self) -> Option<Vec<u32>> {
        let all = combinations(self.sys, &self.inputs, MAX_VALUATIONS)?;
        Some(
            all.into_iter()
                .map(|m| {
                    let v = self.inputs.iter().map(|i| m.get(i).cloned()).collect();
                    self.valuations.id(v)
                })
                .collect(),
        )
    }

    /// The valuation `v` as text, e.g. `go=TRUE`.
    fn show(&self, v: u32) -> String {
        self.inputs
            .iter()
            .zip(self.valuations.get(v))
            .filter_map(|(i, val)| {
                let var = self.sys.var(*i);
                val.as_ref()
                    .map(|x| format!("{}={}", var.name, x.display(var.ty, &self.sys.enums)))
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Where a run is: before its first frame, or in a state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Node {
    Start,
    State(Vec<Option<Value>>),
}

/// The node before the first frame (every explorer numbers it 0).
const START: u32 = 0;

/// A step a run can take from a node under one input valuation: its outputs, and the node it
/// reaches, or `None` when the constraints fail in this step (the run is blocked there).
type Step = (u32, Option<u32>);

/// The steps from one node under one valuation: one per way of resolving the nondeterminism
/// (for the start node, per power-up value and resolution), in an order that is the same for
/// every explorer of one system, and the distinct ones.
#[derive(Clone)]
struct Steps {
    each: Rc<[Step]>,
    distinct: Rc<[Step]>,
}

impl Steps {
    /// Whether every run from the node is blocked in this step (it cannot continue at all).
    fn dead(&self) -> bool {
        self.distinct.iter().all(|s| s.1.is_none())
    }
}

/// Runs of one word-level system, one frame at a time, with every resolution of the
/// nondeterminism and every power-up value; the steps from a node under a valuation are
/// computed once.
struct Explorer<'a> {
    interp: Interpreter<'a>,
    /// A frozen variable with a fixed value (the mutant's selector), if any.
    fixed: Option<(VarId, bool)>,
    /// Per input of the [`World`]: this system's variable.
    inputs: Vec<VarId>,
    resolutions: Rc<[Resolution]>,
    power_ups: Rc<[HashMap<VarId, Value>]>,
    nodes: Interner<Node>,
    steps: HashMap<(u32, u32), Steps>,
}

impl<'a> Explorer<'a> {
    /// An explorer of `sys` (with the frozen variable of `fixed` at its value, if given) over
    /// the inputs of `world`, or `None` if its nondeterminism is too large to enumerate.
    fn new(sys: &'a System, fixed: Option<(VarId, bool)>, world: &World) -> Option<Explorer<'a>> {
        let inputs = world
            .inputs
            .iter()
            .map(|i| sys.var_by_name(&world.sys.var(*i).name))
            .collect::<Option<Vec<VarId>>>()
            .expect("the mutant has the original's inputs");
        let free_init: Vec<VarId> = (0..sys.vars.len() as u32)
            .map(VarId)
            .filter(|v| {
                let var = sys.var(*v);
                var.role != Role::Input && var.init.is_none() && Some(*v) != fixed.map(|f| f.0)
            })
            .collect();
        let resolutions = resolutions(sys)?;
        let power_ups = combinations(sys, &free_init, MAX_RESOLUTIONS / resolutions.len())?;
        let mut nodes = Interner::new();
        assert_eq!(nodes.id(Node::Start), START);
        Some(Explorer {
            interp: Interpreter::new(sys),
            fixed,
            inputs,
            resolutions: resolutions.into(),
            power_ups: power_ups.into(),
            nodes,
            steps: HashMap::new(),
        })
    }

    /// The steps from `node` under valuation `v`.
    fn steps(&mut self, w: &mut World, node: u32, v: u32) -> Steps {
        if let Some(s) = self.steps.get(&(node, v)) {
            return s.clone();
        }
        let inputs: HashMap<VarId, Value> = self
            .inputs
            .iter()
            .zip(w.valuations.get(v))
            .filter_map(|(i, val)| val.clone().map(|x| (*i, x)))
            .collect();
        let frame = |r: &Resolution| Frame {
            inputs: inputs.clone(),
            choices: r.choices.clone(),
            free_next: r.free_next.clone(),
        };
        let mut each = Vec::new();
        let resolutions = self.resolutions.clone();
        match self.nodes.get(node).clone() {
            Node::Start => {
                for free in self.power_ups.clone().iter() {
                    let mut free = free.clone();
                    if let Some((var, value)) = self.fixed {
                        free.insert(var, Value::Bool(value));
                    }
                    for r in resolutions.iter() {
                        let f = frame(r);
                        let s0 = self
                            .interp
                            .initial_state(&f, &free)
                            .expect("the initial state evaluates");
                        each.push(self.transition(w, &s0, &f, true));
                    }
                }
            }
            Node::State(s) => {
                for r in resolutions.iter() {
                    each.push(self.transition(w, &s, &frame(r), false));
                }
            }
        }
        let distinct: BTreeSet<Step> = each.iter().copied().collect();
        let steps = Steps {
            each: each.into(),
            distinct: distinct.into_iter().collect(),
        };
        self.steps.insert((node, v), steps.clone());
        steps
    }

    /// One frame from `state`: its outputs, and the next node if the constraints hold (those
    /// of the first frame include the initial constraints).
    fn transition(
        &mut self,
        w: &mut World,
        state: &[Option<Value>],
        f: &Frame,
        first: bool,
    ) -> Step {
        let outs = self.interp.outputs(state, f).expect("the outputs evaluate");
        let next = self
            .interp
            .step(state, f)
            .expect("the next state evaluates");
        let mut kinds = vec![ConstraintKind::Invariant, ConstraintKind::Trans];
        if first {
            kinds.push(ConstraintKind::Init);
        }
        let ok = self
            .interp
            .constraints_hold(&kinds, state, f, Some(&next))
            .expect("the constraints evaluate");
        (
            w.outputs.id(outs),
            ok.then(|| self.nodes.id(Node::State(next))),
        )
    }
}

/// The systems explored side by side: the original (the model as loaded), the mutant (the
/// conditional mutant with its selector at 1), and the conditional mutant with its selector
/// at 0, whose runs pair with the mutant's by their nd values (the same resolutions, in the
/// same order, as in a test that gives both sides its nd values).
struct Sides<'s, 'o, 'm> {
    world: &'s mut World<'o>,
    original: &'s mut Explorer<'o>,
    mutant: &'s mut Explorer<'m>,
    paired: &'s mut Explorer<'m>,
}

impl Sides<'_, '_, '_> {
    fn original_steps(&mut self, node: u32, v: u32) -> Steps {
        self.original.steps(self.world, node, v)
    }

    fn mutant_steps(&mut self, node: u32, v: u32) -> Steps {
        self.mutant.steps(self.world, node, v)
    }

    fn paired_steps(&mut self, node: u32, v: u32) -> Steps {
        self.paired.steps(self.world, node, v)
    }
}

/// What an exploration tracks, and when an input sequence answers it. Constraints prune
/// runs: a run blocked in a step is not a behaviour, unless no run can take the step at all
/// (a deadlock, whose behaviour is the outputs so far and then none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Question {
    /// The sequence definitely kills: the original can run it, and no pair of an original
    /// and a mutant run answers it alike (`docs/method.md` §4.2, §4.5).
    Definite,
    /// The sequence potentially kills: the original can run it, and the mutant has a
    /// behaviour the original lacks (some run's outputs, or a deadlock), or a run of the
    /// mutant is blocked where the original's run with the same nd values continues (a test
    /// with those nd values kills it by `blocked: mutant`, §5.3).
    Potential,
    /// Some mutant behaviour is no behaviour of the original: some run's outputs, or a
    /// deadlock after outputs that no original run ends in a deadlock after.
    NotIncluded,
}

/// The runs of one input sequence so far, as sets of nodes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Config {
    /// Nodes of the original's unblocked runs.
    original: Vec<u32>,
    /// Pairs (original, mutant) of unblocked runs that answered alike so far.
    alike: Vec<(u32, u32)>,
    /// Per node of an unblocked mutant run: the nodes of the original's unblocked runs that
    /// answered like it so far.
    covered: Vec<(u32, Vec<u32>)>,
    /// Pairs (selector 0, selector 1) of unblocked runs of the conditional mutant with the
    /// same nd values.
    paired: Vec<(u32, u32)>,
}

impl Config {
    /// Before the first frame.
    fn start() -> Config {
        Config {
            original: vec![START],
            alike: vec![(START, START)],
            covered: vec![(START, vec![START])],
            paired: vec![(START, START)],
        }
    }

    /// The configuration after one more frame under valuation `v`, and whether the sequence
    /// now answers `q`. Only what `q` needs is tracked.
    fn next(&self, s: &mut Sides, v: u32, q: Question) -> (Config, bool) {
        let mut out = Config {
            original: Vec::new(),
            alike: Vec::new(),
            covered: Vec::new(),
            paired: Vec::new(),
        };
        if q != Question::NotIncluded {
            let mut original = BTreeSet::new();
            for o in &self.original {
                original.extend(
                    s.original_steps(*o, v)
                        .distinct
                        .iter()
                        .filter_map(|st| st.1),
                );
            }
            out.original = original.into_iter().collect();
        }
        if q == Question::Definite {
            let mut alike = BTreeSet::new();
            for (o, m) in &self.alike {
                let (so, sm) = (s.original_steps(*o, v), s.mutant_steps(*m, v));
                for (out_o, next_o) in so.distinct.iter() {
                    for (out_m, next_m) in sm.distinct.iter() {
                        if let (true, Some(a), Some(b)) = (out_o == out_m, next_o, next_m) {
                            alike.insert((*a, *b));
                        }
                    }
                }
            }
            out.alike = alike.into_iter().collect();
            let answers = !out.original.is_empty() && out.alike.is_empty();
            return (out, answers);
        }
        let mut covered = BTreeSet::new();
        let mut escaped = false;
        for (m, os) in &self.covered {
            let sm = s.mutant_steps(*m, v);
            let mut by_output: HashMap<u32, BTreeSet<u32>> = HashMap::new();
            let mut original_dead = false;
            for o in os {
                let so = s.original_steps(*o, v);
                original_dead |= so.dead();
                for (out_o, next_o) in so.distinct.iter() {
                    if let Some(n) = next_o {
                        by_output.entry(*out_o).or_default().insert(*n);
                    }
                }
            }
            if sm.dead() {
                escaped |= q == Question::Potential || !original_dead;
            }
            for (out_m, next_m) in sm.distinct.iter() {
                match (next_m, by_output.get(out_m)) {
                    (None, _) => {}
                    (Some(n), Some(set)) => {
                        covered.insert((*n, set.iter().copied().collect::<Vec<u32>>()));
                    }
                    (Some(_), None) => escaped = true,
                }
            }
        }
        out.covered = covered.into_iter().collect();
        if q == Question::Potential {
            let mut paired = BTreeSet::new();
            for (o, m) in &self.paired {
                let (so, sm) = (s.paired_steps(*o, v), s.mutant_steps(*m, v));
                assert_eq!(so.each.len(), sm.each.len(), "both sides resolve alike");
                for ((_, next_o), (_, next_m)) in so.each.iter().zip(sm.each.iter()) {
                    match (next_o, next_m) {
                        (Some(a), Some(b)) => {
                            paired.insert((*a, *b));
                        }
                        (Some(_), None) => escaped = true,
                        (None, _) => {}
                    }
                }
            }
            out.paired = paired.into_iter().collect();
        }
        let answers = match q {
            Question::Potential => escaped && !out.original.is_empty(),
            _ => escaped,
        };
        (out, answers)
    }

    /// Whether no extension can answer `q`: the original has no run left (no test extends
    /// the sequence), or no mutant run is left to compare.
    fn dead(&self, q: Question) -> bool {
        match q {
            Question::NotIncluded => self.covered.is_empty(),
            _ => self.original.is_empty(),
        }
    }
}

/// What exploring every input sequence up to some length found.
enum Explored {
    /// No sequence answers the question.
    Never,
    /// This input sequence answers it.
    Answered(Vec<u32>),
    /// More work than [`MAX_WORK`].
    TooLarge,
}

/// Explores every input sequence of 1 to `steps` steps for one that answers `q`.
fn explore(s: &mut Sides, q: Question, steps: usize) -> Explored {
    let Some(all) = s.world.all_valuations() else {
        return Explored::TooLarge;
    };
    let start = Config::start();
    // A configuration first reached in k steps need not be extended when reached again later:
    // its futures are the same and fewer steps are left.
    let mut seen = HashSet::from([start.clone()]);
    let mut layer = vec![(start, Vec::new())];
    let mut work = 0;
    for _ in 0..steps {
        let mut next = Vec::new();
        for (c, path) in &layer {
            for v in &all {
                work += 1;
                if work > MAX_WORK {
                    return Explored::TooLarge;
                }
                let (c2, answers) = c.next(s, *v, q);
                let mut p: Vec<u32> = path.clone();
                p.push(*v);
                if answers {
                    return Explored::Answered(p);
                }
                if !c2.dead(q) && seen.insert(c2.clone()) {
                    next.push((c2, p));
                }
            }
        }
        layer = next;
    }
    Explored::Never
}

/// The word-level conditional mutant of mutant `id` of `model`.
fn conditional_mutant(model: &Model, id: usize) -> ConditionalMutant {
    let mutant = enumerate(&model.system, &Operator::ALL)
        .into_iter()
        .find(|m| m.id == id)
        .expect("the mutant exists");
    conditional(&model.system, &mutant).expect("conditional mutant")
}

/// Reads `text` as a value of variable `name` of `sys`.
fn read(sys: &System, name: &str, text: &str) -> (VarId, Value) {
    let var = sys.var_by_name(name).expect("a known variable");
    let value = parse_test_value(sys, sys.var(var).ty, text).expect("a valid value");
    (var, value)
}

/// Whether the original has a run under valuations `t` with outputs `outs` per frame (`None`:
/// any outputs, but the step must be taken).
fn original_answers(s: &mut Sides, t: &[u32], outs: &[Option<Vec<Value>>]) -> bool {
    let mut nodes = BTreeSet::from([START]);
    for (v, want) in t.iter().zip(outs) {
        let mut next = BTreeSet::new();
        for n in nodes {
            for (out, to) in s.original_steps(n, *v).distinct.iter() {
                let matches = want.as_ref().is_none_or(|w| s.world.outputs.get(*out) == w);
                if let (Some(to), true) = (to, matches) {
                    next.insert(*to);
                }
            }
        }
        if next.is_empty() {
            return false;
        }
        nodes = next;
    }
    true
}

/// The class brute force gives to `file`'s test of the mutant `cm` explored in `s`, or why
/// the test is wrong.
fn enumerated_class(
    s: &mut Sides,
    cm: &ConditionalMutant,
    file: &TestFile,
) -> Result<KillClass, String> {
    let frames = &file.test.frames;
    let t: Vec<u32> = frames
        .iter()
        .map(|f| s.world.valuation(&f.inputs))
        .collect();
    let sys = s.world.sys;
    let outputs = |m: &BTreeMap<String, String>| -> Vec<Value> {
        sys.outputs
            .iter()
            .map(|o| {
                let text = m.get(&o.name).expect("every output is listed");
                parse_test_value(sys, sys.ty(o.expr), text).expect("a valid output value")
            })
            .collect()
    };
    // A test whose original cannot take the last step lists no outputs there (§5.3).
    let runnable = match file.test.blocked {
        Some(Blocked::Original) => frames.len() - 1,
        _ => frames.len(),
    };
    let expected: Vec<Option<Vec<Value>>> = frames[..runnable]
        .iter()
        .map(|f| Some(outputs(&f.outputs)))
        .collect();
    if !original_answers(s, &t[..runnable], &expected) {
        return Err("the test's expected outputs are no behaviour of the original".into());
    }
    let mut c = Config::start();
    let mut definite = false;
    for v in &t {
        (c, definite) = c.next(s, *v, Question::Definite);
    }
    if definite {
        return Ok(KillClass::Definite);
    }
    // The mutant's behaviour with the test's nd values, on the nd-transformed system.
    let mut nd = cm.clone();
    make_controllable(&mut nd.system, &[nd.mut_var]).expect("nd transformation");
    let nd_frames: Vec<Frame> = frames
        .iter()
        .map(|f| Frame {
            inputs: f
                .inputs
                .iter()
                .chain(&f.nd)
                .map(|(n, x)| read(&nd.system, n, x))
                .collect(),
            ..Frame::default()
        })
        .collect();
    let chosen = Interpreter::new(&nd.system)
        .run(
            &HashMap::from([(nd.mut_var, Value::Bool(true))]),
            &nd_frames,
        )
        .expect("the mutant runs with the test's nd values");
    // A blocked run is a behaviour no original run has (§5.3).
    let blocked = chosen.constraints_ok.iter().any(|ok| !ok);
    let outs: Vec<Option<Vec<Value>>> = chosen.outputs.into_iter().map(Some).collect();
    if blocked || !original_answers(s, &t, &outs) {
        Ok(KillClass::Potential)
    } else {
        Ok(KillClass::Controlled)
    }
}

/// One model of the check and how testgen runs on it.
struct Case {
    label: &'static str,
    path: PathBuf,
    frontend: FrontendOptions,
    selection: Selection,
    bound: usize,
    /// Whether every class (and an inclusion proof) must be checked on this model.
    every_class: bool,
}

/// Counts of one kind of claim.
#[derive(Clone, Copy, Debug, Default)]
struct Claims {
    checked: usize,
    skipped: usize,
}

impl Claims {
    fn add(&mut self, other: Claims) {
        self.checked += other.checked;
        self.skipped += other.skipped;
    }
}

/// What was checked on one model, and every disagreement found.
#[derive(Debug, Default)]
struct Tally {
    reported: BTreeMap<&'static str, usize>,
    classes: BTreeMap<&'static str, usize>,
    no_definite: Claims,
    no_potential: Claims,
    inclusion: Claims,
    /// Checked tests of definite or potential class: how many have the least length of
    /// their class, and how many are longer than a shortest one brute force finds.
    shortest: usize,
    longer: usize,
    /// Killed mutants whose search stopped at the time limit before claiming anything, and
    /// how many of them have a stronger test within the bound by brute force.
    stopped: usize,
    stronger_missed: usize,
    failures: Vec<String>,
}

impl Tally {
    fn line(&self) -> String {
        let show = |m: &BTreeMap<&'static str, usize>| {
            m.iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let c = |c: Claims| format!("{} checked, {} skipped", c.checked, c.skipped);
        format!(
            "reported: {}; classes checked: {} ({} of the least length of their class, {} \
             longer); no-definite claims: {}; no-potential claims: {}; inclusion \
             equivalences: {}; searches stopped by the time limit: {} (a stronger test within \
             the bound: {}); disagreements: {}",
            show(&self.reported),
            show(&self.classes),
            self.shortest,
            self.longer,
            c(self.no_definite),
            c(self.no_potential),
            c(self.inclusion),
            self.stopped,
            self.stronger_missed,
            self.failures.len()
        )
    }

    /// Adds the counts and failures of `other`.
    fn add(&mut self, other: Tally) {
        for (k, n) in other.reported {
            *self.reported.entry(k).or_default() += n;
        }
        for (k, n) in other.classes {
            *self.classes.entry(k).or_default() += n;
        }
        self.no_definite.add(other.no_definite);
        self.no_potential.add(other.no_potential);
        self.inclusion.add(other.inclusion);
        self.shortest += other.shortest;
        self.longer += other.longer;
        self.stopped += other.stopped;
        self.stronger_missed += other.stronger_missed;
        self.failures.extend(other.failures);
    }
}

/// Checks a claim that no input sequence of at most `n + 1` steps answers `q`; a failure
/// names the sequence found.
fn check_claim(
    s: &mut Sides,
    q: Question,
    n: usize,
    claim: &str,
    tally: &mut Claims,
) -> Option<String> {
    match explore(s, q, n + 1) {
        Explored::Never => {
            tally.checked += 1;
            None
        }
        Explored::TooLarge => {
            tally.skipped += 1;
            None
        }
        Explored::Answered(t) => {
            tally.checked += 1;
            let steps: Vec<String> = t
                .iter()
                .map(|v| format!("[{}]", s.world.show(*v)))
                .collect();
            Some(format!(
                "{claim}, but brute force finds {} steps that answer {q:?}: {}",
                t.len(),
                steps.join(" ")
            ))
        }
    }
}

/// Checks one decided mutant of `model` (its record `rec`; its test file, if any, under
/// `out`) against brute force, on the original explored in `world` and `original`.
fn check_mutant<'o>(
    model: &Model,
    bound: usize,
    rec: &MutantRecord,
    out: &std::path::Path,
    world: &mut World<'o>,
    original: &mut Explorer<'o>,
    tally: &mut Tally,
) -> Result<(), String> {
    let inclusion = rec.outcome == MutantVerdict::Equivalent
        && rec
            .engine
            .as_deref()
            .is_some_and(|e| e.starts_with("inclusion-"));
    let class = match (rec.outcome, rec.kill_class) {
        (MutantVerdict::Killed, Some(class)) => Some(class),
        (MutantVerdict::Killed, None) => return Err("a killed mutant without a class".into()),
        _ if inclusion => None,
        _ => return Ok(()),
    };
    *tally
        .reported
        .entry(class.map_or("inclusion", KillClass::name))
        .or_default() += 1;
    let cm = conditional_mutant(model, rec.id);
    let explorer = |side: bool| Explorer::new(&cm.system, Some((cm.mut_var, side)), world);
    let (Some(mut mutant), Some(mut paired)) = (explorer(true), explorer(false)) else {
        if inclusion {
            tally.inclusion.skipped += 1;
        }
        return Ok(());
    };
    let mut s = Sides {
        world,
        original,
        mutant: &mut mutant,
        paired: &mut paired,
    };
    let mut failures = Vec::new();
    let Some(class) = class else {
        let claim = "proved equivalent by inclusion";
        failures.extend(check_claim(
            &mut s,
            Question::NotIncluded,
            INCLUSION_STEPS - 1,
            claim,
            &mut tally.inclusion,
        ));
        return failures.pop().map_or(Ok(()), Err);
    };
    if rec.requires_nd_control != (class == KillClass::Controlled) {
        failures.push("requires_nd_control disagrees with the class".to_string());
    }
    if tally.classes.get(class.name()).copied().unwrap_or(0) < MAX_PER_CLASS {
        let rel = rec
            .test
            .as_ref()
            .ok_or("a killed mutant without a test file")?;
        let text = std::fs::read_to_string(out.join(rel)).expect("test file");
        let file: TestFile = serde_json::from_str(&text).expect("test file parses");
        if file.kill_class != class {
            failures.push("the test file's class differs from the record's".into());
        }
        match enumerated_class(&mut s, &cm, &file)? {
            found if found == class => *tally.classes.entry(class.name()).or_default() += 1,
            found => failures.push(format!(
                "reported {}, but brute force finds its test (depth {}) {}",
                class.name(),
                file.test.depth,
                found.name()
            )),
        }
        // The explorations must find a test of this class no longer than this one (the test is
        // one), and a mutant behaviour the original lacks; they would otherwise confirm the
        // claims below vacuously.
        let q = match class {
            KillClass::Definite => Some(Question::Definite),
            KillClass::Potential => Some(Question::Potential),
            KillClass::Controlled => None,
        };
        let steps = file.test.depth + 1;
        if let Some(q) = q {
            match explore(&mut s, q, steps) {
                Explored::Answered(t) if t.len() == steps => tally.shortest += 1,
                Explored::Answered(_) => tally.longer += 1,
                Explored::Never => failures.push(format!(
                    "brute force finds no {} test of at most {steps} steps, yet the test is one",
                    class.name()
                )),
                Explored::TooLarge => {}
            }
            // A kill by a blocked step (§5.3) needs no behaviour the original lacks: the
            // mutant may just refuse the test's nd values.
            let blocked = file.test.blocked.is_some();
            if !blocked
                && matches!(
                    explore(&mut s, Question::NotIncluded, steps),
                    Explored::Never
                )
            {
                failures.push(format!(
                    "brute force finds every mutant behaviour of at most {steps} steps among \
                     the original's, yet the test kills {}",
                    class.name()
                ));
            }
        }
    }
    // A search stopped by the time limit claims nothing; how often it missed a stronger test.
    let unclaimed = match class {
        KillClass::Definite => None,
        KillClass::Potential => rec
            .no_definite_up_to
            .is_none()
            .then_some(Question::Definite),
        KillClass::Controlled => rec
            .no_potential_up_to
            .is_none()
            .then_some(Question::Potential),
    };
    if let Some(q) = unclaimed {
        tally.stopped += 1;
        let steps = bound.max(rec.depth.unwrap_or(0)) + 1;
        if let Explored::Answered(_) = explore(&mut s, q, steps) {
            tally.stronger_missed += 1;
        }
    }
    if let Some(n) = rec.no_definite_up_to {
        let claim = format!(
            "reported {} and no definite test up to depth {n}",
            class.name()
        );
        failures.extend(check_claim(
            &mut s,
            Question::Definite,
            n,
            &claim,
            &mut tally.no_definite,
        ));
    }
    if let Some(n) = rec.no_potential_up_to {
        let claim = format!(
            "reported {} and no potential test up to depth {n}",
            class.name()
        );
        failures.extend(check_claim(
            &mut s,
            Question::Potential,
            n,
            &claim,
            &mut tally.no_potential,
        ));
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}

/// Runs testgen on `case` and checks its killed and inclusion-equivalent mutants.
fn check_model(case: &Case) -> Tally {
    let (model, _) =
        Model::load(std::slice::from_ref(&case.path), &case.frontend).expect("model loads");
    let dir = tempfile::tempdir().expect("temp dir");
    let options = Options {
        selection: case.selection.clone(),
        decide: DecideOptions {
            bound: case.bound,
            timeout: Duration::from_secs(10),
            search_timeout: Duration::from_secs(2),
            ..DecideOptions::default()
        },
        jobs: Some(2),
        out: dir.path().join("out"),
        existing: Existing::Refuse,
        ..Options::default()
    };
    let start = Instant::now();
    let report = hypermut_testgen::run(&model, &options, &mut Quiet).expect("the run succeeds");
    let ran = start.elapsed();
    let mut tally = Tally::default();
    let mut world = World::new(&model.system);
    let mut original = Explorer::new(&model.system, None, &world)
        .expect("the original's nondeterminism can be enumerated");
    let mut records: Vec<&MutantRecord> = report.summary.results.iter().collect();
    // Shallow tests first: their checks are the cheapest.
    records.sort_by_key(|r| (r.depth, r.id));
    for rec in records {
        if let Err(e) = check_mutant(
            &model,
            case.bound,
            rec,
            &options.out,
            &mut world,
            &mut original,
            &mut tally,
        ) {
            tally.failures.push(format!(
                "{}: mutant {} ({} `{}` → `{}` at {}): {e}",
                case.label, rec.id, rec.operator, rec.original, rec.replacement, rec.location
            ));
        }
    }
    eprintln!(
        "{}: {} mutants decided in {ran:?}, checked in {:?}; {}",
        case.label,
        report.summary.results.len(),
        start.elapsed() - ran,
        tally.line()
    );
    for f in &tally.failures {
        eprintln!("  DISAGREEMENT {f}");
    }
    tally
}

/// The models: the bundled SMV models with choices (a sample of the larger ones), the bundled
/// Verilog design with `$ND`, two Verilog designs with registers whose power-up values are
/// free, the tiny model where every class occurs, and a model with a transition constraint.
fn cases(dir: &std::path::Path) -> Vec<Case> {
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("write");
        p
    };
    let repo = hypermut_testkit::repo::path;
    let sample = |n: usize| Selection {
        sample: Some(n),
        seed: 7,
        ..Selection::default()
    };
    let case = |label, path, selection, bound| Case {
        label,
        path,
        frontend: FrontendOptions::default(),
        selection,
        bound,
        every_class: false,
    };
    vec![
        case(
            "beverage.smv",
            repo("models/smv/beverage.smv"),
            Selection::default(),
            8,
        ),
        case("mutex.smv", repo("models/smv/mutex.smv"), sample(40), 6),
        case(
            "car_alarm_timed.smv",
            repo("models/smv/car_alarm_timed.smv"),
            sample(32),
            8,
        ),
        case(
            "car_alarm_timed.v",
            repo("models/verilog/car_alarm_timed.v"),
            sample(20),
            8,
        ),
        Case {
            frontend: FrontendOptions {
                reset: ResetOption::None,
                ..FrontendOptions::default()
            },
            ..case(
                "powerup.v (--reset none)",
                write("powerup.v", POWER_UP_V),
                Selection::default(),
                6,
            )
        },
        case(
            "sticky.v",
            write("sticky.v", STICKY_V),
            Selection::default(),
            6,
        ),
        Case {
            every_class: true,
            ..case("tiny.smv", write("tiny.smv", TINY), Selection::default(), 5)
        },
        case(
            "constrained.smv",
            write("constrained.smv", CONSTRAINED),
            Selection::default(),
            5,
        ),
    ]
}

#[test]
fn kill_classes_and_search_claims_agree_with_brute_force() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut total = Tally::default();
    for case in cases(dir.path()) {
        let t = check_model(&case);
        assert!(
            t.classes.values().sum::<usize>() > 0,
            "{}: no killed mutant could be enumerated",
            case.label
        );
        if case.every_class {
            for k in ["definite", "potential", "controlled"] {
                assert!(
                    t.classes.contains_key(k),
                    "{}: no {k} kill checked: {}",
                    case.label,
                    t.line()
                );
            }
            assert!(
                t.inclusion.checked > 0,
                "{}: no inclusion proof checked: {}",
                case.label,
                t.line()
            );
        }
        total.add(t);
    }
    eprintln!("all models: {}", total.line());
    assert!(
        total.failures.is_empty(),
        "brute force disagrees with hypermut:\n{}",
        total.failures.join("\n")
    );
    for class in KillClass::ALL {
        assert!(
            total.classes.get(class.name()).copied().unwrap_or(0) > 0,
            "no {} kill was checked: {}",
            class.name(),
            total.line()
        );
    }
    assert!(
        total.no_definite.checked >= MIN_NO_DEFINITE,
        "too few no-definite claims checked: {}",
        total.line()
    );
    assert!(
        total.no_potential.checked >= MIN_NO_POTENTIAL,
        "too few no-potential claims checked: {}",
        total.line()
    );
    assert!(
        total.inclusion.checked >= MIN_INCLUSION,
        "too few inclusion proofs checked: {}",
        total.line()
    );
}
