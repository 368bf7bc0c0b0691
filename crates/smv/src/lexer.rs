//! Tokeniser for the NuSMV input language (built on `nom` 7).
//!
//! Lexing never fails: a character that starts no token becomes a [`Tok::Bad`] token carrying
//! its message, so that the parser reports it where it matters (and can skip it inside
//! ignored specification sections). `--` comments are skipped; comments of the form
//! `-- @input a, b` / `-- @output a, b` are returned as [`Pragma`]s.

use hypermut_ir::{FileId, Span};
use nom::{
    bytes::complete::{tag, take_while, take_while1},
    character::complete::satisfy,
    combinator::recognize,
    sequence::pair,
    IResult,
};

/// Keywords that open a section of a module (and end a skipped specification section).
pub const SECTION_KEYWORDS: &[&str] = &[
    "MODULE",
    "VAR",
    "IVAR",
    "FROZENVAR",
    "DEFINE",
    "MDEFINE",
    "CONSTANTS",
    "ASSIGN",
    "INIT",
    "INVAR",
    "TRANS",
    "SPEC",
    "CTLSPEC",
    "LTLSPEC",
    "INVARSPEC",
    "PSLSPEC",
    "COMPUTE",
    "FAIRNESS",
    "JUSTICE",
    "COMPASSION",
    "ISA",
    "PRED",
    "MIRROR",
];

/// Reserved words used inside declarations and expressions.
const WORD_KEYWORDS: &[&str] = &[
    "case", "esac", "next", "init", "TRUE", "FALSE", "mod", "xor", "xnor", "in", "union", "self",
    "boolean", "integer", "real", "word", "signed", "unsigned", "array", "of", "process",
];

/// Punctuation and operators, longest first so that prefixes do not shadow them.
const SYMBOLS: &[&str] = &[
    "<->", "->", ":=", "::", "..", "!=", "<=", ">=", "<<", ">>", "(", ")", "{", "}", "[", "]", ":",
    ";", ",", ".", "!", "&", "|", "=", "<", ">", "+", "-", "*", "/", "?",
];

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An identifier (letter or `_`, then letters, digits, `_ $ # -`).
    Ident(String),
    /// A decimal integer literal (digits only; the sign is a separate token).
    Int(String),
    /// A reserved word or section keyword.
    Kw(&'static str),
    /// Punctuation or an operator.
    Sym(&'static str),
    /// Text that starts no valid token, with the reason.
    Bad(String),
    /// End of input.
    Eof,
}

/// A token and its source range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Where it is.
    pub span: Span,
}

impl Token {
    /// Whether this is the symbol `s`.
    pub fn is_sym(&self, s: &str) -> bool {
        matches!(self.tok, Tok::Sym(x) if x == s)
    }

    /// Whether this is the keyword `k`.
    pub fn is_kw(&self, k: &str) -> bool {
        matches!(self.tok, Tok::Kw(x) if x == k)
    }

    /// Whether this token opens a module section (or is the end of input).
    pub fn is_section_start(&self) -> bool {
        match self.tok {
            Tok::Kw(k) => SECTION_KEYWORDS.contains(&k),
            Tok::Eof => true,
            _ => false,
        }
    }
}

/// Which annotation a pragma comment carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PragmaKind {
    /// `-- @input names`: the variables are inputs.
    Input,
    /// `-- @output names`: exactly the listed names are outputs.
    Output,
}

/// An I/O annotation comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pragma {
    /// Input or output.
    pub kind: PragmaKind,
    /// The annotated names with their spans.
    pub names: Vec<(String, Span)>,
    /// The span of the `@input` / `@output` word.
    pub span: Span,
}

/// Tokens (ending with [`Tok::Eof`]) and pragmas of a source text.
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    /// The tokens, the last one being `Eof`.
    pub tokens: Vec<Token>,
    /// The `@input` / `@output` comments, in source order.
    pub pragmas: Vec<Pragma>,
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '#' | '-')
}

fn ident(i: &str) -> IResult<&str, &str> {
    recognize(pair(satisfy(is_ident_start), take_while(is_ident_char)))(i)
}

fn digits(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_ascii_digit())(i)
}

fn symbol(i: &str) -> Option<(&str, &'static str)> {
    SYMBOLS.iter().find_map(|s| {
        tag::<_, _, nom::error::Error<&str>>(*s)(i)
            .ok()
            .map(|(rest, _)| (rest, *s))
    })
}

fn whitespace(i: &str) -> IResult<&str, &str> {
    take_while(|c: char| c.is_whitespace())(i)
}

fn line_comment(i: &str) -> IResult<&str, &str> {
    let (i, _) = tag("--")(i)?;
    take_while(|c: char| c != '\n')(i)
}

