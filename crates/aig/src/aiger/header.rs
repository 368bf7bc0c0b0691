//! The AIGER header line, checked before flussab sees the file.
//!
//! `flussab-aiger` 0.1.1 bounds the counts B, C, J and F by the number of variables left after
//! inputs and latches (`M − I − L`), although they count properties, not variables. It
//! therefore rejects valid files such as `cnt1.aag` (`aag 1 0 1 0 0 1`: a bad property on a
//! latch, no AND gate). When a count exceeds that bound we hand flussab a header with a larger
//! M (literal bounds are then checked against the real M by the reader).

/// The header fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Header {
    /// `aig` rather than `aag`.
    pub binary: bool,
    /// Maximum variable index M.
    pub max_var: usize,
    /// I, L, O, A, B, C, J, F (missing trailing fields are 0).
    pub counts: [usize; 8],
    /// Length of the header line including its newline.
    pub len: usize,
}

/// Largest M whose literals fit our 32-bit [`Lit`](crate::Lit).
pub(super) const MAX_VAR: usize = (u32::MAX as usize - 1) / 2;

impl Header {
    pub fn inputs(&self) -> usize {
        self.counts[0]
    }
    pub fn latches(&self) -> usize {
        self.counts[1]
    }
    pub fn ands(&self) -> usize {
        self.counts[3]
    }

    /// The header line to give flussab: the original, or one with an M large enough for
    /// flussab's bound on B, C, J and F (see the module documentation).
    pub fn for_flussab(&self) -> Option<String> {
        let room = self.max_var - self.inputs() - self.latches();
        let properties = &self.counts[4..];
        if properties.iter().all(|&n| n <= room) {
            return None;
        }
        let extra: usize = properties.iter().sum();
        let m = self.max_var.saturating_add(extra).min(MAX_VAR);
        let mut line = format!("{} {m}", if self.binary { "aig" } else { "aag" });
        for n in self.counts {
            line.push_str(&format!(" {n}"));
        }
        line.push('\n');
        Some(line)
    }
}

/// Parses and checks `aag|aig M I L O A [B [C [J [F]]]]` (single spaces, canonical numbers,
/// `I + L + A ≤ M`, and `= M` for binary files). Errors are messages for line 1.
pub(super) fn parse_header(bytes: &[u8]) -> Result<Header, String> {
    let end = bytes.iter().position(|&b| b == b'\n');
    let line = &bytes[..end.unwrap_or(bytes.len())];
    let text = std::str::from_utf8(line).map_err(|_| "header is not ASCII text".to_string())?;
    let mut words = text.split(' ');
    let binary = match words.next() {
        Some("aag") => false,
        Some("aig") => true,
        _ => return Err("not an AIGER file: expected header `aag …` or `aig …`".into()),
    };
    let mut fields = Vec::new();
    for w in words {
        let canonical = !w.is_empty()
            && w.bytes().all(|b| b.is_ascii_digit())
            && (w == "0" || !w.starts_with('0'));
        if !canonical {
            return Err(format!(
                "header field `{w}` is not a number without leading zeros (fields are \
                 separated by single spaces)"
            ));
        }
        let n: usize = w
            .parse()
            .ok()
            .filter(|&n| n <= MAX_VAR.max(u32::MAX as usize))
            .ok_or_else(|| format!("header field {w} is too large"))?;
        fields.push(n);
    }
    if !(5..=9).contains(&fields.len()) {
        return Err(format!(
            "header has {} numbers; expected M I L O A and optionally B C J F",
            fields.len()
        ));
    }
    if end.is_none() {
        return Err("missing newline after the header".into());
    }
    let max_var = fields[0];
    if max_var > MAX_VAR {
        return Err(format!(
            "maximum variable index {max_var} exceeds the supported {MAX_VAR}"
        ));
    }
    let mut counts = [0; 8];
    counts[..fields.len() - 1].copy_from_slice(&fields[1..]);
    let header = Header {
        binary,
        max_var,
        counts,
        len: line.len() + 1,
    };
    let defined = header.inputs() + header.latches() + header.ands();
    if binary && defined != max_var {
        return Err(format!(
            "invalid maximal variable index: binary files need M = I + L + A, but {max_var} ≠ \
             {} + {} + {}",
            header.inputs(),
            header.latches(),
            header.ands()
        ));
    }
    if defined > max_var {
        return Err(format!(
            "invalid maximal variable index: I + L + A = {defined} exceeds M = {max_var}"
        ));
    }
    Ok(header)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_with_five_to_nine_fields() {
        let h = parse_header(b"aag 1 0 1 0 0 1\n").expect("cnt1.aag header");
        assert_eq!(h.counts, [0, 1, 0, 0, 1, 0, 0, 0]);
        assert_eq!(h.len, 16);
        assert!(!h.binary);
        // B = 1 exceeds M - I - L = 0: flussab gets a larger M.
        assert_eq!(h.for_flussab().as_deref(), Some("aag 2 0 1 0 0 1 0 0 0\n"));
        let h = parse_header(b"aig 3 1 1 0 1\nrest").expect("binary header");
        assert!(h.binary);
        assert_eq!(h.for_flussab(), None);
        assert!(parse_header(b"aig 69 6 11 0 52 0 0 2\n").is_ok());
    }

    #[test]
    fn bad_headers() {
        let cases: &[(&[u8], &str)] = &[
            (b"aag 1 1 0 0\n", "4 numbers"),
            (b"aag 1 1 0 0 0 0 0 0 0 0\n", "10 numbers"),
            (b"aag 01 1 0 0 0\n", "leading zeros"),
            (b"aag  1 1 0 0 0\n", "single spaces"),
            (b"aag 1 1 0 0 0", "missing newline"),
            (b"aig 2 1 0 0 0\n", "M = I + L + A"),
            (b"aag 1 1 1 0 0\n", "exceeds M"),
            (b"aag 4294967290 0 0 0 0\n", "exceeds the supported"),
            (b"AAG 1 1 0 0 0\n", "not an AIGER file"),
        ];
        for &(text, msg) in cases {
            let e = parse_header(text).expect_err(msg);
            assert!(e.contains(msg), "{e:?} should contain {msg:?}");
        }
    }
}
