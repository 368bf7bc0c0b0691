//! Verilog front-end of hypermut: synthesizable Verilog-2001 (and the VIS/vl2mv idioms)
//! lowered to the word-level IR ([`hypermut_ir::System`]) with the semantics synthesis tools
//! give it.
//!
//! Pipeline: `lexer` (tokens, hot comments) → `preproc` (`` `define ``, `` `include ``,
//! `` `ifdef ``) → `parser` (syntax tree with spans, `ast`) → `elab` (parameters,
//! flattening, symbolic execution of processes, IR). Every IR node built from source text
//! carries the span of that text.
//!
//! # Semantic decisions
//!
//! * **One global tick.** Every clocked block (`posedge`/`negedge` of any clock) updates its
//!   registers once per step of the system. Designs with several clock names get a warning.
//!   A top-level input that only clocks blocks (possibly through port connections and
//!   `assign` aliases) is no IR input; if the design also reads it as data it becomes an
//!   ordinary input (with a warning) whose value is independent of the tick.
//! * **Blocking / non-blocking.** A clocked block is executed symbolically once per step:
//!   blocking assignments update the values later statements read, non-blocking ones are
//!   applied at the end (reads see the old values). A register's next value is its value at
//!   the end of the block: on each path, a pending non-blocking value wins over blocking
//!   writes; bits a path does not assign keep their value. A register written in a clocked
//!   block is read by other blocks as its stored value (as synthesis does; simulators race).
//! * **Asynchronous reset/set/load** (`always @(posedge clk or negedge rst) if (!rst) …`),
//!   modelled like yosys `async2sync`: the leading `if` conditions that test the other events
//!   form the condition `A`; the register's next value is the block's value `f`, and what the
//!   rest of the design reads is `A ? f : reg` (the reset value shows in the same step).
//! * **Combinational blocks and latches.** `always @*` (and level-sensitive lists, read as
//!   `@*`; an `always` without event control too, with a warning) and continuous assignments
//!   are combinational. A combinational block that leaves bits unassigned on some path infers
//!   a latch, as yosys does: a state variable `q` (named after the signal) whose value is read
//!   as `en ? d : q` and whose next value is that same output (a transparent latch sampled
//!   every tick, like yosys `async2sync` on `$dlatch`). A combinational loop through latches
//!   (two-phase latch designs) is broken at a latch (a block that leaves the signal
//!   unassigned on some path), which is then read through its stored value (with a
//!   warning); other combinational loops are errors. Bits of one vector driven
//!   by different processes are separate drivers, so bit-level chains are no loops.
//! * **Initial state.** Constant `initial` assignments (and `reg x = c;`) become reset
//!   values; registers without one are uninitialised (free initial value, AIGER reset =
//!   self). A non-constant `initial` value (VIS: `initial c = ROM(addr)`, `$ND` in `initial`)
//!   is an initial value computed from frame-0 inputs and choices. Variables written only by
//!   `initial` blocks hold their initial value forever (frozen).
//! * **Shared temporaries.** A variable several `always` blocks assign, each only as a
//!   blocking temporary (assigned with `=` before it is read on every path, like the
//!   `integer i` of `for` loops), is local to each block: no register, no net; reading it
//!   elsewhere is an error. A variable that carries a value between activations and is
//!   assigned by two processes is rejected (docs/formats.md §11.7).
//! * **Tri-state drivers.** Continuous assignments `c ? d : 'bz` (and chains of
//!   conditionals with an all-`z` arm) driving the same bits of a net are merged: the OR of
//!   the enabled drivers' values, else the first driver's `z` value; an `inout` top port
//!   driven so is an input (outside value, read when no driver is enabled) and an output
//!   (the value driven), as yosys `tribuf -merge` with a disabled driver reading 0 gives
//!   (docs/formats.md §11.7).
//! * **`x` and `z`.** An `x` or `z` bit in a literal is constant 0 (or, with
//!   [`VerilogOptions::x_as_input`], a bit of a fresh input, one input per literal
//!   occurrence; inputs are shared by both copies of a product). Out-of-range bit selects,
//!   part selects and memory reads read 0; out-of-range writes are dropped; a `case` without
//!   a matching item and without `default` leaves its targets unchanged. This is the
//!   convention yosys gives with `setundef -zero`, which the equivalence checks use. It also
//!   applies to `===`/`!==`: `a === 1'bx` compares `a` with 0 (as yosys after `setundef
//!   -zero`; a simulator, where a driven signal is never `x`, gives false).
//! * **Memories** `reg [w] m [a:b]` are one state variable per word (named `m[i]`); reads
//!   are multiplexers, writes decoded enables.
//! * **VIS idioms.** `$ND(a, b, …)`, and a call of an undeclared `ND_<n>(a, b, …)` library
//!   function, is a nondeterministic choice among its arguments (a fresh choice per
//!   evaluation; in `initial`, a choice of the initial state).
//!   `typedef enum {A, …} t;` makes `A, …` constants of ⌈log2 n⌉ bits; `t reg x;` declares
//!   `x` with that width.
//! * **Top module.** [`VerilogOptions::top`], else the module yosys `hierarchy -auto-top`
//!   picks: of the modules no other module instantiates, the one with the deepest hierarchy
//!   of instances (a note names it when the design has several modules). Where yosys takes
//!   one of several equally deep candidates silently, a tie is an error naming them.
//! * **Outputs.** The top module's output ports; with [`VerilogOptions::observe_state`] also
//!   every register, latch and memory word (named after it), like yosys `expose -dff`.
//! * Functions and tasks are inlined; `for`/`while`/`repeat` loops are unrolled while their
//!   conditions fold to constants; generate loops and conditionals are expanded.
//! * `assert property (e)` becomes a safety property of the system (other assertions,
//!   including immediate `assert (e) …;` statements in procedures, are skipped with a
//!   warning).
//! * Undeclared names on the left of continuous assignments and gate outputs are implicit
//!   1-bit nets, except in modules that follow `` `default_nettype none ``.
//! * `$readmemh` / `$readmemb` in `initial` blocks load memory contents from their data
//!   file (looked up as given, then in the calling file's folder and the include folders;
//!   a missing file is an error, as in yosys).
//! * `$display` and other system tasks are ignored (with a note for the tasks that only print
//!   or dump, with a warning for the others, e.g. `$finish`); `defparam`, `forever`,
//!   `wait`, `fork`, event controls inside statements, loops whose conditions do not fold to
//!   constants, a variable written by two processes (other than a shared temporary or
//!   merged tri-state drivers), and real numbers are rejected with a located error.

