//! Elaboration of a parsed design into a [`System`].
//!
//! Phases:
//! 1. [`hier`]: pick the top module, evaluate parameters, flatten the instance tree into
//!    signals (hierarchical names), scopes and processes (continuous assignments, `always`,
//!    `initial`); unroll generate constructs.
//! 2. [`drivers`]: decide which process drives which bits of which storage slot; create the
//!    IR inputs (top-level input ports) and state variables (bits written by clocked blocks).
//! 3. [`procs`]: evaluate `initial` blocks (initial values), clocked blocks (next-state
//!    functions) and, on demand, combinational processes (the values of nets), by symbolic
//!    execution of their statements ([`stmt`], [`expr`], [`env`](mod@env)).
//! 4. Outputs: the top module's output ports (and, with `observe_state`, every register).
//!
//! The elaborator's state, [`Elab`], is defined in [`elaborator`] with the small data
//! types it holds ([`scope`], [`env`](mod@env), [`parts`], [`evals`], [`value`]); its
//! methods are split across the phase modules. This module holds the entry point,
//! [`elaborate`].
//!
//! Semantic decisions are documented in the crate documentation.

mod drivers;
mod elaborator;
mod env;
mod evals;
mod expr;
mod hier;
mod nodes;
mod parts;
mod procs;
mod readmem;
mod scope;
mod slots;
mod stmt;
mod temps;
mod top;
mod tristate;
mod value;
mod width;

use std::collections::HashSet;

use hypermut_ir::{Diagnostic, Output, Span, System, VarId};

use crate::ast::{Design, Module};
use crate::error::{DResult, Diag};
use crate::options::VerilogOptions;

use elaborator::Elab;
use env::{Mode, ProcState};
use scope::{ScopeId, Slot};
use top::TopChoice;

/// Elaborates `design` (whose files are in `sys.sources`) into a system.
///
/// Combinational loops through latches are broken at a latch (which is then read through its
/// stored value); elaboration restarts once per latch so broken.
pub(crate) fn elaborate(
    design: &Design,
    sys: System,
    opts: &VerilogOptions,
) -> DResult<(System, Vec<Diagnostic>)> {
    let mut breaks: HashSet<usize> = HashSet::new();
    let mut rejected: HashSet<usize> = HashSet::new();
    for _ in 0..MAX_BREAK_ATTEMPTS {
        match elaborate_once(design, sys.clone(), opts, &breaks, &rejected) {
            Ok(r) => return Ok(r),
            Err(Failure {
                bad_break: Some(q), ..
            }) => {
                // `q` turned out to be combinational: break the loop elsewhere.
                breaks.remove(&q);
                rejected.insert(q);
            }
            Err(Failure {
                break_request: Some(q),
                ..
            }) if breaks.len() < 256 && !breaks.contains(&q) => {
                breaks.insert(q);
            }
            Err(Failure { diag, .. }) => return Err(diag),
        }
    }
    // Every retry added a break or rejected one; this many means a pathological design.
    elaborate_once(design, sys, opts, &HashSet::new(), &HashSet::new()).map_err(|f| f.diag)
}

/// Elaboration attempts spent on breaking loops at latches before giving up.
const MAX_BREAK_ATTEMPTS: usize = 1024;

/// Why an elaboration attempt failed.
struct Failure {
    /// The error to report if no retry helps.
    diag: Diag,
    /// A combinational block with a latch to break a detected loop at.
    break_request: Option<usize>,
    /// A block a loop was broken at that infers no latch.
    bad_break: Option<usize>,
}

/// One elaboration attempt, reading the blocks in `breaks` through their latches and never
/// breaking a loop at a block in `rejected`.
fn elaborate_once(
    design: &Design,
    sys: System,
    opts: &VerilogOptions,
    breaks: &HashSet<usize>,
    rejected: &HashSet<usize>,
) -> Result<(System, Vec<Diagnostic>), Failure> {
    let mut e = Elab::new(design, opts, sys, breaks.clone(), rejected.clone());
    let r = e.run();
    match r {
        Ok(()) => Ok((e.sys, e.diagnostics)),
        Err(diag) => Err(Failure {
            diag,
            break_request: e.break_request,
            bad_break: e.bad_break,
        }),
    }
}

impl<'a> Elab<'a> {
    /// All phases.
    fn run(&mut self) -> DResult<()> {
        for m in &self.design.modules {
            if let Some(prev) = self.modules.insert(m.name.name.clone(), m) {
                return Err(Diag::new(
                    m.name.span,
                    format!(
                        "module `{}` is defined twice (first at {})",
                        m.name.name,
                        self.sys.sources.location(prev.name.span)
                    ),
                ));
            }
        }
        let top = self.find_top()?;
        self.sys.name = top.name.name.clone();
        let top_scope = self.instantiate(top, String::new(), Vec::new(), top.name.span, 0)?;
        self.top = Some(top_scope);
        self.check_clocks()?;
        self.analyse_drivers()?;
        self.eval_initials()?;
        self.eval_registers()?;
        self.make_outputs(top_scope)?;
        self.properties()?;
        if self.opts.observe_state {
            self.observe_state()?;
        }
        self.sweep()?;
        self.check_loop_breaks()?;
        self.attach_initial_values()
    }

