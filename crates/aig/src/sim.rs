//! Cycle-accurate simulation of an [`Aig`] and witness checking (like `aigsim -c`).
//!
//! Values are Mealy: in frame t the outputs, properties and constraints are functions of the
//! latch values of frame t and the inputs of frame t. `x` (`None`) is grounded to 0.

use crate::aiger::safety_properties;
use crate::error::WitnessError;
use crate::{Aig, Lit, Node, Reset, Witness};

/// The values of one frame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimFrame {
    /// Latch values (current state), in latch order.
    pub latches: Vec<bool>,
    /// Input values, in input order.
    pub inputs: Vec<bool>,
    /// Output values.
    pub outputs: Vec<bool>,
    /// Bad-state property values.
    pub bad: Vec<bool>,
    /// Invariant constraint values.
    pub constraints: Vec<bool>,
    /// Justice literal values, per justice property.
    pub justice: Vec<Vec<bool>>,
    /// Fairness constraint values.
    pub fairness: Vec<bool>,
}

/// A simulation run: one [`SimFrame`] per input vector, and the state after the last one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimTrace {
    /// Frames 0, 1, …
    pub frames: Vec<SimFrame>,
    /// Latch values after the last frame (the initial state when there are no frames).
    pub final_latches: Vec<bool>,
}

/// The initial state: constant resets win, uninitialised ([`Reset::Free`]) latches take
/// `init[k]`, and `x` or a missing value is 0.
pub fn initial_state(aig: &Aig, init: &[Option<bool>]) -> Vec<bool> {
    aig.latches
        .iter()
        .enumerate()
        .map(|(k, l)| match l.reset {
            Reset::Zero => false,
            Reset::One => true,
            Reset::Free => init.get(k).copied().flatten().unwrap_or(false),
        })
        .collect()
}

/// Simulates `aig` from the initial state given by [`initial_state`]`(aig, init)`, one frame
/// per input vector. Missing or `x` inputs are 0, surplus values are ignored.
pub fn simulate(aig: &Aig, init: &[Option<bool>], inputs: &[Vec<Option<bool>>]) -> SimTrace {
    let mut state = initial_state(aig, init);
    let mut values = vec![false; aig.num_vars() as usize];
    let mut frames = Vec::with_capacity(inputs.len());
    for vector in inputs {
        let ins: Vec<bool> = (0..aig.inputs.len())
            .map(|k| vector.get(k).copied().flatten().unwrap_or(false))
            .collect();
        evaluate(aig, &state, &ins, &mut values);
        let val = |l: Lit| value(&values, l);
        let frame = SimFrame {
            latches: state.clone(),
            inputs: ins.clone(),
            outputs: aig.outputs.iter().map(|n| val(n.lit)).collect(),
            bad: aig.bad.iter().map(|n| val(n.lit)).collect(),
            constraints: aig.constraints.iter().map(|n| val(n.lit)).collect(),
            justice: aig
                .justice
                .iter()
                .map(|j| j.iter().map(|&l| val(l)).collect())
                .collect(),
            fairness: aig.fairness.iter().map(|&l| val(l)).collect(),
        };
        state = aig.latches.iter().map(|l| val(l.next)).collect();
        frames.push(frame);
    }
    SimTrace {
        frames,
        final_latches: state,
    }
}

/// Evaluates every variable for one frame into `values` (indexed by variable).
fn evaluate(aig: &Aig, state: &[bool], inputs: &[bool], values: &mut [bool]) {
    for (v, node) in aig.nodes().iter().enumerate() {
        let x = match *node {
            Node::Const => false,
            Node::Input(i) => inputs.get(i as usize).copied().unwrap_or(false),
            Node::Latch(i) => state.get(i as usize).copied().unwrap_or(false),
            Node::And(a, b) => value(values, a) && value(values, b),
        };
        if let Some(slot) = values.get_mut(v) {
            *slot = x;
        }
    }
}

fn value(values: &[bool], l: Lit) -> bool {
    values.get(l.var() as usize).copied().unwrap_or(false) ^ l.is_neg()
}

/// The next value of every latch (in latch order) in three-valued logic, with every latch
/// unknown and input `k` given by `inputs[k]` (`None`, or no entry, = unknown). A `Some`
/// result is the value the latch takes whatever the unknowns are; `None` means the
/// evaluation could not tell (it is conservative: an AND is known only when one operand is a
/// known 0 or both are known, so `a ∨ ¬a` of an unknown `a` stays unknown).
pub fn ternary_next(aig: &Aig, inputs: &[Option<bool>]) -> Vec<Option<bool>> {
    let mut sim = TernarySim::new(aig, vec![None; aig.latches.len()]);
    sim.eval(inputs);
    aig.latches.iter().map(|l| sim.value(l.next)).collect()
}

