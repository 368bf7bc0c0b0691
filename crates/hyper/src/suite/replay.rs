//! Replaying tests on the bit-blasted meta-mutant: 64 runs at once (one per bit of a machine
//! word), lane 0 the original (`mutsel = 0`), the other lanes mutants.

use std::collections::{BTreeMap, HashMap};

use hypermut_aig::blast::Blasted;
use hypermut_aig::{Lit, Node, Reset};
use hypermut_ir::EnumType;
use hypermut_mutate::MetaMutant;

use super::text::parse_value;
use crate::error::HyperError;
use crate::pipeline::BlastedMeta;

/// Lanes per simulation pass.
const LANES: usize = 64;

/// What replaying one test does to one mutant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kill {
    /// Some output differs from the original's in some frame of the test (with every
    /// constraint of both holding up to that frame), or in some frame the constraints hold
    /// for one of them only.
    pub strong: bool,
    /// Some output or some latch (the maximum oracle, `docs/method.md` §4.4) differs.
    pub weak: bool,
}

/// The meta-mutant after the nd transformation, bit-blasted once.
#[derive(Clone, Debug)]
pub struct MetaCircuit {
    blasted: Blasted,
    enums: Vec<EnumType>,
    /// Latch literals of the selector, LSB first.
    selector: Vec<Lit>,
    /// Input name → index into `blasted.inputs`.
    by_name: HashMap<String, usize>,
    mutants: usize,
}

impl MetaCircuit {
    /// Makes the meta-mutant's nondeterminism controllable (as for each conditional mutant, so
    /// that nd inputs have the same names) and bit-blasts it.
    pub fn build(meta: &MetaMutant) -> Result<MetaCircuit, HyperError> {
        let BlastedMeta {
            system: sys,
            blasted,
            selector,
            ..
        } = BlastedMeta::build(meta)?;
        let by_name = blasted
            .inputs
            .iter()
            .enumerate()
            .map(|(i, vb)| (vb.name.clone(), i))
            .collect();
        Ok(MetaCircuit {
            enums: sys.enums.clone(),
            blasted,
            selector,
            by_name,
            mutants: meta.mutants.len(),
        })
    }

    /// AND gates of the meta circuit.
    pub fn ands(&self) -> usize {
        self.blasted.aig.num_ands()
    }

    /// Input words (all lanes alike) per frame, per AIG input.
    fn input_words(
        &self,
        stimulus: &[BTreeMap<String, String>],
    ) -> Result<Vec<Vec<u64>>, HyperError> {
        let aig = &self.blasted.aig;
        stimulus
            .iter()
            .enumerate()
            .map(|(k, frame)| {
                let mut words = vec![0u64; aig.inputs.len()];
                for (name, text) in frame {
                    let vb = self
                        .by_name
                        .get(name)
                        .and_then(|i| self.blasted.inputs.get(*i))
                        .ok_or_else(|| {
                            HyperError::Replay(format!(
                                "frame {k}: `{name}` is not an input of the model"
                            ))
                        })?;
                    let value = parse_value(text, vb.ty, &self.enums).ok_or_else(|| {
                        HyperError::Replay(format!(
                            "frame {k}: `{text}` is not a value of input `{name}`"
                        ))
                    })?;
                    for (i, lit) in vb.bits.iter().enumerate() {
                        let bit = value.storage_bit(vb.ty, i as u32) ^ lit.is_neg();
                        if let Some(idx) = aig.input_index(lit.positive()) {
                            words[idx] = if bit { !0 } else { 0 };
                        }
                    }
                }
                Ok(words)
            })
            .collect()
    }

    /// Replays a test (per frame: input and nd values by name; inputs not named are 0) on the
    /// mutants with the given selector codes (1-based, see [`MetaMutant`]) and tells, per code,
    /// whether the test kills it strongly and weakly.
    pub fn replay(
        &self,
        stimulus: &[BTreeMap<String, String>],
        codes: &[usize],
    ) -> Result<Vec<Kill>, HyperError> {
        let mut rows = self.replay_prefixes(stimulus, codes, &[stimulus.len()])?;
        Ok(rows.pop().unwrap_or_default())
    }

