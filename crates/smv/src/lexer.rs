//! Tokeniser for the NuSMV input language (built on `nom` 7).
//!
//! Lexing never fails: a character that starts no token becomes a [`Tok::Bad`] token carrying
//! its message, so that the parser reports it where it matters (and can skip it inside
//! ignored specification sections). `--` comments and nuXmv's `/-- … --/` block comments are
//! skipped; comments of the form `-- @input a, b` / `-- @output a, b` are returned as
//! [`Pragma`]s.
//!
//! Identifiers are NuSMV's: a letter or `_`, then letters, digits, `_ $ # -` (so `a-b` is one
//! name); or any text between double quotes (`"a.b"`, `"clock"`, `"x[1]"`: NuSMV's lexer
//! reads `\"[^\"]*\"` as an identifier and keeps the quotes in its name, so `"x"` and `x`
//! are two names, and a keyword can be used as a name when quoted). Word constants follow
//! NuSMV's `0[us]?[bBoOdDhH][width]?_digits`; the width may be omitted except for decimal
//! constants, and is limited to [`MAX_WORD_WIDTH`] bits.

use hypermut_ir::{FileId, Span};
use nom::{
    bytes::complete::{tag, take_until, take_while, take_while1},
    character::complete::satisfy,
    combinator::recognize,
    sequence::pair,
    IResult,
};
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// Widest word type and word constant accepted (NuSMV 2.5's limit).
pub const MAX_WORD_WIDTH: u32 = 64;

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
    "boolean", "integer", "real", "clock", "word", "signed", "unsigned", "array", "of", "process",
];

/// Punctuation and operators, longest first so that prefixes do not shadow them.
const SYMBOLS: &[&str] = &[
    "<->", "->", ":=", "::", "..", "!=", "<=", ">=", "<<", ">>", "(", ")", "{", "}", "[", "]", ":",
    ";", ",", ".", "!", "&", "|", "=", "<", ">", "+", "-", "*", "/", "?",
];

