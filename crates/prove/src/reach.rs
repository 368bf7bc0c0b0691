//! Forward reachability on BDDs (`docs/method.md` §7.9): the set of reachable states,
//! computed breadth first as a BDD, for circuits with few latches in the cone of influence
//! of the property. It decides a property whatever the depth of its counterexample or the
//! shape of its invariant (a relation between two counters, say, which IC3 learns one
//! clause at a time), as long as the BDDs stay small; it gives up as soon as one outgrows
//! its node limit.
//!
//! Safe answers carry the reachable states as an invariant circuit (one multiplexer per BDD
//! node), checked by the separate certificate checker; unsafe answers carry a shortest
//! counterexample, replayed on the simulator.

mod cover;
mod order;
mod space;
#[cfg(test)]
mod tests;
mod trace;

use std::time::{Duration, Instant};

use biodivine_lib_bdd::Bdd;
use hypermut_aig::Aig;

use crate::certificate::Certificate;
use crate::engine::Engine;
use crate::limits::Limits;
use crate::reduced_verdict::{checked_certificate, checked_witness, trivial_verdict};
use crate::verdict::Verdict;
use order::LatchOrder;
use space::{GaveUp, Space};

/// BDD variables (inputs plus twice the latches in the cone of influence) beyond which
/// [`Reach::default`] does not start.
pub const REACH_MAX_VARIABLES: usize = 200;

/// Nodes one BDD of [`Reach::default`] may have.
pub const REACH_NODE_LIMIT: usize = 400_000;

/// Clauses a safe answer's invariant may have in clause form; the reachable states are
/// given as a circuit instead when they need more (or when finding the clauses takes
/// longer than the search did).
pub const REACH_MAX_CLAUSES: usize = 20_000;

/// The least time [`Reach`] spends looking for the clause form of an invariant (at least
/// four times what the search took): clauses are much cheaper for the checker than a circuit.
pub const CLAUSE_BUDGET: Duration = Duration::from_millis(500);

/// BDD-based forward reachability (complete for circuits whose BDDs stay within the limits).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    /// The most BDD variables (inputs + 2 × latches in the cone of influence) it starts on.
    pub max_variables: usize,
    /// The most nodes of one BDD; an operation whose result is larger ends the search.
    pub node_limit: usize,
    /// The most clauses of a safe answer's invariant in clause form (0: always a circuit).
    pub max_clauses: usize,
    /// Wall-clock limit for [`Engine::check`].
    pub time_limit: Option<Duration>,
}

impl Default for Reach {
    fn default() -> Self {
        Reach {
            max_variables: REACH_MAX_VARIABLES,
            node_limit: REACH_NODE_LIMIT,
            max_clauses: REACH_MAX_CLAUSES,
            time_limit: None,
        }
    }
}

impl Engine for Reach {
    fn check(&mut self, aig: &Aig) -> Verdict {
        self.check_limited(aig, &Limits::timeout(self.time_limit))
    }

    /// The verdict, its witness replayed on the simulator or its certificate re-checked.
    fn check_limited(&mut self, aig: &Aig, limits: &Limits) -> Verdict {
        if let Some(v) = trivial_verdict(aig) {
            return v;
        }
        match self.search(aig, limits) {
            Ok(Verdict::Unsafe(w)) => checked_witness(aig, w),
            Ok(Verdict::Safe(cert)) => checked_certificate(aig, cert, limits),
            Ok(unknown) => unknown,
            Err(GaveUp::TimeUp) => Verdict::Unknown("BDD reachability: time limit reached".into()),
            Err(e) => Verdict::Unknown(format!("BDD reachability gave up: {e}")),
        }
    }
}

