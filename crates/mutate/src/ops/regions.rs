//! Source regions: which module a position belongs to, and the regions no operator may
//! edit because the front-ends (and synthesis tools) need their exact shape:
//!
//! * Verilog module headers (`module m #(…) (…);`): port lists and parameter defaults;
//! * Verilog loop headers (`for (…)`, `while (…)`, `repeat (…)`): loops are unrolled, and a
//!   changed bound or step may never terminate;
//! * the conditions of the leading `if`s of an always block with several edge events: they
//!   tell the asynchronous controls from the clock;
//! * Verilog instance connection lists (`sub u1(a, b);`): an output port's net is assigned
//!   there, and a connection is no place for an expression edit;
//! * specifications (SMV `INVARSPEC`/`SPEC`/`LTLSPEC` bodies, Verilog `assert property`
//!   items), and text that only specifications read (a `DEFINE` or wire used by a property
//!   alone): a mutant is an edit of the model, and an edited specification changes no
//!   behaviour, so it would only add an equivalent mutant (`docs/method.md` §10).

use std::collections::HashSet;

use hypermut_ir::{ExprKind, FileId, Span};

use super::ctx::{Branch, Ctx};
use crate::syntax::Syntax;
use crate::text::matching_paren;

/// Byte offsets of every occurrence of keyword `word` (not inside an identifier or a `--`
/// / `//` comment).
fn keyword_offsets(text: &str, word: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut line_comment = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_comment = false;
        } else if !line_comment && (c == b'-' || c == b'/') && b.get(i + 1) == Some(&c) {
            line_comment = true;
        } else if !line_comment && b[i..].starts_with(word.as_bytes()) {
            let before_ok = i == 0 || !is_word(b[i - 1]);
            let after_ok = b.get(i + word.len()).is_none_or(|c| !is_word(*c));
            if before_ok && after_ok {
                out.push(i);
                i += word.len();
                continue;
            }
        }
        i += 1;
    }
    out
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// The module keyword offsets of each file (`MODULE` in SMV, `module` in Verilog).
pub(crate) fn module_starts(cx: &Ctx) -> Vec<Vec<usize>> {
    cx.sys
        .sources
        .files()
        .iter()
        .map(|f| match Syntax::of_file(&f.name) {
            Syntax::Smv => keyword_offsets(&f.text, "MODULE"),
            Syntax::Verilog => keyword_offsets(&f.text, "module"),
        })
        .collect()
}

/// The regions of the sources no operator may edit.
pub(crate) fn protected(cx: &Ctx) -> Vec<Span> {
    let mut out = Vec::new();
    for (i, f) in cx.sys.sources.files().iter().enumerate() {
        if Syntax::of_file(&f.name) != Syntax::Verilog {
            continue;
        }
        let file = FileId(i as u32);
        let text = f.text.as_str();
        // Module headers, up to the `;` that ends them.
        for m in keyword_offsets(text, "module") {
            let mut depth = 0i64;
            let end = text[m..]
                .char_indices()
                .find(|(_, c)| {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    *c == ';' && depth == 0
                })
                .map_or(text.len(), |(k, _)| m + k + 1);
            out.push(Span::new(file, m, end));
        }
        // Instance connection lists.
        for open in instance_lists(text) {
            if let Some(close) = matching_paren(text, open) {
                out.push(Span::new(file, open, close));
            }
        }
        // Loop headers.
        for word in ["for", "while", "repeat"] {
            for k in keyword_offsets(text, word) {
                let rest = &text[k + word.len()..];
                let open = k + word.len() + (rest.len() - rest.trim_start().len());
                if text[open..].starts_with('(') {
                    if let Some(close) = matching_paren(text, open) {
                        out.push(Span::new(file, k, close));
                    }
                }
            }
        }
    }
    out.extend(async_controls(cx));
    out.extend(specifications(cx));
    out
}

/// The regions of the specifications: the source of every property, and the span of every
/// node that only properties read, unless a node the model reads (initial and next values,
/// outputs, constraints) has an overlapping span, i.e. the text also feeds the model.
fn specifications(cx: &Ctx) -> Vec<Span> {
    let sys = cx.sys;
    let mut out: Vec<Span> = sys.properties.iter().filter_map(|p| p.span).collect();
    if sys.properties.is_empty() {
        return out;
    }
    let model_roots = sys
        .vars
        .iter()
        .flat_map(|v| v.init.into_iter().chain(v.next))
        .chain(sys.outputs.iter().map(|o| o.expr))
        .chain(sys.constraints.iter().map(|c| c.expr));
    let model: HashSet<_> = sys.exprs.cone(model_roots).into_iter().collect();
    let model_text = SpanIndex::new(model.iter().filter_map(|id| cx.span(*id)));
    let spec_only = sys
        .exprs
        .cone(sys.properties.iter().map(|p| p.expr))
        .into_iter()
        .filter(|id| !model.contains(id))
        .filter_map(|id| cx.span(id))
        .filter(|s| !model_text.overlaps(*s));
    out.extend(spec_only);
    out
}

