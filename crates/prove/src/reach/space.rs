//! The BDD variables of one transition step of a circuit (inputs, current and next state)
//! and the functions of its signals over them (`docs/method.md` §7.9).
//!
//! Only the inputs and latches in the cone of influence of the checked signals get
//! variables. They are ordered inputs first, then for each latch, in the search's
//! [`LatchOrder`], its current-state variable directly followed by its next-state variable.
//! Keeping the two of a latch adjacent makes renaming next-state variables to current-state
//! ones an order-preserving relabelling whatever the latch order.

use biodivine_lib_bdd::{
    op_function, Bdd, BddPartialValuation, BddValuation, BddVariable, BddVariableSet,
};
use hypermut_aig::{Aig, Lit, Node, Reset};

use super::cover::{sum_of_products, Cube};
use super::order::LatchOrder;
use crate::limits::Limits;
use crate::unroll::{cone_of_influence, UnrollError};

/// Why BDD reachability gave up: the circuit or a BDD too large, the time up, or an
/// internal inconsistency.
#[derive(Debug, thiserror::Error)]
pub(crate) enum GaveUp {
    /// The circuit is malformed.
    #[error(transparent)]
    Malformed(#[from] UnrollError),
    /// The circuit needs more BDD variables than allowed (the count it needs).
    #[error("the circuit needs {0} BDD variables")]
    Variables(usize),
    /// An operation's result would exceed the node limit (the limit).
    #[error("a BDD grew beyond {0} nodes")]
    Nodes(usize),
    /// An AND gate reads a variable that is not built before it (the gate's variable).
    #[error("AND gate {0} is not in topological order")]
    Unordered(usize),
    /// A signal reads an input or latch that got no BDD variable (the signal's variable).
    #[error("variable {0} reads an input or latch outside the cone of influence")]
    OutsideCone(usize),
    /// Relabelling next-state variables did not give a BDD (an image left a current-state
    /// variable in its result).
    #[error("an image still reads current-state variables")]
    NotAnImage,
    /// The rings of a search hold no path to the bad state found in the last one.
    #[error("the rings of the search hold no path to the bad state")]
    BrokenRings,
    /// The search's time limit was reached.
    #[error("the time limit was reached")]
    TimeUp,
    /// A set of states reads a variable other than a current-state one, or a node of its
    /// BDD reads a later node.
    #[error("a set of states is not a BDD over current-state variables")]
    NotAStateSet,
}

/// Nodes a cluster of the transition relation grows to before the next one starts.
pub(crate) const CLUSTER_NODES: usize = 2_500;

/// A transition relation as a conjunction of clusters, with the input and current-state
/// variables an image quantifies after each.
pub(crate) struct Relation {
    /// The conjuncts (over inputs, current and next state).
    clusters: Vec<Bdd>,
    /// When the image quantifies the input and current-state variables.
    quantified: Quantification,
}

/// When variables are quantified while clusters are conjoined in order: each right after
/// the last cluster that reads it (early quantification).
struct Quantification {
    /// Variables no cluster reads (quantified before the first).
    first: Vec<BddVariable>,
    /// Per cluster: the variables no later cluster reads.
    after: Vec<Vec<BddVariable>>,
}

impl Quantification {
    fn new(clusters: &[Bdd], vars: &[BddVariable], num_vars: usize) -> Quantification {
        let mut last: Vec<Option<usize>> = vec![None; num_vars];
        for (k, c) in clusters.iter().enumerate() {
            for v in c.support_set() {
                last[v.to_index()] = Some(k);
            }
        }
        let mut after = vec![Vec::new(); clusters.len()];
        let mut first = Vec::new();
        for v in vars {
            match last[v.to_index()] {
                Some(k) => after[k].push(*v),
                None => first.push(*v),
            }
        }
        Quantification { first, after }
    }
}

/// The variables of one step of a circuit and the node limit of every operation.
pub(crate) struct Space {
    vars: BddVariableSet,
    /// The AIG indices of the latches in the cone, in variable order.
    latch_ids: Vec<usize>,
    /// Per AIG input: its position among the inputs in the cone.
    input_pos: Vec<Option<usize>>,
    /// Per AIG latch: its position in `latch_ids`.
    latch_pos: Vec<Option<usize>>,
    /// Per input in the cone: its variable.
    inputs: Vec<BddVariable>,
    /// Per latch in the cone: its current-state variable.
    cur: Vec<BddVariable>,
    /// Per latch in the cone: its next-state variable.
    next: Vec<BddVariable>,
    /// The current-state and input variables (quantified in an image).
    step_vars: Vec<BddVariable>,
    node_limit: usize,
    /// The search's limits, checked before every operation.
    limits: Limits,
}

impl Space {
    /// The space of the cone of influence of `roots` in `aig`, its latches in `order`, when
    /// it needs at most `max_vars` variables; its operations stop at `limits`.
    pub(crate) fn new(
        aig: &Aig,
        roots: &[Lit],
        order: LatchOrder,
        max_vars: usize,
        node_limit: usize,
        limits: &Limits,
    ) -> Result<Space, GaveUp> {
        let in_cone = cone_of_influence(aig, roots)?;
        let input_ids: Vec<usize> = (0..aig.inputs.len())
            .filter(|i| in_cone[aig.inputs[*i].lit.var() as usize])
            .collect();
        let latch_ids: Vec<usize> = (0..aig.latches.len())
            .filter(|i| in_cone[aig.latches[*i].lit.var() as usize])
            .collect();
        let latch_ids = order.arrange(aig, &latch_ids, roots);
        let n = input_ids.len() + 2 * latch_ids.len();
        if n > max_vars || n >= usize::from(u16::MAX) {
            return Err(GaveUp::Variables(n));
        }
        let positions = |ids: &[usize], len: usize| {
            let mut pos = vec![None; len];
            for (p, i) in ids.iter().enumerate() {
                pos[*i] = Some(p);
            }
            pos
        };
        let var = BddVariable::from_index;
        let ni = input_ids.len();
        let inputs: Vec<_> = (0..ni).map(var).collect();
        let cur: Vec<_> = (0..latch_ids.len()).map(|i| var(ni + 2 * i)).collect();
        let next: Vec<_> = (0..latch_ids.len()).map(|i| var(ni + 2 * i + 1)).collect();
        let step_vars = inputs.iter().chain(&cur).copied().collect();
        Ok(Space {
            vars: BddVariableSet::new_anonymous(n as u16),
            input_pos: positions(&input_ids, aig.inputs.len()),
            latch_pos: positions(&latch_ids, aig.latches.len()),
            latch_ids,
            inputs,
            cur,
            next,
            step_vars,
            node_limit,
            limits: limits.clone(),
        })
    }

