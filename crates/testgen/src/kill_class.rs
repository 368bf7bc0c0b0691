//! How a killing test kills when the tester does not control nondeterminism (`docs/method.md`
//! §4.5, §4.7): the kill class of φ1's test, and the bounded ∃∀ search for a stronger test (a
//! definite one, else a potential one) on the agreement circuit.

use std::time::Instant;

use hypermut_aig::sim::TernarySim;
use hypermut_aig::Witness;
use hypermut_hyper::{agreement, test_from_runs, Agreement, MutantProduct, Test};
use hypermut_prove::bmc::{check_bound_fixed, BmcError};
use hypermut_prove::ExistsForall;

use crate::error::{Error, Result};
use crate::record::KillClass;

/// How the killing test of `w` (first difference in frame `depth`) kills the mutant of `mp`
/// when the tester applies only its inputs (`docs/method.md` §4.5). Without nd inputs
/// (`private` all false) the test is definite as it is. Otherwise, on the agreement circuit
/// (the copies choose their nd values apart), with the test's inputs fixed: if no original
/// behaviour and no mutant behaviour answer alike up to `depth`, definite; else, if none
/// answers like the mutant with the test's nd values, potential; else controlled. A check
/// stopped by the deadline counts as failed (the weaker class).
pub(crate) fn classify(
    mp: &MutantProduct,
    private: &[bool],
    w: &Witness,
    depth: usize,
    deadline: Option<Instant>,
) -> Result<KillClass> {
    if !private.contains(&true) || definite_at_once(mp, private, w, depth) {
        return Ok(KillClass::Definite);
    }
    classify_by_sat(mp, private, w, depth, deadline)
}

/// [`classify`] by SAT alone: the two bounded checks on the agreement circuit.
fn classify_by_sat(
    mp: &MutantProduct,
    private: &[bool],
    w: &Witness,
    depth: usize,
    deadline: Option<Instant>,
) -> Result<KillClass> {
    let ag = agreement(&mp.blasted, mp.selector, private)?;
    // The product's inputs are the conditional mutant's, in the same order.
    let fixed = |mutant_nd: bool| -> Vec<Vec<Option<bool>>> {
        (0..=depth)
            .map(|k| {
                let mut v = vec![None; ag.aig.inputs.len()];
                for (i, (a, b)) in ag.inputs.iter().enumerate() {
                    let value = w.inputs.get(k).and_then(|f| f.get(i).copied().flatten());
                    let value = Some(value.unwrap_or(false));
                    if !private[i] {
                        v[*a] = value;
                    } else if mutant_nd {
                        v[*b] = value;
                    }
                }
                v
            })
            .collect()
    };
    let answered_alike = |mutant_nd: bool| -> Result<bool> {
        match check_bound_fixed(&ag.aig, depth, &fixed(mutant_nd), deadline) {
            Ok(found) => Ok(found.is_some()),
            Err(BmcError::Interrupted) => Ok(true),
            Err(e) => Err(e.into()),
        }
    };
    Ok(if !answered_alike(false)? {
        KillClass::Definite
    } else if !answered_alike(true)? {
        KillClass::Potential
    } else {
        KillClass::Controlled
    })
}

/// Whether the inputs of `w` make some output of the original and of the mutant differ in
/// some frame up to `depth` whatever the nd values and power-up values of either copy are:
/// a sufficient condition for a definite kill (`docs/method.md` §4.5), checked by a
/// three-valued simulation of each copy with the nd inputs and the uninitialised latches
/// unknown. `false` says nothing: the simulation is conservative.
pub(crate) fn definite_at_once(
    mp: &MutantProduct,
    private: &[bool],
    w: &Witness,
    depth: usize,
) -> bool {
    let aig = &mp.blasted.aig;
    let Some(selector) = aig.latch_index(mp.selector) else {
        return false;
    };
    let mut copies = [false, true].map(|mutant| {
        let mut sim = TernarySim::from_reset(aig);
        sim.set_latch(selector, Some(mutant));
        sim
    });
    for k in 0..=depth {
        let inputs: Vec<Option<bool>> = (0..aig.inputs.len())
            .map(|i| {
                let given = w.inputs.get(k).and_then(|f| f.get(i).copied().flatten());
                (!private.get(i).copied().unwrap_or(false)).then(|| given.unwrap_or(false))
            })
            .collect();
        for (mutant, sim) in copies.iter_mut().enumerate() {
            sim.set_latch(selector, Some(mutant == 1));
            sim.eval(&inputs);
        }
        let differ = mp.blasted.outputs.iter().flat_map(|o| &o.bits).any(
            |&b| matches!((copies[0].value(b), copies[1].value(b)), (Some(x), Some(y)) if x != y),
        );
        if differ {
            return true;
        }
        for sim in &mut copies {
            sim.advance();
        }
    }
    false
}