    /// [`MetaCircuit::replay`] of the prefixes of `stimulus` with the given numbers of frames
    /// (each at most its length), in one run: per length, per code, the kills of that
    /// prefix. Tests that are prefixes of a longer one cost no run of their own.
    pub fn replay_prefixes(
        &self,
        stimulus: &[BTreeMap<String, String>],
        codes: &[usize],
        lengths: &[usize],
    ) -> Result<Vec<Vec<Kill>>, HyperError> {
        if let Some(bad) = codes.iter().find(|c| **c == 0 || **c > self.mutants) {
            return Err(HyperError::Replay(format!(
                "selector code {bad} names no mutant (1..={})",
                self.mutants
            )));
        }
        if let Some(long) = lengths.iter().find(|n| **n > stimulus.len()) {
            return Err(HyperError::Replay(format!(
                "a prefix of {long} frames of a test of {} frames",
                stimulus.len()
            )));
        }
        let inputs = self.input_words(stimulus)?;
        let mut rows = vec![Vec::with_capacity(codes.len()); lengths.len()];
        for chunk in codes.chunks(LANES - 1) {
            let after = self.simulate(&inputs, chunk);
            for (row, &n) in rows.iter_mut().zip(lengths) {
                // After the run stopped early nothing changes any more.
                let (strong, weak) = n
                    .min(after.len())
                    .checked_sub(1)
                    .and_then(|i| after.get(i).copied())
                    .unwrap_or((0, 0));
                for lane in 1..=chunk.len() {
                    row.push(Kill {
                        strong: (strong >> lane) & 1 == 1,
                        weak: (weak >> lane) & 1 == 1,
                    });
                }
            }
        }
        Ok(rows)
    }

    /// One pass: lane 0 runs the original, lane `j` the mutant `chunk[j - 1]`. Returns, after
    /// each frame run, the lanes killed strongly and weakly so far (fewer entries than frames
    /// when every lane was decided early).
    fn simulate(&self, inputs: &[Vec<u64>], chunk: &[usize]) -> Vec<(u64, u64)> {
        let aig = &self.blasted.aig;
        let mut state: Vec<u64> = aig
            .latches
            .iter()
            .map(|l| match l.reset {
                Reset::One => !0,
                _ => 0,
            })
            .collect();
        let mut is_selector = vec![false; aig.latches.len()];
        for (bit, lit) in self.selector.iter().enumerate() {
            if let Some(idx) = aig.latch_index(*lit) {
                is_selector[idx] = true;
                let mut word = 0u64;
                for (j, code) in chunk.iter().enumerate() {
                    if (code >> bit) & 1 == 1 {
                        word |= 1 << (j + 1);
                    }
                }
                state[idx] = word;
            }
        }
        let used: u64 = if chunk.len() + 1 >= LANES {
            !0
        } else {
            (1u64 << (chunk.len() + 1)) - 1
        };
        let broadcast = |w: u64| if w & 1 == 1 { !0u64 } else { 0 };
        let mut values = vec![0u64; aig.num_vars() as usize];
        let lit = |values: &[u64], l: Lit| {
            let v = values.get(l.var() as usize).copied().unwrap_or(0);
            if l.is_neg() {
                !v
            } else {
                v
            }
        };
        let (mut alive, mut strong, mut weak) = (used, 0u64, 0u64);
        let mut after = Vec::with_capacity(inputs.len());
        for ins in inputs {
            for (v, node) in aig.nodes().iter().enumerate() {
                let x = match *node {
                    Node::Const => 0,
                    Node::Input(i) => ins.get(i as usize).copied().unwrap_or(0),
                    Node::Latch(i) => state.get(i as usize).copied().unwrap_or(0),
                    Node::And(a, b) => lit(&values, a) & lit(&values, b),
                };
                values[v] = x;
            }
            let mut ok = !0u64;
            for c in &aig.constraints {
                ok &= lit(&values, c.lit);
            }
            // A lane whose constraints decide this step differently from the original's is
            // killed (one side cannot take the step, `docs/method.md` §5.3); after a step that
            // either side cannot take, the lane is out of the run.
            let blocked_diff = ok ^ broadcast(ok);
            let both_ok = ok & broadcast(ok);
            let mut out_diff = 0u64;
            for o in &self.blasted.outputs {
                for b in &o.bits {
                    let w = lit(&values, *b);
                    out_diff |= w ^ broadcast(w);
                }
            }
            let mut latch_diff = 0u64;
            for (i, w) in state.iter().enumerate() {
                if !is_selector[i] {
                    latch_diff |= w ^ broadcast(*w);
                }
            }
            strong |= alive & (blocked_diff | (both_ok & out_diff));
            weak |= alive & (blocked_diff | (both_ok & (out_diff | latch_diff)));
            alive &= both_ok;
            after.push((strong, weak));
            // Done when every mutant lane is decided: killed both ways, or out of the run.
            let open = alive & !(strong & weak) & !1;
            if open == 0 {
                break;
            }
            state = aig.latches.iter().map(|l| lit(&values, l.next)).collect();
        }
        after
    }
}
