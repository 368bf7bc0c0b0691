//! Which reset-named inputs to hold when no `--reset` is given, and at which level
//! (`docs/method.md` §6.1): a level is chosen by its effect on the registers.
//!
//! The effect of input `r` at level `L` is the number of register bits (AIG latches of the
//! bit-blasted system) whose next value is a known constant in three-valued logic with `r = L`
//! and every other input and every register unknown, but not with `r` unknown too
//! ([`hypermut_aig::sim::ternary_next`]). A reset forces registers to their reset values
//! whatever the rest of the design does, so its active level has the larger effect: this
//! finds the level of an asynchronous active-low reset behind a wire alias (`wire rst_i =
//! arst_i ^ ARST_LVL; … negedge rst_i`), where neither the source's edges nor the name tell
//! it. Equal effects fall back to the source's edge ([`level_in_source`]), then the name
//! ([`looks_active_low`]). A candidate that fixes no register at either level is not held.

use hypermut_aig::blast::{blast, BlastError, BlastOptions};
use hypermut_aig::sim::ternary_next;
use hypermut_ir::System;
use hypermut_mutate::{make_controllable, MutateError};

use super::{level_in_source, looks_active_low, reset_candidates};

/// Why the effect of the candidates could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum EffectError {
    /// The nondeterministic choices could not be made inputs.
    #[error("the design could not be made deterministic: {0}")]
    Controllable(#[from] MutateError),
    /// The design could not be bit-blasted.
    #[error("the design could not be bit-blasted: {0}")]
    Blast(#[from] BlastError),
}

/// Where a detected reset's level comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelFrom {
    /// The level fixes more register bits than the other level does (this many).
    Effect(usize),
    /// `negedge NAME` (level 0) or `posedge NAME` (level 1) in the source.
    Edge,
    /// The name ([`looks_active_low`]).
    Name,
}

impl LevelFrom {
    /// "its effect on 12 register bits", "`negedge` in the source", "its name".
    pub fn describe(self, level: bool) -> String {
        match self {
            LevelFrom::Effect(n) => {
                format!(
                    "its effect on {n} register bit{}",
                    if n == 1 { "" } else { "s" }
                )
            }
            LevelFrom::Edge if level => "`posedge` in the source".into(),
            LevelFrom::Edge => "`negedge` in the source".into(),
            LevelFrom::Name => "its name".into(),
        }
    }
}

/// A reset-named input and what detection made of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The input.
    pub name: String,
    /// How many register bits level 0 and level 1 fix (`None`: not computed).
    pub effect: Option<[usize; 2]>,
    /// The level it would be held at.
    pub level: bool,
    /// Where that level comes from.
    pub from: LevelFrom,
}

impl Candidate {
    /// Whether it is held: it fixes some register at its level (or its effect is unknown).
    pub fn held(&self) -> bool {
        match self.effect {
            Some(e) => e[usize::from(self.level)] > 0,
            None => true,
        }
    }
}

/// The outcome of detection.
#[derive(Debug)]
pub struct Detection {
    /// The 1-bit inputs named like resets ([`reset_candidates`]), in declaration order.
    pub candidates: Vec<Candidate>,
    /// Why the effects are unknown, when they could not be computed (then every candidate is
    /// held at the level of the source or its name).
    pub effect_error: Option<EffectError>,
}

/// Detects the resets of `sys` (see the module documentation).
pub fn detect_resets(sys: &System) -> Detection {
    let names = reset_candidates(sys);
    let (effects, effect_error) = if names.is_empty() {
        (None, None)
    } else {
        match level_effects(sys, &names) {
            Ok(e) => (Some(e), None),
            Err(e) => (None, Some(e)),
        }
    };
    let candidates = names
        .into_iter()
        .enumerate()
        .map(|(k, name)| {
            let effect = effects.as_ref().and_then(|e| e.get(k).copied());
            let (level, from) = match effect {
                Some([low, high]) if low != high => (high > low, LevelFrom::Effect(low.max(high))),
                _ => match level_in_source(sys, &name) {
                    Some(level) => (level, LevelFrom::Edge),
                    None => (!looks_active_low(&name), LevelFrom::Name),
                },
            };
            Candidate {
                name,
                effect,
                level,
                from,
            }
        })
        .collect();
    Detection {
        candidates,
        effect_error,
    }
}

