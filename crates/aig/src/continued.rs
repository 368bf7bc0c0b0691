//! Runs continued past the end of given input sequences (`docs/method.md` §7.8, "continued
//! tests"). A test that kills one mutant of a site often drives the design into the mode a
//! deeper mutant of the same site needs (a clock divider configured and a transfer started)
//! and then stops, because its own kill came early. Continuing it with quiet inputs lets the
//! deeper mutant's difference come out: the counter runs down from its longer reload value
//! while nothing disturbs it.

use crate::graph::{Aig, Lit, Reset};
use crate::witness::Witness;
use crate::wordsim::{
    constraints_word, eval_words, lit_word, next_words, Stimulus, WordRng, SPARSE,
};

/// How the sequences are continued, one round each: how many of a sequence's last frames
/// are dropped (a kill's last frame has whatever inputs its solver chose, a reset among
/// them), and the stimulus over the held inputs of the new last frame (`None`: held
/// exactly).
pub const CONTINUATIONS: [(usize, Option<Stimulus>); 4] = [
    (1, None),
    (0, None),
    (1, Some(SPARSE[0])),
    (2, Some(SPARSE[2])),
];

/// A counterexample to `aig`'s first bad property from one of `prefixes` (input sequences
/// of `aig` from its initial states, with power-up values: witnesses of other problems over
/// the same inputs and latches) continued past its end, in the rounds of [`CONTINUATIONS`]:
/// the sequence's own frames, then its last kept input values held, each run at most
/// `max_frames` frames with every constraint held. The shortest hit of all rounds (the
/// first found on ties), deterministic in `seed`; `None` without one.
pub fn continued_witness(
    aig: &Aig,
    prefixes: &[Witness],
    max_frames: usize,
    seed: u64,
) -> Option<Witness> {
    let bad = aig.bad.first()?.lit;
    let mut rng = WordRng::new(seed);
    let mut best: Option<Witness> = None;
    for (drop, stimulus) in CONTINUATIONS {
        for batch in prefixes.chunks(64) {
            let limit = best.as_ref().map_or(max_frames, |w| w.depth());
            let round = Round {
                aig,
                batch,
                drop,
                stimulus,
            };
            if let Some(w) = round.shortest_hit(bad, limit, &mut rng) {
                best = Some(w);
            }
        }
    }
    best
}

/// One batch of up to 64 sequences, continued one way.
struct Round<'a> {
    aig: &'a Aig,
    batch: &'a [Witness],
    /// Last frames of each sequence left out before its continuation.
    drop: usize,
    /// The stimulus over the held inputs (`None`: held exactly).
    stimulus: Option<Stimulus>,
}

