//! The initial-state convention a model's tests assume (`docs/method.md` §6.1): which resets
//! are held in the first cycles ([`crate::reset`]) and what registers without an initial value
//! start with ([`crate::init`]), applied to the loaded system.

use hypermut_ir::{Diagnostic, Language, Severity, System};

use crate::init::{zero_init, InitOption};
use crate::reset::detect::{detect_resets, Candidate};
use crate::reset::{hold_reset, ResetError, ResetOption, ResetSpec};

/// How every run of the original and of the mutants starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Convention {
    /// The reset inputs held, each in its frames `0..cycles` (empty: none).
    pub reset: Vec<ResetSpec>,
    /// Whether those resets were detected (no `--reset` given).
    pub detected: bool,
    /// What registers without an initial value start with.
    pub init: InitOption,
    /// The state variables that `--init zero` gave the initial value 0, in declaration order.
    pub zeroed: Vec<String>,
}

impl Convention {
    /// Nothing held, power-up values free: the system as the front-end read it.
    pub fn is_free(&self) -> bool {
        self.reset.is_empty() && self.init == InitOption::Free
    }

    /// The frames at the start of every test in which a reset is held: the longest (0 without
    /// reset). No output is observed in them.
    pub fn reset_cycles(&self) -> usize {
        self.reset
            .iter()
            .map(|r| r.cycles as usize)
            .max()
            .unwrap_or(0)
    }

    /// One line for test files and `run.json`, e.g. `reset: rst held at 1 for 1 cycle; other
    /// registers start with free values` (several resets are separated by `, `).
    pub fn describe(&self) -> String {
        let rest = match self.init {
            InitOption::Free => "other registers start with free values",
            InitOption::Zero => "registers without an initial value start at 0",
        };
        match (self.reset.as_slice(), self.init) {
            ([], InitOption::Zero) => format!("zero: {rest}"),
            ([], InitOption::Free) => "free: power-up values are nondeterministic".into(),
            (resets, _) => {
                let held: Vec<String> = resets.iter().map(ResetSpec::describe).collect();
                format!("reset: {}; {rest}", held.join(", "))
            }
        }
    }
}

/// Applies `reset`, then `init`, to `sys`, a model in `language`. Without `--reset`
/// ([`ResetOption::Auto`]) a Verilog design's 1-bit inputs named like resets are detected
/// ([`detect_resets`]): each that fixes some register at its level is held, with a note;
/// the others are named in a note. SMV models hold a reset only when it is named.
pub fn apply(
    sys: &mut System,
    language: Language,
    reset: &ResetOption,
    init: InitOption,
) -> Result<(Convention, Vec<Diagnostic>), ResetError> {
    let mut diagnostics = Vec::new();
    let (specs, detected) = match reset {
        ResetOption::None => (Vec::new(), false),
        ResetOption::Hold(specs) => (specs.clone(), false),
        ResetOption::Auto if language == Language::Verilog => {
            let (specs, notes) = detected_resets(sys);
            diagnostics.extend(notes);
            (specs, true)
        }
        ResetOption::Auto => (Vec::new(), false),
    };
    hold_reset(sys, &specs)?;
    let zeroed = match init {
        InitOption::Free => Vec::new(),
        InitOption::Zero => zero_init(sys)
            .into_iter()
            .map(|v| sys.var(v).name.clone())
            .collect(),
    };
    Ok((
        Convention {
            detected: detected && !specs.is_empty(),
            reset: specs,
            init,
            zeroed,
        },
        diagnostics,
    ))
}

