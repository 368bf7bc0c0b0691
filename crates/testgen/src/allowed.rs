//! Locally adaptive tests (`docs/method.md` §4.1.1): for every step of a killing test, the
//! outputs the original may produce there, given the test's inputs and the expected outputs of
//! the earlier steps, with the original's nondeterminism left free. A runner uses them to tell
//! a system that fails the test from one that took another allowed branch ([`judge`]).

use std::collections::{BTreeMap, HashSet};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use hypermut_aig::sim::initial_state;
use hypermut_aig::{simulate, Lit, Reset, SimTrace};
use hypermut_hyper::{fixed_copy, HyperError, MutantProduct};
use hypermut_ir::{Role, Value, VarId};
use hypermut_prove::{values_per_frame, Enumerated, KnownRun, Runs};

use crate::error::Result;

/// The output valuations the original allows at one step of a test.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllowedOutputs {
    /// Each allowed valuation: output name → value, spelled like the test's `outputs`.
    pub values: Vec<BTreeMap<String, String>>,
    /// Set when the original allows more valuations than `values` lists (the cap was reached):
    /// an unlisted valuation may then be allowed too.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub capped: bool,
}

/// What a runner concludes from the outputs a system under test produced at one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StepVerdict {
    /// The outputs are the test's: go on with the next step (the test passes if every step
    /// does).
    Pass,
    /// The outputs are not the test's but the original allows them: the run left the test's
    /// branch, and the test says nothing about the system; stop.
    Inconclusive,
    /// No run of the original produces these outputs here: the system fails; stop.
    Fail,
}

/// Which inputs of `mp.blasted.aig` are the original's nondeterminism, to be left free: the
/// bits of the nd inputs (choices, free next values, power-up values), and with `x_inputs`
/// (a Verilog design read with `--x-as-input`) the bits of the `x.…` inputs too. The answer
/// is the `private` argument of [`allowed_outputs`].
pub fn nondeterministic_inputs(mp: &MutantProduct, x_inputs: bool) -> Vec<bool> {
    let c = &mp.blasted;
    let sys = &mp.conditional.system;
    let nd: HashSet<VarId> = mp.nd.iter().map(|n| n.var).collect();
    // The names the Verilog front-end gives to the bits of `x` literals.
    let is_x = |v: VarId| {
        let var = sys.var(v);
        x_inputs && var.role == Role::Input && var.name.starts_with("x.")
    };
    let mut private = vec![false; c.aig.inputs.len()];
    for vb in c
        .inputs
        .iter()
        .filter(|vb| nd.contains(&vb.var) || is_x(vb.var))
    {
        for i in vb.bits.iter().filter_map(|b| c.aig.input_index(*b)) {
            private[i] = true;
        }
    }
    private
}

