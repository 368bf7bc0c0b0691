//! Pooled tests continued past their end (`docs/method.md` §7.8, "continued tests"). A test
//! that kills one mutant of a site often drives the design into the mode a deeper mutant of
//! the same site needs (a clock divider configured and a transfer started) and then stops,
//! because its own kill came early. Continuing it with quiet inputs lets the deeper mutant's
//! difference come out: the divider's counter runs down from its longer reload value while
//! nothing disturbs it.

use hypermut_aig::wordsim::{
    constraints_word, eval_words, lit_word, next_words, Stimulus, WordRng, SPARSE,
};
use hypermut_aig::{Aig, Reset, Witness};

use super::{word, Mapping, PooledTest, TestPool};

/// Most pooled tests continued (the strongest first, as the pool orders them).
pub const CONTINUED_TESTS: usize = 256;

/// How the tests are continued, one round each: how many of the test's last frames are
/// dropped (a kill's last frame has whatever inputs the solver chose, a reset among them),
/// and the stimulus over the held inputs of the new last frame (`None`: held exactly).
const CONTINUATIONS: [(usize, Option<Stimulus>); 4] = [
    (1, None),
    (0, None),
    (1, Some(SPARSE[0])),
    (2, Some(SPARSE[2])),
];

/// Seed of the continuations' random stimuli.
const SEED: u64 = 0xc0_7e_57;

impl TestPool {
    /// A counterexample of `product` (its first bad property) from a pooled test continued
    /// past its end: the test's frames (without its last one or two) and then its last input
    /// values held, exactly or under a sparse stimulus, each run at most `max_frames` frames
    /// with every constraint held. The shortest hit of all the rounds, or `None`.
    pub fn continued(&self, product: &Aig, max_frames: usize) -> Option<Witness> {
        let bad = product.bad.first()?.lit;
        let (tests, map) = {
            let pool = self.lock();
            let n = pool.tests.len().min(CONTINUED_TESTS);
            (pool.tests[..n].to_vec(), Mapping::new(&pool, product))
        };
        let mut rng = WordRng::new(SEED);
        let mut best: Option<Witness> = None;
        for (drop, stimulus) in CONTINUATIONS {
            for batch in tests.chunks(64) {
                let batch: Vec<&PooledTest> = batch.iter().map(|t| &**t).collect();
                let limit = best.as_ref().map_or(max_frames, |w| w.depth());
                let run = Continued {
                    product,
                    map: &map,
                    batch: &batch,
                    drop,
                    stimulus,
                };
                if let Some(w) = run.shortest_hit(bad, limit, &mut rng) {
                    best = Some(w);
                }
            }
        }
        best
    }
}

/// One batch of up to 64 pooled tests, continued one way.
struct Continued<'a> {
    product: &'a Aig,
    map: &'a Mapping,
    batch: &'a [&'a PooledTest],
    /// Last frames of each test left out before its continuation.
    drop: usize,
    /// The stimulus over the held inputs (`None`: held exactly).
    stimulus: Option<Stimulus>,
}

impl Continued<'_> {
    /// The first frame of test `t` that is continuation, not the test's own (at least 1).
    fn own_frames(&self, t: &PooledTest) -> usize {
        t.frames.len().saturating_sub(self.drop).max(1)
    }

    /// The shortest run of the batch that reaches `bad` before frame `limit` with every
    /// constraint held until then, as a witness of the product.
    fn shortest_hit(
        &self,
        bad: hypermut_aig::Lit,
        limit: usize,
        rng: &mut WordRng,
    ) -> Option<Witness> {
        let product = self.product;
        let batch = self.batch;
        let live = if batch.len() == 64 {
            u64::MAX
        } else {
            (1u64 << batch.len()) - 1
        };
        let init: Vec<u64> = product
            .latches
            .iter()
            .zip(&self.map.latches)
            .map(|(l, &n)| match l.reset {
                Reset::Zero => 0,
                Reset::One => u64::MAX,
                Reset::Free => word(batch, |t| t.power_up(n)),
            })
            .collect();
        let mut latches = init.clone();
        let mut held = vec![0u64; self.map.inputs.len()];
        let mut frames: Vec<Vec<u64>> = Vec::new();
        let mut ok = live;
        for k in 0..limit {
            // Lanes still in their test take its inputs, and those become the held values.
            let own = word(batch, |t| k < self.own_frames(t));
            let mut inputs = Vec::with_capacity(held.len());
            for (h, &n) in held.iter_mut().zip(&self.map.inputs) {
                let given = word(batch, |t| t.input(k, n));
                if let Some(s) = self.stimulus {
                    if let Some(d) = s.drift {
                        *h ^= rng.rare_word(d) & !own;
                    }
                }
                *h = (given & own) | (*h & !own);
                let pulse = self.stimulus.map_or(0, |s| rng.rare_word(s.pulse));
                inputs.push(*h ^ (pulse & !own));
            }
            let values = eval_words(product, &inputs, &latches);
            frames.push(inputs);
            ok &= constraints_word(product, &values);
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
            latches = next_words(product, &values);
        }
        None
    }
}
