//! The pool's bit-parallel replay checked against scalar simulation (`hypermut_aig::sim`) of
//! each pooled test on each product, on the products of bundled models; and deciding with
//! fault dropping reaches the same verdicts as deciding without it.

use std::collections::HashMap;
use std::path::PathBuf;

use hypermut_aig::{check_witness, simulate, Aig, Reset, Witness};
use hypermut_hyper::MutantProduct;
use hypermut_prove::bmc::Bmc;
use hypermut_prove::{Engine, Verdict};

use super::*;
use crate::record::MutantVerdict;
use crate::{all_mutants, DecideOptions, Decider, FrontendOptions, Model};

fn model(rel: &str) -> Model {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel);
    Model::load(&[path], &FrontendOptions::default())
        .expect("loads")
        .0
}

/// Every valid mutant's product with its shortest counterexample up to frame 8, if any.
fn products(m: &Model) -> Vec<(Aig, Option<Witness>)> {
    all_mutants(&m.system)
        .iter()
        .filter_map(|mu| MutantProduct::build(&m.system, mu).ok())
        .map(|mp| {
            let aig = mp.product.aig;
            let w = match (Bmc {
                max_bound: 8,
                time_limit: None,
            })
            .check(&aig)
            {
                Verdict::Unsafe(w) => Some(w),
                _ => None,
            };
            (aig, w)
        })
        .collect()
}

/// Test `w` of product `from` moved to product `to` by input and latch names (written apart
/// from the pool's own mapping): values by name, absent names 0.
fn moved(from: &Aig, w: &Witness, to: &Aig) -> Witness {
    let base = |n: &str| {
        n.trim_start_matches("A.")
            .trim_start_matches("B.")
            .to_string()
    };
    let mut init: HashMap<String, bool> = HashMap::new();
    // Copy B first so that copy A's value (the original's) is the one kept.
    let mut order: Vec<usize> = (0..from.latches.len()).collect();
    order.sort_by_key(|&i| from.latches[i].name.starts_with("A."));
    for i in order {
        if from.latches[i].reset == Reset::Free {
            init.insert(base(&from.latches[i].name), w.init[i].unwrap_or(false));
        }
    }
    Witness {
        properties: vec!["b0".into()],
        init: to
            .latches
            .iter()
            .map(|l| match l.reset {
                Reset::Zero => Some(false),
                Reset::One => Some(true),
                Reset::Free => Some(init.get(&base(&l.name)).copied().unwrap_or(false)),
            })
            .collect(),
        inputs: w
            .inputs
            .iter()
            .map(|f| {
                let by: HashMap<&str, bool> = from
                    .inputs
                    .iter()
                    .zip(f)
                    .map(|(i, v)| (i.name.as_str(), v.unwrap_or(false)))
                    .collect();
                to.inputs
                    .iter()
                    .map(|i| Some(by.get(i.name.as_str()).copied().unwrap_or(false)))
                    .collect()
            })
            .collect(),
    }
}

/// The first frame at which `w` (moved to `aig`) reaches the bad state with the constraints
/// held until then, by scalar simulation.
fn scalar_hit(aig: &Aig, w: &Witness) -> Option<usize> {
    let trace = simulate(aig, &w.init, &w.inputs);
    for (k, f) in trace.frames.iter().enumerate() {
        if f.constraints.iter().any(|c| !c) {
            return None;
        }
        if f.bad.first() == Some(&true) {
            return Some(k);
        }
    }
    None
}

fn replay_agrees_with_scalar_simulation(rel: &str) {
    let m = model(rel);
    let all = products(&m);
    let pool = TestPool::new();
    // Every third killed mutant's test goes into the pool (all potential: one class, so the
    // pool keeps insertion order).
    let mut pooled = Vec::new();
    for (k, (aig, w)) in all.iter().enumerate() {
        if let Some(w) = w.as_ref().filter(|_| k % 3 == 0) {
            pool.add(aig, &w.inputs, &w.init, KillClass::Potential);
            pooled.push((aig, w));
        }
    }
    assert_eq!(pool.len(), pooled.len());
    assert!(pooled.len() >= 3, "{rel}: too few tests to pool");
    let mut hits = 0;
    for (aig, _) in &all {
        let expected = pooled
            .iter()
            .enumerate()
            .filter_map(|(j, (from, w))| scalar_hit(aig, &moved(from, w, aig)).map(|k| (j, k)))
            .min_by_key(|&(_, k)| k);
        let got = pool.replay(aig);
        // Every pooled test that kills, shortest first, each a valid counterexample.
        let all = pool.killing(aig, usize::MAX);
        let killers = pooled
            .iter()
            .filter(|(from, w)| scalar_hit(aig, &moved(from, w, aig)).is_some())
            .count();
        assert_eq!(all.len(), killers, "{rel}");
        assert!(
            all.windows(2).all(|p| p[0].depth() <= p[1].depth()),
            "{rel}"
        );
        for w in &all {
            assert_eq!(check_witness(aig, w).expect("a valid witness"), w.depth());
        }
        assert_eq!(all.first(), got.as_ref(), "{rel}");
        match (expected, &got) {
            (None, None) => {}
            (Some((j, k)), Some(w)) => {
                hits += 1;
                assert_eq!(w.depth(), k, "{rel}: depth of the replayed test");
                assert_eq!(check_witness(aig, w).expect("a valid witness"), k);
                let (from, full) = pooled[j];
                let mut want = moved(from, full, aig);
                want.inputs.truncate(k + 1);
                assert_eq!(
                    w, &want,
                    "{rel}: the first of the shortest pooled tests that kill"
                );
            }
            _ => panic!("{rel}: replay {got:?} but scalar simulation {expected:?}"),
        }
    }
    assert!(
        hits > pooled.len(),
        "{rel}: pooled tests kill only their own mutants"
    );
}