mod ast;
mod elab;
mod error;
mod lexer;
mod options;
mod parser;
mod preproc;

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use hypermut_ir::{Diagnostic, System};

pub use error::VerilogError;
pub use options::VerilogOptions;

/// Stack size of the thread that parses and elaborates (deeply nested expressions, long
/// chains of nets and deep generate nesting recurse; the memory is only reserved).
const STACK_SIZE: usize = 512 * 1024 * 1024;

/// A loaded design.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The design as a transition system (named after the top module).
    pub system: System,
    /// Warnings and notes, each located at the place it is about (preprocessor's first, then
    /// the elaborator's, in the order they were found). None has severity error.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads, preprocesses, parses and elaborates the design made of `paths` (in order).
pub fn load_verilog(paths: &[PathBuf], opts: &VerilogOptions) -> Result<Loaded, VerilogError> {
    if paths.is_empty() {
        return Err(VerilogError::Design("no Verilog files given".into()));
    }
    let mut files = Vec::new();
    for p in paths {
        let text = std::fs::read_to_string(p).map_err(|source| VerilogError::Io {
            path: p.clone(),
            source,
        })?;
        files.push((
            p.display().to_string(),
            p.parent().map(Path::to_path_buf),
            text,
        ));
    }
    let mut dirs = opts.include_dirs.clone();
    for p in paths {
        if let Some(d) = p.parent() {
            let d = if d.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                d.to_path_buf()
            };
            if !dirs.contains(&d) {
                dirs.push(d);
            }
        }
    }
    run_on_big_stack(files, dirs, opts.clone())
}

/// Parses and elaborates in-memory sources `(name, text)` (includes are searched in
/// `opts.include_dirs` only).
pub fn parse_verilog(
    sources: &[(&str, &str)],
    opts: &VerilogOptions,
) -> Result<Loaded, VerilogError> {
    let files = sources
        .iter()
        .map(|(n, t)| (n.to_string(), None, t.to_string()))
        .collect();
    run_on_big_stack(files, opts.include_dirs.clone(), opts.clone())
}

type FileList = Vec<(String, Option<PathBuf>, String)>;

fn run_on_big_stack(
    files: FileList,
    dirs: Vec<PathBuf>,
    opts: VerilogOptions,
) -> Result<Loaded, VerilogError> {
    let worker = std::thread::Builder::new()
        .name("hypermut-verilog".into())
        .stack_size(STACK_SIZE)
        .spawn(move || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_in_place(files, dirs, &opts)
            }))
        });
    match worker {
        Ok(handle) => match handle.join() {
            Ok(Ok(r)) => r,
            Ok(Err(_)) | Err(_) => Err(VerilogError::Internal(
                "the elaboration thread panicked".into(),
            )),
        },
        Err(e) => Err(VerilogError::Internal(format!(
            "cannot start the elaboration thread: {e}"
        ))),
    }
}

/// The whole pipeline on the current thread.
fn run_in_place(
    files: FileList,
    dirs: Vec<PathBuf>,
    opts: &VerilogOptions,
) -> Result<Loaded, VerilogError> {
    let mut sys = System::new("top");
    let mut pre = preproc::Preprocessor::new(&mut sys.sources, dirs);
    for (name, value) in &opts.defines {
        pre.define(name, value);
    }
    let mut failure = None;
    for (name, dir, text) in &files {
        if let Err(d) = pre.file(name, dir.clone(), text) {
            failure = Some(d);
            break;
        }
    }
    let mut diagnostics = std::mem::take(&mut pre.diagnostics);
    let tokens = match failure {
        Some(d) => return Err(d.into_error(&sys.sources)),
        None => pre.finish().map_err(|d| d.into_error(&sys.sources))?,
    };
    let design =
        parser::parse_design(&tokens, &sys.sources).map_err(|d| d.into_error(&sys.sources))?;
    let sources = sys.sources.clone();
    let (system, elab_diagnostics) =
        elab::elaborate(&design, sys, opts).map_err(|d| d.into_error(&sources))?;
    diagnostics.extend(elab_diagnostics);
    Ok(Loaded {
        system,
        diagnostics,
    })
}
