//! Candidate classes of signal correspondence (`docs/method.md` §7.6): the signals, their
//! phases, the classes believed equal, and how counterexample states split them.

use hypermut_aig::Lit;

/// The candidates: signals with their simulated value in the first run's first step
/// (their *phase*); values are compared phase-normalised (value xor phase), so that
/// complementary functions share a class.
pub(super) struct Candidates {
    /// AIG variables.
    pub(super) vars: Vec<u32>,
    /// Per candidate: its phase.
    pub(super) phase: Vec<bool>,
}

impl Candidates {
    /// The positive literal of candidate `i`.
    pub(super) fn lit(&self, i: usize) -> Lit {
        Lit::var_lit(self.vars[i])
    }
}

/// One class of candidates (indices into [`Candidates`]): members believed to have equal
/// phase-normalised values in every reachable state (the first is the representative), or,
/// for a `constant` class, to keep their phases.
#[derive(Clone, Debug)]
pub(super) struct Class {
    /// Indices into [`Candidates`], the representative first.
    pub(super) members: Vec<usize>,
    /// Whether this is the constant class.
    pub(super) constant: bool,
}

/// Splits every class by the candidates' phase-normalised value words (one bit per refuting
/// state): the members whose word equals the representative's (in a constant class: is 0)
/// stay; the others regroup by word into classes of their own (they agreed with the
/// representative before, so the new classes still hold where the old ones did).
pub(super) fn refine(cands: &Candidates, classes: Vec<Class>, words: &[u64]) -> Vec<Class> {
    let normalised = |i: usize| words[i] ^ if cands.phase[i] { u64::MAX } else { 0 };
    let mut out = Vec::new();
    for c in classes {
        let stays = if c.constant {
            0
        } else {
            normalised(c.members[0])
        };
        let mut groups: Vec<(u64, Vec<usize>)> = Vec::new();
        let mut stay = Vec::new();
        for &i in &c.members {
            let w = normalised(i);
            if w == stays {
                stay.push(i);
            } else if let Some(g) = groups.iter_mut().find(|(k, _)| *k == w) {
                g.1.push(i);
            } else {
                groups.push((w, vec![i]));
            }
        }
        if (c.constant && !stay.is_empty()) || stay.len() > 1 {
            out.push(Class {
                members: stay,
                constant: c.constant,
            });
        }
        out.extend(
            groups
                .into_iter()
                .filter(|(_, g)| g.len() > 1)
                .map(|(_, members)| Class {
                    members,
                    constant: false,
                }),
        );
    }
    out
}
