//! The initial-state convention a model's tests assume (`docs/method.md` §6.1): which reset
//! is held in the first cycles ([`crate::reset`]) and what registers without an initial value
//! start with ([`crate::init`]), applied to the loaded system.

use hypermut_ir::{Diagnostic, Language, Severity, System};

use crate::init::{zero_init, InitOption};
use crate::reset::{
    hold_reset, level_in_source, reset_candidates, ResetError, ResetOption, ResetSpec,
};

/// How every run of the original and of the mutants starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Convention {
    /// The reset input held in frames `0..cycles`, if any.
    pub reset: Option<ResetSpec>,
    /// Whether that reset was found by its name (no `--reset` given).
    pub detected: bool,
    /// What registers without an initial value start with.
    pub init: InitOption,
    /// The state variables that `--init zero` gave the initial value 0, in declaration order.
    pub zeroed: Vec<String>,
}

impl Convention {
    /// Nothing held, power-up values free: the system as the front-end read it.
    pub fn is_free(&self) -> bool {
        self.reset.is_none() && self.init == InitOption::Free
    }

    /// The frames at the start of every test in which the reset is held (0 without reset).
    pub fn reset_cycles(&self) -> usize {
        self.reset.as_ref().map_or(0, |r| r.cycles as usize)
    }

    /// One line for test files and `run.json`, e.g. `reset: rst held at 1 for 1 cycle; other
    /// registers start with free values`.
    pub fn describe(&self) -> String {
        let rest = match self.init {
            InitOption::Free => "other registers start with free values",
            InitOption::Zero => "registers without an initial value start at 0",
        };
        match (&self.reset, self.init) {
            (Some(r), _) => format!("reset: {}; {rest}", r.describe()),
            (None, InitOption::Zero) => format!("zero: {rest}"),
            (None, InitOption::Free) => "free: power-up values are nondeterministic".into(),
        }
    }
}