/// What the search for a stronger test found.
pub(crate) struct Search {
    /// The stronger test, its class and the original's run it comes from, if one was found.
    pub(crate) test: Option<(KillClass, Found)>,
    /// Test lengths searched for a definite test (all of them unless the deadline came).
    pub(crate) definite_to: Option<usize>,
    /// Whether the deadline stopped the search for a definite test (after `definite_to`).
    pub(crate) definite_stopped: bool,
    /// Test lengths searched for a potential test.
    pub(crate) potential_to: Option<usize>,
    /// A potential test exists up to the bound, but not one the search writes (its mutant
    /// choices are forbidden to the original, or only the mutant's run is blocked).
    pub(crate) unwritten_potential: bool,
}

impl Search {
    /// The sentence the record's reason gains.
    pub(crate) fn describe(&self, found: KillClass, now: KillClass) -> String {
        let upto = |d: Option<usize>| match d {
            Some(d) => format!("up to depth {d}"),
            None => "(the search stopped at its time limit)".into(),
        };
        if now != found {
            let t = self.test.as_ref().map_or(0, |(_, (t, _))| t.depth);
            return format!(
                "; that test is {}, and the ∃∀ search found a {} test of depth {t}",
                found.name(),
                now.name()
            );
        }
        let definite = match (self.definite_to, self.definite_stopped) {
            (Some(d), true) => {
                format!("up to depth {d} (the search stopped at its time limit after that depth)")
            }
            (d, _) => upto(d),
        };
        let mut s = format!(
            "; that test is {}; no definite test {definite}",
            found.name()
        );
        if found == KillClass::Controlled && self.unwritten_potential {
            s.push_str(
                ", and a potential test exists up to the bound that the search does not write \
                 (the mutant's choices are ones the original's constraints forbid, or only the \
                 mutant's run is blocked)",
            );
        } else if found == KillClass::Controlled {
            s.push_str(&format!(", no potential test {}", upto(self.potential_to)));
        }
        s
    }
}

/// Searches test lengths `depths` for a test stronger than class `found` (`docs/method.md`
/// §4.7): a definite test (∃ inputs ∀ nd values of both copies: the copies never answer
/// alike), else, when `found` is controlled, a potential one (∃ inputs and mutant nd values ∀
/// original nd values). The first length with a definite test wins; a potential test is taken
/// only if no definite one exists up to the last length searched.
pub(crate) fn strengthen(
    mp: &MutantProduct,
    private: &[bool],
    found: KillClass,
    depths: std::ops::RangeInclusive<usize>,
    deadline: Option<Instant>,
) -> Result<Search> {
    let ag = agreement(&mp.blasted, mp.selector, private)?;
    let q = Queries::new(&ag, private);
    let (definite, potential) = (q.definite(), q.potential());
    let test_of = |w: &Witness, mutant_own_nd: bool, k: usize| q.test_of(mp, w, mutant_own_nd, k);
    let mut out = Search {
        test: None,
        definite_to: None,
        definite_stopped: false,
        potential_to: None,
        unwritten_potential: false,
    };
    let (lo, hi) = (*depths.start(), *depths.end());
    match shortest(&definite, lo, hi, deadline)? {
        Shortest::Found(w, k) => {
            out.test = Some((KillClass::Definite, test_of(&w, false, k)?));
            return Ok(out);
        }
        Shortest::None => out.definite_to = Some(hi),
        Shortest::Stopped(none_to) => {
            out.definite_to = none_to;
            out.definite_stopped = true;
            return Ok(out);
        }
    }
    if found == KillClass::Controlled {
        match shortest(&potential, lo, hi, deadline)? {
            Shortest::Found(w, k) => {
                out.test = Some((KillClass::Potential, test_of(&w, true, k)?));
            }
            // The tied query may miss tests whose mutant choices the original's constraints
            // forbid, or where only the mutant's run is blocked; the claim that no potential
            // test exists is made only when the untied question agrees.
            Shortest::None => match q.potential_claim().solve(hi, deadline) {
                Ok((None, _)) => out.potential_to = Some(hi),
                Ok((Some(_), _)) => out.unwritten_potential = true,
                Err(BmcError::Interrupted) => {}
                Err(e) => return Err(e.into()),
            },
            // The tied query alone does not support a claim (see above).
            Shortest::Stopped(_) => {}
        }
    }
    Ok(out)
}

