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
/// of latches without a reset, by name (a latch of copy A or B under its name in the model).
#[derive(Clone, Debug)]
struct PooledTest {
    /// Input values per frame, by input name.
    frames: Vec<HashMap<String, bool>>,
    /// Power-up values, by model latch name.
    init: HashMap<String, bool>,
    /// How strongly the test killed the mutant it was found for.
    class: KillClass,
}

/// The killing tests found so far in a run, shared by the threads deciding mutants.
#[derive(Debug, Default)]
pub struct TestPool {
    tests: Mutex<Vec<Arc<PooledTest>>>,
}

/// A latch's name in the model: a product's copies `A.x` and `B.x` are both `x`.
fn model_name(latch: &str) -> &str {
    latch
        .strip_prefix("A.")
        .or_else(|| latch.strip_prefix("B."))
        .unwrap_or(latch)
}

impl TestPool {
    /// An empty pool.
    pub fn new() -> TestPool {
        TestPool::default()
    }

    /// Number of tests in the pool.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether the pool holds no test.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Arc<PooledTest>>> {
        self.tests.lock().unwrap_or_else(|p| p.into_inner())
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
        let frames = inputs
            .iter()
            .map(|frame| {
                product
                    .inputs
                    .iter()
                    .zip(frame)
                    .map(|(i, v)| (i.name.clone(), v.unwrap_or(false)))
                    .collect()
            })
            .collect();
        let mut powerup = HashMap::new();
        for (l, v) in product.latches.iter().zip(init) {
            if let (Reset::Free, Some(v)) = (l.reset, v) {
                // Copy A is the original: its value wins when the copies differ.
                let name = model_name(&l.name).to_string();
                if l.name.starts_with("A.") {
                    powerup.insert(name, *v);
                } else {
                    powerup.entry(name).or_insert(*v);
                }
            }
        }
        let test = PooledTest {
            frames,
            init: powerup,
            class,
        };
        let mut tests = self.lock();
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
        let tests = self.lock().clone();
        let mut hits: Vec<(u8, usize, usize)> = Vec::new();
        for (k, batch) in tests.chunks(64).enumerate() {
            let batch: Vec<&PooledTest> = batch.iter().map(|t| &**t).collect();
            for (j, depth) in hits_in(product, bad.lit, &batch) {
                hits.push((batch[j].class.rank(), depth, 64 * k + j));
            }
        }
        hits.sort_unstable();
        hits.into_iter()
            .take(most)
            .map(|(_, depth, i)| witness(product, &tests[i], depth))
            .collect()
    }
}

/// The tests of `batch` (index, frame) whose run on `product` reaches `bad` with the
/// constraints held in every frame up to it, each at its first such frame.
fn hits_in(product: &Aig, bad: hypermut_aig::Lit, batch: &[&PooledTest]) -> Vec<(usize, usize)> {
    let frames = batch.iter().map(|t| t.frames.len()).max().unwrap_or(0);
    let live = if batch.len() == 64 {
        u64::MAX
    } else {
        (1u64 << batch.len()) - 1
    };
    let mut latches: Vec<u64> = product
        .latches
        .iter()
        .map(|l| match l.reset {
            Reset::Zero => 0,
            Reset::One => u64::MAX,
            Reset::Free => word(batch, |t| t.init.get(model_name(&l.name)).copied()),
        })
        .collect();
    let mut ok = live;
    let mut hits = Vec::new();
    for k in 0..frames {
        // Tests shorter than `frames` end: their bits stop counting.
        let running = word(batch, |t| Some(k < t.frames.len()));
        let inputs: Vec<u64> = product
            .inputs
            .iter()
            .map(|i| {
                word(batch, |t| {
                    t.frames.get(k).and_then(|f| f.get(&i.name).copied())
                })
            })
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
fn word(batch: &[&PooledTest], get: impl Fn(&PooledTest) -> Option<bool>) -> u64 {
    batch
        .iter()
        .enumerate()
        .filter(|(_, t)| get(t) == Some(true))
        .fold(0, |w, (j, _)| w | (1 << j))
}

/// Test `t` as a witness of `product` up to frame `depth`.
fn witness(product: &Aig, t: &PooledTest, depth: usize) -> Witness {
    Witness {
        properties: vec!["b0".into()],
        init: product
            .latches
            .iter()
            .map(|l| match l.reset {
                Reset::Zero => Some(false),
                Reset::One => Some(true),
                Reset::Free => Some(t.init.get(model_name(&l.name)).copied().unwrap_or(false)),
            })
            .collect(),
        inputs: t.frames[..=depth]
            .iter()
            .map(|f| {
                product
                    .inputs
                    .iter()
                    .map(|i| Some(f.get(&i.name).copied().unwrap_or(false)))
                    .collect()
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests;
