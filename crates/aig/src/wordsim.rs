//! Bit-parallel simulation: 64 runs of an AIG at once, run `j` in bit `j` of a `u64` word per
//! variable (`docs/method.md` §7.6). Used to find candidate equalities before they are proved
//! and to replay many tests on many circuits cheaply.

use crate::graph::{Aig, Lit, Node, Reset};
use crate::witness::Witness;

/// The value word of `lit` given the value words of all variables.
pub fn lit_word(values: &[u64], lit: Lit) -> u64 {
    let w = values.get(lit.var() as usize).copied().unwrap_or(0);
    if lit.is_neg() {
        !w
    } else {
        w
    }
}

/// The value words of every variable of `aig` (indexed by variable) for the given input and
/// latch words (indexed like `aig.inputs` and `aig.latches`; missing words are 0).
pub fn eval_words(aig: &Aig, inputs: &[u64], latches: &[u64]) -> Vec<u64> {
    let mut values = vec![0u64; aig.nodes().len()];
    for (v, node) in aig.nodes().iter().enumerate() {
        values[v] = match *node {
            Node::Const => 0,
            Node::Input(i) => inputs.get(i as usize).copied().unwrap_or(0),
            Node::Latch(i) => latches.get(i as usize).copied().unwrap_or(0),
            Node::And(a, b) => lit_word(&values, a) & lit_word(&values, b),
        };
    }
    values
}

/// The latch words of the initial states: reset values, and for latches without one the
/// words `free` gives (called once per such latch, in latch order).
pub fn initial_words(aig: &Aig, mut free: impl FnMut() -> u64) -> Vec<u64> {
    aig.latches
        .iter()
        .map(|l| match l.reset {
            Reset::Zero => 0,
            Reset::One => u64::MAX,
            Reset::Free => free(),
        })
        .collect()
}

/// The latch words of the next states, from the value words of the current step.
pub fn next_words(aig: &Aig, values: &[u64]) -> Vec<u64> {
    aig.latches
        .iter()
        .map(|l| lit_word(values, l.next))
        .collect()
}

/// The bits (runs) in which every constraint of `aig` holds, given the value words of a step.
pub fn constraints_word(aig: &Aig, values: &[u64]) -> u64 {
    aig.constraints
        .iter()
        .fold(u64::MAX, |acc, c| acc & lit_word(values, c.lit))
}

/// A small, fast pseudo-random generator of simulation words (xorshift64*), seeded so that
/// runs are reproducible.
#[derive(Clone, Debug)]
pub struct WordRng(u64);

impl WordRng {
    /// A generator with the given seed (0 is replaced by a fixed non-zero seed).
    pub fn new(seed: u64) -> WordRng {
        WordRng(if seed == 0 {
            0x9e37_79b9_7f4a_7c15
        } else {
            seed
        })
    }

    /// The next word.
    pub fn next_word(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A word whose bits are each 1 with probability 2^-`k` (all ones for `k` = 0).
    pub fn rare_word(&mut self, k: u32) -> u64 {
        (0..k).fold(u64::MAX, |w, _| w & self.next_word())
    }
}

/// How the inputs of random runs change from frame to frame (`docs/method.md` §7.8). Each
/// input bit of a run is a held value that flips with probability 2^-`drift` per frame,
/// seen through pulses of one frame with probability 2^-`pulse`: uniform random inputs are
/// pulses of probability 1/2 ([`DENSE`]); rare pulses over values held for long stretches
/// ([`SPARSE`]) reach states that need long quiet stretches, as the counters of timers and
/// games do, which uniform inputs keep disturbing (a reset asserted every other frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stimulus {
    /// A pulse (one frame with the held value flipped) has probability 2^-`pulse`.
    pub pulse: u32,
    /// The held value flips with probability 2^-`drift` per frame (never with `None`).
    pub drift: Option<u32>,
}

/// Uniform random inputs: every bit of every frame is a fair coin.
pub const DENSE: Stimulus = Stimulus {
    pulse: 1,
    drift: None,
};