    /// The AIG indices of the latches in the cone, in order (the latches of
    /// [`Space::state_of`] and of the next-state functions [`Space::transition`] takes).
    pub(crate) fn latches(&self) -> &[usize] {
        &self.latch_ids
    }

    /// The constant `value`.
    pub(crate) fn constant(&self, value: bool) -> Bdd {
        if value {
            self.vars.mk_true()
        } else {
            self.vars.mk_false()
        }
    }

    /// `op` applied to `a` and `b`: `None` when the result would exceed `limit` nodes, an
    /// error when the search's limits are reached (checked before every operation, so
    /// that a search is stopped between two operations).
    fn apply(
        &self,
        limit: usize,
        a: &Bdd,
        b: &Bdd,
        op: impl Fn(Option<bool>, Option<bool>) -> Option<bool>,
    ) -> Result<Option<Bdd>, GaveUp> {
        if self.limits.reached() {
            return Err(GaveUp::TimeUp);
        }
        Ok(Bdd::binary_op_with_limit(limit, a, b, op))
    }

    /// `op` applied to `a` and `b` within the node limit.
    fn apply_within(
        &self,
        a: &Bdd,
        b: &Bdd,
        op: impl Fn(Option<bool>, Option<bool>) -> Option<bool>,
    ) -> Result<Bdd, GaveUp> {
        self.apply(self.node_limit, a, b, op)?
            .ok_or(GaveUp::Nodes(self.node_limit))
    }