/// Spans sorted by start, with the largest end among each prefix: answers whether any of
/// them overlaps a given span in logarithmic time.
struct SpanIndex {
    /// (file, start, end), sorted.
    spans: Vec<(FileId, u32, u32)>,
    /// `max_end[k]`: the largest end among `spans[..=k]` of the same file as `spans[k]`.
    max_end: Vec<u32>,
}

impl SpanIndex {
    fn new(spans: impl Iterator<Item = Span>) -> Self {
        let mut spans: Vec<(FileId, u32, u32)> = spans.map(|s| (s.file, s.start, s.end)).collect();
        spans.sort();
        let mut max_end = Vec::with_capacity(spans.len());
        for (k, (file, _, end)) in spans.iter().enumerate() {
            let before = match k.checked_sub(1) {
                Some(j) if spans[j].0 == *file => max_end[j],
                _ => 0,
            };
            max_end.push(before.max(*end));
        }
        SpanIndex { spans, max_end }
    }

    /// Whether some span shares a byte with `s` (an empty span counts as its first byte).
    fn overlaps(&self, s: Span) -> bool {
        let end = s.end.max(s.start + 1);
        // The spans of `s`'s file that start before `end`.
        let upto = self
            .spans
            .partition_point(|(f, start, _)| (*f, *start) < (s.file, end));
        let from = self.spans.partition_point(|(f, _, _)| *f < s.file);
        upto > from && self.max_end[upto - 1] > s.start
    }
}

/// Verilog keywords that cannot name a module type or an instance.
const KEYWORDS: [&str; 40] = [
    "always",
    "assign",
    "begin",
    "case",
    "casex",
    "casez",
    "default",
    "else",
    "end",
    "endcase",
    "endfunction",
    "endmodule",
    "endtask",
    "for",
    "forever",
    "function",
    "if",
    "initial",
    "inout",
    "input",
    "integer",
    "localparam",
    "module",
    "negedge",
    "output",
    "parameter",
    "posedge",
    "real",
    "reg",
    "repeat",
    "return",
    "signed",
    "task",
    "while",
    "wire",
    "genvar",
    "generate",
    "endgenerate",
    "wait",
    "or",
];

/// The trailing identifier of `t` (and the text before it), if `t` ends with one.
fn trailing_ident(t: &str) -> Option<(&str, &str)> {
    let t = t.trim_end();
    let start = t
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
        .last()
        .map(|(k, _)| k)?;
    let ident = &t[start..];
    let first = ident.chars().next()?;
    (first.is_ascii_alphabetic() || first == '_').then_some((&t[..start], ident))
}

/// Offsets of the `(` opening the connection list of each instantiation
/// `type [#(…)] name [range] (…)`.
fn instance_lists(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for (open, c) in text.char_indices() {
        if c != '(' {
            continue;
        }
        let mut before = text[..open].trim_end();
        // An instance array range `u[3:0]`.
        if let Some(body) = before.strip_suffix(']') {
            match body.rfind('[') {
                Some(k) => before = body[..k].trim_end(),
                None => continue,
            }
        }
        let Some((rest, name)) = trailing_ident(before) else {
            continue;
        };
        let mut rest = rest.trim_end();
        // A parameter list `#(…)` between the type and the name.
        if let Some(body) = rest.strip_suffix(')') {
            let mut depth = 1i64;
            let Some(k) = body.char_indices().rev().find_map(|(k, c)| {
                match c {
                    ')' => depth += 1,
                    '(' => depth -= 1,
                    _ => {}
                }
                (depth == 0).then_some(k)
            }) else {
                continue;
            };
            let Some(r) = body[..k].trim_end().strip_suffix('#') else {
                continue;
            };
            rest = r.trim_end();
        }
        let Some((_, ty)) = trailing_ident(rest) else {
            continue;
        };
        if !KEYWORDS.contains(&name) && (!KEYWORDS.contains(&ty) || ty == "or") {
            out.push(open);
        }
    }
    out
}

/// Number of `posedge`/`negedge` events of the event control that ends right before byte
/// `at` (`@(…)`, then optionally `begin`), if there is one.
fn events_before(text: &str, at: usize) -> Option<usize> {
    let mut before = text.get(..at)?.trim_end();
    if let Some(rest) = before.strip_suffix("begin") {
        before = rest.trim_end();
    }
    let body = before.strip_suffix(')')?;
    let mut depth = 1i64;
    let open = body.char_indices().rev().find_map(|(k, c)| {
        match c {
            ')' => depth += 1,
            '(' => depth -= 1,
            _ => {}
        }
        (depth == 0).then_some(k)
    })?;
    if !body[..open].trim_end().ends_with('@') {
        return None;
    }
    let control = &body[open..];
    Some(keyword_offsets(control, "posedge").len() + keyword_offsets(control, "negedge").len())
}