/// A run of `aig` in three-valued logic, frame by frame: `None` is unknown (either value),
/// `Some(b)` a value every run with the known values given takes, whatever the unknowns are.
/// Conservative as [`ternary_next`] is.
#[derive(Clone, Debug)]
pub struct TernarySim<'a> {
    aig: &'a Aig,
    /// Latch values of the current frame.
    state: Vec<Option<bool>>,
    /// Per variable, its value in the frame last evaluated.
    values: Vec<Option<bool>>,
}

impl<'a> TernarySim<'a> {
    /// A run from the latch values `state` (in latch order; a missing entry is unknown).
    pub fn new(aig: &'a Aig, mut state: Vec<Option<bool>>) -> Self {
        state.resize(aig.latches.len(), None);
        TernarySim {
            aig,
            state,
            values: vec![None; aig.num_vars() as usize],
        }
    }

    /// A run from the initial states: constant resets known, uninitialised latches unknown.
    pub fn from_reset(aig: &'a Aig) -> Self {
        let state = aig.latches.iter().map(|l| l.reset.value()).collect();
        TernarySim::new(aig, state)
    }

    /// Sets latch `k` of the current frame (before [`TernarySim::eval`]).
    pub fn set_latch(&mut self, k: usize, value: Option<bool>) {
        if let Some(slot) = self.state.get_mut(k) {
            *slot = value;
        }
    }

    /// Evaluates the current frame under `inputs` (input order; `None` or a missing entry
    /// is unknown).
    pub fn eval(&mut self, inputs: &[Option<bool>]) {
        for (v, node) in self.aig.nodes().iter().enumerate() {
            let x = match *node {
                Node::Const => Some(false),
                Node::Input(i) => inputs.get(i as usize).copied().flatten(),
                Node::Latch(i) => self.state.get(i as usize).copied().flatten(),
                Node::And(a, b) => match (self.value(a), self.value(b)) {
                    (Some(false), _) | (_, Some(false)) => Some(false),
                    (Some(true), Some(true)) => Some(true),
                    _ => None,
                },
            };
            self.values[v] = x;
        }
    }

    /// The value of `l` in the frame last evaluated.
    pub fn value(&self, l: Lit) -> Option<bool> {
        self.values
            .get(l.var() as usize)
            .copied()
            .flatten()
            .map(|b| b ^ l.is_neg())
    }

    /// Moves to the next frame: every latch takes its next-state value.
    pub fn advance(&mut self) {
        let next: Vec<Option<bool>> = self
            .aig
            .latches
            .iter()
            .map(|l| self.value(l.next))
            .collect();
        self.state = next;
    }
}

/// A property named in a witness.
enum Property {
    Bad(usize),
    Justice(usize),
}

fn parse_property(name: &str) -> Option<Property> {
    let (kind, index) = name.split_at_checked(1)?;
    if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let index: usize = index.parse().ok()?;
    match kind {
        "b" => Some(Property::Bad(index)),
        "j" => Some(Property::Justice(index)),
        _ => None,
    }
}

/// Checks a witness the way `aigsim -c` does and returns the 0-based frame in which the
/// violation is first established.
///
/// * The initial state has one value per latch and agrees with constant resets (`x` is
///   allowed); every input vector has one value per input; `x` is grounded to 0.
/// * `b<i>` refers to bad property i, or to output i when the circuit has no bad section
///   (docs/formats.md §9.4). It must hold in some frame k with every constraint true in frames
///   0..=k (`c U (c ∧ b)`); the first such k is the result. Frames after k are not looked at.
/// * `j<i>`: the state after the last vector must equal the state of an earlier frame l, and
///   in frames l..=depth every literal of justice property i and every fairness constraint
///   must hold at least once; constraints must hold in every frame. The result is the depth.
///
/// With several properties every one must be violated; the result is the largest frame.
pub fn check_witness(aig: &Aig, w: &Witness) -> Result<usize, WitnessError> {
    if w.properties.is_empty() {
        return Err(WitnessError::NoProperty);
    }
    let properties = w
        .properties
        .iter()
        .map(|p| parse_property(p).ok_or_else(|| WitnessError::UnknownProperty(p.clone())))
        .collect::<Result<Vec<_>, _>>()?;
    if w.init.len() != aig.latches.len() {
        return Err(WitnessError::InitLength {
            got: w.init.len(),
            expected: aig.latches.len(),
        });
    }
    if w.inputs.is_empty() {
        return Err(WitnessError::NoFrames);
    }
    if let Some((frame, v)) = w
        .inputs
        .iter()
        .enumerate()
        .find(|(_, v)| v.len() != aig.inputs.len())
    {
        return Err(WitnessError::InputLength {
            frame,
            got: v.len(),
            expected: aig.inputs.len(),
        });
    }
    for (latch, (l, &value)) in aig.latches.iter().zip(&w.init).enumerate() {
        let reset = match l.reset {
            Reset::Zero => false,
            Reset::One => true,
            Reset::Free => continue,
        };
        if let Some(value) = value.filter(|&v| v != reset) {
            return Err(WitnessError::InitMismatch {
                latch,
                reset,
                value,
            });
        }
    }
    let trace = simulate(aig, &w.init, &w.inputs);
    let mut result = 0;
    for (p, name) in properties.iter().zip(&w.properties) {
        let frame = match *p {
            Property::Bad(i) => check_bad(aig, &trace, i, name)?,
            Property::Justice(i) => check_justice(aig, &trace, i, name)?,
        };
        result = result.max(frame);
    }
    Ok(result)
}

