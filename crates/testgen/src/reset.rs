//! Holding reset inputs during the first cycles of every run (`--reset`, `docs/method.md`
//! §6.1): the IR transform, the `NAME[=LEVEL][:CYCLES],...` option and the names that look
//! like reset ports ([`detect`] chooses among them by their effect).
//!
//! The transform adds one hidden state variable that counts the cycles up to the longest
//! `CYCLES` and, per held input, an invariant constraint `cycle < CYCLES → NAME = LEVEL`. No
//! node it builds has a source span, so no mutation touches it (mutants come from source spans
//! only): in the φ1 product they are constraints shared by the original and the mutant, and
//! every test shows `NAME = LEVEL` in frames `0..CYCLES`. The outputs are not observed while
//! a reset is held, as a testbench does not compare them during reset: every output `o`
//! becomes `cycle < LONGEST ? 0 : o` (0 = code 0 of its type), the same in both copies, so no
//! test kills in those frames.

pub mod detect;

use std::fmt;
use std::str::FromStr;

use hypermut_ir::{BinOp, Constraint, ConstraintKind, ExprKind, Role, System, Type, Value, VarId};

use crate::init::zero_value;

/// The name of the hidden cycle counter (made unique with a suffix if the model has it).
pub const COUNTER: &str = "reset.cycle";

/// Input names that are taken for a reset when no `--reset` is given (compared without case,
/// after port decorations are removed: [`core_name`]).
pub const RESET_NAMES: &[&str] = &[
    "rst", "rst_n", "rstn", "rst_b", "rstb", "rst_ni", "nrst", "reset", "reset_n", "resetn",
    "reset_b", "resetb", "nreset", "arst", "arst_n", "arstn", "areset", "areset_n", "aresetn",
    "srst", "srst_n", "sreset", "sreset_n",
];

/// A reset held at the start of every run.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResetSpec {
    /// The input that is held.
    pub name: String,
    /// The level it is held at (`true` = 1).
    pub level: bool,
    /// How many frames, from frame 0, it is held (at least 1).
    pub cycles: u32,
}

impl ResetSpec {
    /// The reset `name` at the level its name suggests ([`looks_active_low`]) for one cycle.
    pub fn by_name(name: &str) -> ResetSpec {
        ResetSpec {
            name: name.to_string(),
            level: !looks_active_low(name),
            cycles: 1,
        }
    }

    /// "`rst` held at 1 for 2 cycles".
    pub fn describe(&self) -> String {
        format!(
            "{} held at {} for {} cycle{}",
            self.name,
            u8::from(self.level),
            self.cycles,
            if self.cycles == 1 { "" } else { "s" }
        )
    }
}

impl fmt::Display for ResetSpec {
    /// The option text: `NAME=LEVEL:CYCLES`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}:{}", self.name, u8::from(self.level), self.cycles)
    }
}

/// What `--reset` asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum ResetOption {
    /// No `--reset`: for a Verilog design, hold the 1-bit inputs whose names are reset names
    /// ([`RESET_NAMES`]) and that reset something ([`detect::detect_resets`]); for an SMV
    /// model, nothing.
    #[default]
    Auto,
    /// `--reset none`: hold nothing.
    None,
    /// `--reset NAME[=LEVEL][:CYCLES],...`: these inputs (at least one, each named once).
    Hold(Vec<ResetSpec>),
}

