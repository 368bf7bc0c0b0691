use std::collections::BTreeMap;

use hypermut_ir::{Frame, Role, System, Value, VarId};
use hypermut_mutate::{conditional, enumerate, make_controllable, meta_mutant, Operator};
use hypermut_testkit::sim::{random_value, selector_kills};
use hypermut_testkit::{repo, SplitMix64};

use super::*;

#[test]
fn prefixes_and_duplicates_are_removed() {
    let seqs: Vec<Vec<u8>> = vec![
        vec![1, 2],       // prefix of 2 → dropped
        vec![3],          // kept
        vec![1, 2, 3],    // kept
        vec![3],          // duplicate of 1 → dropped
        vec![2, 2],       // kept
        vec![1, 2, 3, 4], // makes 2 a prefix → 2 dropped
    ];
    assert_eq!(remove_prefixes(&seqs), vec![1, 4, 5]);
    assert_eq!(remove_prefixes::<u8>(&[]), Vec::<usize>::new());
    assert_eq!(remove_prefixes(&[vec![7u8]]), vec![0]);
}

#[test]
fn matrix_from_dense_and_killed_sets() {
    let m = KillMatrix::from_dense(
        3,
        &[vec![true, false, false], vec![false, false, true], vec![]],
    );
    assert_eq!(m.rows, vec![vec![0], vec![2], vec![]]);
    assert_eq!(m.killed(&[0, 1]), vec![true, false, true]);
    assert_eq!(m.killed_count(&[2]), 0);
    assert_eq!(m.killed(&[9]), vec![false; 3]);
}

#[test]
fn greedy_takes_the_largest_row_first_even_when_that_is_not_optimal() {
    // Mutants 0..6. Test 2 kills four, so greedy takes it first and then needs both others;
    // tests 0 and 1 alone would do (hand-computed; the classic greedy counterexample).
    let m = KillMatrix {
        columns: 6,
        rows: vec![vec![0, 1, 2], vec![3, 4, 5], vec![0, 1, 3, 4]],
    };
    assert_eq!(greedy_set_cover(&m, &[0, 1, 2]), vec![2, 0, 1]);
    assert_eq!(greedy_set_cover(&m, &[0, 1]), vec![0, 1]);
    assert!(score_preserved(&m, &[0, 1, 2], &[0, 1]));
    assert!(!score_preserved(&m, &[0, 1, 2], &[2]));
    // Ties go to the first test; a test that adds nothing is never taken.
    let t = KillMatrix {
        columns: 2,
        rows: vec![vec![], vec![0], vec![0], vec![0, 1]],
    };
    assert_eq!(greedy_set_cover(&t, &[0, 1, 2, 3]), vec![3]);
    assert_eq!(greedy_set_cover(&t, &[1, 2]), vec![1]);
}

/// The smallest number of rows killing everything the rows kill, by brute force.
fn optimum(m: &KillMatrix) -> usize {
    let n = m.rows.len();
    let all: Vec<usize> = (0..n).collect();
    let target = m.killed(&all);
    (0u32..1 << n)
        .filter(|mask| {
            let pick: Vec<usize> = (0..n).filter(|i| mask >> i & 1 == 1).collect();
            m.killed(&pick) == target
        })
        .map(|mask| mask.count_ones() as usize)
        .min()
        .unwrap_or(0)
}

#[test]
fn greedy_cover_against_brute_force_on_random_matrices() {
    let mut rng = SplitMix64::new(11);
    let mut optimal = 0;
    for _ in 0..400 {
        let rows = 1 + rng.below(8) as usize;
        let columns = 1 + rng.below(10) as usize;
        let dense: Vec<Vec<bool>> = (0..rows)
            .map(|_| (0..columns).map(|_| rng.below(3) == 0).collect())
            .collect();
        let m = KillMatrix::from_dense(columns, &dense);
        let all: Vec<usize> = (0..rows).collect();
        let g = greedy_set_cover(&m, &all);
        assert!(score_preserved(&m, &all, &g), "{m:?} {g:?}");
        let opt = optimum(&m);
        assert!(g.len() >= opt);
        // The greedy bound: at most H(d) times the optimum, d the largest row.
        let d = m.rows.iter().map(Vec::len).max().unwrap_or(0);
        let h: f64 = (1..=d).map(|i| 1.0 / i as f64).sum();
        assert!(
            g.len() as f64 <= (opt as f64 * h).max(opt as f64) + 1e-9,
            "{m:?}"
        );
        // No chosen test is redundant at the time it is taken: each adds a kill.
        for k in 0..g.len() {
            assert!(m.killed_count(&g[..=k]) > m.killed_count(&g[..k]));
        }
        if g.len() == opt {
            optimal += 1;
        }
    }
    assert!(
        optimal > 300,
        "greedy is optimal on most small matrices ({optimal}/400)"
    );
}

/// A bundled SMV model, or `None` (with a `SKIPPED` message) when it cannot be read.
fn bundled(name: &str) -> Option<System> {
    let text = repo::model_text(&format!("smv/{name}"))?;
    hypermut_smv::parse_smv(name, &text)
        .map_err(|e| eprintln!("SKIPPED: models/smv/{name} does not load: {e}"))
        .ok()
}

