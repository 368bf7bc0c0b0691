//! AIGER reader: flussab parses the header and the body, we check the structure, sort ASCII
//! AND gates topologically and build an [`Aig`].

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use flussab_aiger::{ascii, binary, InnerParseError, ParseError};

use super::header::parse_header;
use super::trailer::{parse_trailer, SymbolKind, Trailer, TrailerCounts};
use crate::error::AigerError;
use crate::{Aig, Lit, Named, Reset};

/// Reads an AIGER 1.9 file (`aag` or `aig`). `name` is used in error messages, which have
/// the form `name:LINE: message` when the problem has a line.
///
/// Accepts 5- and 9-field headers, latch resets 0 / 1 / own literal (uninitialised →
/// [`Reset::Free`]), all property sections, all seven symbol kinds and the comment section.
/// ASCII AND gates may come in any order; they are sorted topologically (cycles are errors).
/// The AND structure of the file is kept as it is. Justice and fairness symbols are checked
/// but not stored (the [`Aig`] has no names for them).
pub fn read_aiger(bytes: &[u8], name: &str) -> Result<Aig, AigerError> {
    let fail = |line: Option<usize>, message: String| match line {
        Some(line) => AigerError::Line {
            file: name.to_string(),
            line,
            message,
        },
        None => AigerError::File {
            file: name.to_string(),
            message,
        },
    };
    let header = parse_header(bytes).map_err(|m| fail(Some(1), m))?;
    let patched: Cow<[u8]> = match header.for_flussab() {
        Some(line) => {
            let mut v = line.into_bytes();
            v.extend_from_slice(bytes.get(header.len..).unwrap_or_default());
            Cow::Owned(v)
        }
        None => Cow::Borrowed(bytes),
    };
    let parsed = if header.binary {
        parse_binary(&patched, bytes)
    } else {
        parse_ascii(&patched, bytes)
    };
    let (mut raw, body_end) = parsed.map_err(|f| fail(f.line, f.message))?;
    raw.max_var = header.max_var;
    let rest = bytes.get(body_end..).unwrap_or_default();
    let first_line = 1 + bytes
        .get(..body_end)
        .unwrap_or_default()
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    let trailer = parse_trailer(rest, first_line, &raw.trailer_counts())
        .map_err(|(line, message)| fail(Some(line), message))?;
    build(&raw, trailer).map_err(|f| fail(f.line, f.message))
}

/// An error before the file name is attached.
struct Failure {
    line: Option<usize>,
    message: String,
}

impl Failure {
    fn at(line: usize, message: impl Into<String>) -> Self {
        Failure {
            line: Some(line),
            message: message.into(),
        }
    }
}

impl From<ParseError> for Failure {
    fn from(e: ParseError) -> Self {
        match *e {
            InnerParseError::SyntaxError(s) => {
                let mut message = s.msg;
                if message.contains("initialization literal") {
                    message.push_str(
                        " (general reset logic is not supported; resets must be 0, 1 or the \
                         latch's own literal)",
                    );
                }
                Failure {
                    line: Some(s.location.line),
                    message,
                }
            }
            InnerParseError::IoError(e) => Failure {
                line: None,
                message: format!("I/O error: {e}"),
            },
        }
    }
}

/// The sections of the body, for line numbers.
#[derive(Clone, Copy, Debug)]
enum Section {
    Input,
    Latch,
    Output,
    Bad,
    Constraint,
    Justice,
    Fairness,
    And,
}

/// The file's contents with file literals, before checking.
#[derive(Default)]
struct Raw {
    binary: bool,
    /// The real M of the header.
    max_var: usize,
    inputs: Vec<u32>,
    /// `(state, next, reset)`.
    latches: Vec<(u32, u32, Reset)>,
    outputs: Vec<u32>,
    bad: Vec<u32>,
    constraints: Vec<u32>,
    justice: Vec<Vec<u32>>,
    fairness: Vec<u32>,
    /// `(lhs, rhs0, rhs1)`.
    ands: Vec<(u32, u32, u32)>,
}

