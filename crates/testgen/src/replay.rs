//! Fault dropping (`docs/method.md` §7.8): the killing tests found so far, replayed on the
//! product of every mutant still to decide before any solver sees it. A test is kept by the
//! names of the product's inputs and latches, so that it applies to the product of any
//! mutant of the same model; a replay is a bit-parallel simulation (64 tests per word), and a
//! hit is an ordinary counterexample of that product, checked like any other.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use hypermut_aig::wordsim::{constraints_word, eval_words, lit_word, next_words};
use hypermut_aig::{Aig, Reset, Witness};

use crate::record::KillClass;

/// Most tests a pool keeps (the oldest of the weakest class go first).
const CAPACITY: usize = 1024;

/// One killing test of some mutant: product input values per frame and the power-up values
/// of latches without a reset, by name (a latch of copy A or B under its name in the model),
/// names numbered by the pool ([`Names`]).
#[derive(Clone, Debug)]
struct PooledTest {
    /// Input values per frame, by input number (a number past the end is 0).
    frames: Vec<Vec<bool>>,
    /// Power-up values by model latch number (`None`: not named by the test, 0).
    init: Vec<Option<bool>>,
    /// How strongly the test killed the mutant it was found for.
    class: KillClass,
}

/// Names numbered in the order they were first seen, so that a pooled test stores values by
/// number and a replay looks each name up once per product, not once per test and frame.
#[derive(Debug, Default)]
struct Names {
    number: HashMap<String, usize>,
}

impl Names {
    /// The number of `name`, given it if new.
    fn intern(&mut self, name: &str) -> usize {
        let next = self.number.len();
        *self.number.entry(name.to_string()).or_insert(next)
    }

    /// The number of `name`, if it has one.
    fn get(&self, name: &str) -> Option<usize> {
        self.number.get(name).copied()
    }
}

/// The pooled tests, strongest class first, and the names they use.
#[derive(Debug, Default)]
struct Pool {
    tests: Vec<Arc<PooledTest>>,
    inputs: Names,
    latches: Names,
}

/// The killing tests found so far in a run, shared by the threads deciding mutants.
#[derive(Debug, Default)]
pub struct TestPool {
    pool: Mutex<Pool>,
}

/// A latch's name in the model: a product's copies `A.x` and `B.x` are both `x`.
fn model_name(latch: &str) -> &str {
    latch
        .strip_prefix("A.")
        .or_else(|| latch.strip_prefix("B."))
        .unwrap_or(latch)
}

/// Where a product's inputs and free latches are in the pool's numbering.
struct Mapping {
    /// Per product input, its input number.
    inputs: Vec<Option<usize>>,
    /// Per product latch without a reset, its model latch number.
    latches: Vec<Option<usize>>,
}

impl Mapping {
    fn new(pool: &Pool, product: &Aig) -> Mapping {
        Mapping {
            inputs: product
                .inputs
                .iter()
                .map(|i| pool.inputs.get(&i.name))
                .collect(),
            latches: product
                .latches
                .iter()
                .map(|l| match l.reset {
                    Reset::Free => pool.latches.get(model_name(&l.name)),
                    _ => None,
                })
                .collect(),
        }
    }
}

impl PooledTest {
    /// The value of input number `input` in frame `k` (0 when absent).
    fn input(&self, k: usize, input: Option<usize>) -> bool {
        input.is_some_and(|i| {
            self.frames
                .get(k)
                .and_then(|f| f.get(i))
                .copied()
                .unwrap_or(false)
        })
    }

    /// The power-up value of model latch number `latch` (0 when absent).
    fn power_up(&self, latch: Option<usize>) -> bool {
        latch.is_some_and(|l| self.init.get(l).copied().flatten().unwrap_or(false))
    }
}

impl TestPool {
    /// An empty pool.
    pub fn new() -> TestPool {
        TestPool::default()
    }

    /// Number of tests in the pool.
    pub fn len(&self) -> usize {
        self.lock().tests.len()
    }