#[test]
fn replay_agrees_with_scalar_simulation_on_beverage() {
    replay_agrees_with_scalar_simulation("models/smv/beverage.smv");
}

#[test]
fn replay_agrees_with_scalar_simulation_on_arbiter() {
    replay_agrees_with_scalar_simulation("models/verilog/arbiter.v");
}

#[test]
fn replay_agrees_with_scalar_simulation_on_car_alarm_timed() {
    replay_agrees_with_scalar_simulation("models/verilog/car_alarm_timed.v");
}

#[test]
fn definite_tests_are_replayed_first() {
    let m = model("models/smv/beverage.smv");
    let all = products(&m);
    let killed: Vec<&(Aig, Option<Witness>)> = all.iter().filter(|(_, w)| w.is_some()).collect();
    let (aig, w) = killed[0];
    let w = w.as_ref().expect("killed");
    let pool = TestPool::new();
    // The same test twice, the second one with different inputs in frame 0 and definite.
    pool.add(aig, &w.inputs, &w.init, KillClass::Controlled);
    let mut other = w.inputs.clone();
    for v in &mut other[0] {
        *v = Some(!v.unwrap_or(false));
    }
    pool.add(aig, &other, &w.init, KillClass::Definite);
    let got = pool.replay(aig);
    let from_definite = moved(
        aig,
        &Witness {
            inputs: other,
            ..w.clone()
        },
        aig,
    );
    match scalar_hit(aig, &from_definite) {
        Some(k) => assert_eq!(got.expect("a hit").inputs[..], from_definite.inputs[..=k]),
        None => assert_eq!(got.expect("a hit").inputs, w.inputs),
    }
}

#[test]
fn deciding_with_fault_dropping_gives_the_same_verdicts() {
    for rel in ["models/smv/beverage.smv", "models/verilog/arbiter.v"] {
        let m = model(rel);
        let with = Decider::new(&m, &DecideOptions::default());
        let without = Decider::new(
            &m,
            &DecideOptions {
                replay: false,
                ..DecideOptions::default()
            },
        );
        let mut replayed = 0;
        for mu in all_mutants(&m.system) {
            let (a, b) = (with.decide(&mu).record, without.decide(&mu).record);
            assert_eq!(a.outcome, b.outcome, "{rel} mutant {}", mu.id);
            if a.engine.as_deref() == Some("replay") {
                replayed += 1;
                assert_eq!(a.outcome, MutantVerdict::Killed);
            }
        }
        assert!(replayed > 0, "{rel}: no mutant was killed by a pooled test");
    }
}

#[test]
fn a_mutant_is_decided_again_by_the_tests_found_after_it() {
    let m = model("models/smv/beverage.smv");
    let decider = Decider::new(&m, &DecideOptions::default());
    let mutants = all_mutants(&m.system);
    // Nothing pooled yet: no decision without engines.
    assert!(mutants
        .iter()
        .all(|mu| decider.decide_by_replay(mu).is_none()));
    let mut killed = Vec::new();
    let mut equivalent = Vec::new();
    for mu in &mutants {
        match decider.decide(mu).record.outcome {
            MutantVerdict::Killed => killed.push(mu),
            MutantVerdict::Equivalent => equivalent.push(mu),
            _ => {}
        }
    }
    // Now the pool holds the tests: killed mutants are killed again by replay alone, and an
    // equivalent one is not.
    let again: Vec<_> = killed
        .iter()
        .filter_map(|mu| decider.decide_by_replay(mu))
        .collect();
    assert_eq!(again.len(), killed.len());
    for d in &again {
        assert_eq!(d.record.engine.as_deref(), Some("replay"));
        assert!(d.test.is_some() && d.witness.is_some());
    }
    assert!(!equivalent.is_empty());
    assert!(equivalent
        .iter()
        .all(|mu| decider.decide_by_replay(mu).is_none()));
}

