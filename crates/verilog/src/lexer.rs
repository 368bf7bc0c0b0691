//! Tokeniser for Verilog source text (built on `nom` 7).
//!
//! Lexing never fails: text that starts no token becomes a [`Tok::Bad`] token carrying its
//! message, reported by the parser where it matters. Comments and `(* attributes *)` are
//! skipped; text between `translate_off` and `translate_on` hot comments (`// synopsys
//! translate_off` and similar) is skipped too. Every token records whether a line break or
//! other white space precedes it, which the preprocessor needs (`` `define `` bodies end at
//! the line end; a macro's parameter list must follow its name without a space).

use hypermut_ir::{FileId, Span};
use nom::{
    bytes::complete::{tag, take_while, take_while1},
    character::complete::satisfy,
    combinator::recognize,
    sequence::pair,
    IResult,
};

/// Punctuation and operators, longest first so that prefixes do not shadow them.
const SYMBOLS: &[&str] = &[
    "<<<", ">>>", "===", "!==", "==", "!=", "<=", ">=", "&&", "||", "~&", "~|", "~^", "^~", "**",
    "->", "+:", "-:", "<<", ">>", "(", ")", "[", "]", "{", "}", ";", ":", ",", ".", "#", "@", "=",
    "<", ">", "+", "-", "*", "/", "%", "!", "~", "&", "|", "^", "?",
];

/// A based literal's parts: `'sh1F` is `{signed: true, base: 16, digits: "1f"}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Based {
    /// `s` or `S` was given.
    pub signed: bool,
    /// 2, 8, 10 or 16.
    pub base: u32,
    /// The digits, lower case, without underscores (may contain `x`, `z`, `?`).
    pub digits: String,
}

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An identifier or keyword.
    Ident(String),
    /// An escaped identifier `\name` (the name without the backslash); never a keyword.
    Escaped(String),
    /// A system task or function name such as `$display` (with the `$`).
    System(String),
    /// A compiler directive or macro use `` `name `` (without the back-tick).
    Directive(String),
    /// Unsized decimal digits (underscores removed).
    Number(String),
    /// A based literal `'h1f` (its size, if any, is the preceding [`Tok::Number`]).
    Based(Based),
    /// A real literal (`1.5`, `2e3`), only meaningful in delays.
    Real(String),
    /// A string literal (escapes resolved).
    Str(String),
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
    /// A line break (outside a continued line) precedes it.
    pub nl_before: bool,
    /// White space or a comment precedes it.
    pub space_before: bool,
}

impl Token {
    /// Whether this is the symbol `s`.
    pub fn is_sym(&self, s: &str) -> bool {
        matches!(self.tok, Tok::Sym(x) if x == s)
    }

