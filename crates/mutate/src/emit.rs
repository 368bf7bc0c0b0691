//! Source text of one mutant ([`mutant_source`]) and of its conditional mutant
//! ([`conditional_source`]), in the model's own language, so that other tools (NuSMV,
//! Yosys, simulators) can read them.
//!
//! The conditional mutant adds one selector that is constant over time:
//! * SMV: `FROZENVAR mut : boolean;` without an initial value; the edited range becomes
//!   `(mut ? (replacement) : (original))`. A deleted `case` arm `g : v;` becomes
//!   `!mut & (g) : v;`.
//! * Verilog: a module parameter `parameter [0:0] mut = 1'b0;` (in the `#(…)` list when the
//!   module has one); the edited range becomes `(mut ? (replacement) : (original))`. A
//!   deleted `case` item duplicates its `case` statement:
//!   `begin if (mut) <case without the item> else <case> end`. A parameter (not a register)
//!   is used because mutated expressions may stand where Verilog needs constants (`initial`
//!   values for synthesis, part-select bounds, case labels); `mut = 0` is the original,
//!   `#(.mut(1))` (or `defparam`, `chparam -set mut 1`) the mutant.
//!
//! The selector is declared in the module that contains the mutation. If that module is
//! instantiated several times, each instance has its own selector (SMV: its own frozen
//! variable); hypermut's conditional system has one for all of them.
//!
//! The name is `mut`, or `mut_1`, `mut_2`, … if the sources already use that word.

use hypermut_ir::{ExprKind, FileId, Span, System};

use crate::operators::Mutant;
use crate::syntax::Syntax;
use crate::text::{matching_paren, separated};

/// Why a mutant's source could not be written.
#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    /// The mutant's range lies in no loaded file.
    #[error("mutant {id}: its source range lies in no loaded file")]
    NoFile {
        /// Mutant id.
        id: usize,
    },
    /// The text at the mutant's range is not the mutant's original text.
    #[error("mutant {id}: the text at its range is `{found}`, not `{expected}` (the mutant belongs to another version of the model)")]
    Stale {
        /// Mutant id.
        id: usize,
        /// What the range holds.
        found: String,
        /// The mutant's original text.
        expected: String,
    },
    /// The mutant lies in text that is not a file (a macro value given on the command line).
    #[error("mutant {id} lies in `{name}`, which is not a source file")]
    NotAFile {
        /// Mutant id.
        id: usize,
        /// The pseudo-file's name.
        name: String,
    },
    /// The construct around the mutation could not be found in the text.
    #[error("mutant {id}: cannot find the {what} around it in {name}")]
    Shape {
        /// Mutant id.
        id: usize,
        /// What was looked for.
        what: &'static str,
        /// The file's name.
        name: String,
    },
}

/// The edited text of one source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmittedSource {
    /// The file the mutation lies in.
    pub file: FileId,
    /// That file's display name (as loaded).
    pub name: String,
    /// Its language.
    pub syntax: Syntax,
    /// The whole edited file.
    pub text: String,
    /// The selector's name (conditional mutants only).
    pub selector: Option<String>,
}

/// One textual replacement `start..end` → `text`.
struct Splice {
    start: usize,
    end: usize,
    text: String,
}

