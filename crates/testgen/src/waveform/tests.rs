//! The waveforms of the beverage machine's killing tests, read back with the `vcd` crate's
//! parser and checked against the test files (not against the writer's own bookkeeping).

use std::collections::HashMap;
use std::path::PathBuf;

use hypermut_hyper::suite::parse_value;
use hypermut_hyper::{Blocked, MutantProduct};
use hypermut_ir::{System, Value};

use super::*;
use crate::{all_mutants, DecideOptions, Decider, FrontendOptions, Model, TestFile};

/// The beverage machine of the repository's models.
fn beverage() -> Model {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models/smv/beverage.smv");
    Model::load(&[path], &FrontendOptions::default())
        .expect("loads")
        .0
}

/// A VCD file as read by the `vcd` crate: the header and each variable's changes, by
/// `scope/.../name`.
struct Waves {
    header: vcd::Header,
    changes: HashMap<String, Vec<(u64, u128)>>,
    sizes: HashMap<String, u32>,
}

impl Waves {
    fn read(bytes: &[u8]) -> Waves {
        let mut p = vcd::Parser::new(bytes);
        let header = p.parse_header().expect("a VCD header");
        let mut names: HashMap<vcd::IdCode, Vec<String>> = HashMap::new();
        fn walk(
            items: &[vcd::ScopeItem],
            path: &str,
            names: &mut HashMap<vcd::IdCode, Vec<String>>,
        ) {
            for item in items {
                match item {
                    vcd::ScopeItem::Scope(s) => {
                        walk(&s.items, &format!("{path}{}/", s.identifier), names)
                    }
                    vcd::ScopeItem::Var(v) => names
                        .entry(v.code)
                        .or_default()
                        .push(format!("{path}{}", v.reference)),
                    _ => {}
                }
            }
        }
        walk(&header.items, "", &mut names);
        let mut sizes = HashMap::new();
        for (code, refs) in &names {
            let size = header
                .items
                .iter()
                .find_map(|i| match i {
                    vcd::ScopeItem::Scope(s) => find(s, *code),
                    _ => None,
                })
                .expect("a declared variable");
            for r in refs {
                sizes.insert(r.clone(), size);
            }
        }
        let mut changes: HashMap<String, Vec<(u64, u128)>> = HashMap::new();
        let mut now = 0;
        let bit = |v: vcd::Value| match v {
            vcd::Value::V1 => 1u128,
            vcd::Value::V0 => 0,
            other => panic!("a value {other} in a waveform of two-valued signals"),
        };
        for cmd in p {
            let (id, value) = match cmd.expect("a VCD command") {
                vcd::Command::Timestamp(t) => {
                    assert!(t >= now, "time goes backwards");
                    now = t;
                    continue;
                }
                vcd::Command::ChangeScalar(id, v) => (id, bit(v)),
                vcd::Command::ChangeVector(id, v) => {
                    (id, v.iter().fold(0u128, |acc, b| (acc << 1) | bit(b)))
                }
                other => panic!("unexpected command {other:?}"),
            };
            for name in &names[&id] {
                changes.entry(name.clone()).or_default().push((now, value));
            }
        }
        Waves {
            header,
            changes,
            sizes,
        }
    }

    /// The value of `name` at time `t` (its last change at or before `t`).
    fn at(&self, name: &str, t: u64) -> u128 {
        let ch = self
            .changes
            .get(name)
            .unwrap_or_else(|| panic!("no signal {name}"));
        ch.iter()
            .take_while(|(when, _)| *when <= t)
            .last()
            .unwrap_or_else(|| panic!("{name} has no value at {t}"))
            .1
    }

    /// The value of `name` in step `k`.
    fn step(&self, name: &str, k: usize) -> u128 {
        self.at(name, k as u64 * STEP_TIME)
    }
}

/// The size of variable `code` in scope `s` or below.
fn find(s: &vcd::Scope, code: vcd::IdCode) -> Option<u32> {
    s.items.iter().find_map(|i| match i {
        vcd::ScopeItem::Scope(inner) => find(inner, code),
        vcd::ScopeItem::Var(v) if v.code == code => Some(v.size),
        _ => None,
    })
}

/// The number a test's text for output `name` stands for in a waveform's vector of `size`
/// bits: its code, two's complement for integers.
fn code(sys: &System, name: &str, text: &str, size: u32) -> u128 {
    let o = sys
        .outputs
        .iter()
        .find(|o| o.name == name)
        .expect("an output");
    let n = match parse_value(text, sys.ty(o.expr), &sys.enums).expect("a value") {
        Value::Bool(b) => b as u128,
        Value::Enum(e) => e as u128,
        Value::Int(i) => i as i128 as u128,
        Value::Bits { bits, .. } => bits.try_into().expect("fits"),
    };
    n & (u128::MAX >> (128 - size.clamp(1, 128)))
}

