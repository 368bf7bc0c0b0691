//! The state of a symbolic execution: values of the slots a process has written so far
//! ([`SlotVal`], possibly with bits not written yet), pending non-blocking updates, and the
//! frames of inlined functions and tasks.

use std::collections::HashMap;

use hypermut_ir::ExprId;

use super::scope::{ScopeId, SigId, Slot};
use super::value::V;

/// A run of bits of a slot: a known value or "not written" (the bits hold whatever the slot
/// holds when the process starts: its register, its latch, or nothing for locals).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seg {
    /// A bit-vector expression of the given width.
    Val(ExprId, u32),
    /// Bits not written, of the given width.
    Hold(u32),
}

impl Seg {
    /// Number of bits.
    pub fn width(self) -> u32 {
        match self {
            Seg::Val(_, w) | Seg::Hold(w) => w,
        }
    }
}

/// The value of a slot during symbolic execution: segments, least significant first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotVal {
    /// The segments, covering the slot's width.
    pub segs: Vec<Seg>,
}

impl SlotVal {
    /// A slot none of whose bits were written.
    pub fn hold(w: u32) -> SlotVal {
        SlotVal {
            segs: vec![Seg::Hold(w)],
        }
    }

    /// A fully written slot.
    pub fn full(v: V) -> SlotVal {
        SlotVal {
            segs: vec![Seg::Val(v.e, v.w)],
        }
    }

    /// Total width.
    pub fn width(&self) -> u32 {
        self.segs.iter().map(|s| s.width()).sum()
    }

    /// Whether every bit is unwritten.
    pub fn all_hold(&self) -> bool {
        self.segs.iter().all(|s| matches!(s, Seg::Hold(_)))
    }
}

/// What kind of code is being executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A constant expression: only parameters and genvars may be read.
    Const,
    /// Reading nets outside any process (port connections, outputs).
    Global,
    /// A combinational process (always @*, continuous assignment).
    Comb(usize),
    /// A clocked process.
    Seq(usize),
    /// `initial` blocks (all share one state).
    Initial,
}

/// Locals of an inlined function or task.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    /// Local names.
    pub names: HashMap<String, SigId>,
}

/// The state of one symbolic execution.
#[derive(Clone, Debug)]
pub struct ProcState {
    /// What is being executed.
    pub mode: Mode,
    /// The scope names are looked up in.
    pub scope: ScopeId,
    /// Values written by blocking assignments (and by all assignments of combinational code).
    pub vals: HashMap<Slot, SlotVal>,
    /// Values written by non-blocking assignments of clocked code.
    pub nba: HashMap<Slot, SlotVal>,
    /// Inlined function/task frames, innermost last.
    pub frames: Vec<Frame>,
    /// Slots written by both blocking and non-blocking assignments in this process.
    pub mixed: std::collections::HashSet<Slot>,
    /// For those slots: which bits have a pending non-blocking value (all-ones where so).
    pub nba_mask: HashMap<Slot, SlotVal>,
}

impl ProcState {
    /// A state for evaluating constants in `scope`.
    pub fn constant(scope: ScopeId) -> ProcState {
        ProcState::new(Mode::Const, scope)
    }

    /// A fresh state.
    pub fn new(mode: Mode, scope: ScopeId) -> ProcState {
        ProcState {
            mode,
            scope,
            vals: HashMap::new(),
            nba: HashMap::new(),
            frames: Vec::new(),
            mixed: std::collections::HashSet::new(),
            nba_mask: HashMap::new(),
        }
    }
}

/// How unwritten bits are filled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// The slot is read: unwritten bits read the slot's current value.
    Read,
    /// Two branches are merged: unwritten bits keep the value the slot holds.
    Merge,
    /// Unwritten bits are 0 (pending non-blocking values of slots that are also assigned by
    /// blocking assignments: which bits are pending is tracked separately).
    Zero,
}