/// `text` with non-overlapping splices applied.
fn apply(text: &str, mut splices: Vec<Splice>) -> String {
    splices.sort_by_key(|s| (s.start, s.end));
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for s in splices {
        out.push_str(&text[at..s.start]);
        out.push_str(&s.text);
        at = s.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The file of the mutant, checked against the mutant's original text.
fn file_of<'a>(sys: &'a System, m: &Mutant) -> Result<(&'a str, &'a str, Syntax), EmitError> {
    let f = sys
        .sources
        .file(m.span.file)
        .ok_or(EmitError::NoFile { id: m.id })?;
    if f.name.starts_with('<') {
        return Err(EmitError::NotAFile {
            id: m.id,
            name: f.name.clone(),
        });
    }
    let found = f
        .text
        .get(m.span.start as usize..m.span.end as usize)
        .ok_or(EmitError::NoFile { id: m.id })?;
    if found != m.original {
        return Err(EmitError::Stale {
            id: m.id,
            found: found.to_string(),
            expected: m.original.clone(),
        });
    }
    Ok((&f.name, &f.text, Syntax::of_file(&f.name)))
}

/// The model's file with exactly the mutant's edit: its range replaced by its replacement.
pub fn mutant_source(sys: &System, m: &Mutant) -> Result<EmittedSource, EmitError> {
    let (name, text, syntax) = file_of(sys, m)?;
    let edited = apply(
        text,
        vec![Splice {
            start: m.span.start as usize,
            end: m.span.end as usize,
            text: m.replacement.clone(),
        }],
    );
    Ok(EmittedSource {
        file: m.span.file,
        name: name.to_string(),
        syntax,
        text: edited,
        selector: None,
    })
}

/// The model's file as the conditional mutant: a selector (see the module documentation)
/// chooses the original (`mut = 0`) or the mutant (`mut = 1`).
pub fn conditional_source(sys: &System, m: &Mutant) -> Result<EmittedSource, EmitError> {
    let (name, text, syntax) = file_of(sys, m)?;
    let sel = fresh_selector(sys);
    let shape = |what| EmitError::Shape {
        id: m.id,
        what,
        name: name.to_string(),
    };
    let (start, end) = (m.span.start as usize, m.span.end as usize);
    let mut splices = Vec::new();
    if m.replacement.trim().is_empty() {
        match syntax {
            Syntax::Smv => {
                let (gs, ge) = smv_arm_guard(sys, m, text).ok_or_else(|| shape("case arm"))?;
                splices.push(Splice {
                    start: gs,
                    end: gs,
                    text: format!("!{sel} & ("),
                });
                splices.push(Splice {
                    start: ge,
                    end: ge,
                    text: ")".into(),
                });
            }
            Syntax::Verilog => {
                let (cs, ce) =
                    enclosing_case(text, start, end).ok_or_else(|| shape("case statement"))?;
                let without = format!("{}{}", &text[cs..start], &text[end..ce]);
                splices.push(Splice {
                    start: cs,
                    end: ce,
                    text: format!("begin if ({sel}) {without} else {} end", &text[cs..ce]),
                });
            }
        }
    } else {
        let cond = format!(
            "({sel} ? ({}) : ({}))",
            m.replacement.trim(),
            m.original.trim()
        );
        splices.push(Splice {
            start,
            end,
            text: separated(text, start, end, &cond),
        });
    }
    splices.push(declaration(text, start, syntax, &sel, m.id).ok_or_else(|| shape("module"))?);
    Ok(EmittedSource {
        file: m.span.file,
        name: name.to_string(),
        syntax,
        text: apply(text, splices),
        selector: Some(sel),
    })
}

/// Whether `c` continues an identifier (both languages, generously).
fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'#')
}