/// Sparse stimuli, one per round of [`sparse_witness`]: from very quiet inputs (a pulse
/// every 256 frames, held values changing every 4,096) to livelier ones.
pub const SPARSE: [Stimulus; 4] = [
    Stimulus {
        pulse: 8,
        drift: Some(12),
    },
    Stimulus {
        pulse: 5,
        drift: Some(8),
    },
    Stimulus {
        pulse: 6,
        drift: Some(10),
    },
    Stimulus {
        pulse: 4,
        drift: Some(8),
    },
];

impl Stimulus {
    /// The input words of one frame, from the held words `held` (one per input, updated;
    /// start from random words).
    pub fn frame(&self, held: &mut [u64], rng: &mut WordRng) -> Vec<u64> {
        held.iter_mut()
            .map(|h| {
                if let Some(d) = self.drift {
                    *h ^= rng.rare_word(d);
                }
                *h ^ rng.rare_word(self.pulse)
            })
            .collect()
    }
}

/// A counterexample to `aig`'s first bad property found by random simulation: `rounds`
/// rounds of 64 runs at once, each at most `max_frames` frames deep, from the initial states
/// (random power-up values for latches without a reset value) under random inputs
/// (deterministic in `seed`). The witness is the shortest hit, cut at the first frame where
/// bad holds with every constraint true in every frame so far; a later round only looks
/// for a shorter one. `None` when no run hits bad.
pub fn random_witness(aig: &Aig, max_frames: usize, rounds: usize, seed: u64) -> Option<Witness> {
    let bad = aig.bad.first()?.lit;
    random_witness_of(aig, bad, "b0", max_frames, rounds, seed)
}

/// [`random_witness`] with one round per stimulus of [`SPARSE`]: runs of quiet inputs, for
/// kills deep behind counters.
pub fn sparse_witness(aig: &Aig, max_frames: usize, seed: u64) -> Option<Witness> {
    let bad = aig.bad.first()?.lit;
    witness_under(aig, bad, "b0", max_frames, &SPARSE, seed)
}

/// [`random_witness`] for any literal `bad` of `aig`, the witness naming property `name`.
pub fn random_witness_of(
    aig: &Aig,
    bad: Lit,
    name: &str,
    max_frames: usize,
    rounds: usize,
    seed: u64,
) -> Option<Witness> {
    witness_under(aig, bad, name, max_frames, &vec![DENSE; rounds], seed)
}

