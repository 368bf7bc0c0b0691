//! The port names of a Verilog module, read from its header in the source text, to find the
//! clock: the one port that is neither an input nor an output of the system (the Verilog
//! front-end turns a top-level input that only clocks blocks into no input, `docs/method.md`
//! §2.3).

/// Words of a port list that are no port names.
const NOT_NAMES: &[&str] = &[
    "input", "output", "inout", "wire", "reg", "logic", "signed", "unsigned", "integer", "tri",
    "var", "bit", "supply0", "supply1", "wand", "wor",
];

/// A token of the header: an identifier or one punctuation character.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Punct(char),
}

/// The tokens of `text` with comments, strings, compiler directives and numbers left out.
fn tokens(text: &str) -> Vec<Tok> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == '`' || c == '\'' || c.is_ascii_digit() {
            // A directive or macro use, a based number or a number: one word, skipped.
            i += 1;
            while i < chars.len() && (chars[i].is_alphanumeric() || "_$'?".contains(chars[i])) {
                i += 1;
            }
        } else if c == '\\' {
            let start = i + 1;
            while i < chars.len() && !chars[i].is_whitespace() {
                i += 1;
            }
            out.push(Tok::Ident(chars[start..i].iter().collect()));
        } else if c.is_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            out.push(Tok::Ident(chars[start..i].iter().collect()));
        } else {
            if !c.is_whitespace() {
                out.push(Tok::Punct(c));
            }
            i += 1;
        }
    }
    out
}

/// The port names of module `module` in `text`, in header order; `None` when `text` does not
/// declare it. Reads `module NAME #(…) (…);`: in the parenthesised list, the identifiers
/// outside brackets that are no keywords (`input`, `wire`, …) and that do not follow `=`.
pub fn module_ports(text: &str, module: &str) -> Option<Vec<String>> {
    let toks = tokens(text);
    let at = toks.windows(2).position(|w| {
        matches!(&w[0], Tok::Ident(k) if k == "module" || k == "macromodule")
            && matches!(&w[1], Tok::Ident(n) if n == module)
    })?;
    let mut i = at + 2;
    // Skip a parameter list `#( … )`.
    if toks.get(i) == Some(&Tok::Punct('#')) {
        i = skip_group(&toks, i + 1)?;
    }
    if toks.get(i) != Some(&Tok::Punct('(')) {
        return Some(Vec::new());
    }
    let end = skip_group(&toks, i)?;
    let mut ports = Vec::new();
    let mut depth = 0usize;
    let mut after_eq = false;
    for t in &toks[i + 1..end - 1] {
        match t {
            Tok::Punct('[') | Tok::Punct('(') | Tok::Punct('{') => depth += 1,
            Tok::Punct(']') | Tok::Punct(')') | Tok::Punct('}') => depth = depth.saturating_sub(1),
            Tok::Punct(',') if depth == 0 => after_eq = false,
            Tok::Punct('=') if depth == 0 => after_eq = true,
            Tok::Ident(name)
                if depth == 0
                    && !after_eq
                    && !NOT_NAMES.contains(&name.as_str())
                    && !ports.contains(name) =>
            {
                ports.push(name.clone());
            }
            _ => {}
        }
    }
    Some(ports)
}

/// The index after the group that opens at `toks[open]` (`(`, `[` or `{`), or `None` if it
/// does not open one or never closes.
fn skip_group(toks: &[Tok], open: usize) -> Option<usize> {
    if !matches!(toks.get(open), Some(Tok::Punct('(' | '[' | '{'))) {
        return None;
    }
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return Some(k + 1);
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
    fn ansi_and_plain_headers() {
        let text = "// a module\n`timescale 1ns/1ps\nmodule other(input x); endmodule\n\
            module top #(parameter W = 4, parameter [1:0] M = 2'b01) (\n  input wire clk, /* the clock */ input rst_n,\n  input [W-1:0] a, b,\n  output reg [3:0] q = 4'd0,\n  output y\n);\nendmodule\n";
        assert_eq!(
            module_ports(text, "top").unwrap(),
            ["clk", "rst_n", "a", "b", "q", "y"]
        );
        assert_eq!(module_ports(text, "other").unwrap(), ["x"]);
        assert_eq!(module_ports(text, "missing"), None);
        let plain = "module m(a, y, ck);\n input a, ck; output y;\nendmodule";
        assert_eq!(module_ports(plain, "m").unwrap(), ["a", "y", "ck"]);
        assert_eq!(
            module_ports("module n; endmodule", "n").unwrap(),
            Vec::<String>::new()
        );
        let escaped = "module e(input \\a+b , output y); endmodule";
        assert_eq!(module_ports(escaped, "e").unwrap(), ["a+b", "y"]);
    }
}
