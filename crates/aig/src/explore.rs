//! Coverage-guided exploration for kills behind long sequences of right moves
//! (`docs/method.md` §7.12): a game won after 32 rounds, a lock opened by a code entered step
//! by step. Random runs from the initial states almost never get there, because every step
//! must go right; exploration keeps every state that shows a new *cell* (the values of the
//! design's control registers) together with the inputs that reached it, and goes on with
//! random runs from the kept states, preferring those it went on from least often. So each
//! right move is kept once it happens, and the next run starts behind it.
//!
//! The control registers are chosen from the circuit alone: latches are grouped into
//! registers by name (`gamma[3]` belongs to `gamma`; array words like `memory[5][1]` are
//! data), and a register is a control register when the next-state functions of many other
//! registers read it (an FSM state, the counters it compares) and it does not change in most
//! frames of a random run (a free-running counter or timer would split every cell).

use std::collections::{HashMap, HashSet};

use rustc_hash::FxHashSet;

use crate::wordsim::{
    constraints_word, eval_words, initial_words, lit_word, next_words, Stimulus, WordRng, DENSE,
    SPARSE,
};
use crate::{register_of, Aig, Node, Witness};

/// How exploration runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExploreOptions {
    /// Frames of one random run from a kept state.
    pub segment: usize,
    /// Kept states drawn before each run; the run starts from the one gone on from least
    /// often (the deepest among those).
    pub samples: usize,
    /// Most states kept.
    pub max_kept: usize,
    /// Deepest frame explored.
    pub max_frames: usize,
    /// Most runs.
    pub max_runs: usize,
    /// Seed of every random choice.
    pub seed: u64,
}

/// The options `hypermut` explores with.
pub const EXPLORE: ExploreOptions = ExploreOptions {
    segment: 64,
    samples: 64,
    max_kept: 1 << 18,
    max_frames: 1 << 17,
    max_runs: 1 << 24,
    seed: 0x5eed,
};

/// Most bits of a cell.
const CELL_BITS: usize = 64;

/// A register changing in more than this share of the frames of a random run is not a
/// control register.
const MAX_CHANGE_RATE: f64 = 0.25;

/// Frames of the random run that measures how often registers change.
const RATE_FRAMES: usize = 1024;

/// The stimuli a run draws from: quiet ones (long waits), uniform inputs, and one between.
const STIMULI: [Stimulus; 6] = [
    SPARSE[0],
    SPARSE[1],
    SPARSE[2],
    SPARSE[3],
    DENSE,
    Stimulus {
        pulse: 3,
        drift: Some(6),
    },
];

/// The latch groups of `aig` by register name: per register, its latch indices (in latch
/// order). Latches of array words (`memory[5][1]`) are left out; an unnamed latch is a
/// register of its own.
pub fn registers(aig: &Aig) -> Vec<Vec<usize>> {
    let mut by_name: HashMap<String, usize> = HashMap::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (k, l) in aig.latches.iter().enumerate() {
        let base = match register_of(&l.name) {
            None => continue,
            Some("") => format!("#{k}"),
            Some(b) => b.to_string(),
        };
        let g = *by_name.entry(base).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(k);
    }
    groups
}

/// The latches whose values make up a cell (see the module documentation): the registers
/// read by the next-state functions of at least a third as many registers as the most read
/// one, that change in at most a quarter of the frames of a random run, most read first, at
/// most 64 bits. Empty when no register qualifies.
pub fn control_latches(aig: &Aig, seed: u64) -> Vec<usize> {
    let groups = registers(aig);
    let readers = readers(aig, &groups);
    let rates = change_rates(aig, &groups, seed);
    let most = readers.iter().copied().max().unwrap_or(0);
    let mut chosen: Vec<usize> = (0..groups.len())
        .filter(|&g| {
            let r = readers[g];
            r > 0 && 3 * r >= most && rates[g] <= MAX_CHANGE_RATE
        })
        .collect();
    chosen.sort_by_key(|&g| std::cmp::Reverse(readers[g]));
    let mut latches = Vec::new();
    for g in chosen {
        if latches.len() + groups[g].len() <= CELL_BITS {
            latches.extend(&groups[g]);
        }
    }
    latches
}