    /// `a ∧ b`, or `GaveUp` when the result exceeds the node limit.
    pub(crate) fn and(&self, a: &Bdd, b: &Bdd) -> Result<Bdd, GaveUp> {
        self.apply_within(a, b, op_function::and)
    }

    /// `a ∨ b`, or `GaveUp` when the result exceeds the node limit.
    pub(crate) fn or(&self, a: &Bdd, b: &Bdd) -> Result<Bdd, GaveUp> {
        self.apply_within(a, b, op_function::or)
    }

    /// The functions of `roots` over the input and current-state variables, in the order
    /// given. Gates are built in variable order and dropped after their last reader.
    pub(crate) fn signals(&self, aig: &Aig, roots: &[Lit]) -> Result<Vec<Bdd>, GaveUp> {
        let nodes = aig.nodes();
        // Readers left per variable within the cone of the roots.
        let mut readers = vec![0u32; nodes.len()];
        let mut in_cone = vec![false; nodes.len()];
        let mut stack: Vec<u32> = roots.iter().map(|l| l.var()).collect();
        for r in roots {
            readers[r.var() as usize] += 1;
        }
        while let Some(v) = stack.pop() {
            if std::mem::replace(&mut in_cone[v as usize], true) {
                continue;
            }
            if let Node::And(a, b) = nodes[v as usize] {
                for op in [a, b] {
                    readers[op.var() as usize] += 1;
                    stack.push(op.var());
                }
            }
        }
        let mut built: Vec<Option<Bdd>> = vec![None; nodes.len()];
        for v in (0..nodes.len()).filter(|v| in_cone[*v]) {
            let f = match nodes[v] {
                Node::Const => self.constant(false),
                Node::Input(i) => {
                    let p = self.input_pos.get(i as usize).copied().flatten();
                    self.vars
                        .mk_var(self.inputs[p.ok_or(GaveUp::OutsideCone(v))?])
                }
                Node::Latch(i) => {
                    let p = self.latch_pos.get(i as usize).copied().flatten();
                    self.vars.mk_var(self.cur[p.ok_or(GaveUp::OutsideCone(v))?])
                }
                Node::And(a, b) => {
                    let fa =
                        take_reader(&mut built, &mut readers, a).ok_or(GaveUp::Unordered(v))?;
                    let fb =
                        take_reader(&mut built, &mut readers, b).ok_or(GaveUp::Unordered(v))?;
                    let (na, nb) = (a.is_neg(), b.is_neg());
                    let op = move |l: Option<bool>, r: Option<bool>| match (
                        l.map(|x| x ^ na),
                        r.map(|x| x ^ nb),
                    ) {
                        (Some(false), _) | (_, Some(false)) => Some(false),
                        (Some(true), Some(true)) => Some(true),
                        _ => None,
                    };
                    self.apply_within(&fa, &fb, op)?
                }
            };
            built[v] = Some(f);
        }
        roots
            .iter()
            .map(|r| {
                let f = take_reader(&mut built, &mut readers, *r)
                    .ok_or(GaveUp::Unordered(r.var() as usize))?;
                Ok(if r.is_neg() { f.not() } else { f })
            })
            .collect()
    }

    /// The initial states: every latch with a constant reset at its reset value, the others
    /// free.
    pub(crate) fn initial(&self, aig: &Aig) -> Bdd {
        let fixed: Vec<(BddVariable, bool)> = self
            .latch_ids
            .iter()
            .map(|i| &aig.latches[*i])
            .zip(&self.cur)
            .filter_map(|(l, v)| match l.reset {
                Reset::Zero => Some((*v, false)),
                Reset::One => Some((*v, true)),
                Reset::Free => None,
            })
            .collect();
        self.vars
            .mk_conjunctive_clause(&BddPartialValuation::from_values(&fixed))
    }