fn reset_of(init: Option<bool>) -> Reset {
    match init {
        Some(false) => Reset::Zero,
        Some(true) => Reset::One,
        None => Reset::Free,
    }
}

impl Raw {
    fn trailer_counts(&self) -> TrailerCounts {
        TrailerCounts {
            inputs: self.inputs.len(),
            latches: self.latches.len(),
            outputs: self.outputs.len(),
            bad: self.bad.len(),
            constraints: self.constraints.len(),
            justice: self.justice.len(),
            fairness: self.fairness.len(),
        }
    }

    /// Number of text lines before the AND section (header included).
    fn text_lines_before_ands(&self) -> usize {
        let ascii_inputs = if self.binary { 0 } else { self.inputs.len() };
        1 + ascii_inputs
            + self.latches.len()
            + self.outputs.len()
            + self.bad.len()
            + self.constraints.len()
            + self.justice.len()
            + self.justice.iter().map(Vec::len).sum::<usize>()
            + self.fairness.len()
    }

    /// The 1-based line of item `index` of `section`; `None` for the parts of a binary file
    /// that have no lines (implicit inputs, AND deltas). Justice items are numbered by
    /// property (their size line).
    fn line(&self, section: Section, index: usize) -> Option<usize> {
        let ascii_inputs = if self.binary { 0 } else { self.inputs.len() };
        let justice_lits: usize = self.justice.iter().map(Vec::len).sum();
        let mut start = 2;
        let order = [
            (Section::Input, ascii_inputs),
            (Section::Latch, self.latches.len()),
            (Section::Output, self.outputs.len()),
            (Section::Bad, self.bad.len()),
            (Section::Constraint, self.constraints.len()),
            (Section::Justice, self.justice.len() + justice_lits),
            (Section::Fairness, self.fairness.len()),
            (Section::And, self.ands.len()),
        ];
        for (s, len) in order {
            if std::mem::discriminant(&s) == std::mem::discriminant(&section) {
                let no_lines = self.binary && matches!(s, Section::Input | Section::And);
                return (!no_lines).then_some(start + index);
            }
            start += len;
        }
        None
    }
}

/// Reads the common part after the inputs/latches of both parsers. A macro because the ASCII
/// and binary readers have distinct (but identically shaped) stage types.
macro_rules! read_properties {
    ($r:ident, $raw:ident) => {{
        let mut r = $r.outputs()?;
        while let Some(l) = r.next_output()? {
            $raw.outputs.push(l);
        }
        let mut r = r.bad_state_properties()?;
        while let Some(l) = r.next_bad_state_property()? {
            $raw.bad.push(l);
        }
        let mut r = r.invariant_constraints()?;
        while let Some(l) = r.next_invariant_constraint()? {
            $raw.constraints.push(l);
        }
        let mut sizes = Vec::new();
        let mut r = r.justice_properties()?;
        while let Some(n) = r.next_justice_property_size()? {
            sizes.push(n);
        }
        let mut r = r.justice_property_local_fairness_constraints()?;
        for n in sizes {
            let mut lits = Vec::new();
            for _ in 0..n {
                match r.next_justice_property_local_fairness_constraint()? {
                    Some(l) => lits.push(l),
                    None => break,
                }
            }
            $raw.justice.push(lits);
        }
        let mut r = r.fairness_constraints()?;
        while let Some(l) = r.next_fairness_constraint()? {
            $raw.fairness.push(l);
        }
        r.and_gates()?
    }};
}

