//! Who drives which bits of each slot ([`Part`], [`Owner`]), the class of each process
//! ([`Class`]) and the state variables created for registers, latches and initial-only
//! variables ([`StateInfo`]).

use hypermut_ir::VarId;

use super::scope::{SigId, Slot};

/// Who drives a run of bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// Nobody: the bits read 0.
    Undriven,
    /// A top-level input port.
    Input(VarId),
    /// A top-level input port used only as a clock (no IR input unless read as data).
    Clock(SigId),
    /// A clocked process, through a state variable.
    Seq {
        /// The process.
        proc: usize,
        /// The register.
        var: VarId,
    },
    /// A combinational process or continuous assignment.
    Comb {
        /// The process.
        proc: usize,
    },
    /// Only `initial` blocks write the bits: a value chosen initially, then constant.
    Frozen(VarId),
    /// A variable several `always` blocks use as a blocking temporary
    /// ([`super::elaborator::Elab::temps`]): no value outside those blocks.
    Temp,
    /// Tri-state drivers merged into one value
    /// ([`super::elaborator::Elab::tri_groups`], keyed by the slot and the part's `lo`).
    Tri,
}

/// A run of bits of a slot with one owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    /// First bit position.
    pub lo: u32,
    /// Number of bits.
    pub len: u32,
    /// The driver.
    pub owner: Owner,
}

/// What kind of process it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Combinational (continuous assignment, `always @*`, level lists).
    Comb,
    /// Clocked (edge events).
    Seq,
    /// `initial` / declaration initialisers.
    Init,
}

/// What a state variable stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateKind {
    /// Bits written by a clocked block.
    Register,
    /// Bits a combinational block leaves unassigned on some path.
    Latch,
    /// Bits only `initial` blocks write.
    Frozen,
}

/// A state variable and the slot bits it holds.
#[derive(Clone, Copy, Debug)]
pub struct StateInfo {
    /// The IR variable.
    pub var: VarId,
    /// The slot.
    pub slot: Slot,
    /// First bit.
    pub lo: u32,
    /// Number of bits.
    pub len: u32,
    /// What it is.
    pub kind: StateKind,
}

/// Tri-state continuous assignments driving the same bits of a slot (docs/formats.md §11.7).
#[derive(Clone, Debug)]
pub struct TriGroup {
    /// Number of bits (from the part's `lo`).
    pub len: u32,
    /// The driving continuous assignments, in source order.
    pub procs: Vec<usize>,
    /// For an `inout` port of the top module: the input holding the value from outside.
    pub external: Option<VarId>,
}