    /// A loop may only be broken at a real latch: a block that leaves the signal unassigned
    /// on some path. A block that assigns it on every path is combinational, and the loop
    /// through it is an error.
    fn check_loop_breaks(&mut self) -> DResult<()> {
        let mut broken: Vec<((usize, Slot, u32), VarId)> = self
            .latches
            .iter()
            .filter(|((p, _, _), _)| self.breaks.contains(p))
            .map(|(k, v)| (*k, *v))
            .collect();
        broken.sort();
        for ((p, slot, lo), var) in broken {
            if self.sys.vars[var.0 as usize].next.is_none() {
                continue; // never evaluated: nothing was read through it
            }
            if !self.held.contains(&var) {
                self.bad_break = Some(p);
                let width = self.sys.vars[var.0 as usize].ty.bv_width().unwrap_or(1);
                return Err(Diag::new(
                    self.procs[p].span,
                    format!(
                        "combinational loop through `{}`: this block assigns it on every path, so there is no latch to break the loop at",
                        self.part_name(slot, lo, width)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The top module: the one named by the options, else the deepest module no other module
    /// instantiates ([`top::choose_top`]; a note says which was chosen when the design has
    /// several modules).
    fn find_top(&mut self) -> DResult<&'a Module> {
        let design = self.design;
        if let Some(name) = &self.opts.top {
            return self.modules.get(name).copied().ok_or_else(|| {
                let first = design.modules.first().map(|m| m.name.span);
                let msg = format!(
                    "top module `{name}` not found (modules: {})",
                    design
                        .modules
                        .iter()
                        .map(|m| m.name.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                match first {
                    Some(s) => Diag::new(s, msg),
                    None => Diag::new(
                        Span {
                            file: hypermut_ir::FileId(0),
                            start: 0,
                            end: 0,
                        },
                        msg,
                    ),
                }
            });
        }
        match top::choose_top(&design.modules) {
            TopChoice::Chosen {
                module,
                depth,
                others,
            } => {
                if design.modules.len() > 1 {
                    let why = if others.is_empty() {
                        "no other module instantiates it".to_string()
                    } else {
                        format!(
                            "of the modules no other module instantiates ({}, {}), it has the deepest hierarchy ({})",
                            module.name.name,
                            names(&others),
                            levels(depth)
                        )
                    };
                    self.note(
                        module.name.span,
                        format!(
                            "top module `{}` chosen automatically: {why}; choose another with --top",
                            module.name.name
                        ),
                    );
                }
                Ok(module)
            }
            TopChoice::Tie { modules, depth } => {
                let why = match depth {
                    0 => "no module instantiates them, and they instantiate none".to_string(),
                    d => format!(
                        "no other module instantiates them and their hierarchies are equally deep ({})",
                        levels(d)
                    ),
                };
                let msg = format!(
                    "several modules could be the top ({}): {why}; choose one with --top",
                    names(&modules)
                );
                Err(match modules.first() {
                    Some(m) => Diag::new(m.name.span, msg),
                    None => no_module(),
                })
            }
            TopChoice::NoRoot => Err(match design.modules.first() {
                Some(m) => Diag::new(
                    m.name.span,
                    "every module is instantiated by another one: give the top module with --top",
                ),
                None => no_module(),
            }),
            TopChoice::Empty => Err(no_module()),
        }
    }

    /// The top module's output ports become the system's outputs.
    fn make_outputs(&mut self, top: ScopeId) -> DResult<()> {
        let ports = self.ports.get(&top).cloned().unwrap_or_default();
        for (name, sig, dir, span) in ports {
            match dir {
                crate::ast::Dir::Output => {
                    let v = self.net_value(Slot { sig, word: 0 }, span)?;
                    let v = self.as_bits(v, span)?;
                    self.sys.outputs.push(Output { name, expr: v.e });
                }
                crate::ast::Dir::Inout => {
                    let slot = Slot { sig, word: 0 };
                    if self.tri_groups.contains_key(&(slot, 0)) {
                        // Driven inside by tri-state assignments: also an output, the
                        // value driven (docs/formats.md §11.7).
                        let (_, driven) = self.tri_value(slot, 0, span)?;
                        self.sys.outputs.push(Output {
                            name,
                            expr: driven.e,
                        });
                    } else {
                        self.warn(span, format!("inout port `{name}` is treated as an input"))
                    }
                }
                crate::ast::Dir::Input => {}
            }
        }
        Ok(())
    }
}

impl Elab<'_> {
    /// `assert property` items become safety properties.
    fn properties(&mut self) -> DResult<()> {
        for (name, expr, scope, span) in self.asserts.clone() {
            let mut st = ProcState::new(Mode::Global, scope);
            let c = self.cond_bool(&mut st, expr)?;
            self.sys.properties.push(hypermut_ir::Property {
                name,
                expr: c,
                span: Some(span),
            });
        }
        Ok(())
    }
}

/// The names of `modules`, comma-separated, in the order given.
fn names(modules: &[&Module]) -> String {
    modules
        .iter()
        .map(|m| m.name.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `n levels of instances`, in words.
fn levels(n: usize) -> String {
    match n {
        1 => "1 level of instances".to_string(),
        n => format!("{n} levels of instances"),
    }
}

/// The error of a design without any module (at the start of the first file).
fn no_module() -> Diag {
    Diag::new(
        Span {
            file: hypermut_ir::FileId(0),
            start: 0,
            end: 0,
        },
        "the design contains no module",
    )
}
