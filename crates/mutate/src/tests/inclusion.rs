//! The inclusion transform (`inclusion.rs`, docs/method.md §4.6), checked with the IR
//! interpreter: φ1 decided by brute force (every input and choice sequence of a few frames,
//! both copies fed the same), and the soundness claim itself (the original copy of the
//! rewritten system only ever runs like the original model).

use std::collections::HashMap;

use hypermut_ir::{ExprKind, Frame, Interpreter, Output, Role, Span, System, Type, Value, VarId};
use hypermut_testkit::sim::{value_of_code, Stimulus};
use hypermut_testkit::SplitMix64;

use super::choices::{behaviours, FRAMES};
use super::{bundled, parse};
use crate::conditional::conditional;
use crate::edit::Edit;
use crate::enumerate;
use crate::inclusion::{mimic_system, MEMBER_FAIL};
use crate::operators::{Mutant, Operator};
use crate::ConditionalMutant;

/// Every value of a small type.
fn values(sys: &System, ty: Type) -> Vec<Value> {
    let n = ty.cardinality(&sys.enums).expect("a finite type");
    assert!(n <= 16, "small types only");
    (0..n).map(|k| value_of_code(sys, ty, k)).collect()
}

/// Every frame: each combination of input values and choice indices of `sys`.
fn all_frames(sys: &System) -> Vec<Frame> {
    let mut frames = vec![Frame::default()];
    for (i, v) in sys.vars.iter().enumerate() {
        if v.role != Role::Input {
            continue;
        }
        let vals = values(sys, v.ty);
        frames = frames
            .into_iter()
            .flat_map(|f| {
                vals.iter().map(move |x| {
                    let mut g = f.clone();
                    g.inputs.insert(VarId(i as u32), x.clone());
                    g
                })
            })
            .collect();
    }
    for (i, c) in sys.choices.iter().enumerate() {
        frames = frames
            .into_iter()
            .flat_map(|f| {
                (0..c.arity).map(move |k| {
                    let mut g = f.clone();
                    g.choices.insert(hypermut_ir::ChoiceId(i as u32), k);
                    g
                })
            })
            .collect();
    }
    frames
}

/// A state of the interpreter.
type State = Vec<Option<Value>>;

/// φ1 by brute force: the first sequence of at most `depth` frames (every input and choice
/// sequence, shared by both copies) on which the copies `mut = 0` and `mut = 1` of `cm`
/// produce different outputs, as the depth of the difference.
fn brute_force_kill(cm: &ConditionalMutant, depth: usize) -> Option<usize> {
    let sys = &cm.system;
    let interp = Interpreter::new(sys);
    let choices = all_frames(sys);
    let init = |b: bool| HashMap::from([(cm.mut_var, Value::Bool(b))]);
    // Pairs of states (original copy, mutant copy) reached with equal outputs so far;
    // `None` before frame 0.
    let mut pairs: Vec<Option<(State, State)>> = vec![None];
    for k in 0..depth {
        let mut next = Vec::new();
        for pair in &pairs {
            for f in &choices {
                let (a, b) = match pair {
                    Some(p) => p.clone(),
                    None => (
                        interp
                            .initial_state(f, &init(false))
                            .expect("initial state"),
                        interp.initial_state(f, &init(true)).expect("initial state"),
                    ),
                };
                if interp.outputs(&a, f).expect("outputs")
                    != interp.outputs(&b, f).expect("outputs")
                {
                    return Some(k);
                }
                let step = |s: &[Option<Value>]| interp.step(s, f).expect("step");
                let p = Some((step(&a), step(&b)));
                if !next.contains(&p) {
                    next.push(p);
                }
            }
        }
        pairs = next;
    }
    None
}

fn beverage() -> (String, System) {
    let text = bundled("smv/beverage.smv");
    let sys = parse("beverage.smv", &text);
    (text, sys)
}

fn cad(sys: &System, replacement: &str) -> Mutant {
    enumerate(sys, &[Operator::Cad])
        .into_iter()
        .find(|m| m.replacement == replacement)
        .expect("the narrowing")
}

#[test]
fn coffee_only_is_proved_by_the_mimic_and_killed_by_plain_phi1() {
    let (_, sys) = beverage();
    for only in ["coff", "tea"] {
        let cm = conditional(&sys, &cad(&sys, only)).expect("conditional");
        // Plain φ1: the shared nd input makes the original serve the other drink.
        assert_eq!(brute_force_kill(&cm, 4), Some(1), "{only}");
        let mimic = mimic_system(&cm).expect("a narrowing of a choice");
        let last = mimic.system.outputs.last().expect("an output");
        assert_eq!(last.name, MEMBER_FAIL);
        assert_eq!(mimic.system.outputs.len(), sys.outputs.len() + 1);
        assert_eq!(brute_force_kill(&mimic, 6), None, "{only}");
    }
}

#[test]
fn a_widened_constant_is_not_a_choice_site() {
    let (text, sys) = beverage();
    let refill = text.find("wtr = 0 : 2").expect("refill") + "wtr = 0 : ".len();
    let m = enumerate(&sys, &[Operator::Cwd])
        .into_iter()
        .find(|m| m.span.start as usize == refill)
        .expect("the widening");
    let cm = conditional(&sys, &m).expect("conditional");
    assert!(mimic_system(&cm).is_none());
    // And it is killable (1 ∉ {2}).
    assert!(brute_force_kill(&cm, 6).is_some());
}