/// Guards of the `if` chains that start clocked blocks with several edge events.
fn async_controls(cx: &Ctx) -> Vec<Span> {
    let mut out = Vec::new();
    for (&id, &kind) in &cx.branches {
        if kind != Branch::VerilogIf {
            continue;
        }
        let Some(span) = cx.span(id) else { continue };
        let text = cx.file_text(span);
        let Some(events) = events_before(text, span.start as usize) else {
            continue;
        };
        // The first `events - 1` ifs of the chain test asynchronous controls.
        let mut ite = id;
        for _ in 1..events {
            let ExprKind::Ite(g, _, e) = cx.node(ite).kind else {
                break;
            };
            out.extend(cx.span(g));
            let next_is_else_if = cx.branches.get(&e) == Some(&Branch::VerilogIf)
                && cx.span(e).is_some_and(|s| {
                    text.get(..s.start as usize)
                        .is_some_and(|t| t.trim_end().ends_with("else"))
                });
            if !next_is_else_if {
                break;
            }
            ite = e;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_and_event_controls() {
        let t = "module m(a); // module x\nreg formal; always @(posedge c or negedge r) begin if";
        assert_eq!(keyword_offsets(t, "module"), vec![0]);
        let at = t.rfind("if").expect("if");
        assert_eq!(events_before(t, at), Some(2));
        assert_eq!(events_before("x = 1; if", 7), None);
        assert_eq!(matching_paren("f(a(b))c", 1), Some(7));
        let v = "sub #(4) u1(a, b); and g(o, x, y); if (c) x = f(a); always @(posedge c) begin";
        let found: Vec<&str> = instance_lists(v).iter().map(|k| &v[*k..*k + 2]).collect();
        assert_eq!(found, ["(a", "(o"]);
    }

    /// The source lines of the mutants of a model.
    fn mutated_lines(sys: &hypermut_ir::System) -> Vec<usize> {
        crate::enumerate(sys, &crate::Operator::ALL)
            .iter()
            .map(|m| sys.sources.location(m.span).line)
            .collect()
    }

    #[test]
    fn specifications_are_not_mutated() {
        // Line 11 is a DEFINE only the specifications read; line 12 a DEFINE read by an
        // output and a specification; lines 13-15 are specifications.
        let text = "\
-- @output big, both
MODULE main
IVAR
  go : boolean;
VAR
  x : 0..3;
ASSIGN
  init(x) := 0;
  next(x) := go ? (x + 1) mod 4 : x;
DEFINE
  safe := x < 3 | go;
  both := x > 2 & !go;
  big := x > 2;
INVARSPEC safe & x <= 3;
SPEC AG (x <= 3 & !go | TRUE);
LTLSPEC G (both -> x >= 1);
";
        let sys = hypermut_smv::parse_smv("spec.smv", text).expect("parses");
        assert_eq!(sys.properties.len(), 3);
        let lines = mutated_lines(&sys);
        for line in [11, 14, 15, 16] {
            assert!(!lines.contains(&line), "line {line} is mutated: {lines:?}");
        }
        for line in [8, 9, 12, 13] {
            assert!(
                lines.contains(&line),
                "line {line} is not mutated: {lines:?}"
            );
        }
        // Without the specifications, the DEFINE `safe` is not read at all, and the model
        // text has exactly the mutants it had with them.
        let bare: String = text.lines().take(13).map(|l| format!("{l}\n")).collect();
        let bare = hypermut_smv::parse_smv("spec.smv", &bare).expect("parses");
        let texts = |sys: &hypermut_ir::System| -> Vec<(usize, String, String)> {
            crate::enumerate(sys, &crate::Operator::ALL)
                .into_iter()
                .map(|m| (m.id, m.original, m.replacement))
                .collect()
        };
        assert_eq!(texts(&sys), texts(&bare));
    }

    #[test]
    fn verilog_assertions_are_not_mutated() {
        let text = "\
module t(input clk, input a, output reg [1:0] q);
  wire ok = q != 2'd3 || a;
  initial q = 2'd0;
  always @(posedge clk) q <= a ? q + 2'd1 : q;
  assert property (ok && q <= 2'd3);
endmodule
";
        let sys = hypermut_verilog::parse_verilog(&[("t.v", text)], &Default::default())
            .expect("parses")
            .system;
        assert_eq!(sys.properties.len(), 1);
        let lines = mutated_lines(&sys);
        assert!(lines.contains(&4), "{lines:?}");
        assert!(!lines.contains(&5), "the assertion is mutated: {lines:?}");
        assert!(
            !lines.contains(&2),
            "the wire only the assertion reads: {lines:?}"
        );
    }

    #[test]
    fn span_index_answers_overlaps_like_a_scan() {
        let f = FileId(0);
        let g = FileId(1);
        let spans = [
            Span::new(f, 0, 3),
            Span::new(f, 10, 40),
            Span::new(f, 12, 14),
            Span::new(g, 5, 6),
        ];
        let index = SpanIndex::new(spans.iter().copied());
        let scan = |s: Span| {
            let end = s.end.max(s.start + 1);
            spans
                .iter()
                .any(|p| p.file == s.file && p.start < end && s.start < p.end)
        };
        for file in [f, g] {
            for start in 0..45 {
                for len in 0..6 {
                    let s = Span::new(file, start, start + len);
                    assert_eq!(index.overlaps(s), scan(s), "{s:?}");
                }
            }
        }
    }
}
