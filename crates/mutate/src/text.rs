//! Source-text helpers: a small operator tokenizer shared by SMV and Verilog, operator
//! spellings and precedences per language, and parenthesisation of spliced text.

use hypermut_ir::BinOp;

use crate::syntax::Syntax;

/// A binary operator family member as written in source (`xnor` is its own operator here,
/// although the IR lowers it to `<->` or `!(a xor b)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum SrcOp {
    /// An IR binary operator.
    Bin(BinOp),
    /// Exclusive nor.
    Xnor,
}

/// Operator tokens, longest first (a prefix never precedes a longer token it starts).
const SYMBOLS: [&str; 33] = [
    "===", "!==", "<<<", ">>>", "<->", "->", "<=", ">=", "==", "!=", "<<", ">>", "&&", "||", "~^",
    "^~", ":=", "::", "=", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "!", "~", "?", ":",
];

/// Keywords that act as binary operators.
const WORD_OPS: [&str; 5] = ["mod", "xor", "xnor", "in", "union"];

/// One operator token found at bracket depth 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    /// Byte offset in the scanned text.
    pub start: usize,
    /// The token text.
    pub text: String,
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'#' | b'\'')
}

/// The operator tokens of `text` outside brackets, comments and literals; `None` if the
/// brackets do not balance.
pub(crate) fn top_tokens(text: &str) -> Option<Vec<Token>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut depth: i64 = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // Comments: `--` (SMV) and `//` (Verilog) to the end of the line, `/* */`.
        if text[i..].starts_with("--") || text[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if text[i..].starts_with("/*") {
            match text[i + 2..].find("*/") {
                Some(k) => i += k + 4,
                None => return None,
            }
            continue;
        }
        match c {
            b'(' | b'[' | b'{' => {
                depth += 1;
                i += 1;
                continue;
            }
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
                i += 1;
                continue;
            }
            _ => {}
        }
        if is_ident_char(c) {
            let start = i;
            while i < b.len()
                && (is_ident_char(b[i]) || (b[i] == b'-' && word_literal_dash(b, start, i)))
            {
                i += 1;
            }
            let word = &text[start..i];
            if depth == 0 && WORD_OPS.contains(&word) {
                out.push(Token {
                    start,
                    text: word.to_string(),
                });
            }
            continue;
        }
        match SYMBOLS.iter().find(|s| text[i..].starts_with(**s)) {
            Some(s) => {
                if depth == 0 {
                    out.push(Token {
                        start: i,
                        text: s.to_string(),
                    });
                }
                i += s.len();
            }
            None => {
                // Any other character (e.g. `,`, `;`, `@`, a backtick) is skipped.
                i += text[i..].chars().next().map_or(1, char::len_utf8);
            }
        }
    }
    (depth == 0).then_some(out)
}

/// Inside an SMV word literal `0sd8_-5`? (`-` right after the `_` of a word literal.)
fn word_literal_dash(b: &[u8], start: usize, i: usize) -> bool {
    i > start
        && b[i - 1] == b'_'
        && b[start] == b'0'
        && b.get(start + 1).is_some_and(|c| {
            matches!(
                c,
                b's' | b'u' | b'b' | b'o' | b'd' | b'h' | b'S' | b'U' | b'B' | b'O' | b'D' | b'H'
            )
        })
}

/// Whether `text` is one operand that needs no parentheses anywhere: a name, a literal, a
/// select, a call, or text wrapped in one pair of matching parentheses.
pub(crate) fn is_atomic(text: &str) -> bool {
    let t = text.trim();
    if t.is_empty() {
        return false;
    }
    if fully_parenthesized(t) {
        return true;
    }
    match top_tokens(t) {
        Some(tokens) => tokens.is_empty() && !t.contains(char::is_whitespace),
        None => false,
    }
}

