//! The choice operators `cad` and `cwd` (`ops/choices.rs`): expected mutants on small SMV
//! and Verilog models and on the paper's beverage machine (Example 3), and their meaning.
//! A mutant of a nondeterministic model has a set of behaviours, so the conditional mutant
//! and the emitted sources are compared by the sets of output traces they can produce on
//! the same inputs, over every resolution of their choices.

use std::collections::{BTreeSet, HashMap, HashSet};

use hypermut_ir::{
    ChoiceId, ConstraintKind, EvalError, Frame, Interpreter, Role, System, Value, VarId,
};
use hypermut_testkit::sim::Stimulus;
use hypermut_testkit::SplitMix64;

use super::tables::{check_table, Row};
use super::{bundled, parse, VERILOG_MODEL};
use crate::conditional::conditional;
use crate::emit::{conditional_source, mutant_source};
use crate::enumerate;
use crate::operators::{Mutant, Operator};
use crate::syntax::Syntax;

/// Choices and constants in every position the operators distinguish.
const CHOICE_SMV: &str = "\
-- @output x, y, b, w
MODULE main
IVAR go : boolean;
VAR x : 0..3; y : {red, green, blue}; b : boolean; w : unsigned word[3];
ASSIGN
  init(x) := 0;
  next(x) := case go : {1, 2, 3}; x = 3 : 3; TRUE : x; esac;
  init(y) := red;
  next(y) := {red, green, blue};
  init(b) := FALSE;
  next(b) := go ? TRUE : b;
  init(w) := 0ud3_7;
  next(w) := case go : 0ud3_2; TRUE : w + 0ud3_1; esac;
";

const CHOICE_SMV_PRESENT: &[Row] = &[
    ("cad", "{1, 2, 3}", "{2, 3}"),
    ("cad", "{1, 2, 3}", "{1, 3}"),
    ("cad", "{1, 2, 3}", "{1, 2}"),
    ("cad", "{red, green, blue}", "{green, blue}"),
    ("cad", "{red, green, blue}", "{red, blue}"),
    ("cad", "{red, green, blue}", "{red, green}"),
    ("cwd", "0", "{0, 1}"),
    ("cwd", "TRUE", "{FALSE, TRUE}"),
    ("cwd", "FALSE", "{FALSE, TRUE}"),
    ("cwd", "0ud3_7", "{0ud3_6, 0ud3_7}"),
    ("cwd", "0ud3_2", "{0ud3_1, 0ud3_2}"),
    ("cwd", "0ud3_2", "{0ud3_2, 0ud3_3}"),
];

const CHOICE_SMV_ABSENT: &[Row] = &[
    // Out of the variables' ranges: x : 0..3, w : unsigned word[3].
    ("cwd", "0", "{-1, 0}"),
    ("cwd", "3", "{3, 4}"),
    ("cwd", "0ud3_7", "{0ud3_7, 0ud3_8}"),
    // An operand of arithmetic is no assigned value.
    ("cwd", "0ud3_1", "{0ud3_0, 0ud3_1}"),
    ("cwd", "0ud3_1", "{0ud3_1, 0ud3_2}"),
    // Enumerations are not widened.
    ("cwd", "red", "{red, green}"),
];