/// The resets detection holds in `sys` (each for one cycle) and the notes that say which,
/// at which level and why, and which reset-named inputs are not held.
fn detected_resets(sys: &System) -> (Vec<ResetSpec>, Vec<Diagnostic>) {
    let detection = detect_resets(sys);
    let mut notes = Vec::new();
    let (held, idle): (Vec<&Candidate>, Vec<&Candidate>) =
        detection.candidates.iter().partition(|c| c.held());
    let specs: Vec<ResetSpec> = held
        .iter()
        .map(|c| ResetSpec {
            name: c.name.clone(),
            level: c.level,
            cycles: 1,
        })
        .collect();
    if !held.is_empty() {
        let list: Vec<String> = held
            .iter()
            .map(|c| {
                format!(
                    "`{}` at {} (the level from {})",
                    c.name,
                    u8::from(c.level),
                    c.from.describe(c.level)
                )
            })
            .collect();
        let unknown = match &detection.effect_error {
            Some(e) => format!("; their effect is unknown: {e}"),
            None => String::new(),
        };
        notes.push(Diagnostic::new(
            Severity::Note,
            format!(
                "holding reset{} {} for the first cycle of every test (detected by name{unknown}; \
                 --reset none to disable, --reset NAME=LEVEL:CYCLES,... to choose)",
                if held.len() == 1 { "" } else { "s" },
                join_and(&list)
            ),
        ));
    }
    if !idle.is_empty() {
        let names: Vec<String> = idle.iter().map(|c| format!("`{}`", c.name)).collect();
        let why = if idle.len() == 1 {
            "it looks like a reset, but neither of its levels fixes"
        } else {
            "they look like resets, but no level of theirs fixes"
        };
        notes.push(Diagnostic::new(
            Severity::Note,
            format!(
                "not holding {}: {why} the next value of any register (--reset NAME=LEVEL \
                 holds an input anyway)",
                join_and(&names)
            ),
        ));
    }
    (specs, notes)
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_ir::{Role, Type};
    use hypermut_verilog::{parse_verilog, VerilogOptions};

    fn sys(inputs: &[(&str, u32)]) -> System {
        let mut s = System::new("t");
        for (n, w) in inputs {
            s.add_var(*n, Type::ubv(*w), Role::Input, None);
        }
        s.add_var("q", Type::ubv(2), Role::State, None);
        s
    }

    fn verilog(text: &str) -> System {
        parse_verilog(&[("t.v", text)], &VerilogOptions::default())
            .expect("elaborates")
            .system
    }

    /// `apply` without `--reset` and with free power-up values on a Verilog design.
    fn auto(text: &str) -> (System, Convention, Vec<Diagnostic>) {
        let mut s = verilog(text);
        let (c, d) = apply(
            &mut s,
            Language::Verilog,
            &ResetOption::Auto,
            InitOption::Free,
        )
        .expect("applies");
        (s, c, d)
    }

    fn spec(name: &str, level: bool) -> ResetSpec {
        ResetSpec {
            name: name.into(),
            level,
            cycles: 1,
        }
    }

    #[test]
    fn descriptions() {
        let rst = spec("rst", true);
        let cases = [
            (
                vec![],
                InitOption::Free,
                "free: power-up values are nondeterministic",
            ),
            (
                vec![],
                InitOption::Zero,
                "zero: registers without an initial value start at 0",
            ),
            (
                vec![rst.clone()],
                InitOption::Free,
                "reset: rst held at 1 for 1 cycle; other registers start with free values",
            ),
            (
                vec![ResetSpec {
                    cycles: 3,
                    level: false,
                    ..rst.clone()
                }],
                InitOption::Zero,
                "reset: rst held at 0 for 3 cycles; registers without an initial value start at 0",
            ),
            (
                vec![rst, spec("arst_i", false)],
                InitOption::Free,
                "reset: rst held at 1 for 1 cycle, arst_i held at 0 for 1 cycle; other \
                 registers start with free values",
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
    fn the_longest_hold_counts() {
        let c = Convention {
            reset: vec![
                ResetSpec {
                    cycles: 2,
                    ..spec("a", true)
                },
                ResetSpec {
                    cycles: 5,
                    ..spec("b", true)
                },
                spec("c", false),
            ],
            ..Convention::default()
        };
        assert_eq!(c.reset_cycles(), 5);
        assert_eq!(Convention::default().reset_cycles(), 0);
    }

    #[test]
    fn one_detected_reset_is_held_at_the_level_of_its_effect() {
        let (s, c, d) = auto(
            "module t(input clk, input rst_n, input [1:0] a, output reg [1:0] q);\n\
             always @(posedge clk) if (!rst_n) q <= 0; else q <= a;\nendmodule\n",
        );
        assert_eq!(c.reset, [spec("rst_n", false)]);
        assert!(c.detected);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].severity, Severity::Note);
        assert_eq!(
            d[0].message,
            "holding reset `rst_n` at 0 (the level from its effect on 2 register bits) for the \
             first cycle of every test (detected by name; --reset none to disable, --reset \
             NAME=LEVEL:CYCLES,... to choose)"
        );
        assert_eq!(s.constraints.len(), 1);
    }

    #[test]
    fn every_reset_that_resets_something_is_held() {
        // Two resets, one synchronous active high, one asynchronous active low behind an
        // alias; and `srst`, named like a reset, that only gates an output.
        let (s, c, d) = auto(
            "module t(input clk, input wb_rst_i, input arst_i, input srst, input [2:0] a,\n\
             output reg [2:0] q, output y);\n\
             wire rst_i = arst_i ^ 1'b0;\n\
             assign y = a[0] & ~srst;\n\
             always @(posedge clk or negedge rst_i)\n\
             if (!rst_i) q <= 0; else if (wb_rst_i) q <= 0; else q <= a;\nendmodule\n",
        );
        assert_eq!(c.reset, [spec("wb_rst_i", true), spec("arst_i", false)]);
        assert_eq!(s.constraints.len(), 2);
        let messages: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
        assert!(d.iter().all(|d| d.severity == Severity::Note), "{d:?}");
        assert_eq!(
            messages,
            [
                "holding resets `wb_rst_i` at 1 (the level from its effect on 3 register bits) \
                 and `arst_i` at 0 (the level from its effect on 3 register bits) for the first \
                 cycle of every test (detected by name; --reset none to disable, --reset \
                 NAME=LEVEL:CYCLES,... to choose)",
                "not holding `srst`: it looks like a reset, but neither of its levels fixes the \
                 next value of any register (--reset NAME=LEVEL holds an input anyway)",
            ]
        );
    }

    #[test]
    fn a_reset_named_input_without_effect_is_not_held() {
        let (s, c, d) = auto(
            "module t(input clk, input rst, input a, output reg q, output y);\n\
             assign y = q & ~rst;\nalways @(posedge clk) q <= a;\nendmodule\n",
        );
        assert!(c.reset.is_empty() && !c.detected && c.is_free());
        assert!(s.constraints.is_empty());
        assert_eq!(d.len(), 1);
        assert!(d[0].message.starts_with("not holding `rst`: "), "{d:?}");
    }

    #[test]
    fn detection_by_language_and_option() {
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
        // A wide `reset` is no candidate.
        let mut s = sys(&[("reset", 2)]);
        let (c, d) = apply(
            &mut s,
            Language::Verilog,
            &ResetOption::Auto,
            InitOption::Zero,
        )
        .expect("ok");
        assert!(c.reset.is_empty() && d.is_empty());
        assert_eq!(c.zeroed, ["q"]);
        // Named explicitly (one or several): no note, and a bad name is an error.
        let mut s = sys(&[("go", 1), ("stop", 1)]);
        let hold = ResetOption::Hold(vec![spec("go", true), spec("stop", false)]);
        let (c, d) = apply(&mut s, Language::Smv, &hold, InitOption::Free).expect("ok");
        assert!(!c.detected && c.reset.len() == 2 && d.is_empty());
        assert_eq!(s.constraints.len(), 2);
        let mut s = sys(&[("go", 1)]);
        let bad = ResetOption::Hold(vec![ResetSpec::by_name("rst")]);
        assert!(apply(&mut s, Language::Verilog, &bad, InitOption::Free).is_err());
    }

    #[test]
    fn lists_read_like_prose() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(join_and(&s(&[])), "");
        assert_eq!(join_and(&s(&["a"])), "a");
        assert_eq!(join_and(&s(&["a", "b"])), "a and b");
        assert_eq!(join_and(&s(&["a", "b", "c"])), "a, b and c");
    }
}