    /// Whether this is the (unescaped) word `w`, e.g. a keyword.
    pub fn is_word(&self, w: &str) -> bool {
        matches!(&self.tok, Tok::Ident(x) if x == w)
    }
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

fn ident(i: &str) -> IResult<&str, &str> {
    recognize(pair(satisfy(is_ident_start), take_while(is_ident_char)))(i)
}

fn decimal(i: &str) -> IResult<&str, &str> {
    recognize(pair(
        satisfy(|c| c.is_ascii_digit()),
        take_while(|c: char| c.is_ascii_digit() || c == '_'),
    ))(i)
}

fn symbol(i: &str) -> Option<(&str, &'static str)> {
    SYMBOLS.iter().find_map(|s| {
        tag::<_, _, nom::error::Error<&str>>(*s)(i)
            .ok()
            .map(|(rest, _)| (rest, *s))
    })
}

/// Skipped text before a token: white space, comments, attributes and line continuations.
struct Gap {
    newline: bool,
    space: bool,
    /// A `translate_off` hot comment was seen.
    translate_off: bool,
    /// An unterminated block comment or attribute started at this offset.
    unterminated: Option<(usize, &'static str)>,
}

fn is_translate(comment: &str, what: &str) -> bool {
    let words: Vec<&str> = comment
        .split(|c: char| c.is_whitespace() || c == '*' || c == '/')
        .filter(|w| !w.is_empty())
        .collect();
    match words.as_slice() {
        [w, ..] if *w == what => true,
        [p, w, ..] => {
            matches!(
                *p,
                "synopsys" | "synthesis" | "pragma" | "cadence" | "ambit"
            ) && *w == what
        }
        _ => false,
    }
}

/// Skips white space, comments, attributes and continuations from `rest`.
fn skip_gap<'a>(text: &'a str, mut rest: &'a str) -> (&'a str, Gap) {
    let mut gap = Gap {
        newline: false,
        space: false,
        translate_off: false,
        unterminated: None,
    };
    loop {
        let (r, ws) =
            take_while::<_, _, ()>(|c: char| c.is_whitespace())(rest).unwrap_or((rest, ""));
        if !ws.is_empty() {
            gap.space = true;
            gap.newline |= ws.contains('\n');
            rest = r;
            continue;
        }
        if let Some(body) = rest.strip_prefix("//") {
            let end = body.find('\n').unwrap_or(body.len());
            if is_translate(&body[..end], "translate_off") {
                gap.translate_off = true;
            } else if is_translate(&body[..end], "translate_on") {
                gap.translate_off = false;
            }
            gap.space = true;
            rest = &body[end..];
            continue;
        }
        if let Some(body) = rest.strip_prefix("/*") {
            match body.find("*/") {
                Some(end) => {
                    if is_translate(&body[..end], "translate_off") {
                        gap.translate_off = true;
                    } else if is_translate(&body[..end], "translate_on") {
                        gap.translate_off = false;
                    }
                    gap.newline |= body[..end].contains('\n');
                    gap.space = true;
                    rest = &body[end + 2..];
                    continue;
                }
                None => {
                    gap.unterminated = Some((text.len() - rest.len(), "block comment `/* … */`"));
                    return ("", gap);
                }
            }
        }
        // `(* attribute *)`, but not `@(*)` / `(*)`.
        if let Some(body) = rest.strip_prefix("(*") {
            if !body.trim_start().starts_with(')') {
                match body.find("*)") {
                    Some(end) => {
                        gap.space = true;
                        rest = &body[end + 2..];
                        continue;
                    }
                    None => {
                        gap.unterminated = Some((text.len() - rest.len(), "attribute `(* … *)`"));
                        return ("", gap);
                    }
                }
            }
        }
        // Line continuation: a backslash followed by spaces and a line break.
        if let Some(body) = rest.strip_prefix('\\') {
            let after = body.trim_start_matches([' ', '\t', '\r']);
            if let Some(r) = after.strip_prefix('\n') {
                gap.space = true;
                rest = r;
                continue;
            }
        }
        return (rest, gap);
    }
}

/// Skips to just after the next `translate_on` hot comment (or to the end).
fn skip_translated(rest: &str) -> &str {
    let mut r = rest;
    loop {
        let line_c = r.find("//");
        let block_c = r.find("/*");
        let (at, is_line) = match (line_c, block_c) {
            (None, None) => return "",
            (Some(a), None) => (a, true),
            (None, Some(b)) => (b, false),
            (Some(a), Some(b)) => {
                if a < b {
                    (a, true)
                } else {
                    (b, false)
                }
            }
        };
        let body = &r[at + 2..];
        let (comment, after) = if is_line {
            let end = body.find('\n').unwrap_or(body.len());
            (&body[..end], &body[end..])
        } else {
            match body.find("*/") {
                Some(end) => (&body[..end], &body[end + 2..]),
                None => return "",
            }
        };
        if is_translate(comment, "translate_on") {
            return after;
        }
        r = after;
    }
}

/// The based-literal text at the start of `i` (which starts with `'`): its parts and length.
fn based(i: &str) -> Option<(Result<Based, String>, usize)> {
    let b = i.as_bytes();
    let mut k = 1;
    let signed = matches!(b.get(k), Some(b's' | b'S'));
    if signed {
        k += 1;
    }
    let base = match b.get(k).map(u8::to_ascii_lowercase) {
        Some(b'b') => 2,
        Some(b'o') => 8,
        Some(b'd') => 10,
        Some(b'h') => 16,
        _ => return None,
    };
    k += 1;
    while matches!(b.get(k), Some(b' ' | b'\t')) {
        k += 1;
    }
    let start = k;
    while b.get(k).is_some_and(|c| {
        c.is_ascii_hexdigit() || matches!(c, b'x' | b'X' | b'z' | b'Z' | b'?' | b'_')
    }) {
        k += 1;
    }
    let raw = &i[start..k];
    let digits: String = raw
        .chars()
        .filter(|c| *c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if digits.is_empty() {
        return Some((Err("based literal without digits".into()), k.max(2)));
    }
    let ok = digits.chars().all(|c| match c {
        'x' | 'z' | '?' => true,
        c => c.is_digit(base),
    });
    if !ok {
        return Some((
            Err(format!(
                "invalid digit in base-{base} literal `{}`",
                &i[..k]
            )),
            k,
        ));
    }
    if base == 10 && digits.len() > 1 && digits.chars().any(|c| matches!(c, 'x' | 'z' | '?')) {
        return Some((
            Err("a decimal literal may contain `x`/`z` only as its single digit".into()),
            k,
        ));
    }
    Some((
        Ok(Based {
            signed,
            base,
            digits,
        }),
        k,
    ))
}

/// Reads a string literal body after the opening quote; returns the value and bytes used.
fn string_lit(body: &str) -> Option<(String, usize)> {
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, i + 1)),
            '\n' => return None,
            '\\' => match chars.next() {
                Some((_, 'n')) => out.push('\n'),
                Some((_, 't')) => out.push('\t'),
                Some((_, c)) => out.push(c),
                None => return None,
            },
            c => out.push(c),
        }
    }
    None
}

