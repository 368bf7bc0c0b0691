//! The bit-blaster: word-level IR [`System`] → sequential [`Aig`].
//!
//! Every expression becomes a vector of literals, LSB first, in the *expression
//! representation* of its type; inputs and latches hold the *storage representation*
//! (see [`Repr`]). The circuit agrees bit-exactly with [`hypermut_ir::Interpreter`].
//!
//! * IR inputs become AIG inputs (created first, in IR order, bit 0 first), state and frozen
//!   variables become latches (in IR order). A 1-bit variable's AIG object is named like the
//!   variable, a wider one's bits `name[i]` (`docs/formats.md` §9.3).
//! * Constant initial values become latch resets, a missing one [`Reset::Free`]. A
//!   non-constant initial value uses the `started` construction (`docs/formats.md` §9.2): one
//!   shared zero-reset latch `started` with next = 1, and the value read in a frame is
//!   `started ? latch : init`.
//! * Every IR output becomes AIG outputs (expression representation). Constraints become AIG
//!   constraints named `invar<i>`, `trans<i>` and `init<i>` after their index in
//!   [`System::constraints`]; an init constraint `c` is encoded as `started ∨ c`.
//! * Every IR property `p` becomes a bad property `¬p` with the property's name.
//! * With [`BlastOptions::domain_constraints`], every `Int`/`Enum` input, and every such
//!   state or frozen variable whose initial value is free or non-constant, whose storage has
//!   spare codes gets a constraint `domain <name>` that its stored code is a value of the type.

mod encode;
mod error;
mod exprs;
mod words;

#[cfg(test)]
mod interp_agreement;
#[cfg(test)]
pub(crate) mod random_system;
#[cfg(test)]
mod tests;

use hypermut_ir::{ConstraintKind, ExprId, Role, System, Type, VarId};

pub use encode::{decode, Repr};
pub use error::BlastError;

use crate::graph::{Aig, Lit, Named, Reset};
use exprs::{Slot, Translator};
use words::Bits;

/// Options of [`blast`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlastOptions {
    /// Add `domain <var>` constraints excluding the spare codes of `Int`/`Enum` inputs and of
    /// state variables that can start anywhere (default true).
    pub domain_constraints: bool,
}

impl Default for BlastOptions {
    fn default() -> Self {
        BlastOptions {
            domain_constraints: true,
        }
    }
}

/// The AIG literals of one IR variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarBits {
    /// The IR variable.
    pub var: VarId,
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Input or latch literals holding its storage representation, LSB first.
    pub bits: Vec<Lit>,
}

/// The AIG literals of one IR output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputBits {
    /// The output's name.
    pub name: String,
    /// The type of its expression.
    pub ty: Type,
    /// Its expression representation, LSB first.
    pub bits: Vec<Lit>,
}

/// Result of [`blast`]: the circuit and where each IR object went.
#[derive(Clone, Debug)]
pub struct Blasted {
    /// The circuit.
    pub aig: Aig,
    /// One entry per [`Role::Input`] variable, in IR order.
    pub inputs: Vec<VarBits>,
    /// One entry per state or frozen variable, in IR order (latch literals). A variable with
    /// a non-constant initial value holds 0 in frame 0 and is read through `started`.
    pub state: Vec<VarBits>,
    /// One entry per IR output, in order.
    pub outputs: Vec<OutputBits>,
    /// The `started` latch (false exactly in frame 0), when the system needs one.
    pub started: Option<Lit>,
}

/// AIG name of bit `i` of an object `name` with `width` bits.
fn bit_name(name: &str, i: u32, width: u32) -> String {
    if width == 1 {
        name.to_string()
    } else {
        format!("{name}[{i}]")
    }
}

/// The register a latch named `name` (as [`blast`] names bits) belongs to: `gamma[3]` and
/// `gamma` belong to `gamma`; a bit of an array word (`memory[5][1]`) is data and belongs
/// to none.
pub fn register_of(name: &str) -> Option<&str> {
    let base = match name.rsplit_once('[') {
        Some((b, rest)) if rest.ends_with(']') => b,
        _ => name,
    };
    (!base.contains('[')).then_some(base)
}