/// Whether `text` is `( … )` with the first parenthesis matching the last.
pub(crate) fn fully_parenthesized(text: &str) -> bool {
    let t = text.trim();
    if !(t.starts_with('(') && t.ends_with(')')) {
        return false;
    }
    let mut depth = 0i64;
    for (k, c) in t.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 && k + 1 != t.len() {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// `text`, in parentheses unless it is atomic.
pub(crate) fn paren(text: &str) -> String {
    if is_atomic(text) {
        text.to_string()
    } else {
        format!("({text})")
    }
}

/// Binding strength of an operator token (higher binds tighter), per language; unknown
/// tokens bind loosest.
pub(crate) fn precedence(token: &str, syntax: Syntax) -> u8 {
    match syntax {
        // NuSMV: `::`, `* / mod`, `+ -`, `<< >>`, relations, `&`, `| xor xnor`, `<->`, `->`.
        Syntax::Smv => match token {
            "::" => 10,
            "*" | "/" | "mod" => 8,
            "+" | "-" => 7,
            "<<" | ">>" => 6,
            "=" | "!=" | "<" | "<=" | ">" | ">=" => 4,
            "&" => 3,
            "|" | "xor" | "xnor" => 2,
            "<->" => 1,
            _ => 0,
        },
        // Verilog: `* / %`, `+ -`, shifts, `< <= > >=`, `== !=`, `&`, `^ ~^`, `|`, `&&`, `||`.
        Syntax::Verilog => match token {
            "*" | "/" | "%" => 10,
            "+" | "-" => 9,
            "<<" | ">>" | "<<<" | ">>>" => 8,
            "<" | "<=" | ">" | ">=" => 7,
            "==" | "!=" | "===" | "!==" => 6,
            "&" => 5,
            "^" | "~^" | "^~" => 4,
            "|" => 3,
            "&&" => 2,
            "||" => 1,
            _ => 0,
        },
    }
}

/// Verilog has two spellings for and/or: logical (boolean operands) and bitwise.
pub(crate) fn spelling(op: SrcOp, syntax: Syntax, boolean: bool) -> &'static str {
    use BinOp::*;
    match (syntax, op) {
        (Syntax::Smv, SrcOp::Xnor) => "xnor",
        (Syntax::Smv, SrcOp::Bin(o)) => o.symbol(),
        (Syntax::Verilog, SrcOp::Xnor) => "~^",
        (Syntax::Verilog, SrcOp::Bin(o)) => match o {
            And if boolean => "&&",
            Or if boolean => "||",
            And => "&",
            Or => "|",
            Xor => "^",
            Iff => "~^",
            Eq => "==",
            Mod => "%",
            Concat => ",",
            _ => o.symbol(),
        },
    }
}

/// The source spellings that denote `op` (what a mutated node's operator token may read).
pub(crate) fn accepted_tokens(op: SrcOp, syntax: Syntax) -> &'static [&'static str] {
    use BinOp::*;
    match (syntax, op) {
        (_, SrcOp::Xnor) => &["xnor", "~^", "^~"],
        (Syntax::Smv, SrcOp::Bin(o)) => match o {
            And => &["&"],
            Or => &["|"],
            Xor => &["xor"],
            Iff => &["<->", "xnor"],
            Implies => &["->"],
            Eq => &["="],
            Ne => &["!="],
            Lt => &["<"],
            Le => &["<="],
            Gt => &[">"],
            Ge => &[">="],
            Add => &["+"],
            Sub => &["-"],
            Mul => &["*"],
            Div => &["/"],
            Mod => &["mod"],
            Shl => &["<<"],
            Shr => &[">>"],
            Concat => &["::"],
        },
        (Syntax::Verilog, SrcOp::Bin(o)) => match o {
            And => &["&&", "&"],
            Or => &["||", "|"],
            Xor => &["^"],
            Iff => &["~^", "^~"],
            Implies => &[],
            Eq => &["==", "==="],
            Ne => &["!=", "!=="],
            Lt => &["<"],
            Le => &["<="],
            Gt => &[">"],
            Ge => &[">="],
            Add => &["+"],
            Sub => &["-"],
            Mul => &["*"],
            Div => &["/"],
            Mod => &["%"],
            Shl => &["<<", "<<<"],
            Shr => &[">>", ">>>"],
            Concat => &[],
        },
    }
}

/// The boolean constant in the source language.
pub(crate) fn bool_text(b: bool, syntax: Syntax) -> &'static str {
    match (syntax, b) {
        (Syntax::Smv, true) => "TRUE",
        (Syntax::Smv, false) => "FALSE",
        (Syntax::Verilog, true) => "1'b1",
        (Syntax::Verilog, false) => "1'b0",
    }
}

/// Keywords after which an expression starts at the top level.
const OPENING_WORDS: [&str; 14] = [
    "case",
    "INVAR",
    "TRANS",
    "INIT",
    "INVARSPEC",
    "SPEC",
    "CTLSPEC",
    "LTLSPEC",
    "FAIRNESS",
    "JUSTICE",
    "begin",
    "else",
    "return",
    "assign",
];

/// Keywords before which an expression ends at the top level.
const CLOSING_WORDS: [&str; 4] = ["esac", "end", "endcase", "else"];

/// The last significant character before byte `at` and the first one from byte `end` on
/// (comments are not skipped: a comment next to an expression is rare and only makes the
/// answer conservative).
fn neighbours(src: &str, at: usize, end: usize) -> (&str, &str) {
    let before = src.get(..at).unwrap_or("").trim_end();
    let after = src.get(end..).unwrap_or("").trim_start();
    (before, after)
}

/// Whether the text `src[at..end]` stands where any expression may stand without
/// parentheses: after `(`, `,`, `;`, `[`, `{`, `?`, `:`, `:=` (or Verilog's `=`) and before
/// `)`, `,`, `;`, `]`, `}`, `:`, `?` or the end of the file.
pub(crate) fn delimited(src: &str, at: usize, end: usize, syntax: Syntax) -> bool {
    let (before, after) = neighbours(src, at, end);
    let ends_with_word = |t: &str, w: &str| {
        t.strip_suffix(w).is_some_and(|r| {
            r.chars()
                .last()
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
        })
    };
    let opens = before.is_empty()
        || OPENING_WORDS.iter().any(|w| ends_with_word(before, w))
        || [":=", "(", ",", ";", "[", "{", "?"]
            .iter()
            .any(|t| before.ends_with(t))
        || (before.ends_with(':') && !before.ends_with("::"))
        || (syntax == Syntax::Verilog
            && before.ends_with('=')
            && !["==", "!=", "<=", ">=", "==="]
                .iter()
                .any(|t| before.ends_with(t)));
    let starts_with_word = |t: &str, w: &str| {
        t.strip_prefix(w).is_some_and(|r| {
            r.chars()
                .next()
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
        })
    };
    let closes = after.is_empty()
        || CLOSING_WORDS.iter().any(|w| starts_with_word(after, w))
        || [")", ",", ";", "]", "}", "?"]
            .iter()
            .any(|t| after.starts_with(t))
        || (after.starts_with(':') && !after.starts_with(":=") && !after.starts_with("::"));
    opens && closes
}