/// Per register of `groups` ([`registers`]): how many other registers' next-state functions
/// read it.
pub fn readers(aig: &Aig, groups: &[Vec<usize>]) -> Vec<usize> {
    let mut group_of = vec![usize::MAX; aig.latches.len()];
    for (g, ks) in groups.iter().enumerate() {
        for &k in ks {
            group_of[k] = g;
        }
    }
    let mut readers: Vec<HashSet<usize>> = vec![HashSet::new(); groups.len()];
    let mut seen = vec![u32::MAX; aig.num_vars() as usize];
    for (g, ks) in groups.iter().enumerate() {
        let mut stack: Vec<u32> = ks.iter().map(|&k| aig.latches[k].next.var()).collect();
        while let Some(v) = stack.pop() {
            if seen[v as usize] == g as u32 {
                continue;
            }
            seen[v as usize] = g as u32;
            match aig.node(v) {
                Node::And(a, b) => {
                    stack.push(a.var());
                    stack.push(b.var());
                }
                Node::Latch(k) => {
                    let src = group_of[k as usize];
                    if src != usize::MAX && src != g {
                        readers[src].insert(g);
                    }
                }
                _ => {}
            }
        }
    }
    readers.iter().map(HashSet::len).collect()
}

/// Per register: the share of frames (over 64 runs of quiet inputs from the initial
/// states) in which it changes.
fn change_rates(aig: &Aig, groups: &[Vec<usize>], seed: u64) -> Vec<f64> {
    let mut rng = WordRng::new(seed);
    let mut latches = initial_words(aig, || rng.next_word());
    let mut held: Vec<u64> = aig.inputs.iter().map(|_| rng.next_word()).collect();
    let mut changes = vec![0u64; groups.len()];
    for _ in 0..RATE_FRAMES {
        let inputs = SPARSE[1].frame(&mut held, &mut rng);
        let values = eval_words(aig, &inputs, &latches);
        let next = next_words(aig, &values);
        for (g, ks) in groups.iter().enumerate() {
            let moved = ks.iter().fold(0u64, |m, &k| m | (latches[k] ^ next[k]));
            changes[g] += u64::from(moved.count_ones());
        }
        latches = next;
    }
    let runs = (64 * RATE_FRAMES) as f64;
    changes.iter().map(|&c| c as f64 / runs).collect()
}

/// A kept state: its latch values (packed, 64 per word) and how it was reached.
struct Kept {
    state: Vec<u64>,
    /// The state it was reached from (`None` for the initial state).
    parent: Option<usize>,
    /// The run (index into the runs) and lane that reached it, and after how many frames.
    run: usize,
    lane: u32,
    frames: usize,
    /// Frames from the initial state.
    depth: usize,
    /// Runs started from it so far.
    visits: u32,
}

/// How to replay one run: its random seed and stimulus.
#[derive(Clone, Copy)]
struct Run {
    seed: u64,
    stimulus: Stimulus,
}

impl Run {
    /// The input words of the run's frames `0..frames`.
    fn inputs(&self, aig: &Aig, frames: usize) -> Vec<Vec<u64>> {
        let mut rng = WordRng::new(self.seed);
        let mut held: Vec<u64> = aig.inputs.iter().map(|_| rng.next_word()).collect();
        (0..frames)
            .map(|_| self.stimulus.frame(&mut held, &mut rng))
            .collect()
    }
}

fn bit(w: u64, lane: u32) -> bool {
    w >> lane & 1 == 1
}