/// Bit-blasts `sys`. See the module documentation for the encoding.
pub fn blast(sys: &System, opts: &BlastOptions) -> Result<Blasted, BlastError> {
    let mut t = Translator::new(sys);
    let ids = || (0..sys.vars.len() as u32).map(VarId);
    let latched = |v: VarId| matches!(sys.vars[v.0 as usize].role, Role::State | Role::Frozen);

    let mut inputs = Vec::new();
    for v in ids().filter(|v| sys.vars[v.0 as usize].role == Role::Input) {
        let var = &sys.vars[v.0 as usize];
        let lay = t.var_layout(v)?;
        let bits: Bits = (0..lay.storage)
            .map(|i| t.aig.add_input(bit_name(&var.name, i, lay.storage)))
            .collect();
        t.slots[v.0 as usize] = Slot::Input(bits.clone());
        inputs.push(var_bits(sys, v, bits));
    }

    // Latches, with resets from constant initial values.
    let mut state = Vec::new();
    let mut needs_started = sys
        .constraints
        .iter()
        .any(|c| c.kind == ConstraintKind::Init);
    let mut anywhere = Vec::new(); // state variables whose first value is not a constant
    for v in ids().filter(|v| latched(*v)) {
        let var = &sys.vars[v.0 as usize];
        let lay = t.var_layout(v)?;
        let (resets, dynamic_init) = match var.init {
            None => (vec![Reset::Free; lay.storage as usize], None),
            Some(e) if t.is_constant(e)? => (constant_resets(&mut t, v, e)?, None),
            Some(e) => (vec![Reset::Zero; lay.storage as usize], Some(e)),
        };
        if var.init.is_none() || dynamic_init.is_some() {
            anywhere.push(v);
        }
        needs_started |= dynamic_init.is_some();
        let latches: Bits = resets
            .iter()
            .zip(0..)
            .map(|(r, i)| t.aig.add_latch(bit_name(&var.name, i, lay.storage), *r))
            .collect();
        t.slots[v.0 as usize] = Slot::Latched {
            latches: latches.clone(),
            init: dynamic_init,
        };
        state.push(var_bits(sys, v, latches));
    }
    if needs_started {
        let name = unique_name(&t.aig, "started");
        let s = t.aig.add_latch(name, Reset::Zero);
        t.aig.set_next(s, Lit::TRUE);
        t.started = Some(s);
    }

    // Next-state functions.
    for v in ids().filter(|v| latched(*v)) {
        let var = &sys.vars[v.0 as usize];
        let next = match (var.role, var.next) {
            (Role::Frozen, _) => t.read_storage(v)?,
            (_, Some(e)) => t.assigned(v, e, &format!("next({})", var.name))?,
            (_, None) => {
                return Err(BlastError::FreeNext {
                    var: var.name.clone(),
                })
            }
        };
        t.next_storage[v.0 as usize] = Some(next);
    }
    for vb in &state {
        let next = t.next_storage[vb.var.0 as usize]
            .clone()
            .expect("every latched variable got a next function above");
        for (l, n) in vb.bits.iter().zip(next) {
            t.aig.set_next(*l, n);
        }
    }

    // Outputs.
    let mut outputs = Vec::new();
    for o in &sys.outputs {
        let bits = t.translate(o.expr, &format!("output `{}`", o.name), false)?;
        let w = bits.len() as u32;
        for (b, i) in bits.iter().zip(0..) {
            t.aig.outputs.push(Named {
                lit: *b,
                name: bit_name(&o.name, i, w),
            });
        }
        outputs.push(OutputBits {
            name: o.name.clone(),
            ty: sys.ty(o.expr),
            bits,
        });
    }

    // Constraints.
    for (i, c) in sys.constraints.iter().enumerate() {
        let (kind, trans) = match c.kind {
            ConstraintKind::Init => ("init", false),
            ConstraintKind::Invariant => ("invar", false),
            ConstraintKind::Trans => ("trans", true),
        };
        let name = format!("{kind}{i}");
        let lit = bool_root(&mut t, c.expr, &format!("constraint `{name}`"), trans)?;
        let lit = match (c.kind, t.started) {
            (ConstraintKind::Init, Some(s)) => t.aig.or(s, lit),
            _ => lit,
        };
        t.aig.constraints.push(Named { lit, name });
    }

    // Safety properties: bad = the property is violated.
    for p in &sys.properties {
        let lit = bool_root(&mut t, p.expr, &format!("property `{}`", p.name), false)?;
        t.aig.bad.push(Named {
            lit: !lit,
            name: p.name.clone(),
        });
    }

    if opts.domain_constraints {
        let candidates = inputs.iter().map(|vb| vb.var).chain(anywhere);
        for v in candidates.collect::<Vec<_>>() {
            let ty = sys.vars[v.0 as usize].ty;
            if let Some(n) = encode::spare_codes_below(ty, &sys.enums) {
                let code = t.read_storage(v)?;
                let max = words::const_int((n - 1) as i128, code.len() as u32);
                let lit = !words::ult(&mut t.aig, &max, &code);
                t.aig.constraints.push(Named {
                    lit,
                    name: format!("domain {}", sys.vars[v.0 as usize].name),
                });
            }
        }
    }

    Ok(Blasted {
        started: t.started,
        aig: t.aig,
        inputs,
        state,
        outputs,
    })
}