/// Why a `--reset` option or its input is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResetError {
    /// The option text is not `none` or a comma-separated list of `NAME[=LEVEL][:CYCLES]`.
    #[error("--reset `{text}`: {why} (expected `none` or NAME[=LEVEL][:CYCLES],..., e.g. `rst`, `rst_n=0`, `rst=1:3`, `wb_rst_i=1,arst_i=0`)")]
    Syntax {
        /// The option as given.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// The model has no input of that name.
    #[error("--reset {name}: the model has no input `{name}` (its inputs: {inputs})")]
    NoSuchInput {
        /// The name given.
        name: String,
        /// The model's inputs, comma-separated.
        inputs: String,
    },
    /// The same input is to be held twice.
    #[error("--reset {name}: `{name}` is named twice")]
    NamedTwice {
        /// The name given twice.
        name: String,
    },
    /// The name is an input of more than one bit (or of a non-boolean type).
    #[error("--reset {name}: `{name}` is {ty}, not a 1-bit input")]
    NotOneBit {
        /// The name given.
        name: String,
        /// Its type, as hypermut describes it.
        ty: String,
    },
}

impl FromStr for ResetOption {
    type Err = ResetError;

    /// `none`, or a comma-separated list of `NAME[=LEVEL][:CYCLES]` (LEVEL 0 or 1, default by
    /// [`looks_active_low`]; CYCLES ≥ 1, default 1), each input named once.
    fn from_str(text: &str) -> Result<Self, ResetError> {
        let t = text.trim();
        if t == "none" {
            return Ok(ResetOption::None);
        }
        let items: Vec<&str> = t.split(',').map(str::trim).collect();
        let several = items.len() > 1;
        let mut specs: Vec<ResetSpec> = Vec::with_capacity(items.len());
        for item in items {
            let err = |why: &str| ResetError::Syntax {
                text: text.to_string(),
                why: if several {
                    format!("item `{item}`: {why}")
                } else {
                    why.to_string()
                },
            };
            if item == "none" {
                return Err(err("`none` cannot be combined with inputs"));
            }
            let spec = parse_item(item).map_err(err)?;
            if specs.iter().any(|s| s.name == spec.name) {
                return Err(err("the input is named twice"));
            }
            specs.push(spec);
        }
        Ok(ResetOption::Hold(specs))
    }
}

/// One `NAME[=LEVEL][:CYCLES]` of `--reset`, or what is wrong with it.
fn parse_item(t: &str) -> Result<ResetSpec, &'static str> {
    if t.is_empty() {
        return Err("an empty item (NAME[=LEVEL][:CYCLES] expected)");
    }
    let (rest, cycles) = match t.rsplit_once(':') {
        Some((rest, c)) => {
            let n: u32 = c
                .trim()
                .parse()
                .map_err(|_| "CYCLES must be a whole number")?;
            if n == 0 {
                return Err("CYCLES must be at least 1");
            }
            (rest, n)
        }
        None => (t, 1),
    };
    let (name, level) = match rest.split_once('=') {
        Some((name, l)) => match l.trim() {
            "0" => (name.trim(), Some(false)),
            "1" => (name.trim(), Some(true)),
            _ => return Err("LEVEL must be 0 or 1"),
        },
        None => (rest.trim(), None),
    };
    if name.is_empty() || name.contains(char::is_whitespace) {
        return Err("NAME must be an input's name");
    }
    Ok(ResetSpec {
        name: name.to_string(),
        level: level.unwrap_or_else(|| !looks_active_low(name)),
        cycles,
    })
}

/// A port name without the decorations designers add to it (lower case, the last
/// hierarchical segment, one prefix `i_`, `wb_`, `sys_` and one suffix `_i`, `_in`, `_pad`
/// removed): `wb_rst_i` → `rst`, `i_reset_n` → `reset_n`.
pub fn core_name(name: &str) -> String {
    let n = name.to_ascii_lowercase();
    let mut n = n.rsplit('.').next().unwrap_or(&n).to_string();
    for prefix in ["i_", "wb_", "sys_"] {
        if let Some(rest) = n.strip_prefix(prefix) {
            n = rest.to_string();
            break;
        }
    }
    for suffix in ["_pad", "_in", "_i"] {
        if let Some(rest) = n.strip_suffix(suffix) {
            if !rest.is_empty() {
                n = rest.to_string();
                break;
            }
        }
    }
    n
}