/// Parses `patched` (the file, perhaps with a patched header) and returns the contents and the
/// offset of the end of the body in `original`.
fn parse_ascii(patched: &[u8], original: &[u8]) -> Result<(Raw, usize), Failure> {
    let mut raw = Raw::default();
    let p = ascii::Parser::<u32>::from_read(patched, ascii::Config::default())?;
    let mut r = p.inputs()?;
    while let Some(l) = r.next_input()? {
        raw.inputs.push(l);
    }
    let mut r = r.latches()?;
    while let Some(l) = r.next_latch()? {
        raw.latches
            .push((l.state, l.next_state, reset_of(l.initialization)));
    }
    let mut r = read_properties!(r, raw);
    while let Some(g) = r.next_and_gate()? {
        raw.ands.push((g.output, g.inputs[0], g.inputs[1]));
    }
    let lines = raw.text_lines_before_ands() + raw.ands.len();
    let end = after_newlines(original, 0, lines)
        .ok_or_else(|| Failure::at(lines, "internal: body shorter than parsed"))?;
    Ok((raw, end))
}

/// Like [`parse_ascii`], for binary files (the header has been checked: `M = I + L + A`).
fn parse_binary(patched: &[u8], original: &[u8]) -> Result<(Raw, usize), Failure> {
    let mut raw = Raw {
        binary: true,
        ..Raw::default()
    };
    let p = binary::Parser::<u32>::from_read(patched, binary::Config::default())?;
    let h = p.header().clone();
    raw.inputs = (1..=h.input_count).map(|v| 2 * v as u32).collect();
    let mut state = 2 * (h.input_count as u32 + 1);
    let mut r = p.latches()?;
    while let Some(l) = r.next_latch()? {
        raw.latches
            .push((state, l.next_state, reset_of(l.initialization)));
        state += 2;
    }
    let mut r = read_properties!(r, raw);
    let mut lhs = state;
    loop {
        let gate = r.next_and_gate().map_err(|e| {
            let f = Failure::from(e);
            let message = if f.message.contains("end of file") {
                "unexpected end of file inside the binary delta encoding".to_string()
            } else {
                f.message
            };
            Failure {
                line: None,
                message: format!(
                    "binary AND gate {} (literal {lhs}): {message}",
                    raw.ands.len()
                ),
            }
        })?;
        let Some(g) = gate else { break };
        raw.ands.push((lhs, g.inputs[0], g.inputs[1]));
        lhs += 2;
    }
    // Text lines: header, latches, properties; then 2·A varints.
    let text_lines = raw.text_lines_before_ands();
    let mut end = after_newlines(original, 0, text_lines)
        .ok_or_else(|| Failure::at(text_lines, "internal: body shorter than parsed"))?;
    let mut varints = 2 * raw.ands.len();
    while varints > 0 {
        let b = *original.get(end).ok_or_else(|| Failure {
            line: None,
            message: "truncated AND section".into(),
        })?;
        if b & 0x80 == 0 {
            varints -= 1;
        }
        end += 1;
    }
    Ok((raw, end))
}

/// Offset just after the `n`-th newline at or after `from`.
fn after_newlines(bytes: &[u8], from: usize, n: usize) -> Option<usize> {
    if n == 0 {
        return Some(from);
    }
    bytes
        .get(from..)?
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(n - 1)
        .map(|(i, _)| from + i + 1)
}

/// What defines a file variable.
#[derive(Clone, Copy)]
enum Def {
    Const,
    Input,
    Latch,
    And(usize),
}

fn def_name(d: Def) -> &'static str {
    match d {
        Def::Const => "the constant",
        Def::Input => "an input",
        Def::Latch => "a latch",
        Def::And(_) => "an AND gate",
    }
}

