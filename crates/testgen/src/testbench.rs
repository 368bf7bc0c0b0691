//! A self-checking Verilog testbench of a model's tests (`docs/formats.md` §12.4): one
//! instance of the top module per test, so that each test starts from a fresh power-up;
//! per frame the test's inputs are driven, the outputs judged after they settle, then the
//! clock gives one edge (`docs/method.md` §2.2). Each step is judged by the rule of
//! [`crate::allowed::judge`] (`docs/method.md` §4.1.1), which `hypermut run` applies too:
//! the test's outputs go on, another valuation the original allows (or any other where the
//! test's `allowed` list is capped) makes the test inconclusive and ends it, anything else
//! fails it (`testbench/check.rs` writes the Verilog; an `x` bit equals no value). It prints
//! one line per test, `PASS mutant-N`, `FAIL mutant-N step k: …` or
//! `INCONCLUSIVE mutant-N step k: …`, then `P of N tests passed, F failed, I inconclusive`,
//! and ends with `$fatal(1, …)` (a non-zero exit status of `vvp`) when a test fails,
//! `$finish` otherwise.
//!
//! Nothing is compared in the frames the reset is held ([`crate::Convention`]). A test's
//! instance starts where the test's own run of the original started, as `hypermut run`
//! starts a `definite` test: at the start of the test, registers that `--init zero` starts
//! at 0 are set to 0 and registers with a free power-up value take the test's (its
//! `nd.init.<register>` values), then frame 0's inputs are driven. Until then the inputs
//! hold the complement of their frame-0 values, so that an asynchronous reset asserted in
//! frame 0 sees its edge; inputs that an initial value reads (`docs/method.md` §2.1) hold
//! their frame-0 values from time 0 instead. Tests whose kill class is not `definite` need
//! control of the model's nondeterminism: they are listed in a comment and not exported.

mod check;
mod ident;
mod ports;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::Path;

use hypermut_hyper::suite::parse_value;
use hypermut_ir::{ExprId, ExprKind, Language, Role, System, Type, Value};

use crate::load::Model;
use crate::record::KillClass;
use crate::testfile::TestFile;

use check::{judge_step, Allowed, Literals};
use ident::ident;

pub use ports::module_ports;

/// Why a testbench cannot be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TestbenchError {
    /// Testbenches are Verilog: the model is not.
    #[error("a Verilog testbench needs a Verilog model; {model} is {language}")]
    NotVerilog {
        /// The model.
        model: String,
        /// Its language.
        language: String,
    },
    /// `$ND` and its kin have no meaning in a simulator.
    #[error("{model} uses nondeterministic choices ($ND), which a simulator cannot run")]
    Choices {
        /// The model.
        model: String,
    },
    /// A test of another model (or of other front-end options).
    #[error("mutant-{mutant}: the test belongs to model hash {test}, not to {model} ({hash})")]
    ForeignTest {
        /// The test's mutant.
        mutant: usize,
        /// The test's model hash.
        test: String,
        /// The model.
        model: String,
        /// The model's hash.
        hash: String,
    },
    /// A test generated under another initial-state convention.
    #[error("mutant-{mutant}: the test assumes `{test}`, the model is loaded with `{model}`")]
    Convention {
        /// The test's mutant.
        mutant: usize,
        /// The test's `initial_state`.
        test: String,
        /// The model's convention.
        model: String,
    },
    /// A signal of a test that the model does not have.
    #[error("mutant-{mutant}: the model has no {what} `{name}`")]
    UnknownSignal {
        /// The test's mutant.
        mutant: usize,
        /// `input` or `output`.
        what: &'static str,
        /// The name.
        name: String,
    },
    /// A value a test spells in a way that does not fit its signal.
    #[error("mutant-{mutant}: `{value}` is no value of {name}")]
    BadValue {
        /// The test's mutant.
        mutant: usize,
        /// The signal.
        name: String,
        /// The value as written.
        value: String,
    },
    /// A folder of tests or a test file could not be read.
    #[error("{path}: {why}")]
    Read {
        /// The folder or file.
        path: String,
        /// What went wrong.
        why: String,
    },
    /// The clock cannot be told from the top module's header.
    #[error("cannot tell the clock of `{top}`: {why}; name it (--clock NAME)")]
    Clock {
        /// The top module.
        top: String,
        /// What was found.
        why: String,
    },
}