    /// Whether the pool holds no test.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Pool> {
        self.pool.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Adds the test that killed a mutant of class `class`: `inputs` (one vector per frame, in
    /// the input order of `product`) and `init` (one value per latch of `product`).
    pub fn add(
        &self,
        product: &Aig,
        inputs: &[Vec<Option<bool>>],
        init: &[Option<bool>],
        class: KillClass,
    ) {
        let mut pool = self.lock();
        let numbers: Vec<usize> = product
            .inputs
            .iter()
            .map(|i| pool.inputs.intern(&i.name))
            .collect();
        let width = numbers.iter().max().map_or(0, |m| m + 1);
        let frames = inputs
            .iter()
            .map(|frame| {
                let mut values = vec![false; width];
                for (&n, v) in numbers.iter().zip(frame) {
                    values[n] = v.unwrap_or(false);
                }
                values
            })
            .collect();
        let mut powerup: Vec<Option<bool>> = Vec::new();
        for (l, v) in product.latches.iter().zip(init) {
            if let (Reset::Free, Some(v)) = (l.reset, v) {
                let n = pool.latches.intern(model_name(&l.name));
                if powerup.len() <= n {
                    powerup.resize(n + 1, None);
                }
                // Copy A is the original: its value wins when the copies differ.
                if l.name.starts_with("A.") || powerup[n].is_none() {
                    powerup[n] = Some(*v);
                }
            }
        }
        let test = PooledTest {
            frames,
            init: powerup,
            class,
        };
        let tests = &mut pool.tests;
        tests.push(Arc::new(test));
        // Stable: within a class, older tests stay first (they have killed longer).
        tests.sort_by_key(|t| t.class.rank());
        if tests.len() > CAPACITY {
            tests.truncate(CAPACITY);
        }
    }

    /// A counterexample of `product` (its first bad property) among the pooled tests, cut at
    /// the frame where the test first reaches a bad state with every constraint held until
    /// then: from the strongest class that has one (definite before potential before
    /// controlled), the shortest, and of those the one pooled first. Inputs and power-up
    /// values the test does not name are 0.
    pub fn replay(&self, product: &Aig) -> Option<Witness> {
        self.killing(product, 1).into_iter().next()
    }

    /// Up to `most` counterexamples of `product` among the pooled tests, each cut at its first
    /// bad frame, best first: by class of the test (definite first), then by depth, then in
    /// pool order. The first is [`TestPool::replay`]'s.
    pub fn killing(&self, product: &Aig, most: usize) -> Vec<Witness> {
        let Some(bad) = product.bad.first() else {
            return Vec::new();
        };
        let (tests, map) = {
            let pool = self.lock();
            (pool.tests.clone(), Mapping::new(&pool, product))
        };
        let mut hits: Vec<(u8, usize, usize)> = Vec::new();
        for (k, batch) in tests.chunks(64).enumerate() {
            let batch: Vec<&PooledTest> = batch.iter().map(|t| &**t).collect();
            for (j, depth) in hits_in(product, &map, bad.lit, &batch) {
                hits.push((batch[j].class.rank(), depth, 64 * k + j));
            }
        }
        hits.sort_unstable();
        hits.into_iter()
            .take(most)
            .map(|(_, depth, i)| witness(product, &map, &tests[i], depth))
            .collect()
    }
}

/// The tests of `batch` (index, frame) whose run on `product` reaches `bad` with the
/// constraints held in every frame up to it, each at its first such frame.
fn hits_in(
    product: &Aig,
    map: &Mapping,
    bad: hypermut_aig::Lit,
    batch: &[&PooledTest],
) -> Vec<(usize, usize)> {
    let frames = batch.iter().map(|t| t.frames.len()).max().unwrap_or(0);
    let live = if batch.len() == 64 {
        u64::MAX
    } else {
        (1u64 << batch.len()) - 1
    };
    let mut latches: Vec<u64> = product
        .latches
        .iter()
        .zip(&map.latches)
        .map(|(l, &n)| match l.reset {
            Reset::Zero => 0,
            Reset::One => u64::MAX,
            Reset::Free => word(batch, |t| t.power_up(n)),
        })
        .collect();
    let mut ok = live;
    let mut hits = Vec::new();
    for k in 0..frames {
        // Tests shorter than `frames` end: their bits stop counting.
        let running = word(batch, |t| k < t.frames.len());
        let inputs: Vec<u64> = map
            .inputs
            .iter()
            .map(|&n| word(batch, |t| t.input(k, n)))
            .collect();
        let values = eval_words(product, &inputs, &latches);
        ok &= constraints_word(product, &values) & running;
        let mut hit = ok & lit_word(&values, bad);
        // A test counts at its first hit only.
        ok &= !hit;
        while hit != 0 {
            hits.push((hit.trailing_zeros() as usize, k));
            hit &= hit - 1;
        }
        if ok == 0 {
            break;
        }
        latches = next_words(product, &values);
    }
    hits
}

/// The word whose bit `j` is the value `get` gives for test `j` (absent: 0).
fn word(batch: &[&PooledTest], get: impl Fn(&PooledTest) -> bool) -> u64 {
    batch
        .iter()
        .enumerate()
        .filter(|(_, t)| get(t))
        .fold(0, |w, (j, _)| w | (1 << j))
}

/// Test `t` as a witness of `product` up to frame `depth`.
fn witness(product: &Aig, map: &Mapping, t: &PooledTest, depth: usize) -> Witness {
    Witness {
        properties: vec!["b0".into()],
        init: product
            .latches
            .iter()
            .zip(&map.latches)
            .map(|(l, &n)| match l.reset {
                Reset::Zero => Some(false),
                Reset::One => Some(true),
                Reset::Free => Some(t.power_up(n)),
            })
            .collect(),
        inputs: (0..=depth)
            .map(|k| map.inputs.iter().map(|&n| Some(t.input(k, n))).collect())
            .collect(),
    }
}

mod extend;

#[cfg(test)]
mod tests;
