//! Holding a reset input during the first cycles of every run (`--reset`, `docs/method.md`
//! §6.1): the IR transform, the `NAME[=LEVEL][:CYCLES]` option and the detection of a reset
//! port by its name.
//!
//! The transform adds a hidden state variable that counts the cycles up to `CYCLES` and an
//! invariant constraint `cycle < CYCLES → NAME = LEVEL`. No node it builds has a source span,
//! so no mutation touches it (mutants come from source spans only): in the φ1 product it is a
//! constraint shared by the original and the mutant, and every test shows `NAME = LEVEL` in
//! frames `0..CYCLES`. The outputs are not observed while the reset is held, as a testbench
//! does not compare them during reset: every output `o` becomes `cycle < CYCLES ? 0 : o` (0 =
//! code 0 of its type), the same in both copies, so no test kills in those frames.

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
    /// No `--reset`: for a Verilog design, hold the one 1-bit input whose name is a reset
    /// name ([`RESET_NAMES`]); for an SMV model, nothing.
    #[default]
    Auto,
    /// `--reset none`: hold nothing.
    None,
    /// `--reset NAME[=LEVEL][:CYCLES]`.
    Hold(ResetSpec),
}

/// Why a `--reset` option or its input is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResetError {
    /// The option text is not `none` or `NAME[=LEVEL][:CYCLES]`.
    #[error("--reset `{text}`: {why} (expected `none` or NAME[=LEVEL][:CYCLES], e.g. `rst`, `rst_n=0`, `rst=1:3`)")]
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

    /// `none` or `NAME[=LEVEL][:CYCLES]` (LEVEL 0 or 1, default by [`looks_active_low`];
    /// CYCLES ≥ 1, default 1).
    fn from_str(text: &str) -> Result<Self, ResetError> {
        let t = text.trim();
        if t == "none" {
            return Ok(ResetOption::None);
        }
        let err = |why: &str| ResetError::Syntax {
            text: text.to_string(),
            why: why.to_string(),
        };
        let (rest, cycles) = match t.rsplit_once(':') {
            Some((rest, c)) => {
                let n: u32 = c
                    .trim()
                    .parse()
                    .map_err(|_| err("CYCLES must be a whole number"))?;
                if n == 0 {
                    return Err(err("CYCLES must be at least 1"));
                }
                (rest, n)
            }
            None => (t, 1),
        };
        let (name, level) = match rest.split_once('=') {
            Some((name, l)) => match l.trim() {
                "0" => (name.trim(), Some(false)),
                "1" => (name.trim(), Some(true)),
                _ => return Err(err("LEVEL must be 0 or 1")),
            },
            None => (rest.trim(), None),
        };
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(err("NAME must be an input's name"));
        }
        Ok(ResetOption::Hold(ResetSpec {
            name: name.to_string(),
            level: level.unwrap_or_else(|| !looks_active_low(name)),
            cycles,
        }))
    }
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

