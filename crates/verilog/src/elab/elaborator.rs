//! The elaborator's state ([`Elab`]), shared by the phases whose `impl Elab` blocks are split
//! across the other modules of `elab`, and its diagnostics.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use hypermut_ir::{Diagnostic, Severity, Span, System, VarId};

use crate::ast::{Design, EnumTypedef, Module};
use crate::options::VerilogOptions;

use super::env::SlotVal;
use super::evals::{AsyncEval, CombEval, SeqEval};
use super::parts::{Part, StateInfo, TriGroup};
use super::scope::{Proc, Scope, ScopeId, SigId, Signal, Slot};
use super::value::V;

/// Elaboration state.
pub(crate) struct Elab<'a> {
    /// The parsed design.
    pub design: &'a Design,
    /// User options.
    pub opts: &'a VerilogOptions,
    /// The system under construction.
    pub sys: System,
    /// Warnings and notes, in the order they were found.
    pub diagnostics: Vec<Diagnostic>,
    /// Spans already reported (one diagnostic per place and message).
    warned: HashSet<(Span, String)>,
    /// Modules by name.
    pub modules: HashMap<String, &'a Module>,
    /// File-level enumeration typedefs.
    pub typedefs: Vec<&'a EnumTypedef>,
    /// All signals.
    pub sigs: Vec<Signal>,
    /// All scopes.
    pub scopes: Vec<Scope<'a>>,
    /// All processes.
    pub procs: Vec<Proc<'a>>,
    /// Ports of each module-instance scope, in header order.
    pub ports: HashMap<ScopeId, Vec<(String, SigId, crate::ast::Dir, Span)>>,
    /// Scopes of named statement blocks with declarations (keyed by the block's span).
    pub block_scopes: HashMap<(ScopeId, Span), ScopeId>,
    /// The top module's scope.
    pub top: Option<ScopeId>,
    /// Who drives each bit range of each slot.
    pub parts: HashMap<Slot, Vec<Part>>,
    /// Slots assigned by `initial` blocks or declaration initialisers.
    pub init_targets: BTreeSet<Slot>,
    /// IR input of each top-level input port.
    pub inputs: HashMap<SigId, VarId>,
    /// State variables created for registers, latches and initial-only variables.
    pub states: Vec<StateInfo>,
    /// Results of combinational processes.
    pub comb_memo: HashMap<usize, CombEval>,
    /// Results of clocked processes.
    pub seq_memo: HashMap<usize, SeqEval>,
    /// Asynchronous parts of clocked processes.
    pub async_memo: HashMap<usize, AsyncEval>,
    /// Processes being evaluated (innermost last), for loop detection.
    pub eval_stack: Vec<usize>,
    /// Clocked processes whose asynchronous part is being evaluated.
    pub async_stack: Vec<usize>,
    /// Initial values per slot, from `initial` blocks.
    pub init_vals: HashMap<Slot, SlotVal>,
    /// Latch variables per (process, slot, low bit).
    pub latches: HashMap<(usize, Slot, u32), VarId>,
    /// Counter for inputs created for `x` bits.
    pub x_inputs: u32,
    /// Evaluating a `case` item label (its `z` bits may be wildcards, not tri-state).
    pub in_case_label: bool,
    /// Current function/task call depth.
    pub call_depth: u32,
    /// `assert property` items: name, condition, scope, span.
    pub asserts: Vec<(String, &'a crate::ast::Expr, ScopeId, Span)>,
    /// Combinational processes read through their latches (loop breaking).
    pub breaks: HashSet<usize>,
    /// Latch variables whose block leaves them unassigned on some path (real latches).
    pub held: HashSet<VarId>,
    /// Combinational processes that infer no latch (no loop is broken there).
    pub rejected: HashSet<usize>,
    /// A broken process found to infer no latch (set with its error).
    pub bad_break: Option<usize>,
    /// A latch process to break a detected loop at (set with the loop error).
    pub break_request: Option<usize>,
    /// Signals that are (aliases of) clocks of clocked blocks.
    pub clock_roots: HashSet<u32>,
    /// Evaluating unused processes (clocks read there stay no inputs).
    pub sweeping: bool,
    /// While collecting targets: only blocking (`Some(false)`) or only non-blocking
    /// (`Some(true)`) assignments.
    pub target_filter: Option<bool>,
    /// Variables several `always` blocks use as blocking temporaries, with those blocks.
    pub temps: BTreeMap<Slot, Vec<usize>>,
    /// Merged tri-state drivers, by slot and first bit.
    pub tri_groups: BTreeMap<(Slot, u32), TriGroup>,
    /// Values of evaluated tri-state groups: (value read inside the design, value driven).
    pub tri_memo: HashMap<(Slot, u32), (V, V)>,
}

/// Deepest allowed nesting of instances and of function/task calls.
pub const MAX_DEPTH: u32 = 64;

impl<'a> Elab<'a> {
    /// A fresh elaborator for `design`: the loop breaks to apply (`breaks`) and the blocks
    /// never to break a loop at (`rejected`) are given by [`super::elaborate`].
    pub(crate) fn new(
        design: &'a Design,
        opts: &'a VerilogOptions,
        sys: System,
        breaks: HashSet<usize>,
        rejected: HashSet<usize>,
    ) -> Elab<'a> {
        Elab {
            design,
            opts,
            sys,
            diagnostics: Vec::new(),
            warned: HashSet::new(),
            modules: HashMap::new(),
            typedefs: design.typedefs.iter().collect(),
            sigs: Vec::new(),
            scopes: Vec::new(),
            procs: Vec::new(),
            ports: HashMap::new(),
            block_scopes: HashMap::new(),
            top: None,
            parts: HashMap::new(),
            init_targets: BTreeSet::new(),
            inputs: HashMap::new(),
            states: Vec::new(),
            comb_memo: HashMap::new(),
            seq_memo: HashMap::new(),
            async_memo: HashMap::new(),
            eval_stack: Vec::new(),
            async_stack: Vec::new(),
            init_vals: HashMap::new(),
            latches: HashMap::new(),
            x_inputs: 0,
            in_case_label: false,
            call_depth: 0,
            asserts: Vec::new(),
            breaks,
            held: HashSet::new(),
            rejected,
            bad_break: None,
            break_request: None,
            clock_roots: HashSet::new(),
            sweeping: false,
            target_filter: None,
            temps: BTreeMap::new(),
            tri_groups: BTreeMap::new(),
            tri_memo: HashMap::new(),
        }
    }

    /// Records a warning at `span` (once per place and message): something accepted with a
    /// meaning the user may not expect.
    pub(crate) fn warn(&mut self, span: Span, msg: impl Into<String>) {
        self.report(Severity::Warning, span, msg.into());
    }

    /// Records a note at `span` (once per place and message): something purely informational.
    pub(crate) fn note(&mut self, span: Span, msg: impl Into<String>) {
        self.report(Severity::Note, span, msg.into());
    }

    fn report(&mut self, severity: Severity, span: Span, msg: String) {
        if self.warned.insert((span, msg.clone())) {
            let d = Diagnostic::at(severity, &self.sys.sources, span, msg);
            self.diagnostics.push(d);
        }
    }
}
