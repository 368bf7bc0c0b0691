//! Deciding one mutant: a kill longer than [`DEEPEST_CLASSIFIED`] frames that reads
//! nondeterminism is kept as needing nd control, unclassified and without allowed outputs,
//! unless three-valued simulation finds it definite; quiet random runs find deep kills; a
//! shallow BMC run finds kills random runs miss before the schedule starts.

use std::path::PathBuf;

use super::*;
use crate::{all_mutants, FrontendOptions, Model};

/// A counter that reaches 280 after 280 steps; the alarm rings there when `x`, chosen
/// nondeterministically (an nd input of the product), is true.
const DEEP_MODEL: &str = "\
-- @output alarm
MODULE main
VAR
  c : 0..300;
  x : boolean;
ASSIGN
  init(c) := 0;
  next(c) := c < 300 ? c + 1 : 300;
  init(x) := FALSE;
  next(x) := {TRUE, FALSE};
DEFINE
  alarm := c = 280 & x;
";

/// The SMV model `text`, written to `name` in `dir` and loaded, and its mutant `original` →
/// `replacement`.
fn model_and_mutant(
    dir: &tempfile::TempDir,
    name: &str,
    text: &str,
    (original, replacement): (&str, &str),
) -> (Model, Mutant) {
    let path: PathBuf = dir.path().join(name);
    std::fs::write(&path, text).expect("written");
    let (model, _) = Model::load(&[path], &FrontendOptions::default()).expect("loads");
    let m = all_mutants(&model.system)
        .into_iter()
        .find(|m| m.original == original && m.replacement == replacement)
        .expect("the mutant exists");
    (model, m)
}

/// [`model_and_mutant`] with the mutant `280` → `281`.
fn model_and_mutant_280(dir: &tempfile::TempDir, name: &str, text: &str) -> (Model, Mutant) {
    model_and_mutant(dir, name, text, ("280", "281"))
}

#[test]
fn a_kill_deeper_than_the_classified_depth_is_kept_as_controlled() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let (model, m) = model_and_mutant_280(&dir, "deep.smv", DEEP_MODEL);
    let options = DecideOptions {
        // BMC reaches the kill frame by frame (every frame is cheap).
        bound: 300,
        replay: false,
        ..DecideOptions::default()
    };
    let decider = Decider::new(&model, &options);
    let d = decider.decide(&m);
    let rec = &d.record;
    assert_eq!(rec.outcome, MutantVerdict::Killed, "{}", rec.reason);
    let depth = rec.depth.expect("a killed mutant has a depth");
    assert!(depth > DEEPEST_CLASSIFIED, "depth {depth}");
    assert_eq!(rec.kill_class, Some(KillClass::Controlled));
    assert!(rec.requires_nd_control);
    assert!(
        rec.reason
            .contains(&format!("longer than {DEEPEST_CLASSIFIED} frames")),
        "{}",
        rec.reason
    );
    let test = d.test.expect("a killed mutant has a test");
    assert!(test.allowed.is_empty());
    assert_eq!(test.kill_class, KillClass::Controlled);
    assert!(test.test.requires_nd_control);
}

/// A counter that any step with `clr` clears, which rings the alarm after 280 quiet steps
/// while each of the 60-bit inputs `w1`…`w4` is not zero (too many BDD variables for BDD
/// reachability);
/// `x`, chosen nondeterministically, is an output of its own.
const QUIET_MODEL: &str = "\
-- @output alarm
-- @output x
MODULE main
IVAR
  clr : boolean;
  w1 : unsigned word[60];
  w2 : unsigned word[60];
  w3 : unsigned word[60];
  w4 : unsigned word[60];
VAR
  c : 0..300;
  x : boolean;
ASSIGN
  init(c) := 0;
  next(c) := clr ? 0 : (c < 300 ? c + 1 : 300);
  next(x) := {TRUE, FALSE};
DEFINE
  alarm := c = 280 & w1 != 0ud60_0 & w2 != 0ud60_0 & w3 != 0ud60_0 & w4 != 0ud60_0;
";

/// Uniform random inputs clear the counter every other step and BMC stops at its bound; the
/// schedule's runs under sparse stimuli reach the alarm, and the test, though longer than
/// [`DEEPEST_CLASSIFIED`] frames, is found definite by three-valued simulation (the alarm
/// does not read `x`).
#[test]
fn quiet_random_runs_kill_deep_and_a_deep_test_can_be_definite() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let (model, m) = model_and_mutant_280(&dir, "quiet.smv", QUIET_MODEL);
    let options = DecideOptions {
        bound: 20,
        ..DecideOptions::default()
    };
    let decider = Decider::new(&model, &options);
    let d = decider.decide(&m);
    let rec = &d.record;
    assert_eq!(rec.outcome, MutantVerdict::Killed, "{}", rec.reason);
    assert_eq!(rec.engine.as_deref(), Some("simulation"), "{}", rec.reason);
    assert!(rec.reason.contains("quiet inputs"), "{}", rec.reason);
    let depth = rec.depth.expect("a killed mutant has a depth");
    assert!(depth > DEEPEST_CLASSIFIED, "depth {depth}");
    assert_eq!(rec.kill_class, Some(KillClass::Definite), "{}", rec.reason);
    assert!(!rec.requires_nd_control);
    assert!(!rec.reason.contains("longer than"), "{}", rec.reason);
    let test = d.test.expect("a killed mutant has a test");
    assert_eq!(test.kill_class, KillClass::Definite);
    // Without replay there are no random runs: a solver's kill, or none in the time.
    let plain = Decider::new(
        &model,
        &DecideOptions {
            replay: false,
            timeout: Duration::from_secs(2),
            ..options.clone()
        },
    );
    let d = plain.decide(&m);
    assert_ne!(d.record.engine.as_deref(), Some("simulation"));
}