/// For each input of `names` (1-bit inputs of `sys`), how many register bits level 0 and
/// level 1 fix (see the module documentation). A name that is no input gets `[0, 0]`.
pub fn level_effects(sys: &System, names: &[String]) -> Result<Vec<[usize; 2]>, EffectError> {
    let mut det = sys.clone();
    make_controllable(&mut det, &[])?;
    let blasted = blast(&det, &BlastOptions::default())?;
    let aig = &blasted.aig;
    let unknown = vec![None; aig.inputs.len()];
    let base = ternary_next(aig, &unknown);
    let newly_known = |next: &[Option<bool>]| {
        next.iter()
            .zip(&base)
            .filter(|(n, b)| n.is_some() && b.is_none())
            .count()
    };
    Ok(names
        .iter()
        .map(|name| {
            let Some(bits) = blasted.inputs.iter().find(|v| &v.name == name) else {
                return [0, 0];
            };
            let indices: Vec<usize> = bits
                .bits
                .iter()
                .filter_map(|&l| aig.input_index(l))
                .collect();
            [false, true].map(|level| {
                let mut inputs = unknown.clone();
                for &i in &indices {
                    inputs[i] = Some(level);
                }
                newly_known(&ternary_next(aig, &inputs))
            })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_verilog::{parse_verilog, VerilogOptions};

    fn verilog(text: &str) -> System {
        parse_verilog(&[("t.v", text)], &VerilogOptions::default())
            .expect("elaborates")
            .system
    }

    fn candidate<'a>(d: &'a Detection, name: &str) -> &'a Candidate {
        d.candidates
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no candidate `{name}` in {d:?}"))
    }

    /// The shape of the i2c master's resets: `arst_i` resets asynchronously when low through
    /// `rst_i = arst_i ^ ARST_LVL` (ARST_LVL = 0), `wb_rst_i` synchronously when high. The
    /// source shows no edge of `arst_i` and its name reads active high.
    const I2C_LIKE: &str = "module t(input clk, input wb_rst_i, input arst_i, input [3:0] d,\n\
        output reg [3:0] q, output reg [1:0] r);\n\
        parameter ARST_LVL = 1'b0;\n\
        wire rst_i = arst_i ^ ARST_LVL;\n\
        always @(posedge clk or negedge rst_i)\n\
          if (!rst_i) q <= 4'h5; else if (wb_rst_i) q <= 4'h5; else q <= d;\n\
        always @(posedge clk or negedge rst_i)\n\
          if (~rst_i) r <= 0; else r <= d[1:0];\n\
        endmodule\n";

    #[test]
    fn an_aliased_active_low_reset_gets_level_0_by_its_effect() {
        let s = verilog(I2C_LIKE);
        assert!(!looks_active_low("arst_i"));
        assert_eq!(level_in_source(&s, "arst_i"), None);
        let d = detect_resets(&s);
        assert!(d.effect_error.is_none(), "{:?}", d.effect_error);
        // arst_i = 0 fixes the 4 bits of q and the 2 of r; arst_i = 1 fixes nothing.
        let arst = candidate(&d, "arst_i");
        assert_eq!(arst.effect, Some([6, 0]));
        assert_eq!((arst.level, arst.from), (false, LevelFrom::Effect(6)));
        assert!(arst.held());
        // wb_rst_i = 1 fixes q (r does not read it), but with `rst_i` unknown the mux
        // `rst_i ? (wb_rst_i ? 5 : d) : 5` is known only where both arms are 0 in
        // three-valued logic (the ones of 4'h5 stay unknown): bits 1 and 3. 0 fixes nothing.
        let wb = candidate(&d, "wb_rst_i");
        assert_eq!(wb.effect, Some([0, 2]));
        assert_eq!((wb.level, wb.from), (true, LevelFrom::Effect(2)));
        assert!(wb.held());
    }

    #[test]
    fn equal_effects_fall_back_to_the_edge_then_the_name() {
        // Each level of `rst` clears one register: a tie.
        let tie = |edge: &str| {
            verilog(&format!(
                "module t(input clk, input rst, input d, output reg a, output reg b);\n\
                 always @(posedge clk{edge}) if (rst) a <= 0; else a <= d;\n\
                 always @(posedge clk) if (!rst) b <= 0; else b <= d;\nendmodule\n"
            ))
        };
        for (edge, level, from) in [
            ("", true, LevelFrom::Name),
            (" or negedge rst", false, LevelFrom::Edge),
            (" or posedge rst", true, LevelFrom::Edge),
        ] {
            let d = detect_resets(&tie(edge));
            let rst = candidate(&d, "rst");
            assert_eq!(rst.effect, Some([1, 1]), "{edge}");
            assert_eq!((rst.level, rst.from), (level, from), "{edge}");
            assert!(rst.held());
        }
    }

    #[test]
    fn an_input_that_fixes_no_register_is_not_held() {
        let s = verilog(
            "module t(input clk, input rst_n, input d, output reg q, output y);\n\
             assign y = q & rst_n;\nalways @(posedge clk) q <= d;\nendmodule\n",
        );
        let d = detect_resets(&s);
        let rst = candidate(&d, "rst_n");
        assert_eq!(rst.effect, Some([0, 0]));
        assert!(!rst.held());
        // The name still gives the level it would have.
        assert_eq!((rst.level, rst.from), (false, LevelFrom::Name));
    }

    #[test]
    fn registers_fixed_whatever_the_reset_do_not_count() {
        // `k` is cleared every cycle and `q` only by `rst`: only `q` is the reset's effect.
        // `d = 0` fixes `q` too (both arms of the mux are then 0); a name that is no input
        // fixes nothing.
        let s = verilog(
            "module t(input clk, input rst, input d, output reg q, output reg k);\n\
             always @(posedge clk) begin k <= 0; if (rst) q <= 0; else q <= d; end\nendmodule\n",
        );
        let effects =
            level_effects(&s, &["rst".into(), "d".into(), "nothing".into()]).expect("blasts");
        assert_eq!(effects, [[0, 1], [1, 0], [0, 0]]);
    }

    #[test]
    fn level_sources_read_as_prose() {
        assert_eq!(
            LevelFrom::Effect(1).describe(true),
            "its effect on 1 register bit"
        );
        assert_eq!(
            LevelFrom::Effect(7).describe(false),
            "its effect on 7 register bits"
        );
        assert_eq!(LevelFrom::Edge.describe(false), "`negedge` in the source");
        assert_eq!(LevelFrom::Edge.describe(true), "`posedge` in the source");
        assert_eq!(LevelFrom::Name.describe(false), "its name");
    }
}