/// A VIS-style design: `$ND` with plain and compound alternatives, signed and unsigned.
const ND_VERILOG: &str = "\
module nd(input clk, input go, input [1:0] d, output reg [2:0] q, output reg [1:0] r,
          output reg f, output reg [2:0] s, output reg [1:0] u, output reg [1:0] v);
  initial begin q = 3'd0; r = 2'd1; f = 1'b0; s = 3'd0; u = 2'd0; v = 2'd0; end
  always @(posedge clk) begin
    if (go) q <= $ND(3'd1, 3'd2, q);
    else q <= 3'd7;
    r <= $ND(d, 2'd3);
    f <= (q == 3'd4) ? 1'b1 : f;
    s <= $ND(d + 2'd1, 2'd0);
    u <= $ND(2, d);
    v <= ND_2(d, 2'd1, 2'd2);
  end
endmodule
";

/// The parts of [`ND_VERILOG`] whose meaning is checked by running them: fewer choices, so
/// that every resolution of three frames can be tried.
const ND_VERILOG_SMALL: &str = "\
module nds(input clk, input go, input [1:0] d, output reg [2:0] q, output reg [2:0] s,
           output reg [1:0] u);
  initial begin q = 3'd0; s = 3'd0; u = 2'd0; end
  always @(posedge clk) begin
    if (go) q <= $ND(3'd1, 3'd2, q);
    else q <= 3'd7;
    s <= $ND(d + 2'd1, 2'd0);
    u <= $ND(2, d);
  end
endmodule
";

const ND_VERILOG_PRESENT: &[Row] = &[
    ("cad", "$ND(3'd1, 3'd2, q)", "$ND(3'd2, q)"),
    ("cad", "$ND(3'd1, 3'd2, q)", "$ND(3'd1, q)"),
    ("cad", "$ND(3'd1, 3'd2, q)", "$ND(3'd1, 3'd2)"),
    ("cad", "$ND(d, 2'd3)", "d"),
    ("cad", "$ND(d, 2'd3)", "2'd3"),
    ("cad", "$ND(d + 2'd1, 2'd0)", "2'd0"),
    ("cad", "$ND(2, d)", "d"),
    ("cad", "ND_2(d, 2'd1, 2'd2)", "ND_2(d, 2'd2)"),
    ("cwd", "3'd0", "$ND(3'd0, 3'd1)"),
    ("cwd", "2'd1", "$ND(2'd0, 2'd1)"),
    ("cwd", "2'd1", "$ND(2'd1, 2'd2)"),
    ("cwd", "3'd7", "$ND(3'd6, 3'd7)"),
    ("cwd", "1'b1", "$ND(1'b0, 1'b1)"),
    ("cwd", "1'b0", "$ND(1'b0, 1'b1)"),
];

const ND_VERILOG_ABSENT: &[Row] = &[
    // `d + 2'd1` is computed at the `$ND`'s two bits; alone it would be computed at s's three.
    ("cad", "$ND(d + 2'd1, 2'd0)", "d + 2'd1"),
    ("cad", "$ND(d + 2'd1, 2'd0)", "(d + 2'd1)"),
    // `2` is signed, `$ND(2, d)` is not: alone it could change the signedness around it.
    ("cad", "$ND(2, d)", "2"),
    // 3'd7 is q's largest value.
    ("cwd", "3'd7", "$ND(3'd7, 3'd8)"),
    // A comparison operand is no assigned value.
    ("cwd", "3'd4", "$ND(3'd3, 3'd4)"),
    ("cwd", "3'd4", "$ND(3'd4, 3'd5)"),
];

#[test]
fn smv_choice_operators_give_the_expected_texts() {
    check_table("c.smv", CHOICE_SMV, CHOICE_SMV_PRESENT, CHOICE_SMV_ABSENT);
}

#[test]
fn verilog_choice_operators_give_the_expected_texts() {
    check_table("nd.v", ND_VERILOG, ND_VERILOG_PRESENT, ND_VERILOG_ABSENT);
}

#[test]
fn every_choice_mutant_reads_back() {
    for (name, text) in [("c.smv", CHOICE_SMV), ("nd.v", ND_VERILOG)] {
        let sys = parse(name, text);
        let ms = enumerate(&sys, &[Operator::Cad, Operator::Cwd]);
        assert!(ms.len() > 10, "{name}: {ms:?}");
        for m in &ms {
            parse(name, &mutant_source(&sys, m).expect("source").text);
            conditional_systems(name, &sys, m);
        }
    }
}

/// The mutants of `text` (parsed as `name`) by `op` whose range starts at the `k`-th byte of
/// the first occurrence of `needle`.
fn at(name: &str, text: &str, op: Operator, needle: &str, k: usize) -> Vec<String> {
    let sys = parse(name, text);
    let pos = text.find(needle).expect("needle in text") + k;
    enumerate(&sys, &[op])
        .into_iter()
        .filter(|m| m.span.start as usize == pos)
        .map(|m| m.replacement)
        .collect()
}

#[test]
fn guards_and_comparison_operands_are_not_widened() {
    // `x = 3 : 3;`: the guard's 3 is compared, the value 3 is assigned.
    let guard = at("c.smv", CHOICE_SMV, Operator::Cwd, "x = 3 : 3", 4);
    assert!(guard.is_empty(), "{guard:?}");
    let value = at("c.smv", CHOICE_SMV, Operator::Cwd, "x = 3 : 3", 8);
    assert_eq!(value, ["{2, 3}"]);
    // `TRUE : x` is a guard.
    assert!(at("c.smv", CHOICE_SMV, Operator::Cwd, "TRUE : x", 0).is_empty());
    let verilog = at("nd.v", ND_VERILOG, Operator::Cwd, "3'd4", 0);
    assert!(verilog.is_empty(), "{verilog:?}");
}

#[test]
fn beverage_machine_gives_the_mutants_of_example_3() {
    let text = bundled("smv/beverage.smv");
    let serve = "{coff, tea}";
    let mut narrowed = at("beverage.smv", &text, Operator::Cad, serve, 0);
    narrowed.sort();
    assert_eq!(narrowed, ["coff", "tea"]);
    // The refill constant of `inp = fill & wtr = 0 : 2;`, with wtr : 0..2.
    let refill = "wtr = 0 : 2";
    let widened = at(
        "beverage.smv",
        &text,
        Operator::Cwd,
        refill,
        refill.len() - 1,
    );
    assert_eq!(widened, ["{1, 2}"]);
    // The listing of `hypermut mutants` is every operator's: the three are in it.
    let sys = parse("beverage.smv", &text);
    let all = super::all(&sys);
    for (op, original, replacement) in [
        (Operator::Cad, serve, "coff"),
        (Operator::Cad, serve, "tea"),
        (Operator::Cwd, "2", "{1, 2}"),
    ] {
        assert!(
            all.iter().any(|m| m.operator == op
                && m.original == original
                && m.replacement == replacement),
            "{op:?} {original} -> {replacement}"
        );
    }
}

#[test]
fn verilog_without_nd_gets_no_choice_mutants() {
    for (name, text) in [
        ("t.v", VERILOG_MODEL.to_string()),
        ("arbiter.v", bundled("verilog/arbiter.v")),
        ("car_alarm.v", bundled("verilog/car_alarm.v")),
    ] {
        let sys = parse(name, &text);
        assert!(sys.choices.is_empty(), "{name} has no $ND");
        let ms = enumerate(&sys, &[Operator::Cad, Operator::Cwd]);
        assert!(ms.is_empty(), "{name}: {ms:?}");
    }
    // The same constants do get widened once the design uses `$ND` somewhere.
    let with_nd = VERILOG_MODEL.replace("y <= ~y;", "y <= $ND(~y, y);");
    let sys = parse("t.v", &with_nd);
    let widened = enumerate(&sys, &[Operator::Cwd]);
    assert!(
        widened
            .iter()
            .any(|m| m.original == "4'd0" && m.replacement == "$ND(4'd0, 4'd1)"),
        "{widened:?}"
    );
}

#[test]
fn a_widening_adds_one_choice_site_after_the_models_own() {
    let text = bundled("smv/beverage.smv");
    let sys = parse("beverage.smv", &text);
    for m in enumerate(&sys, &[Operator::Cwd]) {
        let cm = conditional(&sys, &m).expect("conditional");
        assert_eq!(cm.system.choices.len(), sys.choices.len() + 1, "{m:?}");
    }
    // `cad` keeps the model's sites.
    for m in enumerate(&sys, &[Operator::Cad]) {
        let cm = conditional(&sys, &m).expect("conditional");
        assert_eq!(cm.system.choices.len(), sys.choices.len(), "{m:?}");
    }
}

/// The models the meaning of the choice mutants is checked on.
fn nondeterministic_models() -> Vec<(&'static str, String)> {
    vec![
        ("beverage.smv", bundled("smv/beverage.smv")),
        ("car_alarm_timed.smv", bundled("smv/car_alarm_timed.smv")),
        ("mutex.smv", bundled("smv/mutex.smv")),
        ("c.smv", CHOICE_SMV.to_string()),
        ("nds.v", ND_VERILOG_SMALL.to_string()),
        ("car_alarm_timed.v", bundled("verilog/car_alarm_timed.v")),
    ]
}

/// Frames of the runs whose behaviours are compared.
pub(super) const FRAMES: usize = 3;
/// Bound on the number of (state, trace) pairs explored per frame.
const FRONTIER: usize = 50_000;

/// Every choice resolution of one frame: `frame` with each combination of indices.
fn resolutions(sys: &System, frame: &Frame) -> Vec<Frame> {
    let mut out = vec![frame.clone()];
    for (i, c) in sys.choices.iter().enumerate() {
        out = out
            .into_iter()
            .flat_map(|f| {
                (0..c.arity.max(1)).map(move |k| {
                    let mut g = f.clone();
                    g.choices.insert(ChoiceId(i as u32), k);
                    g
                })
            })
            .collect();
    }
    out
}

/// Every trace of the outputs `names` of `sys` on the inputs of `st`, over every choice
/// resolution in every frame, with the initial values `fixed` (by name): explored frame by
/// frame, keeping each distinct pair of state and trace so far. A frame whose constraints
/// fail is marked `!`; a run that cannot go on (a value out of range) ends in `-`.
pub(super) fn behaviours(
    sys: &System,
    st: &Stimulus,
    fixed: &[(&str, Value)],
    names: &[String],
) -> BTreeSet<String> {
    let interp = Interpreter::new(sys);
    let init: HashMap<VarId, Value> = st
        .init
        .iter()
        .map(|(n, v)| (n.as_str(), v))
        .chain(fixed.iter().map(|(n, v)| (*n, v)))
        .filter_map(|(n, v)| sys.var_by_name(n).map(|id| (id, v.clone())))
        .collect();
    let columns: Vec<Option<usize>> = names
        .iter()
        .map(|n| sys.outputs.iter().position(|o| &o.name == n))
        .collect();
    let mut ended = BTreeSet::new();
    // `None` before frame 0: the initial state depends on frame 0's choices.
    let mut frontier: HashSet<(Option<Vec<Option<Value>>>, String)> =
        HashSet::from([(None, String::new())]);
    for (k, frame) in st.frames(sys).iter().enumerate() {
        let mut next_frontier = HashSet::new();
        for (state, trace) in &frontier {
            for r in resolutions(sys, frame) {
                let kinds: &[ConstraintKind] = if k == 0 {
                    &[
                        ConstraintKind::Init,
                        ConstraintKind::Invariant,
                        ConstraintKind::Trans,
                    ]
                } else {
                    &[ConstraintKind::Invariant, ConstraintKind::Trans]
                };
                let step = || -> Result<(Vec<Option<Value>>, String), EvalError> {
                    let s = match state {
                        Some(s) => s.clone(),
                        None => interp.initial_state(&r, &init)?,
                    };
                    let outs = interp.outputs(&s, &r)?;
                    let next = interp.step(&s, &r)?;
                    let ok = interp.constraints_hold(kinds, &s, &r, Some(&next))?;
                    let shown: Vec<String> = columns
                        .iter()
                        .zip(names)
                        .map(|(c, n)| format!("{n}={:?}", c.map(|c| &outs[c])))
                        .collect();
                    let mark = if ok { "" } else { "!" };
                    Ok((next, format!("{trace}{}{mark} | ", shown.join(","))))
                };
                match step() {
                    Ok((next, t)) => {
                        next_frontier.insert((Some(next), t));
                    }
                    Err(_) => {
                        ended.insert(format!("{trace}-"));
                    }
                }
            }
        }
        assert!(
            next_frontier.len() <= FRONTIER,
            "{} pairs",
            next_frontier.len()
        );
        frontier = next_frontier;
    }
    ended.extend(frontier.into_iter().map(|(_, t)| t));
    ended
}

/// Asserts that two sets of traces are equal, showing a few traces in only one of them.
pub(super) fn same_sets(got: &BTreeSet<String>, want: &BTreeSet<String>, what: &str) {
    let extra: Vec<_> = got.difference(want).take(2).collect();
    let missing: Vec<_> = want.difference(got).take(2).collect();
    assert!(
        extra.is_empty() && missing.is_empty(),
        "{what}: {} traces, {} expected\nonly got: {extra:#?}\nonly expected: {missing:#?}",
        got.len(),
        want.len()
    );
}

/// The emitted conditional source of `m`, read back with the selector off and on (SMV: one
/// system with a frozen selector; Verilog: the parameter's default and the parameter set).
fn conditional_systems(name: &str, sys: &System, m: &Mutant) -> (System, System, String) {
    let c = conditional_source(sys, m).unwrap_or_else(|e| panic!("{name}: {m:?}: {e}"));
    let sel = c.selector.clone().expect("selector");
    match c.syntax {
        Syntax::Smv => {
            let cs = parse(name, &c.text);
            let v = cs.var_by_name(&sel).expect("selector variable");
            assert_eq!(cs.var(v).role, Role::Frozen);
            (cs.clone(), cs, sel)
        }
        Syntax::Verilog => {
            let decl = format!("{sel} = 1'b0");
            assert_eq!(c.text.matches(&decl).count(), 1, "{}", c.text);
            let on = c.text.replace(&decl, &format!("{sel} = 1'b1"));
            (parse(name, &c.text), parse(name, &on), sel)
        }
    }
}

/// For every `cad` and `cwd` mutant: the edited source and the conditional source read back,
/// and on random inputs the conditional mutant (mut = 1), the edited source and the
/// conditional source with its selector on can produce exactly the same output traces;
/// with the selector off, the conditional mutant and source exactly the original's.
#[test]
fn choice_mutants_mean_what_their_texts_say() {
    let mut rng = SplitMix64::new(0x6368_6f69_6365);
    for (name, text) in nondeterministic_models() {
        let sys = parse(name, &text);
        let names: Vec<String> = sys.outputs.iter().map(|o| o.name.clone()).collect();
        let ms = enumerate(&sys, &[Operator::Cad, Operator::Cwd]);
        assert!(!ms.is_empty(), "{name}");
        for m in &ms {
            let cm = conditional(&sys, m).expect("conditional");
            let sel = cm.system.var(cm.mut_var).name.as_str();
            let edited = mutant_source(&sys, m).expect("emitted");
            let mutant = parse(name, &edited.text);
            let (off, on, csel) = conditional_systems(name, &sys, m);
            let st = Stimulus::random(&mut rng, &sys, FRAMES);
            let set = |s: &System, fixed: &[(&str, Value)]| behaviours(s, &st, fixed, &names);
            let original = set(&sys, &[]);
            let expected = set(&mutant, &[]);
            assert!(
                !expected.iter().any(|t| t.ends_with('-')),
                "{name}: {m:?} fails to run"
            );
            let (no, yes) = (Value::Bool(false), Value::Bool(true));
            let what = |w: &str| format!("{name}: {w} for {} → {}", m.original, m.replacement);
            same_sets(
                &set(&cm.system, &[(sel, no.clone())]),
                &original,
                &what("mut = 0"),
            );
            same_sets(
                &set(&cm.system, &[(sel, yes.clone())]),
                &expected,
                &what("mut = 1"),
            );
            same_sets(&set(&off, &[(&csel, no)]), &original, &what("source, off"));
            same_sets(&set(&on, &[(&csel, yes)]), &expected, &what("source, on"));
            // A narrowing has no behaviour the original lacks.
            if m.operator == Operator::Cad {
                let extra: Vec<_> = expected.difference(&original).take(2).collect();
                assert!(extra.is_empty(), "{}: {extra:?}", what("narrowing"));
            }
        }
    }
}

#[test]
fn a_refill_of_one_unit_is_a_new_behaviour() {
    // Request twice (the tank is empty), fill, request twice: the original serves both
    // requests after the refill; with the refill `{1, 2}` the mutant may serve only one.
    let text = bundled("smv/beverage.smv");
    let sys = parse("beverage.smv", &text);
    let refill = text.find("wtr = 0 : 2").expect("refill line") + "wtr = 0 : ".len();
    let m = enumerate(&sys, &[Operator::Cwd])
        .into_iter()
        .find(|m| m.span.start as usize == refill)
        .expect("the refill widening");
    let mutant = parse(
        "beverage.smv",
        &mutant_source(&sys, &m).expect("source").text,
    );
    let value = |v: &str| {
        let e = sys.enums.iter().find_map(|e| e.index_of(v)).expect("value");
        HashMap::from([("inp".to_string(), Value::Enum(e))])
    };
    let st = Stimulus {
        inputs: ["req", "req", "fill", "req", "req", "none"]
            .iter()
            .map(|v| value(v))
            .collect(),
        ..Stimulus::default()
    };
    let names = ["out".to_string()];
    let original = behaviours(&sys, &st, &[], &names);
    let widened = behaviours(&mutant, &st, &[], &names);
    assert!(original.is_subset(&widened));
    let new: Vec<_> = widened.difference(&original).collect();
    assert!(!new.is_empty());
    // Every new trace ends without a drink where the original serves one.
    for t in new {
        assert!(t.ends_with("out=Some(Enum(0)) | "), "{t}");
    }
}