/// Parses a decimal integer with an optional sign.
pub(crate) fn parse_int(text: &str) -> Option<i64> {
    let t = text.trim();
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d.trim_start()),
        None => (false, t),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let v: i64 = digits.parse().ok()?;
    Some(if neg { -v } else { v })
}

/// Collapses whitespace, so that texts differing only in layout compare equal.
pub(crate) fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether two characters written side by side would read as one token (`a` `b`, `-` `-`
/// which starts an SMV comment, a Verilog literal `1'b1` followed by `?`, a `z` digit).
fn would_join(left: char, right: char) -> bool {
    let wordish = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '\'' | '.');
    let op = |c: char| "+-*/%&|^~!<>=?:".contains(c);
    (wordish(left) && (wordish(right) || right == '?')) || (op(left) && op(right))
}

/// `replacement`, with a space added at either end where it would otherwise merge with the
/// text around `src[start..end]`.
pub(crate) fn separated(src: &str, start: usize, end: usize, replacement: &str) -> String {
    let before = src.get(..start).and_then(|t| t.chars().next_back());
    let after = src.get(end..).and_then(|t| t.chars().next());
    let (first, last) = (replacement.chars().next(), replacement.chars().next_back());
    let lead = matches!((before, first), (Some(b), Some(f)) if would_join(b, f));
    let trail = matches!((last, after), (Some(l), Some(a)) if would_join(l, a));
    format!(
        "{}{replacement}{}",
        if lead { " " } else { "" },
        if trail { " " } else { "" }
    )
}

/// The offset one past the bracket matching the `(` at `open`.
pub(crate) fn matching_paren(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0i64;
    for (k, c) in text.get(open..)?.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + k + 1);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_skip_brackets_words_and_literals() {
        let t = top_tokens("(a | b) & w[3:0] xor 0sd8_-5 mod x").expect("balanced");
        let texts: Vec<&str> = t.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["&", "xor", "mod"]);
        let v = top_tokens("a <= 3'd7 && !b -- c | d\n").expect("balanced");
        let texts: Vec<&str> = v.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["<=", "&&", "!"]);
        assert!(top_tokens("(a").is_none());
    }

    #[test]
    fn atomic_texts() {
        for t in ["x", "3'd7", "0ud4_3", "a.b[2]", "(a + b)", "d[3:1]", "TRUE"] {
            assert!(is_atomic(t), "{t}");
        }
        for t in ["a + b", "(a) + (b)", "!x", "-1", "a ? b : c"] {
            assert!(!is_atomic(t), "{t}");
        }
        assert_eq!(paren("a + b"), "(a + b)");
        assert_eq!(paren("x"), "x");
    }

    #[test]
    fn glued_replacements_get_a_space() {
        let v = "x = (a==1)? 1 : 0;";
        let at = v.find("(a==1)").expect("text");
        assert_eq!(separated(v, at, at + 6, "1'b1"), "1'b1 ");
        let smv = "y := x-0;";
        let at = smv.find('0').expect("text");
        assert_eq!(separated(smv, at, at + 1, "-1"), " -1");
        assert_eq!(separated(smv, at, at + 1, "1"), "1");
        assert_eq!(separated("a = b;", 4, 5, "c"), "c");
    }

    #[test]
    fn delimiters() {
        let src = "next(x) := a + b; y := (c - d) * e;";
        let at = src.find("a + b").expect("text");
        assert!(delimited(src, at, at + 5, Syntax::Smv));
        let at = src.find("c - d").expect("text");
        assert!(delimited(src, at, at + 5, Syntax::Smv));
        let at = src.find("(c - d) * e").expect("text");
        assert!(delimited(src, at, at + 11, Syntax::Smv));
        let at = src.find("d) * e").expect("text");
        assert!(!delimited(src, at + 3, at + 6, Syntax::Smv));
        let v = "q <= a + b; if (x == 1) y = c | d;";
        let at = v.find("x == 1").expect("text");
        assert!(delimited(v, at, at + 6, Syntax::Verilog));
        let at = v.find("c | d").expect("text");
        assert!(delimited(v, at, at + 5, Syntax::Verilog));
        let at = v.find("a + b").expect("text");
        assert!(
            !delimited(v, at, at + 5, Syntax::Verilog),
            "`<=` may be a relation"
        );
    }
}