/// The test files `mutant-N.json` of a results directory (its `tests/` folder) or of a folder
/// of tests, by mutant id.
pub fn read_tests(dir: &Path) -> Result<Vec<TestFile>, TestbenchError> {
    let folder = if dir.join("tests").is_dir() {
        dir.join("tests")
    } else {
        dir.to_path_buf()
    };
    let failed = |path: &Path, why: String| TestbenchError::Read {
        path: path.display().to_string(),
        why,
    };
    let entries = std::fs::read_dir(&folder).map_err(|e| failed(&folder, e.to_string()))?;
    let mut found: Vec<(usize, std::path::PathBuf)> = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| failed(&folder, e.to_string()))?.path();
        let id = path.file_name().and_then(|n| n.to_str()).and_then(|n| {
            n.strip_prefix("mutant-")?
                .strip_suffix(".json")?
                .parse()
                .ok()
        });
        if let Some(id) = id {
            found.push((id, path));
        }
    }
    found.sort();
    found
        .iter()
        .map(|(_, path)| {
            let text = std::fs::read_to_string(path).map_err(|e| failed(path, e.to_string()))?;
            serde_json::from_str(&text).map_err(|e| failed(path, format!("not a test file: {e}")))
        })
        .collect()
}

/// Why test `t` of `model` is not in the testbench, if it is not: it is not `definite`, its
/// kill is a blocked step, it kills while the reset is held, or it drives `x` literal bits.
pub fn not_exported(model: &Model, t: &TestFile) -> Option<String> {
    skip_reason(t, model.convention.reset_cycles())
}

/// [`not_exported`] for a reset held `cycles` frames.
fn skip_reason(t: &TestFile, cycles: usize) -> Option<String> {
    match t.kill_class {
        KillClass::Definite => {}
        KillClass::Potential => {
            return Some(
                "kill class potential: the mutant fails only for some of its nondeterministic \
                 values (apply the test's nd values to kill it for sure)"
                    .into(),
            )
        }
        KillClass::Controlled => {
            return Some(
                "kill class controlled: the test kills only when the tester also applies its nd \
                 values"
                    .into(),
            )
        }
    }
    if t.test.blocked.is_some() {
        return Some("the kill is a step the constraints forbid, not an output".into());
    }
    if t.test.depth < cycles {
        return Some(
            "the test kills while the reset is held, where outputs are not compared".into(),
        );
    }
    if let Some(x) = t.inputs.iter().find(|i| i.starts_with("x.")) {
        return Some(format!(
            "input `{x}` is an `x` literal bit, no port to drive"
        ));
    }
    None
}