/// A word constant: signedness, width and bit pattern (`value < 2^width`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordLit {
    /// `0s…` constants are signed.
    pub signed: bool,
    /// Number of bits.
    pub width: u32,
    /// The bits as an unsigned number.
    pub value: BigUint,
}

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An identifier (letter or `_`, then letters, digits, `_ $ # -`), or a quoted identifier
    /// with its quotes (`"a.b"`).
    Ident(String),
    /// A decimal integer literal (digits only; the sign is a separate token).
    Int(String),
    /// A word constant such as `0ud8_5`.
    Word(WordLit),
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

    /// Whether this is the identifier `name`.
    pub fn is_ident(&self, name: &str) -> bool {
        matches!(&self.tok, Tok::Ident(x) if x == name)
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
    /// The annotated names (hierarchical, e.g. `a.b[1]`) with their spans.
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

/// `/-- … --/`; `Err` when the comment is not closed.
fn block_comment(i: &str) -> Option<Result<&str, ()>> {
    let (body, _) = tag::<_, _, nom::error::Error<&str>>("/--")(i).ok()?;
    Some(
        match take_until::<_, _, nom::error::Error<&str>>("--/")(body) {
            Ok((rest, _)) => Ok(&rest[3..]),
            Err(_) => Err(()),
        },
    )
}

/// The raw text of a word constant at the start of `i` (`0[us]?[base][width]?_digits`).
fn word_text(i: &str) -> Option<&str> {
    let b = i.as_bytes();
    if b.first() != Some(&b'0') {
        return None;
    }
    let mut k = 1;
    if matches!(b.get(k), Some(b'u' | b's')) {
        k += 1;
    }
    if !matches!(
        b.get(k),
        Some(b'b' | b'B' | b'o' | b'O' | b'd' | b'D' | b'h' | b'H')
    ) {
        return None;
    }
    k += 1;
    while b.get(k).is_some_and(u8::is_ascii_digit) {
        k += 1;
    }
    if b.get(k) != Some(&b'_') || !b.get(k + 1).is_some_and(u8::is_ascii_hexdigit) {
        return None;
    }
    k += 1;
    while b
        .get(k)
        .is_some_and(|c| c.is_ascii_hexdigit() || *c == b'_')
    {
        k += 1;
    }
    Some(&i[..k])
}

/// Decodes a word constant's text (as recognised by [`word_text`]).
pub fn parse_word(text: &str) -> Result<WordLit, String> {
    let mut rest = &text[1..];
    let signed = rest.starts_with('s');
    if rest.starts_with(['u', 's']) {
        rest = &rest[1..];
    }
    let base_ch = rest.chars().next().unwrap_or('d').to_ascii_lowercase();
    rest = &rest[1..];
    let (width_txt, value_txt) = rest.split_once('_').unwrap_or((rest, ""));
    let (radix, bits_per_digit) = match base_ch {
        'b' => (2, 1),
        'o' => (8, 3),
        'h' => (16, 4),
        _ => (10, 0),
    };
    let digits: String = value_txt.chars().filter(|c| *c != '_').collect();
    let value = BigUint::parse_bytes(digits.as_bytes(), radix)
        .ok_or_else(|| format!("invalid digits in word constant `{text}`"))?;
    let width = if width_txt.is_empty() {
        if bits_per_digit == 0 {
            return Err(format!(
                "decimal word constant `{text}` needs an explicit width (e.g. `0ud8_5`)"
            ));
        }
        digits.len() as u64 * bits_per_digit
    } else {
        width_txt.parse::<u64>().unwrap_or(u64::MAX)
    };
    if width == 0 || width > MAX_WORD_WIDTH as u64 {
        return Err(format!(
            "word constant `{text}`: the width must be between 1 and {MAX_WORD_WIDTH}"
        ));
    }
    let width = width as u32;
    let limit = if signed && radix == 10 {
        // A signed decimal constant gives the magnitude; it may be negated with `-`.
        BigUint::one() << (width - 1)
    } else {
        (BigUint::one() << width) - BigUint::one()
    };
    if value > limit && !value.is_zero() {
        return Err(format!(
            "word constant `{text}` does not fit in {width} bits"
        ));
    }
    let value = value & ((BigUint::one() << width) - BigUint::one());
    Ok(WordLit {
        signed,
        width,
        value,
    })
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
        match block_comment(rest) {
            Some(Ok(r)) => {
                rest = r;
                continue;
            }
            Some(Err(())) => {
                out.tokens.push(Token {
                    tok: Tok::Bad("unterminated block comment `/-- … --/`".into()),
                    span: span(start, start + 3),
                });
                rest = "";
                continue;
            }
            None => {}
        }
        if let Ok((r, body)) = line_comment(rest) {
            if let Some(p) = pragma(file, body, start + 2) {
                out.pragmas.push(p);
            }
            rest = r;
            continue;
        }
        let at_line_start = text[..start].ends_with('\n') || start == 0;
        let (r, tok) = if let Ok((r, word)) = ident(rest) {
            let all = SECTION_KEYWORDS.iter().chain(WORD_KEYWORDS);
            match all.copied().find(|k| *k == word) {
                Some(k) => (r, Tok::Kw(k)),
                None => (r, Tok::Ident(word.to_string())),
            }
        } else if let Some(w) = word_text(rest) {
            let tok = match parse_word(w) {
                Ok(lit) => Tok::Word(lit),
                Err(msg) => Tok::Bad(msg),
            };
            (&rest[w.len()..], tok)
        } else if let Ok((r, num)) = digits(rest) {
            if r.starts_with(is_ident_char) && !r.starts_with('-') {
                let (r2, tail) = take_while::<_, _, ()>(is_ident_char)(r).unwrap_or((r, ""));
                let lit = format!("{num}{tail}");
                (r2, Tok::Bad(format!("malformed number `{lit}`")))
            } else {
                (r, Tok::Int(num.to_string()))
            }
        } else if let Some(r) = rest.strip_prefix('"') {
            match quoted_len(rest) {
                Some(len) => (&rest[len..], Tok::Ident(rest[..len].to_string())),
                None => (
                    r,
                    Tok::Bad("unterminated quoted identifier: no closing `\"`".into()),
                ),
            }
        } else if let Some((r, s)) = symbol(rest) {
            (r, Tok::Sym(s))
        } else if at_line_start && is_line_directive(rest) {
            // `# 12 "file"` (left by cpp): NuSMV skips these lines.
            let end = rest.find('\n').unwrap_or(rest.len());
            rest = &rest[end..];
            continue;
        } else if rest.starts_with('#') && at_line_start {
            let end = rest.find('\n').unwrap_or(rest.len());
            (
                &rest[end..],
                Tok::Bad(
                    "unexpected preprocessor directive: run the model through `cpp` first \
                     (NuSMV's `-pre cpp`, hypermut's `--pre cpp`)"
                        .into(),
                ),
            )
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

/// The length of the quoted identifier at the start of `i` (which starts with `"`): up to
/// and including the next `"`, whatever lies between (NuSMV's `\"[^\"]*\"`, newlines
/// included); `None` when no `"` closes it.
fn quoted_len(i: &str) -> Option<usize> {
    i[1..].find('"').map(|k| k + 2)
}

/// Whether `i` starts with a cpp line directive `# <digits>`.
fn is_line_directive(i: &str) -> bool {
    i.strip_prefix("# ")
        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
}

/// An identifier, plain or quoted, at the start of `i`; returns the rest.
fn name_part(i: &str) -> Option<&str> {
    if i.starts_with('"') {
        return quoted_len(i).map(|len| &i[len..]);
    }
    ident(i).ok().map(|(rest, _)| rest)
}

/// A hierarchical name `a.b[1].c` (components may be quoted: `a."b.c"`) at the start of `i`.
fn dotted_name(i: &str) -> Option<&str> {
    let mut rest = name_part(i)?;
    loop {
        if let Some(r) = rest.strip_prefix('.') {
            match name_part(r) {
                Some(r2) => rest = r2,
                None => break,
            }
        } else if let Some(r) = rest.strip_prefix('[') {
            let r = r.strip_prefix('-').unwrap_or(r);
            match digits(r) {
                Ok((r2, _)) if r2.starts_with(']') => rest = &r2[1..],
                _ => break,
            }
        } else {
            break;
        }
    }
    Some(&i[..i.len() - rest.len()])
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
        match dotted_name(rest) {
            Some(name) => {
                names.push((name.to_string(), Span::new(file, start, start + name.len())));
                rest = &rest[name.len()..];
            }
            None => break,
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

    fn word(signed: bool, width: u32, v: u32) -> Tok {
        Tok::Word(WordLit {
            signed,
            width,
            value: BigUint::from(v),
        })
    }

    #[test]
    fn identifiers_may_contain_dash_dollar_hash() {
        assert_eq!(
            toks("a-b x$ c#1 a - b"),
            vec![
                Tok::Ident("a-b".into()),
                Tok::Ident("x$".into()),
                Tok::Ident("c#1".into()),
                Tok::Ident("a".into()),
                Tok::Sym("-"),
                Tok::Ident("b".into()),
                Tok::Eof
            ]
        );
        assert!(matches!(&toks("$x")[0], Tok::Bad(m) if m.contains("unexpected character `$`")));
    }

    #[test]
    fn quoted_identifiers_keep_their_quotes() {
        assert_eq!(
            toks("\"a.b\" : \"x[1]\"; \"\" \"next\"(\"c d\")"),
            vec![
                Tok::Ident("\"a.b\"".into()),
                Tok::Sym(":"),
                Tok::Ident("\"x[1]\"".into()),
                Tok::Sym(";"),
                Tok::Ident("\"\"".into()),
                Tok::Ident("\"next\"".into()),
                Tok::Sym("("),
                Tok::Ident("\"c d\"".into()),
                Tok::Sym(")"),
                Tok::Eof
            ]
        );
        // Unterminated: a bad token on the opening quote, then the rest as usual.
        let l = lex(FileId(0), "x \"y : boolean;");
        assert!(matches!(&l.tokens[1].tok, Tok::Bad(m) if m.contains("unterminated quoted")));
        assert_eq!((l.tokens[1].span.start, l.tokens[1].span.end), (2, 3));
        assert_eq!(l.tokens[2].tok, Tok::Ident("y".into()));
        // In pragmas too.
        let p = &lex(FileId(0), "-- @output \"a.b\", \"c\".\"d e\", x\n").pragmas[0];
        let names: Vec<&str> = p.names.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["\"a.b\"", "\"c\".\"d e\"", "x"]);
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
    fn word_constants_in_every_base() {
        // The values of ebmc's word_constants1.smv: all are 123 on 8 bits.
        for w in [
            "0d8_123",
            "0ud8_123",
            "0h_7b",
            "0uh_7b",
            "0o8_173",
            "0b_01111011",
            "0ub8_1111011",
            "0b8_111_1011",
        ] {
            assert_eq!(toks(w), vec![word(false, 8, 123), Tok::Eof], "{w}");
        }
        assert_eq!(toks("0sb4_1010")[0], word(true, 4, 10));
        assert_eq!(toks("0b1_0")[0], word(false, 1, 0));
        assert_eq!(toks("0sd8_128")[0], word(true, 8, 128));
        assert_eq!(
            toks("0ud8_5::x"),
            vec![
                word(false, 8, 5),
                Tok::Sym("::"),
                Tok::Ident("x".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn malformed_word_constants_are_bad_tokens_with_reasons() {
        let bad = |t: &str| match &toks(t)[0] {
            Tok::Bad(m) => m.clone(),
            other => panic!("{t}: {other:?}"),
        };
        assert!(bad("0d_5").contains("needs an explicit width"));
        assert!(bad("0ud3_9").contains("does not fit in 3 bits"));
        assert!(bad("0ud0_0").contains("between 1 and 64"));
        assert!(bad("0ud65_0").contains("between 1 and 64"));
        assert!(bad("0b2_12").contains("invalid digits"));
        assert!(bad("12ab").contains("malformed number"));
        assert!(bad("é").contains("unexpected character"));
    }

    #[test]
    fn block_comments_and_preprocessor_lines() {
        assert_eq!(
            toks("a /-- b\n c --/ d"),
            vec![Tok::Ident("a".into()), Tok::Ident("d".into()), Tok::Eof]
        );
        assert!(matches!(&toks("a /-- b")[1], Tok::Bad(m) if m.contains("unterminated")));
        assert!(matches!(&toks("#define N 3\nx")[0], Tok::Bad(m) if m.contains("cpp")));
        assert_eq!(toks("#define N 3\nx")[1], Tok::Ident("x".into()));
        assert_eq!(
            toks("# 1 \"f.smv\"\nx"),
            vec![Tok::Ident("x".into()), Tok::Eof]
        );
    }

    #[test]
    fn pragmas_are_collected_with_name_spans() {
        let text = "-- @output a, b-c, u.v[2]\n--@input  x\n-- @outputs y\n-- plain";
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
        assert_eq!(
            names,
            vec![("a", "a"), ("b-c", "b-c"), ("u.v[2]", "u.v[2]")]
        );
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