    /// The transition relation `allowed ∧ ⋀ᵢ (next_i ↔ fᵢ)` for next-state functions `next_fns`
    /// (one per latch) and the constraint `allowed` over inputs and current state, as
    /// clusters of conjuncts of at most [`CLUSTER_NODES`] nodes each (a single conjunct may
    /// be larger).
    pub(crate) fn transition(&self, next_fns: &[Bdd], allowed: &Bdd) -> Result<Relation, GaveUp> {
        let mut clusters: Vec<Bdd> = Vec::new();
        let mut current = allowed.clone();
        for (f, v) in next_fns.iter().zip(&self.next) {
            let eq = self.apply_within(&self.vars.mk_var(*v), f, op_function::iff)?;
            match self.apply(CLUSTER_NODES, &current, &eq, op_function::and)? {
                Some(joined) => current = joined,
                None => clusters.push(std::mem::replace(&mut current, eq)),
            }
        }
        clusters.push(current);
        let n = usize::from(self.vars.num_vars());
        Ok(Relation {
            quantified: Quantification::new(&clusters, &self.step_vars, n),
            clusters,
        })
    }

    /// The successors of `states` (over current-state variables) under `relation`, over
    /// current-state variables.
    pub(crate) fn image(&self, states: &Bdd, relation: &Relation) -> Result<Bdd, GaveUp> {
        let q = &relation.quantified;
        let mut step = states.exists(&q.first);
        for (cluster, vars) in relation.clusters.iter().zip(&q.after) {
            step = self.and(&step, cluster)?.exists(vars);
        }
        self.next_as_current(step)
    }

    /// The states of `states` with an input whose step under `relation` reaches `successor`
    /// (one value per latch), over inputs and current-state variables.
    pub(crate) fn predecessors(
        &self,
        states: &Bdd,
        relation: &Relation,
        successor: &[bool],
    ) -> Result<Bdd, GaveUp> {
        let fixed = self.next_fixed(successor);
        let mut step = states.clone();
        for cluster in &relation.clusters {
            step = self.and(&step, &cluster.restrict(&fixed))?;
        }
        Ok(step)
    }

    /// `f` with every input variable quantified existentially.
    pub(crate) fn some_input(&self, f: &Bdd) -> Bdd {
        f.exists(&self.inputs)
    }

    /// A BDD over next-state variables only, relabelled to the current-state variables.
    fn next_as_current(&self, f: Bdd) -> Result<Bdd, GaveUp> {
        let mut nodes = f.to_nodes();
        for node in nodes.iter_mut().skip(2) {
            // The current-state variable of a latch is the one just before its next-state
            // variable.
            let v = node.var.to_index().checked_sub(1);
            node.var = BddVariable::from_index(v.ok_or(GaveUp::NotAnImage)?);
        }
        // Moving every variable to its predecessor keeps the order, as no current-state
        // variable is left in `f`: the nodes form a valid BDD again.
        Bdd::from_nodes(&nodes).map_err(|_| GaveUp::NotAnImage)
    }

    /// The pairs fixing every next-state variable to `state` (one value per latch).
    fn next_fixed(&self, state: &[bool]) -> Vec<(BddVariable, bool)> {
        self.next
            .iter()
            .copied()
            .zip(state.iter().copied())
            .collect()
    }

    /// The current-state values of a valuation, per latch in the cone.
    pub(crate) fn state_of(&self, v: &BddValuation) -> Vec<bool> {
        self.cur.iter().map(|x| v.value(*x)).collect()
    }

    /// The input values of a valuation, per input in the cone.
    pub(crate) fn inputs_of(&self, v: &BddValuation) -> Vec<bool> {
        self.inputs.iter().map(|x| v.value(*x)).collect()
    }

    /// A state of the cone as a value per latch of `aig`: a latch outside the cone at its
    /// reset value (false when it has none).
    pub(crate) fn whole_state(&self, aig: &Aig, state: &[bool]) -> Vec<Option<bool>> {
        aig.latches
            .iter()
            .enumerate()
            .map(|(i, l)| match self.latch_pos[i] {
                Some(p) => Some(state[p]),
                None => Some(l.reset == Reset::One),
            })
            .collect()
    }