/// The two ∃∀ questions on one agreement circuit: which inputs the adversary chooses and
/// which constraints the companion run keeps.
struct Queries<'a> {
    ag: &'a Agreement,
    /// Definite: the nd inputs of both copies are universal.
    both: Vec<bool>,
    /// Potential: only the original's nd inputs are universal.
    original: Vec<bool>,
    /// Per constraint of the circuit: whether it is the original copy's.
    original_constraints: Vec<bool>,
    /// Per constraint: the original copy's, and the mutant copy's type domains (the codes an
    /// nd input may take, `docs/method.md` §6.4), but not its INIT/INVAR/TRANS constraints.
    claim_constraints: Vec<bool>,
    all_constraints: Vec<bool>,
    /// Potential: the companion's original nd inputs take the mutant's values.
    ties: Vec<Option<usize>>,
}

/// A searched test and the original's run it comes from (input values per frame).
pub(crate) type Found = (Test, Vec<Vec<Option<bool>>>);

impl<'a> Queries<'a> {
    fn new(ag: &'a Agreement, private: &[bool]) -> Queries<'a> {
        let n = ag.aig.inputs.len();
        let (mut both, mut original, mut ties) = (vec![false; n], vec![false; n], vec![None; n]);
        for (i, (a, b)) in ag.inputs.iter().enumerate() {
            if private.get(i).copied().unwrap_or(false) {
                both[*a] = true;
                both[*b] = true;
                original[*a] = true;
                ties[*a] = Some(*b);
            }
        }
        let c = &ag.aig.constraints;
        Queries {
            ag,
            both,
            original,
            original_constraints: c.iter().map(|c| c.name.starts_with("A.")).collect(),
            claim_constraints: c
                .iter()
                .map(|c| c.name.starts_with("A.") || c.name.starts_with("B.domain "))
                .collect(),
            all_constraints: vec![true; c.len()],
            ties,
        }
    }

    /// ∃ inputs ∀ nd values of both copies: no pair of runs answers alike; the companion is
    /// a run of the original.
    fn definite(&self) -> ExistsForall<'_> {
        ExistsForall {
            aig: &self.ag.aig,
            universal: &self.both,
            companion: &self.original_constraints,
            companion_ties: &[],
            tied_refutation: false,
        }
    }

    /// The question whose "none" proves that no potential test exists: like
    /// [`Queries::potential`], but the original's nd values are the adversary's alone and the
    /// companion needs only a run of the original and mutant nd values of the right types (a
    /// mutant run its INIT/INVAR/TRANS constraints block counts as a different behaviour,
    /// `docs/method.md` §5.3).
    fn potential_claim(&self) -> ExistsForall<'_> {
        ExistsForall {
            aig: &self.ag.aig,
            universal: &self.original,
            companion: &self.claim_constraints,
            companion_ties: &[],
            tied_refutation: false,
        }
    }

    /// ∃ inputs and mutant nd values ∀ original nd values: no original run answers like the
    /// mutant's. The companion's original run takes the mutant's nd values, so that the
    /// test's nd values make both sides' runs (`docs/method.md` §4.7).
    fn potential(&self) -> ExistsForall<'_> {
        ExistsForall {
            aig: &self.ag.aig,
            universal: &self.original,
            companion: &self.all_constraints,
            companion_ties: &self.ties,
            tied_refutation: true,
        }
    }

    /// The test of `k + 1` steps in the companion run `w`: the original's side gives the
    /// inputs and expected outputs; the mutant's side reads its own nd values
    /// (`mutant_own_nd`) or the original's.
    fn test_of(
        &self,
        mp: &MutantProduct,
        w: &Witness,
        mutant_own_nd: bool,
        k: usize,
    ) -> Result<Found> {
        let side = |pick_b: bool| Witness {
            properties: Vec::new(),
            init: Vec::new(),
            inputs: w
                .inputs
                .iter()
                .map(|f| {
                    self.ag
                        .inputs
                        .iter()
                        .map(|(a, b)| f[if pick_b { *b } else { *a }])
                        .collect()
                })
                .collect(),
        };
        let (o, m) = (side(false), side(mutant_own_nd));
        let t = test_from_runs(&mp.conditional, &mp.nd, &mp.blasted, &o, &m, k).map_err(|e| {
            Error::from(e).context("the searched test does not replay on the word-level model")
        })?;
        Ok((t, o.inputs))
    }
}