/// A counterexample to `aig`'s first bad property found by exploration (see the module
/// documentation), or `None` when `stop` says so, the runs are used up, or the circuit has
/// no control register. Every frame of the witness satisfies the constraints;
/// its last frame is the first that hits bad on its run.
pub fn explore_witness(
    aig: &Aig,
    options: &ExploreOptions,
    stop: &dyn Fn() -> bool,
) -> Option<Witness> {
    let bad = aig.bad.first()?.lit;
    let cell_latches = control_latches(aig, options.seed);
    if cell_latches.is_empty() || options.segment == 0 {
        return None;
    }
    let words = aig.latches.len().div_ceil(64);
    let mut rng = WordRng::new(options.seed);
    let init = initial_words(aig, || rng.next_word());
    let pack = |latches: &[u64], lane: u32| {
        let mut s = vec![0u64; words];
        for (k, &w) in latches.iter().enumerate() {
            s[k / 64] |= u64::from(bit(w, lane)) << (k % 64);
        }
        s
    };
    let cell = |latches: &[u64], lane: u32| {
        cell_latches
            .iter()
            .fold(0u64, |c, &k| c << 1 | u64::from(bit(latches[k], lane)))
    };
    let mut cells: FxHashSet<u64> = FxHashSet::default();
    cells.insert(cell(&init, 0));
    let mut kept = vec![Kept {
        state: pack(&init, 0),
        parent: None,
        run: 0,
        lane: 0,
        frames: 0,
        depth: 0,
        visits: 0,
    }];
    let mut runs: Vec<Run> = Vec::new();
    while !stop() && runs.len() < options.max_runs {
        let n = kept.len() as u64;
        let mut from = (rng.next_word() % n) as usize;
        for _ in 1..options.samples {
            let c = (rng.next_word() % n) as usize;
            let (a, b) = (&kept[c], &kept[from]);
            if (a.visits, std::cmp::Reverse(a.depth)) < (b.visits, std::cmp::Reverse(b.depth)) {
                from = c;
            }
        }
        kept[from].visits += 1;
        let run = Run {
            seed: rng.next_word(),
            stimulus: STIMULI[(rng.next_word() % STIMULI.len() as u64) as usize],
        };
        let id = runs.len();
        runs.push(run);
        let mut latches: Vec<u64> = (0..aig.latches.len())
            .map(|k| 0u64.wrapping_sub(kept[from].state[k / 64] >> (k % 64) & 1))
            .collect();
        let mut irng = WordRng::new(run.seed);
        let mut held: Vec<u64> = aig.inputs.iter().map(|_| irng.next_word()).collect();
        let mut valid = u64::MAX;
        for f in 0..options.segment {
            let depth = kept[from].depth + f;
            if depth > options.max_frames {
                break;
            }
            let inputs = run.stimulus.frame(&mut held, &mut irng);
            let values = eval_words(aig, &inputs, &latches);
            valid &= constraints_word(aig, &values);
            let hit = valid & lit_word(&values, bad);
            if hit != 0 {
                return Some(witness(
                    aig,
                    &kept,
                    &runs,
                    from,
                    id,
                    hit.trailing_zeros(),
                    f + 1,
                ));
            }
            if valid == 0 {
                break;
            }
            latches = next_words(aig, &values);
            for lane in 0..64 {
                if bit(valid, lane)
                    && kept.len() < options.max_kept
                    && cells.insert(cell(&latches, lane))
                {
                    kept.push(Kept {
                        state: pack(&latches, lane),
                        parent: Some(from),
                        run: id,
                        lane,
                        frames: f + 1,
                        depth: depth + 1,
                        visits: 0,
                    });
                }
            }
        }
    }
    None
}