/// The allowed outputs of steps `0..=depth` of a test (`docs/method.md` §4.1.1).
///
/// `run_inputs[f][i]` is the value of input `i` of `mp.blasted.aig` in frame `f` of the
/// original's run the test comes from (the product witness's input vectors: the product's
/// inputs are the conditional mutant's, in the same order; `x` reads as 0, as in the test
/// file). Inputs with `private[i]` (see [`nondeterministic_inputs`]) are left free; the others
/// are the test's inputs. The expected outputs of the earlier steps are those of the original
/// on `run_inputs`. At most `cap` valuations are listed per step. A search stopped at
/// `deadline` is an error ([`hypermut_prove::BmcError::Interrupted`]).
pub fn allowed_outputs(
    mp: &MutantProduct,
    private: &[bool],
    run_inputs: &[Vec<Option<bool>>],
    depth: usize,
    cap: usize,
    deadline: Option<Instant>,
) -> Result<Vec<AllowedOutputs>> {
    let c = &mp.blasted;
    let n_inputs = c.aig.inputs.len();
    let shape = |msg: String| HyperError::WitnessShape(msg);
    if run_inputs.len() <= depth {
        return Err(shape(format!(
            "{} frames of inputs for a test of {} steps",
            run_inputs.len(),
            depth + 1
        ))
        .into());
    }
    if let Some((f, v)) = run_inputs
        .iter()
        .enumerate()
        .find(|(_, v)| v.len() != n_inputs)
    {
        return Err(shape(format!(
            "frame {f} has {} input values, the circuit has {n_inputs} inputs",
            v.len()
        ))
        .into());
    }
    if private.len() != n_inputs {
        return Err(shape(format!(
            "{} nondeterminism flags for {n_inputs} inputs",
            private.len()
        ))
        .into());
    }
    let original = fixed_copy(c, mp.selector, false)?;
    // The run's inputs, a value left open (a don't-care) read as false.
    let inputs: Vec<Vec<bool>> = run_inputs[..=depth]
        .iter()
        .map(|v| v.iter().map(|b| b.unwrap_or(false)).collect())
        .collect();
    let grounded: Vec<Vec<Option<bool>>> = inputs
        .iter()
        .map(|v| v.iter().map(|&b| Some(b)).collect())
        .collect();
    // The expected outputs: the original on the run's inputs and nd values. Its AIGER outputs
    // are the output bits in the order of `original.outputs`.
    let trace = simulate(&original.aig, &[], &grounded);
    let watch: Vec<Lit> = original.outputs.iter().flatten().copied().collect();
    let expected = outputs_per_frame(&trace, &watch);
    // Without nondeterminism (no free input, every latch reset) the original has one run:
    // each step allows exactly its expected outputs, up to the first frame whose
    // constraints fail, and none after it.
    let deterministic =
        !private.contains(&true) && original.aig.latches.iter().all(|l| l.reset != Reset::Free);
    let found = if deterministic {
        let mut reached = true;
        trace
            .frames
            .iter()
            .map(|f| {
                reached &= f.constraints.iter().all(|c| *c);
                Enumerated {
                    values: if reached {
                        vec![f.outputs.clone()]
                    } else {
                        Vec::new()
                    },
                    capped: false,
                }
            })
            .collect()
    } else {
        let fixed_inputs: Vec<Vec<Option<bool>>> = inputs
            .iter()
            .map(|v| {
                v.iter()
                    .zip(private)
                    .map(|(&b, &free)| (!free).then_some(b))
                    .collect()
            })
            .collect();
        // The run the expected outputs come from reaches every step: no solver call needs
        // to show that some run does.
        let init = initial_state(&original.aig, &[]);
        let run = KnownRun {
            init: &init,
            inputs: &inputs,
        };
        let runs = Runs {
            fixed_inputs: &fixed_inputs,
            fixed_lits: &expected,
            known: Some(run),
        };
        values_per_frame(&original.aig, &runs, &watch, depth, cap, deadline)?
    };
    let enums = &mp.conditional.system.enums;
    let named = |bits: &[bool]| -> BTreeMap<String, String> {
        let mut rest = bits;
        c.outputs
            .iter()
            .map(|o| {
                let (mine, others) = rest.split_at(o.bits.len().min(rest.len()));
                rest = others;
                let value = Value::from_storage_bits(o.ty, mine);
                (o.name.clone(), value.display(o.ty, enums))
            })
            .collect()
    };
    Ok(found
        .into_iter()
        .map(|e| AllowedOutputs {
            values: e.values.iter().map(|v| named(v)).collect(),
            capped: e.capped,
        })
        .collect())
}

/// Per frame of `trace`, each output literal of `watch` (the AIGER outputs, in order) with
/// its value.
fn outputs_per_frame(trace: &SimTrace, watch: &[Lit]) -> Vec<Vec<(Lit, bool)>> {
    trace
        .frames
        .iter()
        .map(|f| {
            watch
                .iter()
                .copied()
                .zip(f.outputs.iter().copied())
                .collect()
        })
        .collect()
}