/// Tokenises `text` (a file registered as `file`).
pub fn lex(file: FileId, text: &str) -> Lexed {
    let mut out = Lexed::default();
    let offset = |rest: &str| text.len() - rest.len();
    let span = |a: usize, b: usize| Span::new(file, a, b);
    let mut rest = text;
    loop {
        if let Ok((r, _)) = whitespace(rest) {
            rest = r;
        }
        let start = offset(rest);
        if rest.is_empty() {
            out.tokens.push(Token {
                tok: Tok::Eof,
                span: span(start, start),
            });
            return out;
        }
        if let Ok((r, body)) = line_comment(rest) {
            if let Some(p) = pragma(file, body, start + 2) {
                out.pragmas.push(p);
            }
            rest = r;
            continue;
        }
        let (r, tok) = if let Ok((r, word)) = ident(rest) {
            let all = SECTION_KEYWORDS.iter().chain(WORD_KEYWORDS);
            match all.copied().find(|k| *k == word) {
                Some(k) => (r, Tok::Kw(k)),
                None => (r, Tok::Ident(word.to_string())),
            }
        } else if let Ok((r, num)) = digits(rest) {
            if r.starts_with(is_ident_char) {
                // `0ud8_5`, `0b1_0`, `12abc`: word constants or malformed numbers.
                let (r2, tail) = take_while::<_, _, ()>(is_ident_char)(r).unwrap_or((r, ""));
                let lit = format!("{num}{tail}");
                let msg = if num == "0"
                    && tail.starts_with(['u', 's', 'b', 'B', 'o', 'O', 'd', 'D', 'h', 'H'])
                {
                    format!("word constants (`{lit}`) are not supported yet")
                } else {
                    format!("malformed number `{lit}`")
                };
                (r2, Tok::Bad(msg))
            } else {
                (r, Tok::Int(num.to_string()))
            }
        } else if let Some((r, s)) = symbol(rest) {
            (r, Tok::Sym(s))
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            let r = &rest[c.len_utf8()..];
            (
                r,
                Tok::Bad(format!("unexpected character `{}`", c.escape_debug())),
            )
        };
        rest = r;
        out.tokens.push(Token {
            tok,
            span: span(start, offset(rest)),
        });
    }
}

/// Parses the body of a `--` comment (starting at byte `base`) as an I/O pragma, if it is one.
fn pragma(file: FileId, body: &str, base: usize) -> Option<Pragma> {
    let trimmed = body.trim_start();
    let at = base + (body.len() - trimmed.len());
    let (kind, word) = if let Some(r) = trimmed.strip_prefix("@input") {
        (PragmaKind::Input, r)
    } else if let Some(r) = trimmed.strip_prefix("@output") {
        (PragmaKind::Output, r)
    } else {
        return None;
    };
    if word.starts_with(is_ident_char) {
        return None; // `@inputs`, `@output_x`: not our pragma
    }
    let kw_end = at + trimmed.len() - word.len();
    let mut names = Vec::new();
    let mut rest = word;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        let start = base + body.len() - rest.len();
        match ident(rest) {
            Ok((r, name)) => {
                names.push((name.to_string(), Span::new(file, start, start + name.len())));
                rest = r;
            }
            Err(_) => break,
        }
    }
    Some(Pragma {
        kind,
        names,
        span: Span::new(file, at, kw_end),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        lex(FileId(0), text)
            .tokens
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn identifiers_may_contain_dash_dollar_hash() {
        assert_eq!(
            toks("a-b $x c#1 a - b"),
            vec![
                Tok::Ident("a-b".into()),
                Tok::Bad("unexpected character `$`".into()),
                Tok::Ident("x".into()),
                Tok::Ident("c#1".into()),
                Tok::Ident("a".into()),
                Tok::Sym("-"),
                Tok::Ident("b".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn ranges_operators_and_keywords() {
        assert_eq!(
            toks("x : -1..2; next(x) <-> !y -> z != 3 -- comment\nmod"),
            vec![
                Tok::Ident("x".into()),
                Tok::Sym(":"),
                Tok::Sym("-"),
                Tok::Int("1".into()),
                Tok::Sym(".."),
                Tok::Int("2".into()),
                Tok::Sym(";"),
                Tok::Kw("next"),
                Tok::Sym("("),
                Tok::Ident("x".into()),
                Tok::Sym(")"),
                Tok::Sym("<->"),
                Tok::Sym("!"),
                Tok::Ident("y".into()),
                Tok::Sym("->"),
                Tok::Ident("z".into()),
                Tok::Sym("!="),
                Tok::Int("3".into()),
                Tok::Kw("mod"),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn spans_cover_the_token_text() {
        let text = "VAR  wtr : 0..2;";
        let l = lex(FileId(0), text);
        let spans: Vec<&str> = l
            .tokens
            .iter()
            .map(|t| &text[t.span.start as usize..t.span.end as usize])
            .collect();
        assert_eq!(spans, vec!["VAR", "wtr", ":", "0", "..", "2", ";", ""]);
    }

    #[test]
    fn word_constants_and_bad_characters_become_bad_tokens() {
        assert!(matches!(&toks("0ud8_5")[0], Tok::Bad(m) if m.contains("word constants")));
        assert!(matches!(&toks("12ab")[0], Tok::Bad(m) if m.contains("malformed number")));
        assert!(matches!(&toks("é")[0], Tok::Bad(m) if m.contains("unexpected character")));
    }

    #[test]
    fn pragmas_are_collected_with_name_spans() {
        let text = "-- @output a, b-c\n--@input  x\n-- @outputs y\n-- plain";
        let l = lex(FileId(0), text);
        assert_eq!(l.tokens.len(), 1);
        assert_eq!(l.pragmas.len(), 2);
        let p = &l.pragmas[0];
        assert_eq!(p.kind, PragmaKind::Output);
        let names: Vec<(&str, &str)> = p
            .names
            .iter()
            .map(|(n, s)| (n.as_str(), &text[s.start as usize..s.end as usize]))
            .collect();
        assert_eq!(names, vec![("a", "a"), ("b-c", "b-c")]);
        assert_eq!(&text[p.span.start as usize..p.span.end as usize], "@output");
        let q = &l.pragmas[1];
        assert_eq!(q.kind, PragmaKind::Input);
        assert_eq!(
            &text[q.names[0].1.start as usize..q.names[0].1.end as usize],
            "x"
        );
        assert_eq!(&text[q.span.start as usize..q.span.end as usize], "@input");
    }
}