/// The killing tests of the beverage machine with their waveforms and products.
fn killed(model: &Model) -> Vec<(TestFile, String, Vec<u8>, MutantProduct)> {
    let decider = Decider::new(model, &DecideOptions::default());
    all_mutants(&model.system)
        .iter()
        .filter_map(|m| {
            let d = decider.decide(m);
            assert!(d.warnings.is_empty(), "{:?}", d.warnings);
            let test = d.test?;
            let vcd = d.waveform.expect("a killed mutant has a waveform");
            let mp = MutantProduct::build(&model.system, m).expect("a product");
            Some((test, d.record.reason, vcd, mp))
        })
        .collect()
}

#[test]
fn waveforms_show_both_runs_and_where_they_diverge() {
    let model = beverage();
    let sys = &model.system;
    let tests = killed(&model);
    assert!(tests.len() >= 3, "only {} killed mutants", tests.len());
    for (t, reason, vcd, _) in &tests {
        let w = Waves::read(vcd);
        let id = t.test.mutant;
        assert_eq!(w.header.timescale, Some((1, vcd::TimescaleUnit::NS)));
        for scope in ["original", "mutant"] {
            assert!(
                w.header.find_scope(&["test", scope]).is_some(),
                "mutant {id}: no {scope}"
            );
            for o in &t.outputs {
                assert!(w.changes.contains_key(&format!("test/{scope}/{o}")));
            }
        }
        let steps = t.test.frames.len();
        let differ = |k: usize| {
            let name = |s: &str, o: &str| format!("test/{s}/{o}");
            w.step(&name("original", "constraints_ok"), k)
                != w.step(&name("mutant", "constraints_ok"), k)
                || t.outputs
                    .iter()
                    .any(|o| w.step(&name("original", o), k) != w.step(&name("mutant", o), k))
        };
        let first = (0..steps).find(|&k| differ(k)).expect("the runs differ");
        for k in 0..steps {
            assert_eq!(w.step("test/step", k), k as u128);
            assert_eq!(w.step("test/clk", k), 1);
            assert_eq!(w.at("test/clk", k as u64 * STEP_TIME + STEP_TIME / 2), 0);
            assert_eq!(
                w.step("test/diverged", k),
                (k >= first) as u128,
                "mutant {id} step {k}"
            );
            for (o, text) in &t.test.frames[k].outputs {
                let name = format!("test/original/{o}");
                assert_eq!(
                    w.step(&name, k),
                    code(sys, o, text, w.sizes[&name]),
                    "mutant {id} step {k}: {o}"
                );
            }
        }
        if reason.contains("search found") {
            assert!(first <= t.test.depth, "mutant {id}");
        } else {
            // A φ1 test is cut at the first difference; its mutant outputs are the replay's.
            assert_eq!(first, t.test.depth, "mutant {id}");
            if t.test.blocked != Some(Blocked::Mutant) {
                for (o, text) in &t.test.mutant_outputs {
                    let name = format!("test/mutant/{o}");
                    assert_eq!(w.step(&name, first), code(sys, o, text, w.sizes[&name]));
                }
            }
        }
    }
}

#[test]
fn a_test_that_does_not_replay_gets_no_waveform() {
    let model = beverage();
    // A φ1 test (cut at its first difference) of more than one step.
    let (t, _, _, mp) = killed(&model)
        .into_iter()
        .find(|(t, reason, _, _)| {
            t.test.depth > 0 && t.test.blocked.is_none() && !reason.contains("search found")
        })
        .expect("a φ1 test of more than one step");
    // Expecting another value of an output the original gives.
    let mut wrong = t.test.clone();
    let (o, text) = wrong.frames[0]
        .outputs
        .iter_mut()
        .next()
        .expect("an output");
    let o = o.clone();
    *text = if text == "none" {
        "tea".into()
    } else {
        "none".into()
    };
    assert!(matches!(
        test_vcd(&mp, &wrong),
        Err(WaveformError::Expected { step: 0, output, .. }) if output == o
    ));
    // Cut before the first difference.
    let mut short = t.test.clone();
    short.frames.truncate(1);
    assert!(matches!(
        test_vcd(&mp, &short),
        Err(WaveformError::NoDivergence)
    ));
    // An input the model does not have.
    let mut unknown = t.test.clone();
    unknown.frames[0]
        .inputs
        .insert("no_such_input".into(), "TRUE".into());
    assert!(matches!(
        test_vcd(&mp, &unknown),
        Err(WaveformError::BadValue { step: 0, .. })
    ));
}