/// Tokenises `text` (a file registered as `file`); the result ends with [`Tok::Eof`].
pub fn lex(file: FileId, text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let offset = |rest: &str| text.len() - rest.len();
    let span = |a: usize, b: usize| Span::new(file, a, b);
    let mut rest = text;
    let mut pending_nl = false;
    let mut pending_space = false;
    loop {
        let (r, gap) = skip_gap(text, rest);
        rest = r;
        let nl = gap.newline || pending_nl;
        let space = gap.space || pending_space;
        pending_nl = false;
        pending_space = false;
        if let Some((at, what)) = gap.unterminated {
            out.push(Token {
                tok: Tok::Bad(format!("unterminated {what}")),
                span: span(at, at + 2),
                nl_before: nl,
                space_before: space,
            });
        }
        if gap.translate_off {
            rest = skip_translated(rest);
            pending_nl = true;
            pending_space = true;
            continue;
        }
        let start = offset(rest);
        if rest.is_empty() {
            out.push(Token {
                tok: Tok::Eof,
                span: span(start, start),
                nl_before: true,
                space_before: true,
            });
            return out;
        }
        let (r, tok) = lex_one(rest);
        let end = offset(r).max(start + 1).min(text.len());
        out.push(Token {
            tok,
            span: span(start, end),
            nl_before: nl,
            space_before: space,
        });
        rest = &text[end..];
    }
}