/// The pool's tests as input sequences of another product: values by input and latch name
/// (copies `A.x` and `B.x` both take the test's value of `x`), whatever the order, names the
/// test does not know 0, the whole test; an empty pool has none.
#[test]
fn pooled_tests_become_input_sequences_by_name() {
    let mut from = Aig::new();
    from.add_input("a");
    from.add_input("b");
    let l = from.add_latch("A.r", Reset::Free);
    from.set_next(l, l);
    let mut to = Aig::new();
    to.add_input("c");
    to.add_input("b");
    to.add_input("a");
    for name in ["B.r", "A.r", "z"] {
        let l = to.add_latch(name, Reset::Free);
        to.set_next(l, l);
    }
    let pool = TestPool::new();
    assert!(pool.prefixes(&to).is_empty());
    let inputs = vec![vec![Some(true), Some(false)], vec![Some(false), Some(true)]];
    pool.add(&from, &inputs, &[Some(true)], KillClass::Definite);
    let got = pool.prefixes(&to);
    assert_eq!(got.len(), 1);
    assert_eq!(
        got[0].inputs,
        vec![
            vec![Some(false), Some(false), Some(true)],
            vec![Some(false), Some(true), Some(false)]
        ]
    );
    assert_eq!(got[0].init, vec![Some(true), Some(true), Some(false)]);
}

/// A clock divider whose mode is locked while it runs: the reload constant of mode 2 set to
/// 0 is killed a few frames after a start, the same constant made one smaller only when the
/// counter has run down from it, about 512 frames later.
const DIVIDER: &str = "module divider(input clk, input rst, input wr, input [1:0] sel,
                input start, output reg tick);
  reg [1:0] mode;
  reg run;
  reg [9:0] cnt;
  always @(posedge clk)
    if (rst) begin mode <= 2'd0; run <= 1'b0; cnt <= 10'd0; tick <= 1'b0; end
    else begin
      if (wr & ~run) mode <= sel;
      if (start) run <= 1'b1;
      if (run & |cnt) cnt <= cnt - 10'd1;
      else case (mode)
        2'd0: cnt <= 10'h3;
        2'd1: cnt <= 10'h7;
        2'd2: cnt <= 10'h1ff;
        2'd3: cnt <= 10'h5;
      endcase
      tick <= run & ~|cnt;
    end
endmodule
";

/// The later try of a deep mutant is decided by the test of its shallow sibling continued
/// past its end, before any engine has time (the engines get a millisecond): killed, with
/// the continued test's reason, a test as deep as the counter's run, definite; without
/// fault dropping the same try leaves it unknown.
#[test]
fn a_later_try_kills_a_deep_sibling_with_a_continued_test() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let path = dir.path().join("divider.v");
    std::fs::write(&path, DIVIDER).expect("writes the design");
    let m = Model::load(&[path], &FrontendOptions::default())
        .expect("loads")
        .0;
    let mutants = all_mutants(&m.system);
    let find = |to: &str| {
        mutants
            .iter()
            .find(|mu| mu.original == "10'h1ff" && mu.replacement == to)
            .unwrap_or_else(|| panic!("a mutant 10'h1ff -> {to}"))
    };
    let (shallow, deep) = (find("10'h0"), find("10'h1fe"));
    let decider = Decider::new(&m, &DecideOptions::default());
    let first = decider.decide(shallow).record;
    assert_eq!(first.outcome, MutantVerdict::Killed);
    assert!(first.depth.is_some_and(|d| d < 20), "{first:?}");
    let at_once = std::time::Duration::from_millis(1);
    let d = decider.decide_again(deep, at_once);
    let r = &d.record;
    assert_eq!(r.outcome, MutantVerdict::Killed, "{}", r.reason);
    assert_eq!(r.engine.as_deref(), Some("continued"));
    assert!(r.reason.contains("continued past its end"), "{}", r.reason);
    assert!(r.depth.is_some_and(|k| k > 500), "{r:?}");
    assert_eq!(r.kill_class, Some(KillClass::Definite));
    let without = Decider::new(
        &m,
        &DecideOptions {
            replay: false,
            ..DecideOptions::default()
        },
    );
    assert_eq!(
        without.decide_again(deep, at_once).record.outcome,
        MutantVerdict::Unknown
    );
}