fn first_violated_constraint(frame: &SimFrame) -> Option<usize> {
    frame.constraints.iter().position(|&c| !c)
}

fn check_bad(aig: &Aig, trace: &SimTrace, i: usize, name: &str) -> Result<usize, WitnessError> {
    if i >= safety_properties(aig).len() {
        return Err(WitnessError::UnknownProperty(name.to_string()));
    }
    let from_outputs = aig.bad.is_empty();
    for (t, frame) in trace.frames.iter().enumerate() {
        if let Some(constraint) = first_violated_constraint(frame) {
            return Err(WitnessError::ConstraintViolated {
                constraint,
                frame: t,
                property: name.to_string(),
            });
        }
        let hit = if from_outputs {
            frame.outputs.get(i)
        } else {
            frame.bad.get(i)
        };
        if hit.copied().unwrap_or(false) {
            return Ok(t);
        }
    }
    Err(WitnessError::NotReached(name.to_string()))
}

fn check_justice(aig: &Aig, trace: &SimTrace, i: usize, name: &str) -> Result<usize, WitnessError> {
    if i >= aig.justice.len() {
        return Err(WitnessError::UnknownProperty(name.to_string()));
    }
    let fail = |reason: &str| WitnessError::Justice {
        property: name.to_string(),
        reason: reason.to_string(),
    };
    for (t, frame) in trace.frames.iter().enumerate() {
        if let Some(constraint) = first_violated_constraint(frame) {
            return Err(WitnessError::ConstraintViolated {
                constraint,
                frame: t,
                property: name.to_string(),
            });
        }
    }
    let depth = trace.frames.len().saturating_sub(1);
    let loop_starts: Vec<usize> = (0..trace.frames.len())
        .filter(|&l| trace.frames[l].latches == trace.final_latches)
        .collect();
    if loop_starts.is_empty() {
        return Err(fail(
            "the state after the last input vector equals no earlier state (no loop)",
        ));
    }
    let fair_loop = |l: usize| {
        let on_loop = &trace.frames[l..];
        let all_once = |get: &dyn Fn(&SimFrame) -> &[bool], n: usize| {
            (0..n).all(|k| {
                on_loop
                    .iter()
                    .any(|f| get(f).get(k).copied().unwrap_or(false))
            })
        };
        all_once(
            &|f: &SimFrame| f.justice.get(i).map(Vec::as_slice).unwrap_or_default(),
            aig.justice[i].len(),
        ) && all_once(&|f: &SimFrame| f.fairness.as_slice(), aig.fairness.len())
    };
    if loop_starts.into_iter().any(fair_loop) {
        Ok(depth)
    } else {
        Err(fail(
            "some justice or fairness literal is never true on the loop",
        ))
    }
}

/// Looks for a witness of safety property `property` (index into
/// [`safety_properties`], i.e. bad or outputs-as-bad) by at least `runs` random simulations
/// of at most `max_frames` frames each, 64 at a time
/// ([`crate::wordsim::random_witness_of`]; random values for inputs and uninitialised
/// latches, deterministic in `seed`). Returns the shortest witness found, cut at the first
/// frame where the property holds with all constraints true so far; it passes
/// [`check_witness`]. `None` when no run hits the property.
pub fn search_witness(
    aig: &Aig,
    property: usize,
    max_frames: usize,
    runs: usize,
    seed: u64,
) -> Option<Witness> {
    let lit = safety_properties(aig).get(property)?.lit;
    let name = format!("b{property}");
    crate::wordsim::random_witness_of(aig, lit, &name, max_frames, runs.div_ceil(64), seed)
}

#[cfg(test)]
mod tests;