/// The shortest hit of `bad` in one round of 64 runs per stimulus of `stimuli`.
fn witness_under(
    aig: &Aig,
    bad: Lit,
    name: &str,
    max_frames: usize,
    stimuli: &[Stimulus],
    seed: u64,
) -> Option<Witness> {
    let mut rng = WordRng::new(seed);
    let mut best: Option<Witness> = None;
    for stimulus in stimuli {
        let limit = best.as_ref().map_or(max_frames, |w| w.depth());
        let init = initial_words(aig, || rng.next_word());
        let mut latches = init.clone();
        let mut held: Vec<u64> = aig.inputs.iter().map(|_| rng.next_word()).collect();
        let mut frames: Vec<Vec<u64>> = Vec::new();
        let mut valid = u64::MAX;
        for _ in 0..limit {
            let inputs = stimulus.frame(&mut held, &mut rng);
            let values = eval_words(aig, &inputs, &latches);
            frames.push(inputs);
            valid &= constraints_word(aig, &values);
            let hit = valid & lit_word(&values, bad);
            if hit != 0 {
                let bit = hit.trailing_zeros();
                let at = |w: u64| Some(w >> bit & 1 == 1);
                best = Some(Witness {
                    properties: vec![name.into()],
                    init: init.iter().map(|w| at(*w)).collect(),
                    inputs: frames
                        .iter()
                        .map(|f| f.iter().map(|w| at(*w)).collect())
                        .collect(),
                });
                break;
            }
            if valid == 0 {
                break;
            }
            latches = next_words(aig, &values);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::simulate;

    /// A 2-bit counter enabled by an input, with an output `c1 & c0` and a free latch `f`
    /// that keeps its value.
    fn counter() -> Aig {
        let mut g = Aig::new();
        let en = g.add_input("en");
        let c0 = g.add_latch("c0", Reset::Zero);
        let c1 = g.add_latch("c1", Reset::One);
        let f = g.add_latch("f", Reset::Free);
        let n0 = g.xor(c0, en);
        let carry = g.and(c0, en);
        let n1 = g.xor(c1, carry);
        g.set_next(c0, n0);
        g.set_next(c1, n1);
        g.set_next(f, f);
        let both = g.and(c0, c1);
        let out = g.and(both, f);
        g.outputs.push(crate::graph::Named {
            lit: out,
            name: "o".into(),
        });
        g
    }

    /// Every bit of the parallel simulation agrees with the scalar simulator of `sim`.
    #[test]
    fn each_bit_is_one_scalar_run() {
        let g = counter();
        let mut rng = WordRng::new(7);
        let steps = 6;
        let input_words: Vec<u64> = (0..steps).map(|_| rng.next_word()).collect();
        let free = rng.next_word();
        let mut latches = initial_words(&g, || free);
        let mut outputs = Vec::new();
        for w in &input_words {
            let values = eval_words(&g, &[*w], &latches);
            outputs.push(lit_word(&values, g.outputs[0].lit));
            latches = next_words(&g, &values);
        }
        for bit in [0, 1, 17, 63] {
            let init = vec![None, None, Some(free >> bit & 1 == 1)];
            let inputs: Vec<Vec<Option<bool>>> = input_words
                .iter()
                .map(|w| vec![Some(w >> bit & 1 == 1)])
                .collect();
            let trace = simulate(&g, &init, &inputs);
            for (k, frame) in trace.frames.iter().enumerate() {
                assert_eq!(
                    frame.outputs[0],
                    outputs[k] >> bit & 1 == 1,
                    "bit {bit} step {k}"
                );
            }
        }
    }

    #[test]
    fn constraints_mask_the_runs_that_violate_them() {
        let mut g = Aig::new();
        let a = g.add_input("a");
        g.constraints.push(crate::graph::Named {
            lit: a,
            name: "c".into(),
        });
        let values = eval_words(&g, &[0b1010], &[]);
        assert_eq!(constraints_word(&g, &values), 0b1010);
    }

    /// A found witness passes the separate witness check and is as short as possible (bad =
    /// both counter bits set; the high bit resets to 1, so frame 1 is the earliest);
    /// constraints that rule bad out leave nothing to find.
    #[test]
    fn random_witnesses_are_checked_and_shortest() {
        let mut g = counter();
        let (c0, c1) = (g.latches[0].lit, g.latches[1].lit);
        let both = g.and(c0, c1);
        g.bad.push(crate::graph::Named {
            lit: both,
            name: "b".into(),
        });
        let w = random_witness(&g, 10, 4, 3).expect("the counter reaches 3");
        assert_eq!(crate::sim::check_witness(&g, &w), Ok(w.depth()));
        assert_eq!(w.depth(), 1);
        let mut ruled_out = g.clone();
        ruled_out.constraints.push(crate::graph::Named {
            lit: !both,
            name: "never".into(),
        });
        assert_eq!(random_witness(&ruled_out, 10, 4, 3), None);
    }

    /// A 9-bit counter cleared by input `clr` whenever it is 1: reaching 300 needs 300 quiet
    /// frames, which uniform inputs never give and sparse ones do; the witness replays.
    #[test]
    fn sparse_stimuli_reach_what_uniform_inputs_keep_disturbing() {
        let mut g = Aig::new();
        let clr = g.add_input("clr");
        let bits: Vec<Lit> = (0..9)
            .map(|i| g.add_latch(format!("c{i}"), Reset::Zero))
            .collect();
        let mut carry = Lit::TRUE;
        for b in &bits {
            let sum = g.xor(*b, carry);
            carry = g.and(*b, carry);
            let next = g.and(sum, !clr);
            g.set_next(*b, next);
        }
        let at_300 = g.and_all(
            bits.iter()
                .enumerate()
                .map(|(i, b)| b.xor(300 >> i & 1 == 0)),
        );
        g.bad.push(crate::graph::Named {
            lit: at_300,
            name: "b".into(),
        });
        assert_eq!(random_witness(&g, 1000, 8, 5), None);
        let w = sparse_witness(&g, 1000, 5).expect("quiet runs count to 300");
        assert_eq!(crate::sim::check_witness(&g, &w), Ok(w.depth()));
        assert!(w.depth() >= 300, "{}", w.depth());
    }
}