/// `next(x) := {1, 2}` over `x : 0..3` with output `x`, built in the IR; the choice node.
fn set_system() -> (System, hypermut_ir::ExprId) {
    let mut s = System::new("t");
    let f = s.sources.add("t.smv", "{1, 2}");
    let x = s.add_var("x", Type::Int { lo: 0, hi: 3 }, Role::State, None);
    let one = s.int_const(1, Some(Span::new(f, 1, 2)));
    let two = s.int_const(2, Some(Span::new(f, 4, 5)));
    let c = s
        .choice(vec![one, two], Some(Span::new(f, 0, 6)))
        .expect("typed");
    let zero = s.int_const(0, None);
    s.vars[0].init = Some(zero);
    s.vars[0].next = Some(c);
    let xr = s.var_ref(x, None);
    s.outputs.push(Output {
        name: "x".into(),
        expr: xr,
    });
    (s, c)
}

/// A mutant of `site` with `edit`, written by hand (no operator proposes it).
fn hand_made(site: hypermut_ir::ExprId, edit: Edit) -> Mutant {
    Mutant {
        id: 0,
        operator: Operator::Cwd,
        site,
        extra_sites: vec![],
        span: Span::new(hypermut_ir::FileId(0), 0, 6),
        original: "{1, 2}".into(),
        replacement: String::new(),
        edit,
    }
}

#[test]
fn a_value_outside_the_alternatives_is_reported() {
    let (s, c) = set_system();
    // `{1, 2}` → `{1, 3}`: 3 is no alternative of the original.
    let widen = Edit::Widen {
        site: s.choices.len() as u32,
        values: vec![Value::Int(1), Value::Int(3)],
    };
    let cm = conditional(&s, &hand_made(c, widen)).expect("conditional");
    let mimic = mimic_system(&cm).expect("the site is a choice");
    // The membership is checked in every frame: it fails in frame 0 when the mutant's
    // choice takes 3.
    assert_eq!(brute_force_kill(&mimic, 3), Some(0));
    // `{1, 2}` → `{2, 1}`: the same alternatives in another order are included.
    let swap = Edit::Widen {
        site: s.choices.len() as u32,
        values: vec![Value::Int(2), Value::Int(1)],
    };
    let cm = conditional(&s, &hand_made(c, swap)).expect("conditional");
    assert!(
        brute_force_kill(&cm, 3).is_some(),
        "plain φ1 pairs them by position"
    );
    let mimic = mimic_system(&cm).expect("the site is a choice");
    assert_eq!(brute_force_kill(&mimic, 3), None);
}

#[test]
fn the_transform_refuses_only_a_site_read_elsewhere() {
    let (s, c) = set_system();
    let x = s.var_by_name("x").expect("x");
    // e′ reads the state: accepted (the original copy computes it in its own state).
    let cm = conditional(&s, &hand_made(c, Edit::Var(x))).expect("conditional");
    assert!(mimic_system(&cm).is_some());
    // The site's choice is also read by another node (same site, other alternatives).
    let mut t = s.clone();
    let ExprKind::Choice { id, options } = t.exprs.node(c).kind.clone() else {
        panic!("a choice")
    };
    let other = t
        .mk(
            ExprKind::Choice {
                id,
                options: vec![options[1], options[0]],
            },
            None,
        )
        .expect("typed");
    t.outputs.push(Output {
        name: "o".into(),
        expr: other,
    });
    let cm = conditional(&t, &hand_made(c, Edit::Child(0))).expect("conditional");
    assert!(mimic_system(&cm).is_none());
    // Without the other reader the same mutant is accepted.
    let cm = conditional(&s, &hand_made(c, Edit::Child(0))).expect("conditional");
    assert!(mimic_system(&cm).is_some());
}

/// The soundness claim of docs/method.md §4.6 on every narrowing of the nondeterministic
/// bundled models: the original copy of the rewritten system (`mut = 0`) has only
/// behaviours of the original model, and since nothing is widened, the membership never
/// fails (also where the kept alternative reads state: the timed car alarm's `{t, t + 1}`).
#[test]
fn every_narrowing_is_rewritten_and_its_original_copy_is_an_original_run() {
    let mut rng = SplitMix64::new(0x696e_636c);
    for (name, path, applies) in [
        ("beverage.smv", "smv/beverage.smv", true),
        ("car_alarm_timed.smv", "smv/car_alarm_timed.smv", true),
        ("mutex.smv", "smv/mutex.smv", true),
        ("car_alarm_timed.v", "verilog/car_alarm_timed.v", true),
    ] {
        let sys = parse(name, &bundled(path));
        let names: Vec<String> = sys.outputs.iter().map(|o| o.name.clone()).collect();
        let narrowings = enumerate(&sys, &[Operator::Cad]);
        assert!(!narrowings.is_empty(), "{name}");
        for m in &narrowings {
            let cm = conditional(&sys, m).expect("conditional");
            let Some(mimic) = mimic_system(&cm) else {
                assert!(!applies, "{name}: {m:?}");
                continue;
            };
            assert!(applies, "{name}: {m:?}");
            let sel = mimic.system.var(mimic.mut_var).name.clone();
            let fail = [MEMBER_FAIL.to_string()];
            for _ in 0..2 {
                let st = Stimulus::random(&mut rng, &sys, FRAMES);
                let copy_a = [(sel.as_str(), Value::Bool(false))];
                let a = behaviours(&mimic.system, &st, &copy_a, &names);
                let original = behaviours(&sys, &st, &[], &names);
                let extra: Vec<_> = a.difference(&original).take(2).collect();
                assert!(extra.is_empty(), "{name}: {m:?}: {extra:?}");
                let flags = behaviours(&mimic.system, &st, &copy_a, &fail);
                assert!(
                    flags.iter().all(|t| !t.contains("true")),
                    "{name}: {m:?}: {flags:?}"
                );
            }
        }
    }
}