/// An alarm one step after power-up when two 48-bit inputs take one value each: random runs
/// miss it (2⁻⁹⁶ per run) and the product is too wide for the BDDs first.
const WIDE_KEY_MODEL: &str = "\
-- @output hit
MODULE main
IVAR
  a : unsigned word[48];
  b : unsigned word[48];
VAR
  armed : boolean;
ASSIGN
  init(armed) := FALSE;
  next(armed) := TRUE;
DEFINE
  hit := armed & a = 0ud48_280 & b = 0ud48_7;
";

/// The shallow BMC run on the unoptimised product kills `0ud48_280` → `0ud48_281` at depth
/// 1 (the test applies `a = 281`), even when the schedule's own BMC stops at depth 0 and
/// nothing else runs.
#[test]
fn a_shallow_kill_is_found_before_the_schedule() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let (model, m) = model_and_mutant(&dir, "wide.smv", WIDE_KEY_MODEL, ("0ud48_280", "0ud48_281"));
    let options = DecideOptions {
        bound: 0,
        prove: false,
        replay: false,
        ..DecideOptions::default()
    };
    let d = Decider::new(&model, &options).decide(&m);
    let rec = &d.record;
    assert_eq!(rec.outcome, MutantVerdict::Killed, "{}", rec.reason);
    assert_eq!(rec.engine.as_deref(), Some("bmc"));
    assert_eq!(rec.depth, Some(1));
    assert_eq!(rec.kill_class, Some(KillClass::Definite), "{}", rec.reason);
    let test = d.test.expect("a killed mutant has a test");
    let a = test.test.frames[1]
        .inputs
        .get("a")
        .expect("input a in step 1");
    assert!(a.contains("281"), "{a}");
}

/// A register toggled when `k` is 1 or 2, beside a 40-bit counter (so that the product is
/// too large for the quick BDD stage).
const EXCLUSIVE_GUARDS_MODEL: &str = "\
-- @output r
MODULE main
IVAR k : 0..7;
VAR c : unsigned word[40]; r : boolean;
ASSIGN
  init(c) := 0ud40_0;
  next(c) := c + 0ud40_1;
  init(r) := FALSE;
  next(r) := case (k = 1) | (k = 2) : !r; c[0:0] = 0ud1_1 : r; TRUE : FALSE; esac;
";

/// `(k = 1) | (k = 2)` → `xor` changes nothing (the two cannot hold together): the
/// correspondence between the copies' twin latches proves it before the schedule, with the
/// one twin pair as the certificate, which the separate checker accepts.
#[test]
fn exclusive_guards_are_proved_by_twin_correspondence() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let (model, m) = model_and_mutant(
        &dir,
        "guards.smv",
        EXCLUSIVE_GUARDS_MODEL,
        ("(k = 1) | (k = 2)", "(k = 1) xor (k = 2)"),
    );
    let mp = MutantProduct::build(&model.system, &m).expect("product");
    assert!(
        mp.product.aig.inputs.len() + 2 * mp.product.aig.latches.len() > QUICK_BDD_VARIABLES,
        "the product must be too large for the quick BDD stage"
    );
    let decider = Decider::new(&model, &DecideOptions::default());
    let (engine, verdict) = decider
        .quick_stages(&mp.product, &Limits::none())
        .expect("a quick stage decides");
    assert_eq!(engine, "scorr");
    let Verdict::Safe(cert) = verdict else {
        panic!("not proved: {verdict:?}");
    };
    let Certificate::Equalities { pairs } = &cert else {
        panic!("not an equality certificate: {cert:?}");
    };
    let unordered = |ps: &[(Lit, Lit)]| {
        let mut out: Vec<(Lit, Lit)> = ps.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        out.sort_unstable();
        out
    };
    assert_eq!(unordered(pairs), unordered(&mp.product.twins));
    hypermut_prove::check_certificate(&mp.product.aig, &cert).expect("the certificate checks");
    let d = decider.decide(&m);
    assert_eq!(
        d.record.outcome,
        MutantVerdict::Equivalent,
        "{}",
        d.record.reason
    );
    assert_eq!(d.record.engine.as_deref(), Some("scorr"));
    assert!(d.certificate.is_some());
}