/// Holds the input of `spec` at its level in frames `0..cycles` of every run of `sys`: adds
/// the counter ([`COUNTER`], an unsigned word initialised to 0 that counts up to `cycles` and
/// stays there) and the invariant `counter < cycles → input = level`, and hides the outputs
/// in those frames (each reads code 0 of its type there). Returns the counter. Nothing built
/// has a span (so nothing is mutated) and the counter is no output.
pub fn hold_reset(sys: &mut System, spec: &ResetSpec) -> Result<VarId, ResetError> {
    let input = reset_input(sys, &spec.name)?;
    let width = (u32::BITS - spec.cycles.leading_zeros()).max(1);
    let ty = Type::ubv(width);
    let name = fresh_name(sys, COUNTER);
    let counter = sys.add_var(name, ty, Role::State, None);
    let zero = sys.bv_const(ty, Value::bits(width, 0u32), None);
    let one = sys.bv_const(ty, Value::bits(width, 1u32), None);
    let limit = sys.bv_const(ty, Value::bits(width, spec.cycles), None);
    let c = sys.var_ref(counter, None);
    let reset = sys.var_ref(input, None);
    let level = match sys.var(input).ty {
        Type::Bool => sys.bool_const(spec.level, None),
        t => sys.bv_const(t, Value::bits(1, u32::from(spec.level)), None),
    };
    // The IR's typing rules cannot fail on these operands (all built above with one type).
    let built = (|| {
        let done = sys.mk(ExprKind::Binary(BinOp::Eq, c, limit), None)?;
        let inc = sys.mk(ExprKind::Binary(BinOp::Add, c, one), None)?;
        let next = sys.mk(ExprKind::Ite(done, c, inc), None)?;
        let held = sys.mk(ExprKind::Binary(BinOp::Lt, c, limit), None)?;
        let at_level = sys.mk(ExprKind::Binary(BinOp::Eq, reset, level), None)?;
        let invariant = sys.mk(ExprKind::Binary(BinOp::Implies, held, at_level), None)?;
        let mut hidden = Vec::with_capacity(sys.outputs.len());
        for k in 0..sys.outputs.len() {
            let o = sys.outputs[k].expr;
            let ty = sys.ty(o);
            let zero = sys.constant(ty, zero_value(ty), None);
            hidden.push(sys.mk(ExprKind::Ite(held, zero, o), None)?);
        }
        Ok::<_, hypermut_ir::TypeError>((next, invariant, hidden))
    })();
    let (next, invariant, hidden) = built.map_err(|e| ResetError::NotOneBit {
        name: spec.name.clone(),
        ty: e.to_string(),
    })?;
    for (o, e) in sys.outputs.iter_mut().zip(hidden) {
        o.expr = e;
    }
    let var = &mut sys.vars[counter.0 as usize];
    var.init = Some(zero);
    var.next = Some(next);
    sys.constraints.push(Constraint {
        kind: ConstraintKind::Invariant,
        expr: invariant,
        span: None,
    });
    Ok(counter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_ir::{Frame, Interpreter};
    use std::collections::HashMap;

    fn spec(name: &str, level: bool, cycles: u32) -> ResetOption {
        ResetOption::Hold(ResetSpec {
            name: name.into(),
            level,
            cycles,
        })
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
            Ok(ResetOption::Hold(s))
        );
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
        let e = hold_reset(&mut s, &ResetSpec::by_name("reset")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--reset reset: the model has no input `reset` (its inputs: rst, go, d)"
        );
        let e = hold_reset(&mut s, &ResetSpec::by_name("d")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--reset d: `d` is unsigned word[4], not a 1-bit input"
        );
        let e = hold_reset(&mut s, &ResetSpec::by_name("q")).unwrap_err();
        assert!(matches!(e, ResetError::NoSuchInput { .. }), "{e}");
        assert_eq!(s.vars.len(), 4, "nothing added on failure");
        assert!(s.constraints.is_empty());
    }

    /// Runs `s` on `rst` values (other inputs 0) and says in which frames the constraints
    /// hold, reading `rst` as the interpreter sees it.
    fn constraints_per_frame(s: &System, rst: &[u32]) -> Vec<bool> {
        let v = s.var_by_name("rst").unwrap();
        let frames: Vec<Frame> = rst
            .iter()
            .map(|r| {
                let mut f = Frame::default();
                for (i, var) in s.vars.iter().enumerate() {
                    if var.role == Role::Input {
                        let w = var.ty.bv_width().unwrap_or(1);
                        f.inputs.insert(VarId(i as u32), Value::bits(w, 0u32));
                    }
                }
                f.inputs.insert(v, Value::bits(1, *r));
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
                    &ResetSpec {
                        name: "rst".into(),
                        level,
                        cycles,
                    },
                )
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
                &ResetSpec {
                    name: "rst".into(),
                    level: true,
                    cycles,
                },
            )
            .unwrap();
            // The same stimulus on both systems: rst held, `go` high, `d` counting.
            let frames: Vec<Frame> = (0..6u32)
                .map(|k| {
                    let mut f = Frame::default();
                    f.inputs.insert(VarId(0), Value::bits(1, 1u32));
                    f.inputs.insert(VarId(1), Value::bits(1, 1u32));
                    f.inputs.insert(VarId(2), Value::bits(4, k + 5));
                    f
                })
                .collect();
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
        let c = hold_reset(&mut s, &ResetSpec::by_name("rst")).unwrap();
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
}