impl Round<'_> {
    /// How many of sequence `w`'s frames are run before its continuation (at least 1).
    fn own_frames(&self, w: &Witness) -> usize {
        w.inputs.len().saturating_sub(self.drop).max(1)
    }

    /// The word whose bit `j` is `get` of sequence `j` of the batch.
    fn word(&self, get: impl Fn(&Witness) -> bool) -> u64 {
        self.batch
            .iter()
            .enumerate()
            .filter(|(_, w)| get(w))
            .fold(0, |acc, (j, _)| acc | 1 << j)
    }

    /// The first run of the batch that reaches `bad` before frame `limit` with every
    /// constraint held until then, as a witness of the circuit.
    fn shortest_hit(&self, bad: Lit, limit: usize, rng: &mut WordRng) -> Option<Witness> {
        let aig = self.aig;
        let given = |w: &Witness, k: usize, i: usize| {
            w.inputs
                .get(k)
                .and_then(|f| f.get(i))
                .copied()
                .flatten()
                .unwrap_or(false)
        };
        let init: Vec<u64> = aig
            .latches
            .iter()
            .enumerate()
            .map(|(l, latch)| match latch.reset {
                Reset::Zero => 0,
                Reset::One => u64::MAX,
                Reset::Free => self.word(|w| w.init.get(l).copied().flatten() == Some(true)),
            })
            .collect();
        let mut latches = init.clone();
        let mut held = vec![0u64; aig.inputs.len()];
        let mut frames: Vec<Vec<u64>> = Vec::new();
        let mut ok = self.word(|_| true);
        for k in 0..limit {
            // Runs still in their sequence take its inputs, which become the held values.
            let own = self.word(|w| k < self.own_frames(w));
            let mut inputs = Vec::with_capacity(held.len());
            for (i, h) in held.iter_mut().enumerate() {
                if let Some(d) = self.stimulus.and_then(|s| s.drift) {
                    *h ^= rng.rare_word(d) & !own;
                }
                *h = (self.word(|w| given(w, k, i)) & own) | (*h & !own);
                let pulse = self.stimulus.map_or(0, |s| rng.rare_word(s.pulse));
                inputs.push(*h ^ (pulse & !own));
            }
            let values = eval_words(aig, &inputs, &latches);
            frames.push(inputs);
            ok &= constraints_word(aig, &values);
            let hit = ok & lit_word(&values, bad);
            if hit != 0 {
                let bit = hit.trailing_zeros();
                let at = |w: &u64| Some(w >> bit & 1 == 1);
                return Some(Witness {
                    properties: vec!["b0".into()],
                    init: init.iter().map(at).collect(),
                    inputs: frames.iter().map(|f| f.iter().map(at).collect()).collect(),
                });
            }
            if ok == 0 {
                return None;
            }
            latches = next_words(aig, &values);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Named;
    use crate::sim::check_witness;

    /// A counter that a pulse on `go` starts and `clr` clears; bad once it reaches 300.
    /// Latch `f` has no reset and must power up 1 for bad to count.
    fn started_counter() -> Aig {
        let mut g = Aig::new();
        let go = g.add_input("go");
        let clr = g.add_input("clr");
        let run = g.add_latch("run", Reset::Zero);
        let f = g.add_latch("f", Reset::Free);
        g.set_next(f, f);
        let bits: Vec<Lit> = (0..9)
            .map(|i| g.add_latch(format!("c{i}"), Reset::Zero))
            .collect();
        let started = g.or(run, go);
        let next_run = g.and(started, !clr);
        g.set_next(run, next_run);
        let mut carry = run;
        for &b in &bits {
            let sum = g.xor(b, carry);
            carry = g.and(b, carry);
            let next = g.and(sum, !clr);
            g.set_next(b, next);
        }
        // 300 = 0b100101100.
        let mut at = f;
        for (i, &b) in bits.iter().enumerate() {
            let lit = if 300 >> i & 1 == 1 { b } else { !b };
            at = g.and(at, lit);
        }
        g.bad.push(Named {
            lit: at,
            name: "b".into(),
        });
        g
    }

    /// A random circuit: 3 inputs, 6 latches (reset 0, 1 or free), 30 gates over earlier
    /// signals, next states and bad (a conjunction of two signals) among them, and in one
    /// circuit of three a constraint.
    fn random_circuit(rng: &mut WordRng) -> Aig {
        let mut g = Aig::new();
        let pick = |rng: &mut WordRng, n: usize| (rng.next_word() % n as u64) as usize;
        let mut signals: Vec<Lit> = (0..3).map(|i| g.add_input(format!("i{i}"))).collect();
        let resets = [Reset::Zero, Reset::One, Reset::Free];
        let latches: Vec<Lit> = (0..6)
            .map(|i| g.add_latch(format!("l{i}"), resets[pick(rng, 3)]))
            .collect();
        signals.extend(&latches);
        for _ in 0..30 {
            let a = signals[pick(rng, signals.len())].xor(rng.next_word() & 1 == 1);
            let b = signals[pick(rng, signals.len())].xor(rng.next_word() & 1 == 1);
            let gate = if rng.next_word() & 1 == 1 {
                g.and(a, b)
            } else {
                g.xor(a, b)
            };
            signals.push(gate);
        }
        for &l in &latches {
            let next = signals[pick(rng, signals.len())];
            g.set_next(l, next);
        }
        let a = signals[pick(rng, signals.len())];
        let b = signals[pick(rng, signals.len())];
        let bad = g.and(a, b);
        g.bad.push(Named {
            lit: bad,
            name: "b".into(),
        });
        if pick(rng, 3) == 0 {
            let c = signals[pick(rng, signals.len())].xor(true);
            let c = g.or(c, signals[pick(rng, 3)]);
            g.constraints.push(Named {
                lit: c,
                name: "c".into(),
            });
        }
        g
    }

    fn frame(go: bool, clr: bool) -> Vec<Option<bool>> {
        vec![Some(go), Some(clr)]
    }

    /// A sequence that starts the counter and clears it in its last frame (the kill of some
    /// other problem, whose last inputs are whatever its solver chose) does not reach bad as
    /// it is; continued with the inputs before its last frame held, it does, 300 frames after
    /// the start: the witness passes the separate scalar check, keeps the sequence's frames
    /// and power-up value, and is the shortest continuation. With fewer frames, with `f`
    /// powering up 0, or with no sequence there is none.
    #[test]
    fn a_sequence_continued_past_its_end_reaches_a_deep_bad_state() {
        let g = started_counter();
        let f = g.latches.iter().position(|l| l.name == "f").expect("f");
        let init: Vec<Option<bool>> = (0..g.latches.len()).map(|l| Some(l == f)).collect();
        let prefix = Witness {
            properties: vec!["b".into()],
            init: init.clone(),
            inputs: vec![frame(false, false), frame(true, false), frame(false, true)],
        };
        // Another sequence first, so that the hit is not in bit 0 of its batch.
        let idle = Witness {
            inputs: vec![frame(false, false); 4],
            ..prefix.clone()
        };
        let both = [idle, prefix.clone()];
        let w = continued_witness(&g, &both, 1000, 1).expect("counts to 300");
        assert_eq!(check_witness(&g, &w), Ok(w.depth()));
        // Started in frame 1, counting from frame 2: the counter shows 300 in frame 302.
        assert_eq!(w.depth(), 302);
        assert_eq!(w.inputs[..2], prefix.inputs[..2]);
        assert!(w.inputs[2..].iter().all(|i| i == &frame(true, false)));
        assert_eq!(w.init[f], Some(true));
        assert_eq!(continued_witness(&g, &both, 302, 1), None);
        assert_eq!(continued_witness(&g, &[], 1000, 1), None);
        let zero = Witness {
            init: vec![Some(false); g.latches.len()],
            ..prefix
        };
        assert_eq!(continued_witness(&g, &[zero], 1000, 1), None);
    }

    /// Every hit found on random circuits is a witness of the circuit by the separate scalar
    /// simulator, starts with its prefix's kept frames, and no shorter continuation of the
    /// exactly held kind exists (checked by scalar simulation of each prefix held exactly).
    #[test]
    fn hits_on_random_circuits_replay_and_are_shortest_when_held_exactly() {
        use crate::sim::simulate;
        let mut rng = WordRng::new(42);
        let mut found = 0;
        for case in 0..60u64 {
            let g = random_circuit(&mut rng);
            let prefixes: Vec<Witness> = (0..5)
                .map(|_| {
                    let len = 1 + (rng.next_word() % 4) as usize;
                    Witness {
                        properties: vec!["b".into()],
                        init: (0..g.latches.len())
                            .map(|_| Some(rng.next_word() & 1 == 1))
                            .collect(),
                        inputs: (0..len)
                            .map(|_| {
                                (0..g.inputs.len())
                                    .map(|_| Some(rng.next_word() & 1 == 1))
                                    .collect()
                            })
                            .collect(),
                    }
                })
                .collect();
            let Some(w) = continued_witness(&g, &prefixes, 40, case) else {
                continue;
            };
            found += 1;
            assert_eq!(check_witness(&g, &w), Ok(w.depth()), "case {case}");
            // The shortest of the exactly held rounds, computed one prefix at a time.
            let held_depth = |p: &Witness, drop: usize| {
                let own = p.inputs.len().saturating_sub(drop).max(1);
                let mut inputs = p.inputs[..own].to_vec();
                let last = inputs[own - 1].clone();
                inputs.resize(40, last);
                let trace = simulate(&g, &p.init, &inputs);
                trace
                    .frames
                    .iter()
                    .take_while(|f| f.constraints.iter().all(|c| *c))
                    .position(|f| f.bad.first() == Some(&true))
            };
            let shortest_held = prefixes
                .iter()
                .flat_map(|p| [held_depth(p, 1), held_depth(p, 0)])
                .flatten()
                .min();
            if let Some(d) = shortest_held {
                assert!(w.depth() <= d, "case {case}: {} > {d}", w.depth());
            }
        }
        assert!(found > 5, "only {found} circuits had a hit");
    }
}