/// Checks definitions and uses, sorts the AND gates and builds the [`Aig`].
fn build(raw: &Raw, trailer: Trailer) -> Result<Aig, Failure> {
    let fail = |section, index, message: String| Failure {
        line: raw.line(section, index),
        message,
    };
    check_bounds(raw)?;
    let mut defs: HashMap<u32, Def> = HashMap::new();
    defs.insert(0, Def::Const);
    let mut define = |lit: u32, def: Def, section, index| match defs.insert(lit >> 1, def) {
        Some(old) => Err(fail(
            section,
            index,
            format!("literal {lit} already defined as {}", def_name(old)),
        )),
        None => Ok(()),
    };
    for (k, &l) in raw.inputs.iter().enumerate() {
        define(l, Def::Input, Section::Input, k)?;
    }
    for (k, &(l, _, _)) in raw.latches.iter().enumerate() {
        define(l, Def::Latch, Section::Latch, k)?;
    }
    for (k, &(l, _, _)) in raw.ands.iter().enumerate() {
        define(l, Def::And(k), Section::And, k)?;
    }
    let used = |lit: u32, what: &str, section, index| {
        if defs.contains_key(&(lit >> 1)) {
            Ok(())
        } else {
            Err(fail(
                section,
                index,
                format!("{what} literal {lit} is undefined"),
            ))
        }
    };
    for (k, &(_, next, _)) in raw.latches.iter().enumerate() {
        used(next, "latch next-state", Section::Latch, k)?;
    }
    let lists = [
        (&raw.outputs, "output", Section::Output),
        (&raw.bad, "bad-state property", Section::Bad),
        (
            &raw.constraints,
            "invariant constraint",
            Section::Constraint,
        ),
        (&raw.fairness, "fairness constraint", Section::Fairness),
    ];
    for (lits, what, section) in lists {
        for (k, &l) in lits.iter().enumerate() {
            used(l, what, section, k)?;
        }
    }
    let mut justice_line = raw.justice.len();
    for lits in &raw.justice {
        for &l in lits {
            used(l, "justice", Section::Justice, justice_line)?;
            justice_line += 1;
        }
    }
    for (k, &(_, a, b)) in raw.ands.iter().enumerate() {
        used(a, "AND operand", Section::And, k)?;
        used(b, "AND operand", Section::And, k)?;
    }

    let order = topological_order(raw, &defs).map_err(|k| {
        fail(
            Section::And,
            k,
            format!("cyclic definition for AND gate {}", raw.ands[k].0),
        )
    })?;

    let mut aig = Aig::new();
    let mut map: HashMap<u32, Lit> = HashMap::new();
    map.insert(0, Lit::FALSE);
    for &l in &raw.inputs {
        map.insert(l >> 1, aig.add_input(""));
    }
    for &(l, _, reset) in &raw.latches {
        map.insert(l >> 1, aig.add_latch("", reset));
    }
    let tr = |map: &HashMap<u32, Lit>, l: u32| {
        map.get(&(l >> 1))
            .map(|m| m.xor(l & 1 == 1))
            .expect("operands are defined and sorted before use")
    };
    for k in order {
        let (lhs, a, b) = raw.ands[k];
        let g = aig.add_raw_and(tr(&map, a), tr(&map, b));
        map.insert(lhs >> 1, g);
    }
    for (k, &(_, next, _)) in raw.latches.iter().enumerate() {
        let cur = aig.latches[k].lit;
        aig.set_next(cur, tr(&map, next));
    }
    let named = |lits: &[u32]| -> Vec<Named> {
        lits.iter()
            .map(|&l| Named {
                lit: tr(&map, l),
                name: String::new(),
            })
            .collect()
    };
    aig.outputs = named(&raw.outputs);
    aig.bad = named(&raw.bad);
    aig.constraints = named(&raw.constraints);
    aig.fairness = raw.fairness.iter().map(|&l| tr(&map, l)).collect();
    aig.justice = raw
        .justice
        .iter()
        .map(|ls| ls.iter().map(|&l| tr(&map, l)).collect())
        .collect();

    for s in trailer.symbols {
        let slot = match s.kind {
            SymbolKind::Input => aig.inputs.get_mut(s.index).map(|x| &mut x.name),
            SymbolKind::Latch => aig.latches.get_mut(s.index).map(|x| &mut x.name),
            SymbolKind::Output => aig.outputs.get_mut(s.index).map(|x| &mut x.name),
            SymbolKind::Bad => aig.bad.get_mut(s.index).map(|x| &mut x.name),
            SymbolKind::Constraint => aig.constraints.get_mut(s.index).map(|x| &mut x.name),
            SymbolKind::Justice | SymbolKind::Fairness => None,
        };
        if let Some(slot) = slot {
            *slot = s.name;
        }
    }
    aig.comment = trailer.comment;
    Ok(aig)
}