/// What [`shortest`] found: a solution `W` (the companion run) and its depth.
#[derive(Debug, PartialEq, Eq)]
enum Shortest<W = Witness> {
    /// A solution at this depth, the least one that has a solution.
    Found(W, usize),
    /// No solution at the largest depth, hence at none (see [`least_depth`]).
    None,
    /// The deadline came before the largest depth was decided; no solution exists up to
    /// this depth, if the search decided one before.
    Stopped(Option<usize>),
}

/// The least depth in `lo..=hi` at which `query` has a solution ([`least_depth`]).
fn shortest(
    query: &ExistsForall<'_>,
    lo: usize,
    hi: usize,
    deadline: Option<Instant>,
) -> Result<Shortest> {
    least_depth(lo, hi, |depth| match query.solve(depth, deadline) {
        Ok((found, _)) => Ok(Some(found)),
        Err(BmcError::Interrupted) => Ok(None),
        Err(e) => Err(Error::from(e)),
    })
}

/// The least depth in `lo..=hi` at which `solve` finds a solution (`Some(Some(w))`; `Some(None)`:
/// none at that depth; `None`: the time is up). A test that kills (definitely or potentially)
/// with k + 1 steps still kills when a step is appended, so solutions are monotone in the
/// depth (`docs/method.md` §4.7): the depths `lo`, `lo + 2`, `lo + 6`, `lo + 14`, … (gaps
/// doubling, up to `hi`) are asked in turn, cheap short unrollings first, and the least
/// solution is found by bisection below the first depth that has one, keeping the best
/// solution found when time runs out.
fn least_depth<W>(
    lo: usize,
    hi: usize,
    mut solve: impl FnMut(usize) -> Result<Option<Option<W>>>,
) -> Result<Shortest<W>> {
    // Galloping: `a` is the least depth not yet known to have no solution.
    let (mut a, mut step) = (lo, 1usize);
    let (mut best, mut b) = loop {
        let depth = a.saturating_add(step - 1).min(hi);
        match solve(depth)? {
            None => return Ok(Shortest::Stopped((a > lo).then(|| a - 1))),
            Some(Some(w)) => break ((w, depth), depth),
            Some(None) if depth >= hi => return Ok(Shortest::None),
            Some(None) => {
                a = depth + 1;
                step = step.saturating_mul(2);
            }
        }
    };
    while a < b {
        let mid = a + (b - a) / 2;
        match solve(mid)? {
            Some(Some(w)) => {
                best = (w, mid);
                b = mid;
            }
            Some(None) => a = mid + 1,
            None => break,
        }
    }
    Ok(Shortest::Found(best.0, best.1))
}

/// What a search at one depth found ([`search_at`]).
#[derive(Clone, Debug)]
pub struct SearchAt {
    /// The test, if one of this class exists with `depth + 1` steps.
    pub test: Option<Test>,
    /// Refutations the ∃∀ loop needed.
    pub refutations: usize,
}