/// The level that resets the design according to its source: `negedge NAME` in an event
/// list (an asynchronous reset active low) gives 0, `posedge NAME` gives 1; `None` when the
/// source says neither (or both).
pub fn level_in_source(sys: &System, name: &str) -> Option<bool> {
    let mut low = false;
    let mut high = false;
    for file in sys.sources.files() {
        let text = file.text.as_str();
        for (edge, flag) in [("negedge", &mut low), ("posedge", &mut high)] {
            let mut from = 0;
            while let Some(at) = text[from..].find(edge) {
                let start = from + at;
                from = start + edge.len();
                let before_ok = !matches!(
                    text[..start].chars().next_back(),
                    Some(c) if c.is_ascii_alphanumeric() || c == '_' || c == '$'
                );
                let rest = text[from..].trim_start();
                let word: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
                    .collect();
                if before_ok && word == name {
                    *flag = true;
                }
            }
        }
    }
    match (low, high) {
        (true, false) => Some(false),
        (false, true) => Some(true),
        _ => None,
    }
}

/// Whether a reset of this name is active low: it ends in `_n`, `_ni` or `_b`, or it is a
/// reset name (`rst`, `reset`) with a trailing `n`/`b` or a leading `n` (`resetn`, `rstb`,
/// `nrst`); port decorations ([`core_name`]) do not count.
pub fn looks_active_low(name: &str) -> bool {
    let n = core_name(name);
    let n = n.as_str();
    if n.ends_with("_n") || n.ends_with("_ni") || n.ends_with("_b") {
        return true;
    }
    let core = ["rst", "reset"];
    core.iter().any(|c| {
        n.strip_suffix('n')
            .or_else(|| n.strip_suffix('b'))
            .is_some_and(|s| s.ends_with(c))
            || n.strip_prefix('n').is_some_and(|s| s.starts_with(c))
    })
}

/// The 1-bit inputs of `sys` whose names are reset names ([`RESET_NAMES`], without case and
/// port decorations: [`core_name`]), in declaration order.
pub fn reset_candidates(sys: &System) -> Vec<String> {
    sys.vars
        .iter()
        .filter(|v| v.role == Role::Input && is_one_bit(v.ty))
        .filter(|v| {
            let core = core_name(&v.name);
            RESET_NAMES.iter().any(|r| r.eq_ignore_ascii_case(&core))
        })
        .map(|v| v.name.clone())
        .collect()
}

fn is_one_bit(ty: Type) -> bool {
    ty.is_bool() || ty.bv_width() == Some(1)
}

/// The input `spec` names, if it is a 1-bit input of `sys`.
pub fn reset_input(sys: &System, name: &str) -> Result<VarId, ResetError> {
    let found = sys
        .var_by_name(name)
        .filter(|v| sys.var(*v).role == Role::Input);
    let Some(v) = found else {
        let inputs: Vec<&str> = sys
            .vars
            .iter()
            .filter(|v| v.role == Role::Input)
            .map(|v| v.name.as_str())
            .collect();
        return Err(ResetError::NoSuchInput {
            name: name.to_string(),
            inputs: if inputs.is_empty() {
                "none".into()
            } else {
                inputs.join(", ")
            },
        });
    };
    let ty = sys.var(v).ty;
    if !is_one_bit(ty) {
        return Err(ResetError::NotOneBit {
            name: name.to_string(),
            ty: ty.describe(&sys.enums),
        });
    }
    Ok(v)
}

/// A variable name not used in `sys`: `base`, else `base_1`, `base_2`, ….
fn fresh_name(sys: &System, base: &str) -> String {
    let mut name = base.to_string();
    let mut k = 0;
    while sys.var_by_name(&name).is_some() {
        k += 1;
        name = format!("{base}_{k}");
    }
    name
}