/// Strong kill of one conditional mutant by a stimulus, in the word-level interpreter
/// (`None` if a run fails, e.g. a value leaves its range).
fn interp_kill(
    sys: &System,
    m: &hypermut_mutate::Mutant,
    stim: &[BTreeMap<String, String>],
) -> Option<bool> {
    let mut cm = conditional(sys, m).ok()?;
    make_controllable(&mut cm.system, &[cm.mut_var]).ok()?;
    let s = &cm.system;
    let frames: Vec<Frame> = stim
        .iter()
        .map(|f| {
            let mut fr = Frame::default();
            for (i, v) in s.vars.iter().enumerate() {
                if v.role != Role::Input {
                    continue;
                }
                let val = f
                    .get(&v.name)
                    .and_then(|t| parse_value(t, v.ty, &s.enums))
                    .unwrap_or_else(|| Value::from_storage_bits(v.ty, &[]));
                fr.inputs.insert(VarId(i as u32), val);
            }
            fr
        })
        .collect();
    // A step only one side's constraints allow kills (`docs/method.md` §5.3).
    selector_kills(s, cm.mut_var, &frames)
}

/// Replaying random stimuli on the meta circuit gives, for every mutant, the strong kill the
/// interpreter computes on that mutant's own conditional mutant; weak ⊇ strong.
fn meta_replay_matches_interpreter(sys: &System, runs: usize, steps: usize) {
    let ms = enumerate(sys, &Operator::ALL);
    let meta = meta_mutant(sys, &ms).expect("meta-mutant");
    let circuit = MetaCircuit::build(&meta).expect("meta circuit");
    let mut msys = meta.system.clone();
    make_controllable(&mut msys, &[meta.selector]).expect("nd");
    let codes: Vec<usize> = (1..=ms.len()).collect();
    let mut rng = SplitMix64::new(3);
    let mut kills = 0;
    for _ in 0..runs {
        let stim: Vec<BTreeMap<String, String>> = (0..steps)
            .map(|_| {
                msys.vars
                    .iter()
                    .filter(|v| v.role == Role::Input)
                    .map(|v| {
                        let val = random_value(&mut rng, &msys, v.ty);
                        (v.name.clone(), val.display(v.ty, &msys.enums))
                    })
                    .collect()
            })
            .collect();
        let got = circuit.replay(&stim, &codes).expect("replay");
        assert_eq!(got.len(), ms.len());
        for (m, k) in ms.iter().zip(&got) {
            assert!(!k.strong || k.weak, "strong ⊆ weak, mutant {}", m.id);
            if let Some(expect) = interp_kill(sys, m, &stim) {
                assert_eq!(
                    k.strong, expect,
                    "mutant {} {} → {}",
                    m.id, m.original, m.replacement
                );
                kills += usize::from(expect);
            }
        }
        // The prefixes replayed in the same run kill what the interpreter says each kills.
        let lengths = [0, 1, steps / 2, steps];
        let rows = circuit
            .replay_prefixes(&stim, &codes, &lengths)
            .expect("replay of prefixes");
        assert_eq!(rows.last(), Some(&got));
        for (row, &n) in rows.iter().zip(&lengths) {
            for (m, k) in ms.iter().zip(row) {
                if let Some(expect) = interp_kill(sys, m, &stim[..n]) {
                    assert_eq!(k.strong, expect, "mutant {} over {n} frames", m.id);
                }
            }
        }
    }
    assert!(kills > 0, "random stimuli kill some mutant");
}

#[test]
fn meta_replay_matches_interpreter_on_bundled_models() {
    for name in ["counter.smv", "beverage.smv", "car_alarm.smv"] {
        if let Some(sys) = bundled(name) {
            meta_replay_matches_interpreter(&sys, 6, 12);
        }
    }
}

#[test]
fn replay_rejects_unknown_inputs_and_codes() {
    let Some(sys) = bundled("counter.smv") else {
        return;
    };
    let ms = enumerate(&sys, &Operator::ALL);
    let meta = meta_mutant(&sys, &ms).expect("meta-mutant");
    let c = MetaCircuit::build(&meta).expect("meta circuit");
    let frame = BTreeMap::from([("nosuch".to_string(), "TRUE".to_string())]);
    assert!(c.replay(&[frame], &[1]).is_err());
    let frame = BTreeMap::from([("inc".to_string(), "7".to_string())]);
    assert!(c.replay(&[frame], &[1]).is_err());
    assert!(c.replay(&[], &[0]).is_err());
    assert!(c.replay(&[], &[ms.len() + 1]).is_err());
    // A prefix longer than the test is refused.
    assert!(c.replay_prefixes(&[], &[1], &[1]).is_err());
    // An empty test kills nothing.
    assert!(c
        .replay(&[], &[1, 2])
        .expect("replay")
        .iter()
        .all(|k| *k == Kill::default()));
}