/// The clock of `model`'s top module `top`: the one port of its header that is neither an
/// input nor an output of the system; `None` for a design without one (no clocked block).
pub fn guess_clock(model: &Model, top: &str) -> Result<Option<String>, TestbenchError> {
    let sys = &model.system;
    let err = |why: String| TestbenchError::Clock {
        top: top.to_string(),
        why,
    };
    let ports = sys
        .sources
        .files()
        .iter()
        .find_map(|f| module_ports(&f.text, top))
        .ok_or_else(|| err("its header is not in the sources".into()))?;
    let known: BTreeSet<&str> = sys
        .vars
        .iter()
        .filter(|v| v.role == Role::Input)
        .map(|v| v.name.as_str())
        .chain(sys.outputs.iter().map(|o| o.name.as_str()))
        .collect();
    let others: Vec<&String> = ports
        .iter()
        .filter(|p| !known.contains(p.as_str()))
        .collect();
    match others.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one.to_string())),
        several => Err(err(format!(
            "the ports {} are neither inputs nor outputs of the model",
            several
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The width of a signal of type `ty` in the design.
fn width(ty: Type) -> u32 {
    ty.bv_width().unwrap_or(1)
}

/// The Verilog literal (`W'hHEX`) of `v`, a value of type `ty`.
fn literal(v: &Value, ty: Type) -> String {
    let w = width(ty);
    let mut hex = String::new();
    for nibble in (0..w.div_ceil(4)).rev() {
        let d = (0..4).fold(0u32, |acc, b| {
            let i = nibble * 4 + b;
            acc | (u32::from(i < w && v.storage_bit(ty, i)) << b)
        });
        hex.push(char::from_digit(d, 16).unwrap_or('0'));
    }
    format!("{w}'h{hex}")
}

/// A test's value of signal `name` of type `ty`, as a literal.
fn value_literal(
    sys: &System,
    mutant: usize,
    name: &str,
    text: &str,
    ty: Type,
) -> Result<String, TestbenchError> {
    let v = parse_value(text, ty, &sys.enums).ok_or_else(|| TestbenchError::BadValue {
        mutant,
        name: name.to_string(),
        value: text.to_string(),
    })?;
    Ok(literal(&v, ty))
}

/// The output valuation `values` of test `t` as Verilog literals (`ty` gives each output's
/// type).
fn literals(
    sys: &System,
    t: &TestFile,
    values: &BTreeMap<String, String>,
    ty: &HashMap<&str, Type>,
) -> Result<Literals, TestbenchError> {
    let id = t.test.mutant;
    values
        .iter()
        .map(|(name, text)| {
            let ty = *ty
                .get(name.as_str())
                .ok_or_else(|| TestbenchError::UnknownSignal {
                    mutant: id,
                    what: "output",
                    name: name.clone(),
                })?;
            Ok((name.clone(), value_literal(sys, id, name, text, ty)?))
        })
        .collect()
}

/// What the original allows at step `k` of `t`: its `allowed` list, or the test's own
/// outputs only when the test has none (as [`crate::runner`] judges such a step).
fn allowed_at(
    sys: &System,
    t: &TestFile,
    k: usize,
    expected: &Literals,
    ty: &HashMap<&str, Type>,
) -> Result<Allowed, TestbenchError> {
    match t.allowed.get(k) {
        None => Ok(Allowed::Listed(vec![expected.clone()])),
        Some(a) if a.capped => Ok(Allowed::Capped),
        Some(a) => a
            .values
            .iter()
            .map(|v| literals(sys, t, v, ty))
            .collect::<Result<_, _>>()
            .map(Allowed::Listed),
    }
}

/// Whether `name` can be written after `dut.` as a hierarchical reference: identifiers
/// separated by dots, each possibly with constant indexes (`u_core.mem[3]`).
fn hierarchical(name: &str) -> bool {
    name.split('.').all(|seg| {
        let (id, rest) = seg.split_at(seg.find('[').unwrap_or(seg.len()));
        let simple = id
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        let indexes = rest.is_empty()
            || rest
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .is_some_and(|r| {
                    r.split("][")
                        .all(|i| !i.is_empty() && i.chars().all(|c| c.is_ascii_digit()))
                });
        simple && indexes
    })
}

/// The inputs that initial values read (`docs/method.md` §2.1: an initial value may read the
/// inputs of frame 0 and the initial values of other variables), by name.
fn read_at_power_up(sys: &System) -> BTreeSet<&str> {
    let mut found = BTreeSet::new();
    let mut seen_vars = BTreeSet::new();
    let mut stack: Vec<ExprId> = sys.vars.iter().filter_map(|v| v.init).collect();
    let mut seen = BTreeSet::new();
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        let kind = &sys.exprs.node(e).kind;
        if let ExprKind::Var(v) = kind {
            let var = sys.var(*v);
            match (var.role, var.init) {
                (Role::Input, _) => {
                    found.insert(var.name.as_str());
                }
                (_, Some(init)) if seen_vars.insert(*v) => stack.push(init),
                _ => {}
            }
        }
        stack.extend(kind.children());
    }
    found
}

/// A register the instance of a test starts with the test's power-up value.
#[derive(Clone, Debug, PartialEq, Eq)]
enum PowerUp {
    /// `dut.<reg> = <literal>;`.
    Set {
        /// The register's hierarchical name.
        reg: String,
        /// Its value as a Verilog literal.
        literal: String,
    },
    /// A register without a hierarchical name to write it by.
    Unnamed(String),
}

/// The registers the instance of test `t` starts with the test's power-up values: one per
/// `nd.init.<register>` of the test's first frame.
fn power_up(sys: &System, t: &TestFile) -> Result<Vec<PowerUp>, TestbenchError> {
    let id = t.test.mutant;
    let Some(first) = t.test.frames.first() else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (nd, text) in &first.nd {
        let Some(reg) = nd.strip_prefix("nd.init.") else {
            continue;
        };
        let var = sys
            .var_by_name(reg)
            .filter(|v| sys.var(*v).role == Role::State && hierarchical(reg));
        out.push(match var {
            Some(v) => PowerUp::Set {
                reg: reg.to_string(),
                literal: value_literal(sys, id, nd, text, sys.var(v).ty)?,
            },
            None => PowerUp::Unnamed(reg.to_string()),
        });
    }
    Ok(out)
}

/// The testbench module `hypermut_tb` for `tests` of `model`, whose top module is `top`,
/// clocked by the input port `clock` (`None` for a design without clock). See the module
/// documentation for what it checks.
pub fn verilog_testbench(
    model: &Model,
    tests: &[TestFile],
    top: &str,
    clock: Option<&str>,
) -> Result<String, TestbenchError> {
    let sys = &model.system;
    if model.language != Language::Verilog {
        return Err(TestbenchError::NotVerilog {
            model: model.name.clone(),
            language: format!("{:?}", model.language),
        });
    }
    if !sys.choices.is_empty() {
        return Err(TestbenchError::Choices {
            model: model.name.clone(),
        });
    }
    let convention = model.initial_state();
    for t in tests {
        if t.model_hash != model.hash {
            return Err(TestbenchError::ForeignTest {
                mutant: t.test.mutant,
                test: t.model_hash.clone(),
                model: model.name.clone(),
                hash: model.hash.clone(),
            });
        }
        if !t.initial_state.is_empty() && t.initial_state != convention {
            return Err(TestbenchError::Convention {
                mutant: t.test.mutant,
                test: t.initial_state.clone(),
                model: convention.clone(),
            });
        }
    }
    let cycles = model.convention.reset_cycles();
    let (exported, skipped): (Vec<&TestFile>, Vec<&TestFile>) =
        tests.iter().partition(|t| skip_reason(t, cycles).is_none());
    let input_ty: HashMap<&str, Type> = sys
        .vars
        .iter()
        .filter(|v| v.role == Role::Input)
        .map(|v| (v.name.as_str(), v.ty))
        .collect();
    let output_ty: HashMap<&str, Type> = sys
        .outputs
        .iter()
        .map(|o| (o.name.as_str(), sys.ty(o.expr)))
        .collect();

    let mut tb = String::new();
    let _ = writeln!(
        tb,
        "// Self-checking testbench written by hypermut: {} of the {} tests of {} (top module `{top}`).",
        exported.len(),
        tests.len(),
        model.name
    );
    let _ = writeln!(tb, "// Initial state: {convention}.");
    let _ = writeln!(
        tb,
        "// Each test drives its own instance, from power-up with the test's power-up values. Per frame:\n\
         // drive the inputs, wait, judge the outputs (not in the {cycles} frame(s) the reset is held),\n\
         // then one clock edge. The test's outputs go on; other outputs the original allows (any, where\n\
         // its list is capped) end the test as INCONCLUSIVE; others as FAIL. One line per test, then\n\
         // the counts. Exit status: $fatal(1) if a test fails."
    );
    if !skipped.is_empty() {
        tb.push_str("// Not exported:\n");
        for t in &skipped {
            let why = skip_reason(t, cycles).unwrap_or_default();
            let _ = writeln!(tb, "//   mutant-{}: {why}", t.test.mutant);
        }
    }
    tb.push_str("`timescale 1ns/1ns\nmodule hypermut_tb;\n  integer passed = 0;\n  integer failed = 0;\n  integer inconclusive = 0;\n  integer bad = 0;\n");

    let early = read_at_power_up(sys);
    let mut body = String::new();
    for (i, t) in exported.iter().enumerate() {
        let id = t.test.mutant;
        let p = format!("t{i}_");
        let dut = format!("{p}dut");
        let _ = writeln!(
            tb,
            "  // mutant-{id}: {} at {}: `{}` -> `{}`",
            t.operator,
            t.location,
            t.original.replace('\n', " "),
            t.replacement.replace('\n', " ")
        );
        let mut conns = Vec::new();
        if let Some(c) = clock {
            let _ = writeln!(tb, "  reg {p}clk = 1'b0;");
            conns.push(format!(".{}({p}clk)", ident(c)));
        }
        // Inputs start at the complement of frame 0's values and take those once the power-up
        // values are set: an asynchronous reset asserted in frame 0 sees its edge (in a
        // two-valued simulator too), a deasserted one sees the other edge. Inputs that initial
        // values read hold frame 0's values from time 0, when the design's initial blocks run.
        let first = t.test.frames.first().map(|f| &f.inputs);
        let mut regs: HashMap<&str, String> = HashMap::new();
        for (j, name) in t.inputs.iter().enumerate() {
            let ty = *input_ty
                .get(name.as_str())
                .ok_or_else(|| TestbenchError::UnknownSignal {
                    mutant: id,
                    what: "input",
                    name: name.clone(),
                })?;
            let r = format!("{p}in{j}");
            let init = match first.and_then(|f| f.get(name)) {
                Some(text) => {
                    let lit = value_literal(sys, id, name, text, ty)?;
                    let not = if early.contains(name.as_str()) {
                        ""
                    } else {
                        "~"
                    };
                    format!(" = {not}{lit}")
                }
                None => String::new(),
            };
            let _ = writeln!(tb, "  reg [{}:0] {r}{init};", width(ty) - 1);
            conns.push(format!(".{}({r})", ident(name)));
            regs.insert(name.as_str(), r);
        }
        let _ = writeln!(tb, "  {} {dut}({});", ident(top), conns.join(", "));

        let _ = writeln!(body, "    // mutant-{id}");
        let _ = writeln!(body, "    bad = 0;");
        for name in &model.convention.zeroed {
            let ty = sys
                .var_by_name(name)
                .map(|v| sys.var(v).ty)
                .unwrap_or(Type::ubv(1));
            let _ = writeln!(body, "    {dut}.{name} = {}'h0;", width(ty));
        }
        for reg in power_up(sys, t)? {
            match reg {
                PowerUp::Set { reg, literal } => {
                    let _ = writeln!(body, "    {dut}.{reg} = {literal};");
                }
                PowerUp::Unnamed(name) => {
                    let _ = writeln!(
                        body,
                        "    // the power-up value of `{name}` is not set (no hierarchical name)"
                    );
                }
            }
        }
        for (k, frame) in t.test.frames.iter().enumerate() {
            for (name, text) in &frame.inputs {
                let (Some(r), Some(ty)) = (regs.get(name.as_str()), input_ty.get(name.as_str()))
                else {
                    return Err(TestbenchError::UnknownSignal {
                        mutant: id,
                        what: "input",
                        name: name.clone(),
                    });
                };
                let _ = writeln!(
                    body,
                    "    {r} = {};",
                    value_literal(sys, id, name, text, *ty)?
                );
            }
            body.push_str("    #5;\n");
            if k >= cycles {
                let expected = literals(sys, t, &frame.outputs, &output_ty)?;
                let allowed = allowed_at(sys, t, k, &expected, &output_ty)?;
                body.push_str(&judge_step(&dut, id, k, &expected, &allowed));
            }
            if clock.is_some() {
                let _ = writeln!(body, "    {p}clk = 1'b1; #5; {p}clk = 1'b0;");
            } else {
                body.push_str("    #5;\n");
            }
        }
        let _ = writeln!(
            body,
            "    if (bad == 0) begin passed = passed + 1; $display(\"PASS mutant-{id}\"); end\n    \
             else if (bad == 1) failed = failed + 1;\n    else inconclusive = inconclusive + 1;"
        );
    }
    // The tests start at time 10, once what the design does at time 0 (initial blocks, edges
    // of the inputs' first values) has settled, delays included: like every frame's `#5`,
    // this assumes the design's delays are shorter.
    tb.push_str("  initial begin\n    #10;\n");
    tb.push_str(&body);
    tb.push_str(
        "    $display(\"%0d of %0d tests passed, %0d failed, %0d inconclusive\", passed, \
         passed + failed + inconclusive, failed, inconclusive);\n    if (failed != 0) \
         $fatal(1, \"%0d of %0d tests failed\", failed, passed + failed + inconclusive);\n    \
         $finish;\n  end\nendmodule\n",
    );
    Ok(tb)
}

#[cfg(test)]
mod tests;