impl Reach {
    /// The breadth-first search for `aig.bad[0]`, unchecked: in each of
    /// [`LatchOrder::ATTEMPTS`] while a BDD outgrows the node limit (an order that arranges
    /// the latches as an earlier one did is not tried again: with no latch or one latch in
    /// the cone, all three are the same).
    fn search(&self, aig: &Aig, limits: &Limits) -> Result<Verdict, GaveUp> {
        let mut outgrown = GaveUp::Nodes(self.node_limit);
        let mut tried: Vec<Vec<usize>> = Vec::new();
        for order in LatchOrder::ATTEMPTS {
            match self.search_in(aig, order, limits, &mut tried) {
                Err(e @ GaveUp::Nodes(_)) => outgrown = e,
                Ok(None) => {}
                Ok(Some(v)) => return Ok(v),
                Err(e) => return Err(e),
            }
        }
        Err(outgrown)
    }

    /// The breadth-first search for `aig.bad[0]` with the latches' variables in `order`;
    /// `None` without a search when the latches' arrangement is one of `tried` (to which
    /// it is added otherwise).
    fn search_in(
        &self,
        aig: &Aig,
        order: LatchOrder,
        limits: &Limits,
        tried: &mut Vec<Vec<usize>>,
    ) -> Result<Option<Verdict>, GaveUp> {
        let Some(bad) = aig.bad.first() else {
            return Ok(Some(Verdict::Unknown("no bad property".into())));
        };
        let mut checked: Vec<_> = aig.constraints.iter().map(|c| c.lit).collect();
        checked.push(bad.lit);
        let space = Space::new(
            aig,
            &checked,
            order,
            self.max_variables,
            self.node_limit,
            limits,
        )?;
        if tried.iter().any(|t| t == space.latches()) {
            return Ok(None);
        }
        tried.push(space.latches().to_vec());
        let mut roots: Vec<_> = space
            .latches()
            .iter()
            .map(|i| aig.latches[*i].next)
            .collect();
        roots.extend(checked);
        let mut fns = space.signals(aig, &roots)?;
        let bad_fn = fns.pop().unwrap_or_else(|| space.constant(false));
        let constraint_fns = fns.split_off(space.latches().len());
        let mut allowed = space.constant(true);
        for c in &constraint_fns {
            allowed = space.and(&allowed, c)?;
        }
        let bad_now = space.and(&allowed, &bad_fn)?;
        let bad_states = space.some_input(&bad_now);
        let transition = space.transition(&fns, &allowed)?;
        let started = Instant::now();
        let mut reached = space.initial(aig);
        let mut frontier = reached.clone();
        let mut rings: Vec<Bdd> = Vec::new();
        loop {
            if limits.reached() {
                return Ok(Some(Verdict::Unknown(format!(
                    "time limit reached after {} BDD images",
                    rings.len()
                ))));
            }
            rings.push(frontier.clone());
            if !space.and(&frontier, &bad_states)?.is_false() {
                let w = trace::counterexample(aig, &space, &rings, &transition, &bad_now)?;
                return Ok(Some(Verdict::Unsafe(w)));
            }
            let image = space.image(&frontier, &transition)?;
            frontier = image.and_not(&reached);
            if frontier.is_false() {
                return Ok(Some(Verdict::Safe(
                    self.certificate(aig, &space, &reached, started)?,
                )));
            }
            reached = space.or(&reached, &frontier)?;
        }
    }

    /// The reachable states as a certificate: as clauses when an irredundant prime cover
    /// of the unreachable ones has at most [`Reach::max_clauses`] cubes and takes at most
    /// four times as long to find as the search since `started` (or [`CLAUSE_BUDGET`]),
    /// as a circuit otherwise.
    fn certificate(
        &self,
        aig: &Aig,
        space: &Space,
        reachable: &Bdd,
        started: Instant,
    ) -> Result<Certificate, GaveUp> {
        let search = started.elapsed();
        let budget = Limits::timeout(Some((search * 4).max(CLAUSE_BUDGET)));
        if self.max_clauses > 0 {
            if let Some(clauses) = space.clauses(aig, reachable, self.max_clauses, &budget) {
                return Ok(Certificate::Invariant { clauses });
            }
        }
        let (gates, holds) = space.circuit(aig, reachable)?;
        Ok(Certificate::Circuit { gates, holds })
    }
}