/// Applies `init`, then `reset`, to `sys`, a model in `language`. Without `--reset`
/// ([`ResetOption::Auto`]) a Verilog design's one 1-bit input named like a reset is held, with
/// a note; several such inputs give a warning and none is held. SMV models hold a reset only
/// when it is named.
pub fn apply(
    sys: &mut System,
    language: Language,
    reset: &ResetOption,
    init: InitOption,
) -> Result<(Convention, Vec<Diagnostic>), ResetError> {
    let mut diagnostics = Vec::new();
    // Where the detected reset's level comes from, for the note.
    let mut level_from = "its name";
    let (spec, detected) = match reset {
        ResetOption::None => (None, false),
        ResetOption::Hold(spec) => (Some(spec.clone()), false),
        ResetOption::Auto if language == Language::Verilog => {
            match reset_candidates(sys).as_slice() {
                [] => (None, false),
                [one] => {
                    let mut spec = ResetSpec::by_name(one);
                    if let Some(level) = level_in_source(sys, one) {
                        spec.level = level;
                        level_from = if level {
                            "`posedge` in the source"
                        } else {
                            "`negedge` in the source"
                        };
                    }
                    (Some(spec), true)
                }
                several => {
                    diagnostics.push(Diagnostic::new(
                        Severity::Warning,
                        format!(
                            "several inputs look like resets ({}): none is held at the start of \
                             the tests; choose one with --reset NAME[=LEVEL][:CYCLES]",
                            several
                                .iter()
                                .map(|n| format!("`{n}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                    (None, false)
                }
            }
        }
        ResetOption::Auto => (None, false),
    };
    if let Some(s) = &spec {
        hold_reset(sys, s)?;
        if detected {
            diagnostics.push(Diagnostic::new(
                Severity::Note,
                format!(
                    "holding reset `{}` at {} for the first cycle of every test (detected by \
                     name, the level from {level_from}; --reset none to disable, --reset \
                     NAME=LEVEL:CYCLES to choose)",
                    s.name,
                    u8::from(s.level)
                ),
            ));
        }
    }
    let zeroed = match init {
        InitOption::Free => Vec::new(),
        InitOption::Zero => zero_init(sys)
            .into_iter()
            .map(|v| sys.var(v).name.clone())
            .collect(),
    };
    Ok((
        Convention {
            reset: spec,
            detected,
            init,
            zeroed,
        },
        diagnostics,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_ir::{Role, Type};

    fn sys(inputs: &[(&str, u32)]) -> System {
        let mut s = System::new("t");
        for (n, w) in inputs {
            s.add_var(*n, Type::ubv(*w), Role::Input, None);
        }
        s.add_var("q", Type::ubv(2), Role::State, None);
        s
    }

    #[test]
    fn descriptions() {
        let rst = ResetSpec {
            name: "rst".into(),
            level: true,
            cycles: 1,
        };
        let cases = [
            (
                None,
                InitOption::Free,
                "free: power-up values are nondeterministic",
            ),
            (
                None,
                InitOption::Zero,
                "zero: registers without an initial value start at 0",
            ),
            (
                Some(rst.clone()),
                InitOption::Free,
                "reset: rst held at 1 for 1 cycle; other registers start with free values",
            ),
            (
                Some(ResetSpec {
                    cycles: 3,
                    level: false,
                    ..rst
                }),
                InitOption::Zero,
                "reset: rst held at 0 for 3 cycles; registers without an initial value start at 0",
            ),
        ];
        for (reset, init, want) in cases {
            let c = Convention {
                reset,
                init,
                ..Convention::default()
            };
            assert_eq!(c.describe(), want);
            assert_eq!(c.is_free(), want.starts_with("free"));
        }
    }

    #[test]
    fn detection_by_language_and_name() {
        // Verilog, one reset-like input: held, with a note naming it and its level.
        let mut s = sys(&[("rst_n", 1), ("a", 1)]);
        let (c, d) = apply(
            &mut s,
            Language::Verilog,
            &ResetOption::Auto,
            InitOption::Free,
        )
        .expect("applies");
        assert_eq!(c.reset, Some(ResetSpec::by_name("rst_n")));
        assert!(c.detected && !c.reset.as_ref().unwrap().level);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].severity, Severity::Note);
        assert!(d[0]
            .message
            .starts_with("holding reset `rst_n` at 0 for the first cycle"));
        assert_eq!(s.constraints.len(), 1);
        // SMV: nothing unless named.
        let mut s = sys(&[("rst", 1)]);
        let (c, d) =
            apply(&mut s, Language::Smv, &ResetOption::Auto, InitOption::Free).expect("applies");
        assert!(c.is_free() && d.is_empty() && s.constraints.is_empty());
        // `--reset none`.
        let mut s = sys(&[("rst", 1)]);
        let (c, _) = apply(
            &mut s,
            Language::Verilog,
            &ResetOption::None,
            InitOption::Free,
        )
        .expect("ok");
        assert!(c.is_free() && s.constraints.is_empty());
        // Two candidates: a warning, nothing held.
        let mut s = sys(&[("rst", 1), ("RESET", 1)]);
        let (c, d) = apply(
            &mut s,
            Language::Verilog,
            &ResetOption::Auto,
            InitOption::Free,
        )
        .expect("ok");
        assert!(c.reset.is_none() && s.constraints.is_empty());
        assert_eq!(d[0].severity, Severity::Warning);
        assert!(d[0].message.contains("`rst`, `RESET`"), "{}", d[0].message);
        // A wide `reset` is no candidate.
        let mut s = sys(&[("reset", 2)]);
        let (c, d) = apply(
            &mut s,
            Language::Verilog,
            &ResetOption::Auto,
            InitOption::Zero,
        )
        .expect("ok");
        assert!(c.reset.is_none() && d.is_empty());
        assert_eq!(c.zeroed, ["q"]);
        // Named explicitly: no note, and a bad name is an error.
        let mut s = sys(&[("go", 1)]);
        let hold = ResetOption::Hold(ResetSpec::by_name("go"));
        let (c, d) = apply(&mut s, Language::Smv, &hold, InitOption::Free).expect("ok");
        assert!(!c.detected && c.reset.is_some() && d.is_empty());
        let mut s = sys(&[("go", 1)]);
        let bad = ResetOption::Hold(ResetSpec::by_name("rst"));
        assert!(apply(&mut s, Language::Verilog, &bad, InitOption::Free).is_err());
    }
}