/// Holds each input of `specs` at its level in its frames `0..cycles` of every run of `sys`:
/// adds one counter ([`COUNTER`], an unsigned word initialised to 0 that counts up to the
/// longest `cycles` and stays there), one invariant `counter < cycles → input = level` per
/// input, and hides the outputs while the counter is below the longest `cycles` (each reads
/// code 0 of its type there). Returns the counter, `None` (and `sys` untouched) for an empty
/// list. Nothing built has a span (so nothing is mutated) and the counter is no output. Every
/// input is checked before anything is added.
pub fn hold_reset(sys: &mut System, specs: &[ResetSpec]) -> Result<Option<VarId>, ResetError> {
    let mut inputs = Vec::with_capacity(specs.len());
    for (k, spec) in specs.iter().enumerate() {
        if specs[..k].iter().any(|s| s.name == spec.name) {
            return Err(ResetError::NamedTwice {
                name: spec.name.clone(),
            });
        }
        inputs.push(reset_input(sys, &spec.name)?);
    }
    let Some(longest) = specs.iter().map(|s| s.cycles).max() else {
        return Ok(None);
    };
    let width = (u32::BITS - longest.leading_zeros()).max(1);
    let ty = Type::ubv(width);
    let name = fresh_name(sys, COUNTER);
    let counter = sys.add_var(name, ty, Role::State, None);
    let zero = sys.bv_const(ty, Value::bits(width, 0u32), None);
    let one = sys.bv_const(ty, Value::bits(width, 1u32), None);
    let limit = sys.bv_const(ty, Value::bits(width, longest), None);
    let c = sys.var_ref(counter, None);
    // The IR's typing rules cannot fail on these operands (all built here with one type).
    let built = (|| {
        let done = sys.mk(ExprKind::Binary(BinOp::Eq, c, limit), None)?;
        let inc = sys.mk(ExprKind::Binary(BinOp::Add, c, one), None)?;
        let next = sys.mk(ExprKind::Ite(done, c, inc), None)?;
        let hide = sys.mk(ExprKind::Binary(BinOp::Lt, c, limit), None)?;
        let mut invariants = Vec::with_capacity(specs.len());
        for (spec, &input) in specs.iter().zip(&inputs) {
            let until = sys.bv_const(ty, Value::bits(width, spec.cycles), None);
            let held = sys.mk(ExprKind::Binary(BinOp::Lt, c, until), None)?;
            let reset = sys.var_ref(input, None);
            let level = match sys.var(input).ty {
                Type::Bool => sys.bool_const(spec.level, None),
                t => sys.bv_const(t, Value::bits(1, u32::from(spec.level)), None),
            };
            let at_level = sys.mk(ExprKind::Binary(BinOp::Eq, reset, level), None)?;
            invariants.push(sys.mk(ExprKind::Binary(BinOp::Implies, held, at_level), None)?);
        }
        let mut hidden = Vec::with_capacity(sys.outputs.len());
        for k in 0..sys.outputs.len() {
            let o = sys.outputs[k].expr;
            let ty = sys.ty(o);
            let zero = sys.constant(ty, zero_value(ty), None);
            hidden.push(sys.mk(ExprKind::Ite(hide, zero, o), None)?);
        }
        Ok::<_, hypermut_ir::TypeError>((next, invariants, hidden))
    })();
    let (next, invariants, hidden) = built.map_err(|e| ResetError::NotOneBit {
        name: specs
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        ty: e.to_string(),
    })?;
    for (o, e) in sys.outputs.iter_mut().zip(hidden) {
        o.expr = e;
    }
    let var = &mut sys.vars[counter.0 as usize];
    var.init = Some(zero);
    var.next = Some(next);
    for expr in invariants {
        sys.constraints.push(Constraint {
            kind: ConstraintKind::Invariant,
            expr,
            span: None,
        });
    }
    Ok(Some(counter))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_ir::{Frame, Interpreter};
    use std::collections::HashMap;

    fn spec(name: &str, level: bool, cycles: u32) -> ResetOption {
        ResetOption::Hold(vec![ResetSpec {
            name: name.into(),
            level,
            cycles,
        }])
    }

    #[test]
    fn option_syntax() {
        let cases: &[(&str, ResetOption)] = &[
            ("none", ResetOption::None),
            ("rst", spec("rst", true, 1)),
            ("rst_n", spec("rst_n", false, 1)),
            ("resetn", spec("resetn", false, 1)),
            ("nrst", spec("nrst", false, 1)),
            ("rstb", spec("rstb", false, 1)),
            ("rst=0", spec("rst", false, 1)),
            ("rst_n=1:4", spec("rst_n", true, 4)),
            ("u.rst:2", spec("u.rst", true, 2)),
            ("clean", spec("clean", true, 1)),
        ];
        for (text, want) in cases {
            assert_eq!(text.parse::<ResetOption>().as_ref(), Ok(want), "{text}");
        }
        for (text, why) in [
            ("rst=2", "LEVEL must be 0 or 1"),
            ("rst:0", "CYCLES must be at least 1"),
            ("rst:x", "CYCLES must be a whole number"),
            ("=1", "NAME must be"),
            (":3", "NAME must be"),
        ] {
            let e = text.parse::<ResetOption>().unwrap_err().to_string();
            assert!(e.contains(why) && e.contains(text), "{text}: {e}");
        }
        // The option text reads back.
        let s = ResetSpec {
            name: "rst_n".into(),
            level: false,
            cycles: 3,
        };
        assert_eq!(
            s.to_string().parse::<ResetOption>(),
            Ok(ResetOption::Hold(vec![s]))
        );
    }

    #[test]
    fn a_comma_list_holds_several_inputs() {
        let r = |name: &str, level, cycles| ResetSpec {
            name: name.into(),
            level,
            cycles,
        };
        let cases: &[(&str, &[ResetSpec])] = &[
            (
                "wb_rst_i=1,arst_i=0",
                &[r("wb_rst_i", true, 1), r("arst_i", false, 1)],
            ),
            (
                " rst_n , go=1:3,srst:2 ",
                &[r("rst_n", false, 1), r("go", true, 3), r("srst", true, 2)],
            ),
        ];
        for (text, want) in cases {
            assert_eq!(
                text.parse::<ResetOption>(),
                Ok(ResetOption::Hold(want.to_vec())),
                "{text}"
            );
        }
        // Each bad item is named with what is wrong with it.
        for (text, item, why) in [
            ("rst,", "item ``", "an empty item"),
            ("rst,,go", "item ``", "an empty item"),
            ("rst=1,go=2", "item `go=2`", "LEVEL must be 0 or 1"),
            ("a,b:0", "item `b:0`", "CYCLES must be at least 1"),
            ("rst,none", "item `none`", "`none` cannot be combined"),
            ("rst=1,rst=0", "item `rst=0`", "the input is named twice"),
            ("a, b c", "item `b c`", "NAME must be"),
        ] {
            let e = text.parse::<ResetOption>().unwrap_err().to_string();
            assert!(
                e.contains(&format!("{item}: {why}")) && e.contains(text),
                "{text}: {e}"
            );
        }
    }

    #[test]
    fn active_low_names() {
        for n in [
            "rst_n",
            "RESET_N",
            "resetn",
            "rstn",
            "nrst",
            "nreset",
            "rstb",
            "rst_b",
            "rst_ni",
            "top.rst_n",
        ] {
            assert!(looks_active_low(n), "{n}");
        }
        for n in ["rst", "reset", "areset", "arst", "clean", "run", "b"] {
            assert!(!looks_active_low(n), "{n}");
        }
    }

    #[test]
    fn port_decorations_are_not_part_of_a_reset_name() {
        for (name, core, low) in [
            ("wb_rst_i", "rst", false),
            ("rst_i", "rst", false),
            ("rst_ni", "rst_ni", true),
            ("i_reset_n", "reset_n", true),
            ("arst_in", "arst", false),
            ("RESET_PAD", "reset", false),
            ("top.sys_rstn", "rstn", true),
            ("_i", "_i", false),
        ] {
            assert_eq!(core_name(name), core, "{name}");
            assert_eq!(looks_active_low(name), low, "{name}");
        }
    }

    #[test]
    fn the_source_tells_the_level_of_an_asynchronous_reset() {
        let with_text = |text: &str| {
            let mut s = design();
            s.sources.add("t.v", text);
            s
        };
        let low = with_text("always @(posedge clk or negedge rst_i) if (~rst_i) q <= 0;");
        assert_eq!(level_in_source(&low, "rst_i"), Some(false));
        let high = with_text("always @(posedge clk, posedge  rst) q <= 0;");
        assert_eq!(level_in_source(&high, "rst"), Some(true));
        // Another signal's edge, a longer name, or both edges say nothing.
        let other = with_text("always @(negedge rst_in or posedge clk) q <= 0;");
        assert_eq!(level_in_source(&other, "rst"), None);
        let both = with_text("@(negedge rst) a; @(posedge rst) b;");
        assert_eq!(level_in_source(&both, "rst"), None);
        assert_eq!(level_in_source(&design(), "rst"), None);
    }

    /// A system with inputs `rst` (1 bit), `go` (1 bit), `d` (4 bits) and a register `q` that
    /// takes `d` when `go`, with `q` the output and no initial value.
    fn design() -> System {
        let mut s = System::new("t");
        let rst = s.add_var("rst", Type::ubv(1), Role::Input, None);
        let go = s.add_var("go", Type::ubv(1), Role::Input, None);
        let d = s.add_var("d", Type::ubv(4), Role::Input, None);
        let q = s.add_var("q", Type::ubv(4), Role::State, None);
        let (_, gr, dr, qr) = (
            s.var_ref(rst, None),
            s.var_ref(go, None),
            s.var_ref(d, None),
            s.var_ref(q, None),
        );
        let one = s.bv_const(Type::ubv(1), Value::bits(1, 1u32), None);
        let c = s.mk(ExprKind::Binary(BinOp::Eq, gr, one), None).unwrap();
        let n = s.mk(ExprKind::Ite(c, dr, qr), None).unwrap();
        s.vars[q.0 as usize].next = Some(n);
        s.outputs.push(hypermut_ir::Output {
            name: "q".into(),
            expr: qr,
        });
        s
    }

    #[test]
    fn candidates_are_one_bit_inputs_with_reset_names() {
        let mut s = design();
        assert_eq!(reset_candidates(&s), ["rst"]);
        s.add_var("RESET_N", Type::ubv(1), Role::Input, None);
        s.add_var("reset", Type::ubv(2), Role::Input, None);
        s.add_var("rstn", Type::ubv(1), Role::State, None);
        s.add_var("wb_rst_i", Type::ubv(1), Role::Input, None);
        s.add_var("first", Type::ubv(1), Role::Input, None);
        assert_eq!(reset_candidates(&s), ["rst", "RESET_N", "wb_rst_i"]);
    }

    #[test]
    fn bad_inputs_are_refused() {
        let mut s = design();
        let e = hold_reset(&mut s, &[ResetSpec::by_name("reset")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--reset reset: the model has no input `reset` (its inputs: rst, go, d)"
        );
        let e = hold_reset(&mut s, &[ResetSpec::by_name("d")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--reset d: `d` is unsigned word[4], not a 1-bit input"
        );
        let e = hold_reset(&mut s, &[ResetSpec::by_name("q")]).unwrap_err();
        assert!(matches!(e, ResetError::NoSuchInput { .. }), "{e}");
        // A good input before a bad one, or one named twice: nothing added either.
        let e = hold_reset(
            &mut s,
            &[ResetSpec::by_name("rst"), ResetSpec::by_name("d")],
        )
        .unwrap_err();
        assert!(matches!(e, ResetError::NotOneBit { .. }), "{e}");
        let twice = [ResetSpec::by_name("rst"), ResetSpec::by_name("rst")];
        let e = hold_reset(&mut s, &twice).unwrap_err();
        assert_eq!(e.to_string(), "--reset rst: `rst` is named twice");
        assert_eq!(hold_reset(&mut s, &[]), Ok(None));
        assert_eq!(s.vars.len(), 4, "nothing added on failure");
        assert!(s.constraints.is_empty());
    }

    /// Runs `s` on `rst` values (other inputs 0) and says in which frames the constraints
    /// hold, reading `rst` as the interpreter sees it.
    /// `frames` frames of [`design`]'s inputs: `rst` and `go` high, `d` counting from `d0`.
    fn stimulus(frames: u32, d0: u32) -> Vec<Frame> {
        (0..frames)
            .map(|k| {
                let mut f = Frame::default();
                f.inputs.insert(VarId(0), Value::bits(1, 1u32));
                f.inputs.insert(VarId(1), Value::bits(1, 1u32));
                f.inputs.insert(VarId(2), Value::bits(4, k + d0));
                f
            })
            .collect()
    }

    fn constraints_per_frame(s: &System, rst: &[u32]) -> Vec<bool> {
        per_frame(s, "rst", rst, &[])
    }

    /// Runs `s` on values of input `name` and of the 1-bit inputs `others` (all other inputs
    /// 0) and says in which frames all constraints hold.
    fn per_frame(s: &System, name: &str, rst: &[u32], others: &[(&str, &[u32])]) -> Vec<bool> {
        let v = s.var_by_name(name).unwrap();
        let frames: Vec<Frame> = rst
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let mut f = Frame::default();
                for (i, var) in s.vars.iter().enumerate() {
                    if var.role == Role::Input {
                        let w = var.ty.bv_width().unwrap_or(1);
                        f.inputs.insert(VarId(i as u32), Value::bits(w, 0u32));
                    }
                }
                f.inputs.insert(v, Value::bits(1, *r));
                for (other, values) in others {
                    let o = s.var_by_name(other).unwrap();
                    f.inputs.insert(o, Value::bits(1, values[k]));
                }
                f
            })
            .collect();
        let mut free = HashMap::new();
        free.insert(s.var_by_name("q").unwrap(), Value::bits(4, 0u32));
        Interpreter::new(s)
            .run(&free, &frames)
            .unwrap()
            .constraints_ok
    }

    #[test]
    fn the_counter_holds_the_reset_for_exactly_the_first_cycles() {
        for cycles in [1u32, 2, 3, 4, 7] {
            for level in [false, true] {
                let mut s = design();
                let before = (s.outputs.len(), s.vars_with_role(Role::Input).len());
                let c = hold_reset(
                    &mut s,
                    &[ResetSpec {
                        name: "rst".into(),
                        level,
                        cycles,
                    }],
                )
                .unwrap()
                .unwrap();
                assert_eq!(s.var(c).name, COUNTER);
                assert_eq!(s.var(c).role, Role::State);
                assert_eq!(
                    before,
                    (s.outputs.len(), s.vars_with_role(Role::Input).len())
                );
                let n = cycles as usize + 3;
                let at = u32::from(level);
                // Held in every frame: the constraint holds throughout.
                assert!(constraints_per_frame(&s, &vec![at; n]).iter().all(|ok| *ok));
                // Released in frame k: allowed exactly when k >= cycles.
                for k in 0..n {
                    let mut rst = vec![at; n];
                    rst[k] = 1 - at;
                    let ok = constraints_per_frame(&s, &rst);
                    let want: Vec<bool> = (0..n).map(|j| j != k || k >= cycles as usize).collect();
                    assert_eq!(ok, want, "cycles {cycles}, level {level}, k {k}");
                }
            }
        }
    }

    #[test]
    fn outputs_read_zero_while_held_and_the_design_after() {
        let plain = design();
        for cycles in [1u32, 3] {
            let mut s = design();
            hold_reset(
                &mut s,
                &[ResetSpec {
                    name: "rst".into(),
                    level: true,
                    cycles,
                }],
            )
            .unwrap();
            // The same stimulus on both systems: rst held, `go` high, `d` counting.
            let frames = stimulus(6, 5);
            let mut free = HashMap::new();
            free.insert(VarId(3), Value::bits(4, 9u32));
            let a = Interpreter::new(&plain).run(&free, &frames).unwrap();
            let b = Interpreter::new(&s).run(&free, &frames).unwrap();
            for k in 0..frames.len() {
                let want = if k < cycles as usize {
                    vec![Value::bits(4, 0u32)]
                } else {
                    a.outputs[k].clone()
                };
                assert_eq!(b.outputs[k], want, "cycles {cycles}, frame {k}");
            }
            // The design's own state is untouched.
            assert_eq!(
                a.states.iter().map(|st| st[3].clone()).collect::<Vec<_>>(),
                b.states.iter().map(|st| st[3].clone()).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn the_counter_gets_a_fresh_name_and_nothing_has_a_span() {
        let mut s = design();
        s.add_var(COUNTER, Type::ubv(1), Role::State, None);
        let c = hold_reset(&mut s, &[ResetSpec::by_name("rst")])
            .unwrap()
            .unwrap();
        assert_eq!(s.var(c).name, "reset.cycle_1");
        let roots = [
            s.var(c).init.unwrap(),
            s.var(c).next.unwrap(),
            s.constraints[0].expr,
        ];
        for id in s.exprs.cone(roots.to_vec()) {
            assert!(s.exprs.node(id).span.is_none());
        }
    }

    #[test]
    fn two_resets_share_one_counter_and_each_is_held_for_its_own_cycles() {
        // `rst` at 1 for 2 cycles, `go` at 0 for 4: one counter, two invariants, outputs
        // hidden for 4 frames.
        let mut s = design();
        let vars = s.vars.len();
        let specs = [
            ResetSpec {
                name: "rst".into(),
                level: true,
                cycles: 2,
            },
            ResetSpec {
                name: "go".into(),
                level: false,
                cycles: 4,
            },
        ];
        hold_reset(&mut s, &specs).unwrap().unwrap();
        assert_eq!(s.vars.len(), vars + 1, "one counter");
        assert_eq!(s.constraints.len(), 2, "one invariant per input");
        let n = 7;
        let rst_held = vec![1; n];
        let go_held = vec![0; n];
        assert!(per_frame(&s, "rst", &rst_held, &[("go", &go_held)])
            .iter()
            .all(|ok| *ok));
        for k in 0..n {
            let mut rst = rst_held.clone();
            rst[k] = 0;
            let ok = per_frame(&s, "rst", &rst, &[("go", &go_held)]);
            let want: Vec<bool> = (0..n).map(|j| j != k || k >= 2).collect();
            assert_eq!(ok, want, "rst released in frame {k}");
            let mut go = go_held.clone();
            go[k] = 1;
            let ok = per_frame(&s, "rst", &rst_held, &[("go", &go)]);
            let want: Vec<bool> = (0..n).map(|j| j != k || k >= 4).collect();
            assert_eq!(ok, want, "go raised in frame {k}");
        }
        // Outputs read 0 for the longest hold (4 frames), the design's value after.
        let frames = stimulus(n as u32, 1);
        let mut free = HashMap::new();
        free.insert(VarId(3), Value::bits(4, 9u32));
        let plain = Interpreter::new(&design()).run(&free, &frames).unwrap();
        let held = Interpreter::new(&s).run(&free, &frames).unwrap();
        for k in 0..n {
            let want = if k < 4 {
                vec![Value::bits(4, 0u32)]
            } else {
                plain.outputs[k].clone()
            };
            assert_eq!(held.outputs[k], want, "frame {k}");
        }
    }
}