/// Lexes one token at the start of a non-empty `rest`.
fn lex_one(rest: &str) -> (&str, Tok) {
    if let Ok((r, word)) = ident(rest) {
        return (r, Tok::Ident(word.to_string()));
    }
    if let Some(body) = rest.strip_prefix('\\') {
        let end = body.find(|c: char| c.is_whitespace()).unwrap_or(body.len());
        if end == 0 {
            return (body, Tok::Bad("empty escaped identifier".into()));
        }
        return (&body[end..], Tok::Escaped(body[..end].to_string()));
    }
    if let Some(body) = rest.strip_prefix('$') {
        if let Ok((r, _)) = take_while1::<_, _, ()>(is_ident_char)(body) {
            let n = rest.len() - r.len();
            return (r, Tok::System(rest[..n].to_string()));
        }
        return (body, Tok::Bad("`$` without a system task name".into()));
    }
    if let Some(body) = rest.strip_prefix('`') {
        if let Ok((r, name)) = ident(body) {
            return (r, Tok::Directive(name.to_string()));
        }
        return (body, Tok::Bad("back-tick without a directive name".into()));
    }
    if let Ok((r, digits)) = decimal(rest) {
        // A real number: digits '.' digits, or an exponent.
        let mut k = 0;
        let b = r.as_bytes();
        if b.first() == Some(&b'.') && b.get(1).is_some_and(u8::is_ascii_digit) {
            k = 1;
            while b.get(k).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
                k += 1;
            }
        }
        if matches!(b.get(k), Some(b'e' | b'E')) {
            let mut j = k + 1;
            if matches!(b.get(j), Some(b'+' | b'-')) {
                j += 1;
            }
            if b.get(j).is_some_and(u8::is_ascii_digit) {
                while b.get(j).is_some_and(u8::is_ascii_digit) {
                    j += 1;
                }
                k = j;
            }
        }
        if k > 0 {
            let n = digits.len() + k;
            return (&rest[n..], Tok::Real(rest[..n].to_string()));
        }
        return (r, Tok::Number(digits.replace('_', "")));
    }
    if let Some(after) = rest.strip_prefix('\'') {
        return match based(rest) {
            Some((Ok(b), n)) => (&rest[n..], Tok::Based(b)),
            Some((Err(msg), n)) => (&rest[n.min(rest.len())..], Tok::Bad(msg)),
            None => (
                after,
                Tok::Bad("a `'` must start a based literal such as `'b0`".into()),
            ),
        };
    }
    if let Some(body) = rest.strip_prefix('"') {
        return match string_lit(body) {
            Some((s, n)) => (&body[n..], Tok::Str(s)),
            None => {
                let end = body.find('\n').unwrap_or(body.len());
                (&body[end..], Tok::Bad("unterminated string literal".into()))
            }
        };
    }
    if let Some((r, s)) = symbol(rest) {
        return (r, Tok::Sym(s));
    }
    let c = rest.chars().next().unwrap_or(' ');
    (
        &rest[c.len_utf8()..],
        Tok::Bad(format!("unexpected character `{}`", c.escape_debug())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        lex(FileId(0), text).into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn numbers_and_based_literals() {
        assert_eq!(
            toks("8'hF_f 'sb1x0 12 1.5 4 'd 3"),
            vec![
                Tok::Number("8".into()),
                Tok::Based(Based {
                    signed: false,
                    base: 16,
                    digits: "ff".into()
                }),
                Tok::Based(Based {
                    signed: true,
                    base: 2,
                    digits: "1x0".into()
                }),
                Tok::Number("12".into()),
                Tok::Real("1.5".into()),
                Tok::Number("4".into()),
                Tok::Based(Based {
                    signed: false,
                    base: 10,
                    digits: "3".into()
                }),
                Tok::Eof
            ]
        );
        assert!(matches!(toks("4'b102")[1], Tok::Bad(_)));
    }

    #[test]
    fn comments_attributes_and_star_events() {
        assert_eq!(
            toks("a /* c\n */ (* keep *) b // x\n @(*)"),
            vec![
                Tok::Ident("a".into()),
                Tok::Ident("b".into()),
                Tok::Sym("@"),
                Tok::Sym("("),
                Tok::Sym("*"),
                Tok::Sym(")"),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn translate_off_regions_are_skipped() {
        let t = toks("a\n// synopsys translate_off\nb c\n// synopsys translate_on\nd");
        assert_eq!(
            t,
            vec![Tok::Ident("a".into()), Tok::Ident("d".into()), Tok::Eof]
        );
    }

    #[test]
    fn line_breaks_and_continuations_are_recorded() {
        let t = lex(FileId(0), "`define A 1 \\\n + 2\nx");
        let nl: Vec<bool> = t.iter().map(|t| t.nl_before).collect();
        assert_eq!(nl, vec![false, false, false, false, false, true, true]);
        assert!(matches!(&t[0].tok, Tok::Directive(d) if d == "define"));
    }

    #[test]
    fn symbols_identifiers_and_strings() {
        assert_eq!(
            toks("a<<<=b !== \\bus[0] $ND \"s\\n\" ~^"),
            vec![
                Tok::Ident("a".into()),
                Tok::Sym("<<<"),
                Tok::Sym("="),
                Tok::Ident("b".into()),
                Tok::Sym("!=="),
                Tok::Escaped("bus[0]".into()),
                Tok::System("$ND".into()),
                Tok::Str("s\n".into()),
                Tok::Sym("~^"),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn unterminated_things_are_bad_tokens() {
        assert!(matches!(toks("a /* b")[1], Tok::Bad(_)));
        assert!(matches!(toks("\"abc")[0], Tok::Bad(_)));
        assert!(matches!(toks("'q")[0], Tok::Bad(_)));
    }
}
