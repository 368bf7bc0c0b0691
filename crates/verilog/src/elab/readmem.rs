//! `$readmemh` / `$readmemb` in `initial` blocks: memory contents from a data file become
//! initial values of the memory words (IEEE 1364-2005 §17.2.9).
//!
//! The file is looked up as given (relative to the working directory), then in the folder
//! of the Verilog file that calls the task, then in the include folders. Words are separated
//! by white space and comments; `@hex` sets the address; `x`/`z` digits read as 0 (the
//! front-end's `x` convention) and `_` is ignored. Loading starts at the start address
//! argument, else at the memory's lowest address, and runs towards the end address argument
//! (down if it is below the start), else towards the highest address; words beyond the range
//! are dropped with a warning.

use std::path::{Path, PathBuf};

use hypermut_ir::Span;
use num_bigint::BigUint;
use num_traits::{One, Zero};

use crate::ast::{Expr, ExprKind, Ident};
use crate::error::{DResult, Diag};

use super::elaborator::Elab;
use super::env::{Mode, ProcState};
use super::scope::Slot;

/// One entry of a memory data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MemItem {
    /// `@addr`: continue loading at this address.
    Addr(i64),
    /// A data word.
    Word(BigUint),
}

/// Parses the text of a `$readmemh` (`hex`) or `$readmemb` file. Errors name the line.
pub(crate) fn parse_mem_file(text: &str, hex: bool) -> Result<Vec<MemItem>, String> {
    let mut items = Vec::new();
    let radix: u32 = if hex { 16 } else { 2 };
    let mut in_block = false;
    for (n, raw) in text.lines().enumerate() {
        let mut line = raw;
        let mut words = String::new();
        // Strip comments (block comments may span lines).
        loop {
            if in_block {
                match line.find("*/") {
                    Some(k) => {
                        in_block = false;
                        line = &line[k + 2..];
                    }
                    None => break,
                }
            }
            let lc = line.find("//");
            let bc = line.find("/*");
            match (lc, bc) {
                (Some(a), Some(b)) if a < b => {
                    words.push_str(&line[..a]);
                    break;
                }
                (Some(a), None) => {
                    words.push_str(&line[..a]);
                    break;
                }
                (_, Some(b)) => {
                    words.push_str(&line[..b]);
                    words.push(' ');
                    in_block = true;
                    line = &line[b + 2..];
                }
                (None, None) => {
                    words.push_str(line);
                    break;
                }
            }
        }
        for tok in words.split_whitespace() {
            let bad = || {
                format!(
                    "line {}: `{tok}` is not a {} number",
                    n + 1,
                    radix_name(hex)
                )
            };
            if let Some(a) = tok.strip_prefix('@') {
                let a: String = a.chars().filter(|c| *c != '_').collect();
                let v = i64::from_str_radix(&a, 16).map_err(|_| bad())?;
                items.push(MemItem::Addr(v));
                continue;
            }
            let mut v = BigUint::zero();
            let mut digits = 0;
            for c in tok.chars() {
                let d = match c {
                    '_' => continue,
                    'x' | 'X' | 'z' | 'Z' | '?' => 0,
                    _ => c.to_digit(radix).ok_or_else(bad)?,
                };
                v = v * BigUint::from(radix) + BigUint::from(d);
                digits += 1;
            }
            if digits == 0 || digits > 4096 {
                return Err(bad());
            }
            items.push(MemItem::Word(v));
        }
    }
    Ok(items)
}

fn radix_name(hex: bool) -> &'static str {
    if hex {
        "hexadecimal"
    } else {
        "binary"
    }
}