/// Whether a test of class `class` (definite or potential) with exactly `depth + 1` steps
/// kills the mutant of `mp` (`docs/method.md` §4.7); `private` marks the inputs of
/// `mp.blasted.aig` that are nondeterminism. The one-depth question that [`strengthen`]
/// asks repeatedly; used by `hypermut search` and the benchmarks.
pub fn search_at(
    mp: &MutantProduct,
    private: &[bool],
    class: KillClass,
    depth: usize,
    deadline: Option<Instant>,
) -> Result<SearchAt> {
    let ag = agreement(&mp.blasted, mp.selector, private)?;
    let q = Queries::new(&ag, private);
    let query = match class {
        KillClass::Definite => q.definite(),
        _ => q.potential(),
    };
    let (found, stats) = query.solve(depth, deadline)?;
    let test = match found {
        Some(w) => Some(q.test_of(mp, &w, class != KillClass::Definite, depth)?.0),
        None => None,
    };
    Ok(SearchAt {
        test,
        refutations: stats.refutations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::allowed::nondeterministic_inputs;
    use crate::{all_mutants, FrontendOptions, Model};
    use hypermut_prove::bmc::Bmc;
    use hypermut_prove::{Engine, Verdict};

    /// The three-valued shortcut calls a test definite only when the SAT checks on the
    /// agreement circuit do, and it does call some tests definite: every mutant of bundled
    /// models with nondeterminism whose product has a counterexample up to frame 8.
    #[test]
    fn the_three_valued_shortcut_finds_only_definite_kills() {
        let (mut shortcut, mut definite, mut kills) = (0, 0, 0);
        for rel in [
            "models/smv/beverage.smv",
            "models/smv/mutex.smv",
            "models/smv/car_alarm_timed.smv",
            "models/verilog/uart_tx.v",
        ] {
            let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../..")
                .join(rel);
            let model = Model::load(&[path], &FrontendOptions::default())
                .expect("loads")
                .0;
            for m in all_mutants(&model.system) {
                let Ok(mp) = MutantProduct::build(&model.system, &m) else {
                    continue;
                };
                let private = nondeterministic_inputs(&mp, false);
                if !private.contains(&true) {
                    continue;
                }
                let mut bmc = Bmc {
                    max_bound: 8,
                    time_limit: None,
                };
                let Verdict::Unsafe(w) = bmc.check(&mp.product.aig) else {
                    continue;
                };
                kills += 1;
                let by_sat = classify_by_sat(&mp, &private, &w, w.depth(), None).expect("checks");
                definite += usize::from(by_sat == KillClass::Definite);
                if definite_at_once(&mp, &private, &w, w.depth()) {
                    shortcut += 1;
                    assert_eq!(by_sat, KillClass::Definite, "{rel} mutant {}", m.id);
                }
            }
        }
        assert!(
            shortcut > 0,
            "{kills} kills, {definite} definite, none by the shortcut"
        );
        assert!(definite > shortcut / 2, "{definite} definite");
        eprintln!("{kills} kills: {definite} definite, {shortcut} of them by the shortcut");
    }

    /// Every threshold `t` (solutions exactly at depths ≥ t) in and around `lo..=hi`: the
    /// least depth is `max(t, lo)` when `t ≤ hi`, else none; no depth outside `lo..=hi` is
    /// asked, none twice, and at most about 2·log2(hi − lo) + 2 are asked.
    #[test]
    fn least_depth_finds_the_threshold_of_a_monotone_question() {
        for (lo, hi) in [(0usize, 0usize), (0, 20), (5, 20), (7, 8), (3, 300)] {
            for t in lo.saturating_sub(2)..=hi + 2 {
                let mut asked = Vec::new();
                let got = least_depth(lo, hi, |d| {
                    asked.push(d);
                    Ok(Some((d >= t).then_some(d)))
                })
                .expect("no error");
                let want = if t <= hi {
                    Shortest::Found(t.max(lo), t.max(lo))
                } else {
                    Shortest::None
                };
                assert_eq!(got, want, "lo {lo} hi {hi} t {t}");
                assert!(asked.iter().all(|d| (lo..=hi).contains(d)), "{asked:?}");
                let mut unique = asked.clone();
                unique.sort_unstable();
                unique.dedup();
                assert_eq!(unique.len(), asked.len(), "asked twice: {asked:?}");
                let bound = 2 * (usize::BITS - (hi - lo + 1).leading_zeros()) as usize + 2;
                assert!(asked.len() <= bound, "{} > {bound}: {asked:?}", asked.len());
            }
        }
    }

    /// When the time runs out, the best solution so far is kept, or the search says so.
    #[test]
    fn least_depth_keeps_its_best_solution_when_the_time_is_up() {
        // Solutions from depth 3 on; the time is up after the third question.
        let mut asked = 0;
        let got = least_depth(0, 20, |d| {
            asked += 1;
            Ok((asked <= 3).then_some((d >= 3).then_some(d)))
        })
        .expect("no error");
        // Asked 0 (none), 2 (none), 6 (found), then the time is up within the bisection.
        assert_eq!(got, Shortest::Found(6, 6));
        let got = least_depth(0, 20, |_| Ok(None::<Option<usize>>)).expect("no error");
        assert_eq!(got, Shortest::Stopped(None));
        // No solution at 0, 2 and 6 (so none up to 6), then the time is up at 14.
        let mut asked = Vec::new();
        let got = least_depth(0, 20, |d| {
            asked.push(d);
            Ok((asked.len() <= 3).then_some((d >= 10).then_some(d)))
        })
        .expect("no error");
        assert_eq!(asked, [0, 2, 6, 14]);
        assert_eq!(got, Shortest::Stopped(Some(6)));
        // From a lower end above 0, the first question already decides that lower end.
        let mut asked = 0;
        let got = least_depth(4, 20, |_| {
            asked += 1;
            Ok((asked <= 1).then_some(None::<usize>))
        })
        .expect("no error");
        assert_eq!(got, Shortest::Stopped(Some(4)));
    }
}
