use hypermut_testkit::corpus::aiger_files;
use proptest::prelude::*;

use super::*;
use crate::{read_aiger, read_witness, write_aiger, AigerFormat};

/// cnt1e.aag as printed in docs/formats.md §9.8 (a latch that flips when the input differs from
/// it; bad = the latch).
const CNT1E: &[u8] = b"aag 5 1 1 0 3 1\n2\n4 10\n4\n6 5 3\n8 4 2\n10 9 7\nb0 AIGER_NEVER\n";
/// Its witness from docs/formats.md §7.3.
const CNT1E_WITNESS: &str = "1\nb0\n0\n1\n1\n.\n";

fn aig(text: &[u8]) -> Aig {
    read_aiger(text, "test").unwrap_or_else(|e| panic!("{e}"))
}

fn witness(props: &[&str], init: &str, inputs: &[&str]) -> Witness {
    let bits = |s: &str| {
        s.chars()
            .map(|c| match c {
                '0' => Some(false),
                '1' => Some(true),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    Witness {
        properties: props.iter().map(|p| p.to_string()).collect(),
        init: bits(init),
        inputs: inputs.iter().map(|s| bits(s)).collect(),
    }
}

#[test]
fn cnt1e_witness_from_formats_md_has_depth_1() {
    let a = aig(CNT1E);
    let ws = read_witness(CNT1E_WITNESS, a.latches.len(), a.inputs.len()).expect("valid");
    assert_eq!(ws.len(), 1);
    assert_eq!(check_witness(&a, &ws[0]), Ok(1));
    // The same with the corpus file itself.
    if let Some(f) = aiger_files("aiger-examples")
        .into_iter()
        .find(|f| f.ends_with("cnt1e.aag"))
    {
        let from_file = aig(&std::fs::read(f).expect("readable"));
        assert_eq!(check_witness(&from_file, &ws[0]), Ok(1));
    }
    // One frame is too short (the latch is still 0 in frame 0), as for cnt1.wit.
    let short = witness(&["b0"], "0", &["1"]);
    assert_eq!(
        check_witness(&a, &short),
        Err(WitnessError::NotReached("b0".into()))
    );
}

#[test]
fn first_frame_of_the_property_is_returned() {
    let a = aig(CNT1E);
    // The latch is 1 from frame 1 on; the extra frames are not needed but allowed.
    assert_eq!(
        check_witness(&a, &witness(&["b0"], "0", &["1", "0", "0"])),
        Ok(1)
    );
    // `x` inputs are 0: the latch never flips.
    assert_eq!(
        check_witness(&a, &witness(&["b0"], "x", &["x", "x"])),
        Err(WitnessError::NotReached("b0".into()))
    );
}

#[test]
fn shape_and_reset_errors() {
    let a = aig(CNT1E);
    let cases = [
        (witness(&[], "0", &["1"]), WitnessError::NoProperty),
        (
            witness(&["b1"], "0", &["1"]),
            WitnessError::UnknownProperty("b1".into()),
        ),
        (
            witness(&["q0"], "0", &["1"]),
            WitnessError::UnknownProperty("q0".into()),
        ),
        (
            witness(&["j0"], "0", &["1"]),
            WitnessError::UnknownProperty("j0".into()),
        ),
        (
            witness(&["b0"], "", &["1"]),
            WitnessError::InitLength {
                got: 0,
                expected: 1,
            },
        ),
        (witness(&["b0"], "0", &[]), WitnessError::NoFrames),
        (
            witness(&["b0"], "0", &["1", "11"]),
            WitnessError::InputLength {
                frame: 1,
                got: 2,
                expected: 1,
            },
        ),
        (
            witness(&["b0"], "1", &["0"]),
            WitnessError::InitMismatch {
                latch: 0,
                reset: false,
                value: true,
            },
        ),
    ];
    for (w, e) in cases {
        assert_eq!(check_witness(&a, &w), Err(e), "{w:?}");
    }
}

#[test]
fn uninitialised_latches_take_the_witness_value() {
    // bad = free latch; stays.
    let a = aig(b"aag 1 0 1 0 0 1\n2 2 2\n2\n");
    assert_eq!(a.latches[0].reset, Reset::Free);
    assert_eq!(check_witness(&a, &witness(&["b0"], "1", &[""])), Ok(0));
    assert_eq!(
        check_witness(&a, &witness(&["b0"], "x", &["", ""])),
        Err(WitnessError::NotReached("b0".into()))
    );
}

#[test]
fn constraints_must_hold_up_to_the_bad_frame() {
    // Input i, latch l (next = 1), constraint i, bad l.
    let a = aig(b"aag 2 1 1 0 0 1 1\n2\n4 1\n4\n2\n");
    assert_eq!(
        check_witness(&a, &witness(&["b0"], "0", &["1", "1"])),
        Ok(1)
    );
    // Constraint false in frame 0, before the bad frame.
    assert_eq!(
        check_witness(&a, &witness(&["b0"], "0", &["0", "1"])),
        Err(WitnessError::ConstraintViolated {
            constraint: 0,
            frame: 0,
            property: "b0".into()
        })
    );
    // Constraint false in the bad frame itself: c U (c ∧ b) needs it there too.
    assert!(check_witness(&a, &witness(&["b0"], "0", &["1", "0"])).is_err());
    // Frames after the bad frame are not constrained.
    assert_eq!(
        check_witness(&a, &witness(&["b0"], "0", &["1", "1", "0"])),
        Ok(1)
    );
}

#[test]
fn outputs_are_properties_without_a_bad_section() {
    // toggle.aag: a free-running toggle with outputs Q and !Q, no bad section.
    let a = aig(b"aag 1 0 1 2 0\n2 3\n2\n3\n");
    assert_eq!(check_witness(&a, &witness(&["b0"], "0", &["", ""])), Ok(1));
    assert_eq!(check_witness(&a, &witness(&["b1"], "0", &[""])), Ok(0));
}

#[test]
fn justice_witnesses_need_a_fair_loop() {
    // Toggle latch, justice property {latch}.
    let a = aig(b"aag 1 0 1 0 0 0 0 1 0\n2 3\n1\n2\n");
    // States 0, 1, then back to 0 = frame 0: the loop 0..=1 sees the latch high.
    assert_eq!(check_witness(&a, &witness(&["j0"], "0", &["", ""])), Ok(1));
    assert!(matches!(
        check_witness(&a, &witness(&["j0"], "0", &[""])),
        Err(WitnessError::Justice { .. })
    ));
    // Justice {latch, ¬latch}: each literal needs to hold somewhere on the loop, not at the
    // same time.
    let both = aig(b"aag 1 0 1 0 0 0 0 1 0\n2 3\n2\n2\n3\n");
    assert_eq!(
        check_witness(&both, &witness(&["j0"], "0", &["", ""])),
        Ok(1)
    );
    // A fairness constraint that is never true.
    let unfair = aig(b"aag 1 0 1 0 0 0 0 1 1\n2 3\n1\n2\n0\n");
    assert!(matches!(
        check_witness(&unfair, &witness(&["j0"], "0", &["", ""])),
        Err(WitnessError::Justice { .. })
    ));
}

#[test]
fn search_finds_the_shortest_witness() {
    let a = aig(CNT1E);
    let w = search_witness(&a, 0, 10, 20, 1).expect("the counter flips on input 1");
    assert_eq!(w.depth(), 1);
    assert_eq!(check_witness(&a, &w), Ok(1));
    // With a constraint that forbids the flipping input there is no witness.
    let mut c = a.clone();
    c.constraints.push(crate::Named {
        lit: !c.inputs[0].lit,
        name: "no flip".into(),
    });
    assert_eq!(search_witness(&c, 0, 10, 20, 1), None);
}

/// A random circuit description, evaluated independently of [`Aig`].
#[derive(Clone, Debug)]
struct Spec {
    inputs: usize,
    resets: Vec<u8>,
    /// Operands index signals: 0 = false, then inputs, latches, earlier gates.
    gates: Vec<(usize, bool, usize, bool)>,
    nexts: Vec<(usize, bool)>,
    outputs: Vec<(usize, bool)>,
    init: Vec<bool>,
    stimuli: Vec<Vec<bool>>,
}

fn spec() -> impl Strategy<Value = Spec> {
    (1usize..4, 0usize..4, 0usize..25, 1usize..6).prop_flat_map(|(ni, nl, ng, frames)| {
        let raw = any::<(u32, bool, u32, bool)>();
        (
            prop::collection::vec(0u8..3, nl),
            prop::collection::vec(raw, ng),
            prop::collection::vec((any::<u32>(), any::<bool>()), nl),
            prop::collection::vec((any::<u32>(), any::<bool>()), 1..4),
            prop::collection::vec(any::<bool>(), nl),
            prop::collection::vec(prop::collection::vec(any::<bool>(), ni), frames),
        )
            .prop_map(move |(resets, gates, nexts, outputs, init, stimuli)| {
                let base = 1 + ni + nl;
                let total = base + gates.len();
                Spec {
                    inputs: ni,
                    resets,
                    gates: gates
                        .iter()
                        .enumerate()
                        .map(|(k, &(a, na, b, nb))| {
                            let n = (base + k) as u32;
                            ((a % n) as usize, na, (b % n) as usize, nb)
                        })
                        .collect(),
                    nexts: nexts
                        .iter()
                        .map(|&(s, n)| ((s as usize) % total, n))
                        .collect(),
                    outputs: outputs
                        .iter()
                        .map(|&(s, n)| ((s as usize) % total, n))
                        .collect(),
                    init,
                    stimuli,
                }
            })
    })
}

impl Spec {
    /// Per frame: (latch values, output values).
    fn reference(&self) -> Vec<(Vec<bool>, Vec<bool>)> {
        let mut state: Vec<bool> = self
            .resets
            .iter()
            .zip(&self.init)
            .map(|(&r, &i)| match r {
                0 => false,
                1 => true,
                _ => i,
            })
            .collect();
        let mut out = Vec::new();
        for ins in &self.stimuli {
            let mut sig = vec![false];
            sig.extend(ins);
            sig.extend(&state);
            for &(a, na, b, nb) in &self.gates {
                let v = (sig[a] ^ na) && (sig[b] ^ nb);
                sig.push(v);
            }
            let outs = self.outputs.iter().map(|&(s, n)| sig[s] ^ n).collect();
            out.push((state.clone(), outs));
            state = self.nexts.iter().map(|&(s, n)| sig[s] ^ n).collect();
        }
        out
    }

    fn build(&self, raw: bool) -> Aig {
        let mut g = Aig::new();
        let mut sig = vec![Lit::FALSE];
        for k in 0..self.inputs {
            sig.push(g.add_input(format!("i{k}")));
        }
        for (k, &r) in self.resets.iter().enumerate() {
            let reset = [Reset::Zero, Reset::One, Reset::Free][r as usize];
            sig.push(g.add_latch(format!("l{k}"), reset));
        }
        for &(a, na, b, nb) in &self.gates {
            let (a, b) = (sig[a].xor(na), sig[b].xor(nb));
            let l = if raw {
                g.add_raw_and(a, b)
            } else {
                g.and(a, b)
            };
            sig.push(l);
        }
        for (k, &(s, n)) in self.nexts.iter().enumerate() {
            let cur = g.latches[k].lit;
            g.set_next(cur, sig[s].xor(n));
        }
        g.outputs = self
            .outputs
            .iter()
            .map(|&(s, n)| crate::Named {
                lit: sig[s].xor(n),
                name: String::new(),
            })
            .collect();
        g
    }
}

fn observed(t: &SimTrace) -> Vec<(Vec<bool>, Vec<bool>)> {
    t.frames
        .iter()
        .map(|f| (f.latches.clone(), f.outputs.clone()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The simulator agrees with a direct evaluation of the description, for hashed and raw
    /// construction, and after writing and re-reading the AIGER file.
    #[test]
    fn simulation_matches_reference(s in spec()) {
        let want = s.reference();
        let init: Vec<_> = s.init.iter().map(|&b| Some(b)).collect();
        let stim: Vec<Vec<_>> = s.stimuli.iter().map(|v| v.iter().map(|&b| Some(b)).collect()).collect();
        for raw in [false, true] {
            let g = s.build(raw);
            prop_assert_eq!(observed(&simulate(&g, &init, &stim)), want.clone());
            for format in [AigerFormat::Binary, AigerFormat::Ascii] {
                let back = read_aiger(&write_aiger(&g, format), "rt").map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(observed(&simulate(&back, &init, &stim)), want.clone());
            }
        }
    }
}

impl Spec {
    /// The next latch values for given input and latch values, evaluated on the description.
    fn next_of(&self, inputs: &[bool], latches: &[bool]) -> Vec<bool> {
        let mut sig = vec![false];
        sig.extend(inputs);
        sig.extend(latches);
        for &(a, na, b, nb) in &self.gates {
            let v = (sig[a] ^ na) && (sig[b] ^ nb);
            sig.push(v);
        }
        self.nexts.iter().map(|&(s, n)| sig[s] ^ n).collect()
    }
}

/// The inputs of frame 0 with every third one (from `skip`) unknown.
fn partial(s: &Spec, skip: usize) -> Vec<Option<bool>> {
    let first = s.stimuli.first().cloned().unwrap_or_default();
    first
        .iter()
        .enumerate()
        .map(|(k, &b)| (k % 3 != skip % 3).then_some(b))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A latch the three-valued evaluation calls constant takes that value for every
    /// completion of the unknown inputs and of the latches (brute force over all of them).
    #[test]
    fn ternary_next_is_sound(s in spec(), skip in 0usize..3) {
        let given = partial(&s, skip);
        let unknown: Vec<usize> = (0..s.inputs).filter(|&k| given[k].is_none()).collect();
        let free = unknown.len() + s.resets.len();
        for raw in [false, true] {
            let got = ternary_next(&s.build(raw), &given);
            prop_assert_eq!(got.len(), s.nexts.len());
            for m in 0u32..(1 << free) {
                let mut ins: Vec<bool> = given.iter().map(|b| b.unwrap_or(false)).collect();
                for (j, &k) in unknown.iter().enumerate() {
                    ins[k] = m >> j & 1 == 1;
                }
                let latches: Vec<bool> =
                    (0..s.resets.len()).map(|j| m >> (unknown.len() + j) & 1 == 1).collect();
                let want = s.next_of(&ins, &latches);
                for (k, g) in got.iter().enumerate() {
                    if let Some(b) = g {
                        prop_assert_eq!(*b, want[k], "latch {} under completion {}", k, m);
                    }
                }
            }
        }
    }
}

#[test]
fn ternary_next_knows_what_a_controlling_input_fixes() {
    // l0' = i0 ∧ l0, l1' = ¬i0 ∨ i1, l2' = i1, l3' = l3 ∨ ¬l3 (unknown: no case split).
    let mut g = Aig::new();
    let i0 = g.add_input("i0");
    let i1 = g.add_input("i1");
    let l: Vec<Lit> = (0..4)
        .map(|k| g.add_latch(format!("l{k}"), Reset::Free))
        .collect();
    let n0 = g.add_raw_and(i0, l[0]);
    let n1 = !g.add_raw_and(i0, !i1);
    let n3 = !g.add_raw_and(!l[3], l[3]);
    for (latch, next) in l.iter().zip([n0, n1, i1, n3]) {
        g.set_next(*latch, next);
    }
    type Case<'a> = (&'a [Option<bool>], [Option<bool>; 4]);
    let cases: &[Case] = &[
        (&[None, None], [None, None, None, None]),
        (&[Some(false), None], [Some(false), Some(true), None, None]),
        (&[Some(true), None], [None, None, None, None]),
        (
            &[Some(true), Some(true)],
            [None, Some(true), Some(true), None],
        ),
        (&[Some(true)], [None, None, None, None]),
    ];
    for (inputs, want) in cases {
        assert_eq!(ternary_next(&g, inputs), want.to_vec(), "{inputs:?}");
    }
}

/// The unknowns of a three-valued run: some inputs of the first three frames and the first
/// latch, at most 12 of them (so that every completion can be simulated).
fn unknowns(s: &Spec, skip: usize) -> Vec<(usize, usize)> {
    let frames = s.stimuli.len().min(3);
    let mut u: Vec<(usize, usize)> = (0..frames)
        .flat_map(|f| (0..s.inputs).map(move |k| (f, k)))
        .filter(|&(f, k)| (f + k) % 3 == skip % 3)
        .collect();
    u.truncate(11);
    u
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Every output value a three-valued run knows is the value of every completion of its
    /// unknowns (unknown inputs in the first frames, an unknown first latch), simulated
    /// two-valued frame by frame.
    #[test]
    fn ternary_runs_are_sound(s in spec(), skip in 0usize..3) {
        let frames = s.stimuli.len().min(3);
        let unknown = unknowns(&s, skip);
        for raw in [false, true] {
            let g = s.build(raw);
            let given: Vec<Option<bool>> = s.init.iter().map(|&b| Some(b)).collect();
            let mut init: Vec<Option<bool>> =
                initial_state(&g, &given).into_iter().map(Some).collect();
            let latch_unknown = g.latches.first().is_some_and(|l| l.reset == Reset::Free);
            if latch_unknown {
                init[0] = None;
            }
            let free = unknown.len() + usize::from(latch_unknown);
            let mut sim = TernarySim::new(&g, init.clone());
            let mut known = Vec::new();
            for f in 0..frames {
                let ins: Vec<Option<bool>> = (0..s.inputs)
                    .map(|k| (!unknown.contains(&(f, k))).then(|| s.stimuli[f][k]))
                    .collect();
                sim.eval(&ins);
                known.push(g.outputs.iter().map(|o| sim.value(o.lit)).collect::<Vec<_>>());
                sim.advance();
            }
            for m in 0u32..(1 << free) {
                let mut stim: Vec<Vec<Option<bool>>> = s.stimuli[..frames]
                    .iter()
                    .map(|v| v.iter().map(|&b| Some(b)).collect())
                    .collect();
                for (j, &(f, k)) in unknown.iter().enumerate() {
                    stim[f][k] = Some(m >> j & 1 == 1);
                }
                let mut start = init.clone();
                if latch_unknown {
                    start[0] = Some(m >> unknown.len() & 1 == 1);
                }
                let run = simulate(&g, &start, &stim);
                for (f, frame) in run.frames.iter().enumerate() {
                    for (o, want) in frame.outputs.iter().enumerate() {
                        if let Some(b) = known[f][o] {
                            prop_assert_eq!(b, *want, "output {} in frame {} under {}", o, f, m);
                        }
                    }
                }
            }
        }
    }
}