impl<'a> Elab<'a> {
    /// Executes `$readmemh(file, mem [, start [, end]])` (or `$readmemb`) in an `initial`
    /// block: blocking writes of constants into the memory's words.
    pub(crate) fn readmem(
        &mut self,
        st: &mut ProcState,
        name: &Ident,
        args: &'a [Expr],
        span: Span,
    ) -> DResult<()> {
        let task = name.name.as_str();
        if !matches!(st.mode, Mode::Initial) {
            return Err(Diag::new(
                span,
                format!("`{task}` outside an `initial` block cannot be synthesised"),
            ));
        }
        let (Some(file), Some(target)) = (args.first(), args.get(1)) else {
            return Err(Diag::new(
                span,
                format!("`{task}` needs a file name and a memory"),
            ));
        };
        let ExprKind::Str(fname) = &file.kind else {
            return Err(Diag::new(
                file.span,
                "expected the data file name as a string",
            ));
        };
        let Some(mem) = self.memory_of(st, target)? else {
            return Err(Diag::new(target.span, "expected a memory"));
        };
        let start = match args.get(2) {
            Some(e) => Some(self.index_const(st, e)?),
            None => None,
        };
        let end = match args.get(3) {
            Some(e) => Some(self.index_const(st, e)?),
            None => None,
        };
        let path = self.find_mem_file(fname, span).ok_or_else(|| {
            Diag::new(
                file.span,
                format!(
                    "cannot find memory file `{fname}` (searched the working folder, the \
                     Verilog file's folder and the include folders)"
                ),
            )
        })?;
        let text = std::fs::read_to_string(&path).map_err(|e| {
            Diag::new(
                file.span,
                format!("cannot read memory file `{}`: {e}", path.display()),
            )
        })?;
        let items = parse_mem_file(&text, task == "$readmemh")
            .map_err(|e| Diag::new(file.span, format!("memory file `{fname}`, {e}")))?;
        let sig = self.sigs[mem.0 as usize].clone();
        let Some((lo, n)) = sig.mem else {
            return Err(Diag::new(target.span, "expected a memory"));
        };
        let hi = lo + n as i64 - 1;
        let first = start.unwrap_or(lo);
        let down = matches!((start, end), (Some(s), Some(e)) if e < s);
        let (min, max) = match (start, end) {
            (Some(s), Some(e)) => (s.min(e), s.max(e)),
            (Some(s), None) => (s, hi),
            _ => (lo, hi),
        };
        let mask = (BigUint::one() << sig.width) - BigUint::one();
        let mut addr = first;
        let mut dropped = false;
        for item in items {
            match item {
                MemItem::Addr(a) => addr = a,
                MemItem::Word(v) => {
                    match sig.word_of(addr) {
                        Some(k) if addr >= min && addr <= max => {
                            let slot = Slot { sig: mem, word: k };
                            let value = self.bits_const(sig.width, v & &mask, span);
                            self.write_const_word(st, slot, value, span)?;
                        }
                        _ => dropped = true,
                    }
                    addr += if down { -1 } else { 1 };
                }
            }
        }
        if dropped {
            self.warn(
                span,
                format!("`{task}`: words outside the memory or the address range are dropped"),
            );
        }
        Ok(())
    }

    /// The data file `name` of a `$readmem` call at `span`.
    fn find_mem_file(&self, name: &str, span: Span) -> Option<PathBuf> {
        let given = Path::new(name);
        let mut candidates = vec![given.to_path_buf()];
        if given.is_relative() {
            if let Some(f) = self.sys.sources.file(span.file) {
                if let Some(dir) = Path::new(&f.name).parent() {
                    candidates.push(dir.join(given));
                }
            }
            for d in &self.opts.include_dirs {
                candidates.push(d.join(given));
            }
        }
        candidates.into_iter().find(|p| p.is_file())
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_mem_file, MemItem};
    use num_bigint::BigUint;

    fn w(v: u32) -> MemItem {
        MemItem::Word(BigUint::from(v))
    }

    #[test]
    fn hex_and_binary_words_addresses_and_comments() {
        let text = "// table\n0a ff /* two\n lines */ 1_0\n@10 x3 // tail\n";
        assert_eq!(
            parse_mem_file(text, true).unwrap(),
            vec![w(0x0a), w(0xff), w(0x10), MemItem::Addr(16), w(0x03)]
        );
        assert_eq!(
            parse_mem_file("101 0_1\nz1\n", false).unwrap(),
            vec![w(5), w(1), w(1)]
        );
    }

    #[test]
    fn bad_digits_name_the_line() {
        let e = parse_mem_file("00\n0g\n", true).unwrap_err();
        assert!(e.starts_with("line 2:") && e.contains("`0g`"), "{e}");
        assert!(parse_mem_file("102\n", false).is_err());
    }
}