/// Every literal must be at most `2M + 1` (flussab checked a possibly enlarged M).
fn check_bounds(raw: &Raw) -> Result<(), Failure> {
    let max = 2 * raw.max_var + 1;
    let check = |lit: u32, section, index| {
        if lit as usize <= max {
            Ok(())
        } else {
            Err(Failure {
                line: raw.line(section, index),
                message: format!(
                    "literal {lit} exceeds the maximal literal {max} (M = {})",
                    raw.max_var
                ),
            })
        }
    };
    for (k, &l) in raw.inputs.iter().enumerate() {
        check(l, Section::Input, k)?;
    }
    for (k, &(l, n, _)) in raw.latches.iter().enumerate() {
        check(l, Section::Latch, k)?;
        check(n, Section::Latch, k)?;
    }
    let lists = [
        (&raw.outputs, Section::Output),
        (&raw.bad, Section::Bad),
        (&raw.constraints, Section::Constraint),
        (&raw.fairness, Section::Fairness),
    ];
    for (lits, section) in lists {
        for (k, &l) in lits.iter().enumerate() {
            check(l, section, k)?;
        }
    }
    let mut justice_line = raw.justice.len();
    for lits in &raw.justice {
        for &l in lits {
            check(l, Section::Justice, justice_line)?;
            justice_line += 1;
        }
    }
    for (k, &(l, a, b)) in raw.ands.iter().enumerate() {
        check(l, Section::And, k)?;
        check(a, Section::And, k)?;
        check(b, Section::And, k)?;
    }
    Ok(())
}

/// AND gate indices in topological order; among ready gates the smallest left-hand side comes
/// first, so files whose numbering is already topological keep their order. On a cycle,
/// returns the index of a gate on it.
fn topological_order(raw: &Raw, defs: &HashMap<u32, Def>) -> Result<Vec<usize>, usize> {
    let n = raw.ands.len();
    let and_deps = |k: usize| {
        let (_, a, b) = raw.ands[k];
        let da = match defs.get(&(a >> 1)) {
            Some(Def::And(j)) => Some(*j),
            _ => None,
        };
        let db = match defs.get(&(b >> 1)) {
            Some(Def::And(j)) if Some(*j) != da => Some(*j),
            _ => None,
        };
        [da, db].into_iter().flatten()
    };
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut pending: Vec<usize> = (0..n)
        .map(|k| {
            and_deps(k).for_each(|d| users[d].push(k));
            and_deps(k).count()
        })
        .collect();
    let mut ready: BinaryHeap<Reverse<(u32, usize)>> = (0..n)
        .filter(|&k| pending[k] == 0)
        .map(|k| Reverse((raw.ands[k].0, k)))
        .collect();
    let mut order = Vec::with_capacity(n);
    while let Some(Reverse((_, k))) = ready.pop() {
        order.push(k);
        for &u in &users[k] {
            pending[u] -= 1;
            if pending[u] == 0 {
                ready.push(Reverse((raw.ands[u].0, u)));
            }
        }
    }
    if order.len() == n {
        return Ok(order);
    }
    // Walk back along unfinished dependencies until a gate repeats: it lies on a cycle.
    let start = (0..n).find(|&k| pending[k] > 0).unwrap_or(0);
    let mut seen = vec![false; n];
    let mut k = start;
    while !seen[k] {
        seen[k] = true;
        match and_deps(k).find(|&d| pending[d] > 0) {
            Some(d) => k = d,
            None => break,
        }
    }
    Err(k)
}
