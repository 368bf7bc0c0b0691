//! Behaviour of conditional mutants, checked with the IR interpreter on random input
//! sequences: with `mut = 0` the conditional system runs like the original model, and with
//! `mut = 1` like the model obtained by applying the mutant's textual edit to the source and
//! parsing it again (an independent statement of "the intended edit").

use std::collections::HashMap;

use hypermut_ir::{Frame, Interpreter, Role, System, Type, Value};
use hypermut_testkit::sim::{outputs_by_name, Stimulus};
use hypermut_testkit::SplitMix64;

use super::{all, models, parse};
use crate::conditional::conditional;
use crate::operators::Mutant;

const FRAMES: usize = 8;
const RUNS: usize = 6;

/// The model text with the mutant's edit applied.
fn edited_source(text: &str, m: &Mutant) -> String {
    let (s, e) = (m.span.start as usize, m.span.end as usize);
    format!("{}{}{}", &text[..s], m.replacement, &text[e..])
}

#[test]
fn conditional_mutants_select_original_or_edited_behaviour() {
    let mut rng = SplitMix64::new(0x6d75_7461_6e74);
    for (name, text) in models() {
        let sys = parse(name, &text);
        let deterministic = sys.choices.is_empty();
        let mut checked_edits = 0;
        for m in all(&sys) {
            let cm = conditional(&sys, &m)
                .unwrap_or_else(|e| panic!("{name}: mutant {m:?} has no conditional: {e}"));
            // The edited source must be a valid model of the same interface.
            let edited = if deterministic {
                let src = edited_source(&text, &m);
                let parsed = if name.ends_with(".v") {
                    hypermut_verilog::parse_verilog(&[(name, src.as_str())], &Default::default())
                        .map(|l| l.system)
                        .map_err(|e| e.to_string())
                } else {
                    hypermut_smv::parse_smv(name, &src).map_err(|e| e.to_string())
                };
                Some(parsed.unwrap_or_else(|e| {
                    panic!("{name}: the edited source of {m:?} does not parse:\n{e}\n{src}")
                }))
            } else {
                None
            };
            let sel = cm.system.var(cm.mut_var).name.as_str();
            for _ in 0..RUNS {
                // Drawn for the conditional system, so that a choice a mutant adds (`cwd`)
                // is resolved too: in a deterministic model it is site 0, as in the edited
                // source.
                let st = Stimulus::random(&mut rng, &cm.system, FRAMES);
                let original = outputs_by_name(&sys, &st, &[]);
                let off = outputs_by_name(&cm.system, &st, &[(sel, Value::Bool(false))]);
                assert_eq!(
                    off, original,
                    "{name}: mut = 0 differs from the original for {m:?}"
                );
                if let Some(e) = &edited {
                    let on = outputs_by_name(&cm.system, &st, &[(sel, Value::Bool(true))]);
                    let expected = outputs_by_name(e, &st, &[]);
                    assert_eq!(
                        on, expected,
                        "{name}: mut = 1 differs from the edited source for {m:?}"
                    );
                    checked_edits += 1;
                }
            }
        }
        if deterministic {
            assert!(checked_edits > 0, "{name}");
        }
    }
}

#[test]
fn some_mutants_change_behaviour() {
    // Guards against a conditional construction that never switches: on the counter,
    // most mutants differ from the original on some random run.
    let text = super::bundled("smv/counter.smv");
    let sys = parse("counter.smv", &text);
    let mut rng = SplitMix64::new(7);
    let ms = all(&sys);
    let mut differing = 0;
    for m in &ms {
        let cm = conditional(&sys, m).expect("conditional");
        let sel = cm.system.var(cm.mut_var).name.as_str();
        let differs = (0..RUNS).any(|_| {
            let st = Stimulus::random(&mut rng, &cm.system, FRAMES);
            outputs_by_name(&cm.system, &st, &[(sel, Value::Bool(false))])
                != outputs_by_name(&cm.system, &st, &[(sel, Value::Bool(true))])
        });
        differing += usize::from(differs);
    }
    assert!(differing * 2 > ms.len(), "{differing} of {}", ms.len());
}

#[test]
fn one_text_elaborated_twice_is_one_mutant_editing_both_nodes() {
    // Like an unrolled loop body: `v + 1` became `a + 1` and `b + 1`, both with its span.
    use hypermut_ir::{BinOp, ExprKind, Output, Span};
    let mut s = System::new("t");
    let f = s.sources.add("t.v", "v + 1");
    let a = s.add_var("a", Type::ubv(4), Role::Input, None);
    let b = s.add_var("b", Type::ubv(4), Role::Input, None);
    let one = s.bv_const(Type::ubv(4), Value::bits(4, 1u8), Some(Span::new(f, 4, 5)));
    let mut sums = Vec::new();
    for v in [a, b] {
        let r = s.var_ref(v, Some(Span::new(f, 0, 1)));
        let e = s
            .mk(
                ExprKind::Binary(BinOp::Add, r, one),
                Some(Span::new(f, 0, 5)),
            )
            .expect("typed");
        sums.push(e);
        s.outputs.push(Output {
            name: format!("o{}", v.0),
            expr: e,
        });
    }
    let ms = crate::enumerate(&s, &[crate::Operator::Aor]);
    let sub = ms
        .iter()
        .find(|m| m.replacement == "v - 1")
        .expect("the subtraction mutant");
    assert_eq!(ms.iter().filter(|m| m.replacement == "v - 1").count(), 1);
    let mut sites: Vec<_> = sub.sites().collect();
    sites.sort();
    assert_eq!(sites, sums);
    let cm = conditional(&s, sub).expect("conditional");
    let mut frame = Frame::default();
    frame.inputs.insert(a, Value::bits(4, 5u8));
    frame.inputs.insert(b, Value::bits(4, 9u8));
    let run = |m: bool| {
        Interpreter::new(&cm.system)
            .run(
                &HashMap::from([(cm.mut_var, Value::Bool(m))]),
                &[frame.clone()],
            )
            .expect("runs")
            .outputs[0]
            .clone()
    };
    assert_eq!(run(false), vec![Value::bits(4, 6u8), Value::bits(4, 10u8)]);
    assert_eq!(run(true), vec![Value::bits(4, 4u8), Value::bits(4, 8u8)]);
}