/// The words (identifiers and keywords) of `text` with their offsets, outside `--`, `//`
/// and `/* */` comments and string literals.
fn words(text: &str, syntax: Syntax) -> Vec<(usize, &str)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let line_comment = match syntax {
        Syntax::Smv => "--",
        Syntax::Verilog => "//",
    };
    while i < b.len() {
        let Some(rest) = text.get(i..) else {
            i += 1;
            continue;
        };
        if rest.starts_with(line_comment) {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if let Some(body) = rest.strip_prefix("/*") {
            i += body.find("*/").map_or(rest.len(), |k| k + 4);
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if is_word(b[i]) {
            let s = i;
            while i < b.len() && is_word(b[i]) {
                i += 1;
            }
            out.push((s, &text[s..i]));
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    out
}

/// `mut`, or `mut_1`, `mut_2`, … : a name no source file uses as a word and no variable
/// of the system has.
fn fresh_selector(sys: &System) -> String {
    let used = |name: &str| {
        sys.var_by_name(name).is_some()
            || sys.sources.files().iter().any(|f| {
                let mut k = 0;
                while let Some(at) = f.text[k..].find(name) {
                    let (s, e) = (k + at, k + at + name.len());
                    let before = s == 0 || !is_word(f.text.as_bytes()[s - 1]);
                    let after = f.text.as_bytes().get(e).is_none_or(|c| !is_word(*c));
                    if before && after {
                        return true;
                    }
                    k = e;
                }
                false
            })
    };
    let mut name = "mut".to_string();
    let mut k = 0;
    while used(&name) {
        k += 1;
        name = format!("mut_{k}");
    }
    name
}

/// The first byte at or after `at` that is not whitespace.
fn skip_ws(text: &str, at: usize) -> usize {
    let rest = text.get(at..).unwrap_or("");
    at + (rest.len() - rest.trim_start().len())
}

/// The splice declaring the selector in the module that contains byte `at`.
fn declaration(text: &str, at: usize, syntax: Syntax, sel: &str, id: usize) -> Option<Splice> {
    let keyword = match syntax {
        Syntax::Smv => "MODULE",
        Syntax::Verilog => "module",
    };
    let ws = words(text, syntax);
    let (m, _) = ws.iter().rfind(|(k, w)| *w == keyword && *k <= at)?;
    match syntax {
        Syntax::Smv => {
            // After `MODULE name` and an optional parameter list.
            let (name_at, name) = ws.iter().find(|(k, _)| *k > *m)?;
            let mut end = name_at + name.len();
            let open = skip_ws(text, end);
            if text[open..].starts_with('(') {
                end = matching_paren(text, open)?;
            }
            Some(Splice {
                start: end,
                end,
                text: format!(
                    "\nFROZENVAR {sel} : boolean; -- hypermut: FALSE = original, TRUE = mutant {id}\n"
                ),
            })
        }
        Syntax::Verilog => {
            // The header ends at the first `;` outside brackets; a `#(` list before the
            // port list holds the parameters.
            let b = text.as_bytes();
            let (mut depth, mut i) = (0i64, m + keyword.len());
            let mut params = None;
            while i < b.len() {
                let rest = text.get(i..).unwrap_or("");
                if rest.starts_with("//") {
                    i += rest.find('\n').unwrap_or(rest.len());
                    continue;
                }
                if let Some(body) = rest.strip_prefix("/*") {
                    i += body.find("*/").map_or(rest.len(), |k| k + 4);
                    continue;
                }
                match b[i] {
                    b'#' if depth == 0 && params.is_none() => {
                        let open = skip_ws(text, i + 1);
                        if text[open..].starts_with('(') {
                            params = Some((open, matching_paren(text, open)?));
                        }
                    }
                    b'(' => depth += 1,
                    b')' => depth -= 1,
                    b';' if depth == 0 => break,
                    _ => {}
                }
                i += 1;
            }
            if i >= b.len() {
                return None;
            }
            let decl = format!("parameter [0:0] {sel} = 1'b0");
            Some(match params {
                Some((open, close)) => {
                    let empty = text[open + 1..close - 1].trim().is_empty();
                    let sep = if empty { "" } else { ", " };
                    Splice {
                        start: close - 1,
                        end: close - 1,
                        text: format!("{sep}{decl}"),
                    }
                }
                None => Splice {
                    start: i + 1,
                    end: i + 1,
                    text: format!("\n  {decl}; // hypermut: 0 = original, 1 = mutant {id}\n"),
                },
            })
        }
    }
}

/// The guard range of the SMV `case` arm the mutant deletes: the guard node's span when it
/// lies in the arm, else the text before the arm's first top-level `:`.
fn smv_arm_guard(sys: &System, m: &Mutant, text: &str) -> Option<(usize, usize)> {
    let (start, end) = (m.span.start as usize, m.span.end as usize);
    let from_node = match sys.exprs.node(m.site).kind {
        ExprKind::Ite(g, _, _) => sys.exprs.node(g).span.filter(|gs: &Span| {
            gs.file == m.span.file && start <= gs.start as usize && gs.end as usize <= end
        }),
        _ => None,
    };
    if let Some(gs) = from_node {
        return Some((gs.start as usize, gs.end as usize));
    }
    let arm = text.get(start..end)?;
    let tokens = crate::text::top_tokens(arm)?;
    let colon = tokens
        .iter()
        .take_while(|t| t.text != "?")
        .find(|t| t.text == ":")?;
    let guard = arm[..colon.start].trim_end();
    let lead = guard.len() - guard.trim_start().len();
    Some((start + lead, start + guard.len()))
}

/// The Verilog `case`/`casex`/`casez` … `endcase` statement innermost around `start..end`.
fn enclosing_case(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let mut open: Vec<usize> = Vec::new();
    let mut best = None;
    for (k, w) in words(text, Syntax::Verilog) {
        match w {
            "case" | "casex" | "casez" => open.push(k),
            "endcase" => {
                let s = open.pop()?;
                let e = k + w.len();
                if s < start && end <= k {
                    // Pairs close inside out: the first enclosing one is the innermost.
                    best = best.or(Some((s, e)));
                }
            }
            _ => {}
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use hypermut_ir::{Role, Value};
    use hypermut_testkit::sim::{outputs_by_name, Stimulus};
    use hypermut_testkit::SplitMix64;

    use super::*;
    use crate::tests::{all, models, parse, SMV_MODEL, VERILOG_MODEL};

    const FRAMES: usize = 8;

    #[test]
    fn the_source_differs_only_at_the_range() {
        let sys = parse("t.v", VERILOG_MODEL);
        for m in all(&sys) {
            let e = mutant_source(&sys, &m).expect("emitted");
            let (s, end) = (m.span.start as usize, m.span.end as usize);
            assert_eq!(&e.text[..s], &VERILOG_MODEL[..s]);
            assert_eq!(&e.text[s..s + m.replacement.len()], m.replacement);
            assert_eq!(&e.text[s + m.replacement.len()..], &VERILOG_MODEL[end..]);
            assert_eq!(e.name, "t.v");
        }
    }

    #[test]
    fn a_stale_mutant_is_refused() {
        let sys = parse("m.smv", SMV_MODEL);
        let mut m = all(&sys).remove(0);
        m.original.push('x');
        assert!(matches!(
            mutant_source(&sys, &m),
            Err(EmitError::Stale { .. })
        ));
        assert!(conditional_source(&sys, &m).is_err());
    }

    #[test]
    fn the_selector_name_avoids_used_words() {
        let sys = parse("m.smv", &SMV_MODEL.replace("VAR x", "VAR mut : boolean; x"));
        assert_eq!(fresh_selector(&sys), "mut_1");
        assert_eq!(fresh_selector(&parse("m.smv", SMV_MODEL)), "mut");
    }

    #[test]
    fn case_statements_and_module_headers_are_found() {
        let v = "module m #(parameter W = 2) (input a); always @* case (a) 1'b0: case (a) \
                 default: ; endcase endcase endmodule";
        let at = v.find("default").expect("text");
        let inner = v[..at].rfind("case (a)").expect("text");
        let inner_end = v.find("endcase").expect("text") + "endcase".len();
        assert_eq!(enclosing_case(v, at, at + 3), Some((inner, inner_end)));
        let d = declaration(v, at, Syntax::Verilog, "mut", 0).expect("header");
        assert_eq!(d.start, v.find(") (").expect("text"));
        assert_eq!(d.text, ", parameter [0:0] mut = 1'b0");
        let u = "module m(input a /* é */, output \"é\" y); // ü\n assign y = a;";
        let d = declaration(u, u.len() - 3, Syntax::Verilog, "mut", 0).expect("header");
        assert_eq!(d.start, u.find(';').expect("text") + 1);
        assert_eq!(
            words("a \"é\\\"\" é b", Syntax::Verilog),
            [(0, "a"), (12, "b")]
        );
        let s = "MODULE main -- c\nVAR x : boolean;";
        let d = declaration(s, 20, Syntax::Smv, "mut", 3).expect("module");
        assert_eq!(d.start, "MODULE main".len());
    }

    /// Every mutant's conditional source reads back in hypermut's front-end; with the
    /// selector off it behaves like the original, with it on like the mutant's source.
    #[test]
    fn conditional_sources_select_original_or_mutant() {
        let mut rng = SplitMix64::new(0x656d_6974);
        for (name, text) in models() {
            let sys = parse(name, &text);
            if !sys.choices.is_empty() {
                continue;
            }
            let mut checked = 0;
            for m in all(&sys) {
                let c =
                    conditional_source(&sys, &m).unwrap_or_else(|e| panic!("{name}: {m:?}: {e}"));
                let sel = c.selector.clone().expect("selector");
                let mutant = parse(name, &mutant_source(&sys, &m).expect("source").text);
                let (off, on) = match c.syntax {
                    Syntax::Smv => {
                        let cs = parse(name, &c.text);
                        let v = cs.var_by_name(&sel).expect("selector variable");
                        assert_eq!(cs.var(v).role, Role::Frozen, "{name}: {m:?}");
                        (cs.clone(), Some(cs))
                    }
                    Syntax::Verilog => {
                        let decl = format!("{sel} = 1'b0");
                        assert_eq!(c.text.matches(&decl).count(), 1, "{}", c.text);
                        let on = c.text.replace(&decl, &format!("{sel} = 1'b1"));
                        (parse(name, &c.text), Some(parse(name, &on)))
                    }
                };
                for _ in 0..4 {
                    // A choice the mutant adds (`cwd`) is site 0 of both edited sources.
                    let mut st = Stimulus::random_inputs(&mut rng, &sys, FRAMES);
                    st.choices = Stimulus::random(&mut rng, &mutant, FRAMES).choices;
                    let f = |b: bool| [(sel.as_str(), Value::Bool(b))];
                    assert_eq!(
                        outputs_by_name(&off, &st, &f(false)),
                        outputs_by_name(&sys, &st, &[]),
                        "{name}: selector off differs from the original for {m:?}\n{}",
                        c.text
                    );
                    if let Some(on) = &on {
                        assert_eq!(
                            outputs_by_name(on, &st, &f(true)),
                            outputs_by_name(&mutant, &st, &[]),
                            "{name}: selector on differs from the mutant for {m:?}\n{}",
                            c.text
                        );
                        checked += 1;
                    }
                }
            }
            assert!(checked > 0, "{name}");
        }
    }
}
