//! The old 5-field AIGER format: properties as outputs, constraints folded in.

use super::properties::safety_properties;
use crate::{Aig, Named, Reset};

/// Name of the latch that [`legacy_aig`] adds to remember a constraint violation.
pub const LEGACY_CONSTRAINT_LATCH: &str = "legacy.constraint_failed";

/// The circuit that `--legacy` writes: an AIG without `B C J F` sections whose outputs are the
/// safety properties of `aig` (its bad properties, or its outputs when it has none — the
/// other outputs are dropped).
///
/// Invariant constraints cannot be expressed in the old format, so they are folded into the
/// properties. A bad state at frame k counts only if every constraint held in frames 0..=k
/// (AIGER's `c U (c ∧ b)`, docs/formats.md §9.4). One latch named [`LEGACY_CONSTRAINT_LATCH`],
/// reset 0, records whether a constraint failed in an earlier frame:
///
/// * `failed' = failed ∨ ¬(c₁ ∧ … ∧ cₙ)`
/// * `out_i = bad_i ∧ c₁ ∧ … ∧ cₙ ∧ ¬failed`
///
/// The latch is appended after the original latches, so a witness of `aig` is a witness of
/// the legacy circuit once a `0` is appended to its initial state. Without constraints no
/// latch is added and the outputs are the properties themselves. Justice properties and
/// fairness constraints have no old-format equivalent and are dropped.
pub fn legacy_aig(aig: &Aig) -> Aig {
    let mut g = aig.clone();
    let properties: Vec<Named> = safety_properties(aig).to_vec();
    g.outputs = if aig.constraints.is_empty() {
        properties
    } else {
        let all = g.and_all(aig.constraints.iter().map(|c| c.lit));
        let failed = g.add_latch(LEGACY_CONSTRAINT_LATCH, Reset::Zero);
        let next = g.or(failed, !all);
        g.set_next(failed, next);
        let valid = g.and(all, !failed);
        properties
            .into_iter()
            .map(|p| Named {
                lit: g.and(p.lit, valid),
                name: p.name,
            })
            .collect()
    };
    g.bad.clear();
    g.constraints.clear();
    g.justice.clear();
    g.fairness.clear();
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aiger::{read_aiger, write_aiger_with, AigerFormat, WriteOptions};
    use crate::sim::simulate;

    fn named(lit: crate::Lit, name: &str) -> Named {
        Named {
            lit,
            name: name.into(),
        }
    }

    /// bad = i0, constraint = i1: the folded output at frame t is i0(t) ∧ i1(0..=t).
    #[test]
    fn fold_matches_the_constraint_semantics_exhaustively() {
        let mut g = Aig::new();
        let i0 = g.add_input("i0");
        let i1 = g.add_input("i1");
        g.bad.push(named(i0, "b"));
        g.constraints.push(named(i1, "c"));
        let l = legacy_aig(&g);
        assert_eq!(l.latches.len(), 1);
        assert_eq!(l.latches[0].reset, Reset::Zero);
        for pattern in 0u32..256 {
            let stim: Vec<Vec<Option<bool>>> = (0..4)
                .map(|t| {
                    vec![
                        Some(pattern >> (2 * t) & 1 == 1),
                        Some(pattern >> (2 * t + 1) & 1 == 1),
                    ]
                })
                .collect();
            let trace = simulate(&l, &[], &stim);
            let mut held = true;
            for (t, v) in stim.iter().enumerate() {
                held &= v[1] == Some(true);
                let want = held && v[0] == Some(true);
                assert_eq!(
                    trace.frames[t].outputs,
                    [want],
                    "pattern {pattern:08b} frame {t}"
                );
            }
        }
    }

    #[test]
    fn properties_become_outputs() {
        let mut g = Aig::new();
        let a = g.add_input("a");
        let b = g.add_input("b");
        g.outputs.push(named(a, "o"));
        g.bad.push(named(b, "kill"));
        g.justice.push(vec![a]);
        g.fairness.push(b);
        let l = legacy_aig(&g);
        assert_eq!(l.outputs, [named(b, "kill")]);
        assert!(l.bad.is_empty() && l.justice.is_empty() && l.fairness.is_empty());
        assert_eq!(l.latches.len(), 0);
        // Without bad properties the outputs are the properties (docs/formats.md §9.4).
        g.bad.clear();
        assert_eq!(legacy_aig(&g).outputs, [named(a, "o")]);
    }

    #[test]
    fn legacy_files_have_five_field_headers_and_full_names() {
        let mut g = Aig::new();
        let a = g.add_input("");
        let l = g.add_latch("", Reset::Free);
        g.set_next(l, a);
        g.bad.push(named(l, ""));
        g.constraints.push(named(a, ""));
        let text = write_aiger_with(
            &g,
            &WriteOptions {
                format: AigerFormat::Ascii,
                legacy: true,
                name_all: false,
            },
        );
        let text = String::from_utf8(text).expect("ASCII");
        let header = text.lines().next().unwrap_or_default();
        assert_eq!(header.split(' ').count(), 6, "{text}");
        for sym in [
            "i0 in0",
            "l0 lat0",
            &format!("l1 {LEGACY_CONSTRAINT_LATCH}"),
            "o0 out0",
        ] {
            assert!(text.lines().any(|x| x == sym), "{sym} missing in\n{text}");
        }
        let back = read_aiger(text.as_bytes(), "legacy").expect("readable");
        assert_eq!(back.outputs.len(), 1);
        assert!(back.bad.is_empty() && back.constraints.is_empty());
    }
}