/// The witness through kept state `at`, then `frames` frames of run `run` in lane `lane`.
fn witness(
    aig: &Aig,
    kept: &[Kept],
    runs: &[Run],
    at: usize,
    run: usize,
    lane: u32,
    frames: usize,
) -> Witness {
    let mut legs = vec![(run, lane, frames)];
    let mut cur = at;
    while let Some(p) = kept[cur].parent {
        legs.push((kept[cur].run, kept[cur].lane, kept[cur].frames));
        cur = p;
    }
    let root = &kept[cur].state;
    let mut inputs = Vec::new();
    for &(r, l, n) in legs.iter().rev() {
        for f in runs[r].inputs(aig, n) {
            inputs.push(f.iter().map(|&w| Some(bit(w, l))).collect());
        }
    }
    Witness {
        properties: vec!["b0".into()],
        init: (0..aig.latches.len())
            .map(|k| Some(root[k / 64] >> (k % 64) & 1 == 1))
            .collect(),
        inputs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::check_witness;
    use crate::wordsim::sparse_witness;
    use crate::{Lit, Named, Reset};

    /// A lock opened by entering `digits` two-bit codes in order, each taken when a 3-bit
    /// timer wraps (a wrong code sends the lock back to the start), with a free-running
    /// 2-bit counter beside it and two registers that show the expected code and whether
    /// the lock is half open (so that other registers read the progress, as the rest of a
    /// design reads its FSM state). Bad: the lock is open. Random runs open it with
    /// probability 4^-digits.
    fn lock(digits: u32) -> Aig {
        let mut g = Aig::new();
        let code = [g.add_input("code[0]"), g.add_input("code[1]")];
        let progress: Vec<Lit> = (0..5)
            .map(|i| g.add_latch(format!("progress[{i}]"), Reset::Zero))
            .collect();
        let timer: Vec<Lit> = (0..3)
            .map(|i| g.add_latch(format!("timer[{i}]"), Reset::Zero))
            .collect();
        let free: Vec<Lit> = (0..2)
            .map(|i| g.add_latch(format!("free[{i}]"), Reset::Zero))
            .collect();
        // The timer counts up; a digit is taken when it wraps to 0.
        let mut carry = Lit::TRUE;
        for &t in &timer {
            let n = g.xor(t, carry);
            carry = g.and(t, carry);
            g.set_next(t, n);
        }
        let take = carry;
        // The expected code of the current progress: its two low bits, permuted.
        let want = [g.xnor(progress[0], progress[1]), progress[0]];
        let right0 = g.xnor(code[0], want[0]);
        let right1 = g.xnor(code[1], want[1]);
        let right = g.and(right0, right1);
        // On `take`: a right code moves on, a wrong one goes back to 0; else hold.
        let mut inc_carry = Lit::TRUE;
        for &p in &progress {
            let inc = g.xor(p, inc_carry);
            inc_carry = g.and(p, inc_carry);
            let on_take = g.and(right, inc);
            let n = g.ite(take, on_take, p);
            g.set_next(p, n);
        }
        for (i, &w) in want.iter().enumerate() {
            let led = g.add_latch(format!("led[{i}]"), Reset::Zero);
            g.set_next(led, w);
        }
        let half = g.add_latch("half", Reset::Zero);
        g.set_next(half, progress[3]);
        let mut fc = Lit::TRUE;
        for &f in &free {
            let n = g.xor(f, fc);
            fc = g.and(f, fc);
            g.set_next(f, n);
        }
        // Open when progress = digits.
        let open = (0..5).fold(Lit::TRUE, |acc, i| {
            let b = if digits >> i & 1 == 1 {
                progress[i as usize]
            } else {
                !progress[i as usize]
            };
            g.and(acc, b)
        });
        g.bad.push(Named {
            lit: open,
            name: "open".into(),
        });
        g
    }

    /// The lock's progress register is chosen; the timer (changing every frame) and the
    /// free-running counter are not.
    #[test]
    fn the_progress_register_is_the_cell() {
        let g = lock(16);
        let chosen = control_latches(&g, 1);
        let names: HashSet<&str> = chosen.iter().map(|&k| g.latches[k].name.as_str()).collect();
        assert!(
            (0..5).all(|i| names.contains(format!("progress[{i}]").as_str())),
            "{names:?}"
        );
        assert!(!names
            .iter()
            .any(|n| n.starts_with("timer") || n.starts_with("free")));
    }

    /// Exploration opens a 16-digit lock that sparse random runs do not, and its witness
    /// replays on the simulator (bad in its last frame, and only there).
    #[test]
    fn exploration_opens_a_lock_random_runs_do_not() {
        let g = lock(16);
        assert!(sparse_witness(&g, 4096, 1).is_none());
        let capped = ExploreOptions {
            max_runs: 100_000,
            ..EXPLORE
        };
        let w = explore_witness(&g, &capped, &|| false).expect("the lock is opened");
        let depth = check_witness(&g, &w).expect("the witness replays");
        assert_eq!(depth + 1, w.inputs.len());
        // Sixteen digits, each taken when the 3-bit timer wraps.
        assert!(depth >= 16 * 8 - 1, "depth {depth}");
    }

    /// Without a control register there is nothing to guide exploration: no answer, at once.
    #[test]
    fn no_cell_no_exploration() {
        let mut g = Aig::new();
        let x = g.add_input("x");
        let l = g.add_latch("l", Reset::Zero);
        g.set_next(l, x);
        g.bad.push(Named {
            lit: l,
            name: "b".into(),
        });
        assert!(control_latches(&g, 1).is_empty());
        assert!(explore_witness(&g, &EXPLORE, &|| false).is_none());
    }
}