    /// Input values of the cone as a value per input of `aig` (false outside the cone).
    pub(crate) fn whole_inputs(&self, aig: &Aig, inputs: &[bool]) -> Vec<Option<bool>> {
        (0..aig.inputs.len())
            .map(|i| Some(self.input_pos[i].is_some_and(|p| inputs[p])))
            .collect()
    }

    /// A set of states (over current-state variables) as at most `max` clauses over the
    /// latch literals of `aig`: the negations of the cubes of an irredundant prime cover of
    /// its complement. `None` when more are needed or `limits` are reached first.
    pub(crate) fn clauses(
        &self,
        aig: &Aig,
        set: &Bdd,
        max: usize,
        limits: &Limits,
    ) -> Option<Vec<Vec<Lit>>> {
        let cubes = sum_of_products(&self.vars, &set.not(), max, &|| limits.reached())?;
        let clause = |cube: &Cube| {
            cube.iter()
                .map(|&(var, value)| {
                    let lit = aig.latches[self.latch_of(var)?].lit;
                    Some(if value { !lit } else { lit })
                })
                .collect::<Option<Vec<Lit>>>()
        };
        cubes.iter().map(clause).collect()
    }

    /// The AIG index of the latch whose current-state variable is `var`.
    fn latch_of(&self, var: BddVariable) -> Option<usize> {
        // Current-state variable of the latch at position k: inputs + 2k.
        let offset = var.to_index().checked_sub(self.inputs.len())?;
        (offset % 2 == 0)
            .then(|| self.latch_ids.get(offset / 2))
            .flatten()
            .copied()
    }

    /// A set of states (over current-state variables) as a circuit over the latches of
    /// `aig`: AND gates numbered after `aig`'s variables, one multiplexer per BDD node, and
    /// the literal of the set (the form of [`crate::Certificate::Circuit`]).
    pub(crate) fn circuit(&self, aig: &Aig, set: &Bdd) -> Result<(Vec<(Lit, Lit)>, Lit), GaveUp> {
        let base = aig.num_vars();
        let mut gates: Vec<(Lit, Lit)> = Vec::new();
        let mut and = |a: Lit, b: Lit| {
            if a == Lit::FALSE || b == Lit::FALSE || a == !b {
                Lit::FALSE
            } else if a == Lit::TRUE || a == b {
                b
            } else if b == Lit::TRUE {
                a
            } else {
                gates.push((a, b));
                Lit::var_lit(base + gates.len() as u32 - 1)
            }
        };
        let mut lits: Vec<Lit> = Vec::with_capacity(set.size());
        for p in set.pointers() {
            let lit = if p.is_zero() {
                Lit::FALSE
            } else if p.is_one() {
                Lit::TRUE
            } else {
                let (low, high) = (
                    set.low_link_of(p).to_index(),
                    set.high_link_of(p).to_index(),
                );
                let (Some(&lo), Some(&hi)) = (lits.get(low), lits.get(high)) else {
                    return Err(GaveUp::NotAStateSet);
                };
                let latch = self.latch_of(set.var_of(p)).ok_or(GaveUp::NotAStateSet)?;
                let x = aig.latches[latch].lit;
                let then = and(x, hi);
                let otherwise = and(!x, lo);
                !and(!then, !otherwise)
            };
            lits.push(lit);
        }
        let holds = *lits.last().ok_or(GaveUp::NotAStateSet)?;
        Ok((gates, holds))
    }
}

/// The BDD of literal `l`, taken from `built` by one of its readers (the last reader moves
/// it out instead of cloning).
fn take_reader(built: &mut [Option<Bdd>], readers: &mut [u32], l: Lit) -> Option<Bdd> {
    let v = l.var() as usize;
    readers[v] = readers[v].saturating_sub(1);
    if readers[v] == 0 {
        built[v].take()
    } else {
        built[v].clone()
    }
}