fn var_bits(sys: &System, v: VarId, bits: Bits) -> VarBits {
    let var = &sys.vars[v.0 as usize];
    VarBits {
        var: v,
        name: var.name.clone(),
        ty: var.ty,
        bits,
    }
}

/// The single literal of a boolean root expression.
fn bool_root(
    t: &mut Translator,
    e: ExprId,
    desc: &str,
    allow_next: bool,
) -> Result<Lit, BlastError> {
    let bits = t.translate(e, desc, allow_next)?;
    match (t.sys.ty(e), bits.as_slice()) {
        (Type::Bool, [l]) => Ok(*l),
        (ty, _) => Err(BlastError::Type {
            at: desc.to_string(),
            detail: format!("expected a boolean, found {}", ty.describe(&t.sys.enums)),
        }),
    }
}

/// Per-bit resets of variable `v` from its constant initial value `e`.
fn constant_resets(t: &mut Translator, v: VarId, e: ExprId) -> Result<Vec<Reset>, BlastError> {
    let var = &t.sys.vars[v.0 as usize];
    let desc = format!("init({})", var.name);
    let bits = t.translate(e, &desc, false)?;
    let consts: Vec<bool> = bits
        .iter()
        .map(|l| {
            assert!(
                l.is_const(),
                "an expression without variables folds to constants"
            );
            *l == Lit::TRUE
        })
        .collect();
    let storage = t.assigned(v, e, &desc)?;
    let value = decode(t.sys.ty(e), &consts, Repr::Expr);
    if !value.fits(var.ty, &t.sys.enums) {
        return Err(BlastError::InitOutOfRange {
            var: var.name.clone(),
            value: value.display(t.sys.ty(e), &t.sys.enums),
            ty: var.ty.describe(&t.sys.enums),
        });
    }
    Ok(storage
        .iter()
        .map(|l| {
            if *l == Lit::TRUE {
                Reset::One
            } else {
                Reset::Zero
            }
        })
        .collect())
}

/// `base`, or `base'`, `base''`… — the first name no input or latch carries yet.
fn unique_name(g: &Aig, base: &str) -> String {
    let taken =
        |n: &str| g.inputs.iter().any(|i| i.name == n) || g.latches.iter().any(|l| l.name == n);
    let mut name = base.to_string();
    while taken(&name) {
        name.push('\'');
    }
    name
}