/// The runner's verdict on one step: `observed` are the outputs the system under test
/// produced, `expected` the test's outputs of that step, `step` what the original allows
/// there. Outputs that are not listed count as allowed when the list is capped (the runner
/// cannot tell), so they give [`StepVerdict::Inconclusive`], never [`StepVerdict::Fail`].
pub fn judge(
    step: &AllowedOutputs,
    expected: &BTreeMap<String, String>,
    observed: &BTreeMap<String, String>,
) -> StepVerdict {
    if observed == expected {
        StepVerdict::Pass
    } else if step.capped || step.values.contains(observed) {
        StepVerdict::Inconclusive
    } else {
        StepVerdict::Fail
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_ir::{ChoiceId, Frame, Interpreter, System, Type};
    use hypermut_mutate::{enumerate, NdSource, Operator};
    use std::collections::{BTreeSet, HashMap};

    type Outputs = BTreeMap<String, String>;

    fn beverage() -> System {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../models/smv/beverage.smv");
        let text = std::fs::read_to_string(path).expect("models/smv/beverage.smv");
        hypermut_smv::parse_smv("beverage.smv", &text).expect("the model loads")
    }

    /// The product of the first mutant of `op` in `sys`.
    fn product(sys: &System, op: Operator) -> MutantProduct {
        let m = enumerate(sys, &Operator::ALL)
            .into_iter()
            .find(|m| m.operator == op)
            .expect("a mutant of the operator");
        MutantProduct::build(sys, &m).expect("product")
    }

    /// The value of enumeration variable `var` named `value`.
    fn enum_value(sys: &System, var: &str, value: &str) -> Value {
        let v = sys.var_by_name(var).expect("the variable");
        let Type::Enum(e) = sys.var(v).ty else {
            panic!("{var} is an enumeration")
        };
        Value::Enum(sys.enums[e.0 as usize].index_of(value).expect("a value"))
    }

    /// The input vectors of `mp.blasted.aig` for a run: per frame, values of input variables
    /// of the conditional mutant by name (every input not named is 0).
    fn run_inputs(mp: &MutantProduct, frames: &[HashMap<String, Value>]) -> Vec<Vec<Option<bool>>> {
        let c = &mp.blasted;
        let sys = &mp.conditional.system;
        frames
            .iter()
            .map(|values| {
                let mut vec = vec![Some(false); c.aig.inputs.len()];
                for vb in &c.inputs {
                    let Some(value) = values.get(&sys.var(vb.var).name) else {
                        continue;
                    };
                    for (i, b) in vb.bits.iter().enumerate() {
                        let k = c.aig.input_index(*b).expect("an input bit");
                        vec[k] = Some(value.storage_bit(vb.ty, i as u32) ^ b.is_neg());
                    }
                }
                vec
            })
            .collect()
    }

    /// The name of the nd input of choice site `id`.
    fn choice_input(mp: &MutantProduct, id: u32) -> String {
        let n = mp
            .nd
            .iter()
            .find(|n| matches!(n.source, NdSource::Choice { id: i, .. } if i == id))
            .expect("the choice's nd input");
        mp.conditional.system.var(n.var).name.clone()
    }

    /// A run of the beverage machine: `inp` per frame, and per frame the alternative each
    /// choice site takes.
    fn beverage_run(
        mp: &MutantProduct,
        inp: &[&str],
        picks: &[Vec<u32>],
    ) -> Vec<Vec<Option<bool>>> {
        let sys = &mp.conditional.system;
        let frames: Vec<HashMap<String, Value>> = inp
            .iter()
            .zip(picks)
            .map(|(i, p)| {
                let mut m = HashMap::from([("inp".to_string(), enum_value(sys, "inp", i))]);
                for (id, pick) in p.iter().enumerate() {
                    let name = choice_input(mp, id as u32);
                    let v = sys.var_by_name(&name).expect("nd input");
                    let bits: Vec<bool> = (0..32).map(|k| pick >> k & 1 == 1).collect();
                    m.insert(name, Value::from_storage_bits(sys.var(v).ty, &bits));
                }
                m
            })
            .collect();
        run_inputs(mp, &frames)
    }

    /// Every sequence of choice indices (one per site per frame) for `frames` frames.
    fn choice_sequences(sys: &System, frames: usize) -> Vec<Vec<Vec<u32>>> {
        let mut per_frame: Vec<Vec<u32>> = vec![Vec::new()];
        for site in &sys.choices {
            per_frame = per_frame
                .into_iter()
                .flat_map(|p| {
                    (0..site.arity).map(move |i| {
                        let mut q = p.clone();
                        q.push(i);
                        q
                    })
                })
                .collect();
        }
        let mut seqs: Vec<Vec<Vec<u32>>> = vec![Vec::new()];
        for _ in 0..frames {
            seqs = seqs
                .into_iter()
                .flat_map(|s| {
                    per_frame.iter().map(move |p| {
                        let mut t = s.clone();
                        t.push(p.clone());
                        t
                    })
                })
                .collect();
        }
        seqs
    }

    /// The original model run by the word-level interpreter with its nondeterminism resolved
    /// explicitly (choices per frame, free initial values): outputs per frame (by name, as
    /// the test file writes them) and whether the constraints held in each.
    fn interpret(
        sys: &System,
        inputs: &[HashMap<VarId, Value>],
        picks: &[Vec<u32>],
        free_init: &HashMap<VarId, Value>,
    ) -> (Vec<Outputs>, Vec<bool>) {
        let frames: Vec<Frame> = inputs
            .iter()
            .enumerate()
            .map(|(f, inputs)| Frame {
                inputs: inputs.clone(),
                choices: picks
                    .get(f)
                    .into_iter()
                    .flatten()
                    .enumerate()
                    .map(|(id, i)| (ChoiceId(id as u32), *i))
                    .collect(),
                free_next: HashMap::new(),
            })
            .collect();
        let t = Interpreter::new(sys)
            .run(free_init, &frames)
            .expect("the model runs");
        let outs = t
            .outputs
            .iter()
            .map(|vals| {
                sys.outputs
                    .iter()
                    .zip(vals)
                    .map(|(o, v)| (o.name.clone(), v.display(sys.ty(o.expr), &sys.enums)))
                    .collect()
            })
            .collect();
        (outs, t.constraints_ok)
    }

    /// Definition §4.1.1 over explicitly enumerated runs: the outputs of step `j` of the runs
    /// whose constraints hold up to `j` and whose outputs before `j` are `expected`'s.
    fn brute_force(
        runs: &[(Vec<Outputs>, Vec<bool>)],
        expected: &[Outputs],
    ) -> Vec<BTreeSet<Outputs>> {
        (0..expected.len())
            .map(|j| {
                runs.iter()
                    .filter(|(o, ok)| o[..j] == expected[..j] && ok[..=j].iter().all(|b| *b))
                    .map(|(o, _)| o[j].clone())
                    .collect()
            })
            .collect()
    }

    fn as_set(a: &AllowedOutputs) -> BTreeSet<Outputs> {
        a.values.iter().cloned().collect()
    }

    fn out(v: &str) -> Outputs {
        BTreeMap::from([("out".to_string(), v.to_string())])
    }

    fn beverage_inputs(sys: &System, inp: &[&str]) -> Vec<HashMap<VarId, Value>> {
        let v = sys.var_by_name("inp").expect("inp");
        inp.iter()
            .map(|i| HashMap::from([(v, enum_value(sys, "inp", i))]))
            .collect()
    }

    #[test]
    fn a_request_with_water_allows_coffee_and_tea() {
        let sys = beverage();
        let mp = product(&sys, Operator::Ror);
        let private = nondeterministic_inputs(&mp, false);
        assert!(private.contains(&true), "the choice is an nd input");
        let inp = ["req"; 4];
        let picks = vec![vec![0]; 4];
        let run = beverage_run(&mp, &inp, &picks);
        let allowed = allowed_outputs(&mp, &private, &run, 3, 8, None).expect("enumerates");
        assert_eq!(allowed.len(), 4);
        let (expected, _) = interpret(&sys, &beverage_inputs(&sys, &inp), &picks, &HashMap::new());
        // Steps 1 and 2 follow a request while there is water.
        for step in [1, 2] {
            assert_eq!(
                as_set(&allowed[step]),
                BTreeSet::from([out("coff"), out("tea")]),
                "step {step}"
            );
            assert!(!allowed[step].capped);
        }
        // Step 0 (the initial state) and step 3 (the tank is empty) are deterministic.
        for step in [0, 3] {
            assert_eq!(
                allowed[step].values,
                vec![expected[step].clone()],
                "step {step}"
            );
        }
        assert_eq!(expected[3], out("none"));
        // A cap of one lists one of the two and says there are more.
        let capped = allowed_outputs(&mp, &private, &run, 3, 1, None).expect("enumerates");
        assert_eq!(capped[1].values.len(), 1);
        assert!(capped[1].capped && !capped[0].capped && !capped[3].capped);
        assert!(as_set(&allowed[1]).is_superset(&as_set(&capped[1])));
    }

    /// Against the word-level interpreter on the original model, every nd choice sequence
    /// enumerated explicitly: for every input sequence of four steps and two runs of it.
    #[test]
    fn beverage_matches_brute_force_over_the_choices() {
        const VALUES: [&str; 3] = ["none", "req", "fill"];
        let sys = beverage();
        let mp = product(&sys, Operator::Ror);
        let private = nondeterministic_inputs(&mp, false);
        let steps = 4;
        let all_choices = choice_sequences(&sys, steps);
        assert_eq!(all_choices.len(), 16, "one binary choice per frame");
        let mut nondeterministic_steps = 0;
        for code in 0..3usize.pow(steps as u32) {
            let inp: Vec<&str> = (0..steps)
                .map(|f| VALUES[code / 3usize.pow(f as u32) % 3])
                .collect();
            let word_inputs = beverage_inputs(&sys, &inp);
            let runs: Vec<_> = all_choices
                .iter()
                .map(|p| interpret(&sys, &word_inputs, p, &HashMap::new()))
                .collect();
            for picks in [&all_choices[0], &all_choices[all_choices.len() - 1]] {
                let run = beverage_run(&mp, &inp, picks);
                let got =
                    allowed_outputs(&mp, &private, &run, steps - 1, 8, None).expect("enumerates");
                let (expected, _) = interpret(&sys, &word_inputs, picks, &HashMap::new());
                let want = brute_force(&runs, &expected);
                for j in 0..steps {
                    assert_eq!(as_set(&got[j]), want[j], "{inp:?} {picks:?} step {j}");
                    assert!(want[j].contains(&expected[j]), "the run's own outputs");
                    nondeterministic_steps += usize::from(want[j].len() > 1);
                }
            }
        }
        assert!(nondeterministic_steps > 50, "{nondeterministic_steps}");
    }

    /// A hidden bit with a free initial value, shown only when `go`: once an output has
    /// revealed it, the expected outputs of the earlier steps decide the later ones.
    const HIDDEN: &str = "-- @output o\nMODULE main\nIVAR go : boolean;\nVAR h : boolean; \
        o : boolean;\nASSIGN init(o) := FALSE; next(o) := go & h; next(h) := h;\n";

    #[test]
    fn earlier_outputs_restrict_later_steps() {
        let sys = hypermut_smv::parse_smv("hidden.smv", HIDDEN).expect("model");
        let m = enumerate(&sys, &Operator::ALL).remove(0);
        let mp = MutantProduct::build(&sys, &m).expect("product");
        let private = nondeterministic_inputs(&mp, false);
        let init_input = mp
            .nd
            .iter()
            .find(|n| matches!(&n.source, NdSource::Init { var } if var == "h"))
            .map(|n| mp.conditional.system.var(n.var).name.clone())
            .expect("the power-up value of h is an nd input");
        let (go, h) = (
            sys.var_by_name("go").expect("go"),
            sys.var_by_name("h").expect("h"),
        );
        let o = |b: bool| {
            BTreeMap::from([(
                "o".to_string(),
                (if b { "TRUE" } else { "FALSE" }).to_string(),
            )])
        };
        let steps = 4;
        let mut checked = 0;
        for code in 0..1u32 << steps {
            let gos: Vec<bool> = (0..steps).map(|f| code >> f & 1 == 1).collect();
            let word_inputs: Vec<HashMap<VarId, Value>> = gos
                .iter()
                .map(|g| HashMap::from([(go, Value::Bool(*g))]))
                .collect();
            let runs: Vec<_> = [false, true]
                .iter()
                .map(|b| {
                    interpret(
                        &sys,
                        &word_inputs,
                        &[],
                        &HashMap::from([(h, Value::Bool(*b))]),
                    )
                })
                .collect();
            for hidden in [false, true] {
                let frames: Vec<HashMap<String, Value>> = gos
                    .iter()
                    .map(|g| {
                        HashMap::from([
                            ("go".to_string(), Value::Bool(*g)),
                            (init_input.clone(), Value::Bool(hidden)),
                        ])
                    })
                    .collect();
                let run = run_inputs(&mp, &frames);
                let got =
                    allowed_outputs(&mp, &private, &run, steps - 1, 8, None).expect("enumerates");
                let expected = &runs[usize::from(hidden)].0;
                let want = brute_force(&runs, expected);
                for j in 0..steps {
                    assert_eq!(as_set(&got[j]), want[j], "go {gos:?} h {hidden} step {j}");
                }
                // After the first `go`, o shows h; every later `go` must show it again.
                if let Some(first) = gos.iter().position(|g| *g) {
                    for j in first + 2..steps {
                        if gos[j - 1] {
                            assert_eq!(got[j].values, vec![o(hidden)], "go {gos:?} step {j}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 5, "{checked}");
    }

    /// A deterministic counter (every latch reset, no nd input): the shortcut that lists the
    /// simulated outputs gives what the SAT enumeration gives, for random input sequences.
    #[test]
    fn deterministic_models_list_what_the_enumeration_lists() {
        const COUNTER: &str = "-- @output o, c\nMODULE main\nIVAR go : boolean;\n\
            VAR c : 0..3;\nDEFINE o := c = 3;\nASSIGN init(c) := 0;\n\
            next(c) := go ? (c + 1) mod 4 : c;\n";
        let sys = hypermut_smv::parse_smv("counter.smv", COUNTER).expect("model");
        let mp = product(&sys, Operator::Ror);
        let private = nondeterministic_inputs(&mp, false);
        assert!(!private.contains(&true), "no nd input");
        let original = fixed_copy(&mp.blasted, mp.selector, false).expect("original copy");
        assert!(original.aig.latches.iter().all(|l| l.reset != Reset::Free));
        let watch: Vec<Lit> = original.outputs.iter().flatten().copied().collect();
        let n = mp.blasted.aig.inputs.len();
        let mut state: u64 = 7;
        let mut coin = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 63 == 1
        };
        for _ in 0..20 {
            let run: Vec<Vec<Option<bool>>> = (0..6)
                .map(|_| (0..n).map(|_| Some(coin())).collect())
                .collect();
            let got = allowed_outputs(&mp, &private, &run, 5, 8, None).expect("lists");
            let expected = outputs_per_frame(&simulate(&original.aig, &[], &run), &watch);
            let enumerated = values_per_frame(
                &original.aig,
                &Runs::new(&run, &expected),
                &watch,
                5,
                8,
                None,
            )
            .expect("enumerates");
            for (step, (g, e)) in got.iter().zip(&enumerated).enumerate() {
                assert_eq!(g.values.len(), e.values.len(), "step {step}");
                assert_eq!(g.capped, e.capped, "step {step}");
                assert_eq!(g.values.len(), 1, "one run, one valuation");
            }
            // The valuation itself: the enumeration's bits, named as the test names them.
            for (g, e) in got.iter().zip(&enumerated) {
                let bits = &e.values[0];
                let c_bits = &bits[1..];
                let c: u32 = c_bits
                    .iter()
                    .enumerate()
                    .map(|(i, b)| (*b as u32) << i)
                    .sum();
                assert_eq!(g.values[0]["c"], c.to_string());
                assert_eq!(g.values[0]["o"], if bits[0] { "TRUE" } else { "FALSE" });
            }
        }
    }

    #[test]
    fn judge_tells_pass_inconclusive_and_fail() {
        let listed = AllowedOutputs {
            values: vec![out("coff"), out("tea")],
            capped: false,
        };
        let capped = AllowedOutputs {
            values: vec![out("coff")],
            capped: true,
        };
        use StepVerdict::*;
        for (step, observed, want) in [
            (&listed, "coff", Pass),
            (&listed, "tea", Inconclusive),
            (&listed, "none", Fail),
            (&capped, "coff", Pass),
            (&capped, "tea", Inconclusive),
            (&capped, "none", Inconclusive),
        ] {
            assert_eq!(
                judge(step, &out("coff"), &out(observed)),
                want,
                "{observed} capped={}",
                step.capped
            );
        }
    }

    #[test]
    fn runs_that_do_not_fit_the_circuit_are_rejected() {
        let sys = beverage();
        let mp = product(&sys, Operator::Ror);
        let private = nondeterministic_inputs(&mp, false);
        let run = beverage_run(&mp, &["req", "req"], &[vec![0], vec![0]]);
        assert!(allowed_outputs(&mp, &private, &run, 1, 8, None).is_ok());
        assert!(allowed_outputs(&mp, &private, &run, 2, 8, None).is_err());
        let short = vec![vec![Some(false)]; 3];
        assert!(allowed_outputs(&mp, &private, &short, 1, 8, None).is_err());
        assert!(allowed_outputs(&mp, &private[1..], &run, 1, 8, None).is_err());
    }

    #[test]
    fn allowed_outputs_round_trip_through_json() {
        let a = AllowedOutputs {
            values: vec![out("coff"), out("tea")],
            capped: true,
        };
        let text = serde_json::to_string(&a).expect("serialises");
        assert_eq!(
            serde_json::from_str::<AllowedOutputs>(&text).expect("parses"),
            a
        );
        let uncapped: AllowedOutputs =
            serde_json::from_str(r#"{"values":[{"out":"none"}]}"#).expect("parses");
        assert!(!uncapped.capped);
    }
}
