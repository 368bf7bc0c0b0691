//! The HWMCC / AIGER 1.9 witness text format (`docs/formats.md` §7.1).
//!
//! ```text
//! 1          status: 1 = property violated (0 = holds, 2 = unknown)
//! b0         properties
//! 0          initial state, one 0/1/x per latch        (status 1 only)
//! 1          one input vector per frame, 0/1/x per input (status 1 only)
//! 1
//! .          end of this entry
//! ```
//!
//! Lines starting with `c` are comments; a file may hold several entries.

use crate::error::WitnessError;
use crate::Witness;

/// One entry of a witness file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WitnessEntry {
    /// Status 1: a counterexample.
    Unsafe(Witness),
    /// Status 0: the listed properties hold.
    Safe(Vec<String>),
    /// Status 2: unknown for the listed properties.
    Unknown(Vec<String>),
}

fn bits(values: &[Option<bool>]) -> String {
    values
        .iter()
        .map(|v| match v {
            Some(false) => '0',
            Some(true) => '1',
            None => 'x',
        })
        .collect()
}

/// Writes one status-1 witness: `1`, the properties (concatenated, as in the grammar's
/// `('b' idx | 'j' idx)+`), the initial state, one line per input vector and `.`.
pub fn write_witness(w: &Witness) -> String {
    let mut s = format!("1\n{}\n{}\n", w.properties.concat(), bits(&w.init));
    for v in &w.inputs {
        s.push_str(&bits(v));
        s.push('\n');
    }
    s.push_str(".\n");
    s
}

/// Writes any entry; status 0 and 2 entries are `status`, properties (if any), `.`.
pub fn write_witness_entry(e: &WitnessEntry) -> String {
    match e {
        WitnessEntry::Unsafe(w) => write_witness(w),
        WitnessEntry::Safe(p) => verdict('0', p),
        WitnessEntry::Unknown(p) => verdict('2', p),
    }
}

fn verdict(status: char, properties: &[String]) -> String {
    if properties.is_empty() {
        format!("{status}\n.\n")
    } else {
        format!("{status}\n{}\n.\n", properties.concat())
    }
}

/// Reads the status-1 witnesses of a witness file, skipping status 0 and 2 entries (see
/// [`read_witness_entries`]).
pub fn read_witness(
    text: &str,
    num_latches: usize,
    num_inputs: usize,
) -> Result<Vec<Witness>, WitnessError> {
    Ok(read_witness_entries(text, num_latches, num_inputs)?
        .into_iter()
        .filter_map(|e| match e {
            WitnessEntry::Unsafe(w) => Some(w),
            _ => None,
        })
        .collect())
}

/// Reads every entry of a witness file for a circuit with `num_latches` latches and
/// `num_inputs` inputs. Comment lines (`c…`) are skipped everywhere, blank lines between
/// entries too; trailing spaces and `\r` are ignored. Status 0/2 entries may omit the
/// property line. Each status-1 witness needs its initial-state line and at least one input
/// vector, all of the exact lengths.
pub fn read_witness_entries(
    text: &str,
    num_latches: usize,
    num_inputs: usize,
) -> Result<Vec<WitnessEntry>, WitnessError> {
    // A final newline ends the last line; it does not start an empty one.
    let body = text.strip_suffix('\n').unwrap_or(text);
    let total_lines = body.split('\n').count();
    let mut lines = body
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches([' ', '\t', '\r'])))
        .filter(|(_, l)| !l.starts_with('c'));
    let mut entries = Vec::new();
    let eof = |what: &str| WitnessError::Syntax {
        line: total_lines + 1,
        message: format!("unexpected end of file: expected {what}"),
    };
    let syntax = |line: usize, message: String| WitnessError::Syntax { line, message };
    loop {
        let Some((line, status)) = lines.find(|(_, l)| !l.is_empty()) else {
            return Ok(entries);
        };
        let status = match status {
            "0" | "1" | "2" => status,
            _ => {
                return Err(syntax(
                    line,
                    format!("expected a status line `0`, `1` or `2`, found `{status}`"),
                ))
            }
        };
        let (pline, ptext) = lines.next().ok_or_else(|| eof("a property line"))?;
        if status != "1" && ptext == "." {
            entries.push(if status == "0" {
                WitnessEntry::Safe(Vec::new())
            } else {
                WitnessEntry::Unknown(Vec::new())
            });
            continue;
        }
        let properties = if status != "1" && ptext.is_empty() {
            Vec::new()
        } else {
            parse_properties(ptext).map_err(|m| syntax(pline, m))?
        };
        if status != "1" {
            let (dline, dot) = lines.next().ok_or_else(|| eof("`.`"))?;
            if dot != "." {
                return Err(syntax(dline, format!("expected `.`, found `{dot}`")));
            }
            entries.push(if status == "0" {
                WitnessEntry::Safe(properties)
            } else {
                WitnessEntry::Unknown(properties)
            });
            continue;
        }
        let (iline, itext) = lines.next().ok_or_else(|| eof("the initial state"))?;
        let init = parse_bits(itext, num_latches, "initial state", "latches")
            .map_err(|m| syntax(iline, m))?;
        let mut inputs = Vec::new();
        loop {
            let (vline, vtext) = lines.next().ok_or_else(|| eof("an input vector or `.`"))?;
            if vtext == "." {
                break;
            }
            inputs.push(
                parse_bits(vtext, num_inputs, "input vector", "inputs")
                    .map_err(|m| syntax(vline, m))?,
            );
        }
        if inputs.is_empty() {
            return Err(WitnessError::NoFrames);
        }
        entries.push(WitnessEntry::Unsafe(Witness {
            properties,
            init,
            inputs,
        }));
    }
}

/// `b0`, `b0j1`, `b0 b1` … into `["b0", …]`.
fn parse_properties(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while let Some(c) = rest.chars().next() {
        if c != 'b' && c != 'j' {
            return Err(format!(
                "expected properties like `b0` or `j1`, found `{text}`"
            ));
        }
        let digits = rest[1..].bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(format!("property `{c}` without an index in `{text}`"));
        }
        out.push(rest[..1 + digits].to_string());
        rest = rest[1 + digits..].trim_start();
    }
    if out.is_empty() {
        return Err("expected a property line like `b0`".into());
    }
    Ok(out)
}

fn parse_bits(text: &str, n: usize, what: &str, things: &str) -> Result<Vec<Option<bool>>, String> {
    let values = text
        .chars()
        .map(|c| match c {
            '0' => Ok(Some(false)),
            '1' => Ok(Some(true)),
            'x' | 'X' => Ok(None),
            _ => Err(format!("unexpected character `{c}` in {what} `{text}`")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if values.len() != n {
        return Err(format!(
            "{what} `{text}` has {} values but the circuit has {n} {things}",
            values.len()
        ));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cnt1e() -> Witness {
        Witness {
            properties: vec!["b0".into()],
            init: vec![Some(false)],
            inputs: vec![vec![Some(true)], vec![Some(true)]],
        }
    }

    #[test]
    fn formats_md_example_reads_and_writes() {
        // docs/formats.md §7.3: `1`, `b0`, `0`, `1`, `1`, `.` for cnt1e.aag.
        let text = "1\nb0\n0\n1\n1\n.\n";
        assert_eq!(read_witness(text, 1, 1), Ok(vec![cnt1e()]));
        assert_eq!(write_witness(&cnt1e()), text);
    }

    #[test]
    fn several_entries_comments_and_statuses() {
        let text = "c produced by a test\n0\nb1\n.\n\n1\nb0 j2\nx1\n0x\nc inside\n10\n.\n2\n.\n";
        let entries = read_witness_entries(text, 2, 2).expect("valid file");
        assert_eq!(entries.len(), 3);
        assert_eq!(entries[0], WitnessEntry::Safe(vec!["b1".into()]));
        assert_eq!(entries[2], WitnessEntry::Unknown(vec![]));
        let WitnessEntry::Unsafe(w) = &entries[1] else {
            panic!("second entry is a witness: {entries:?}");
        };
        assert_eq!(w.properties, ["b0", "j2"]);
        assert_eq!(w.init, [None, Some(true)]);
        assert_eq!(
            w.inputs,
            [vec![Some(false), None], vec![Some(true), Some(false)]]
        );
        assert_eq!(w.depth(), 1);
        // Writing and reading the entries again gives them back.
        let again: String = entries.iter().map(write_witness_entry).collect();
        assert_eq!(read_witness_entries(&again, 2, 2), Ok(entries));
    }

    #[test]
    fn circuits_without_latches_or_inputs_have_empty_lines() {
        let w = Witness {
            properties: vec!["b0".into()],
            init: vec![],
            inputs: vec![vec![], vec![]],
        };
        let text = write_witness(&w);
        assert_eq!(text, "1\nb0\n\n\n\n.\n");
        assert_eq!(read_witness(&text, 0, 0), Ok(vec![w]));
    }

    #[test]
    fn malformed_witnesses_are_rejected_with_lines() {
        let cases: &[(&str, Option<usize>)] = &[
            ("3\nb0\n.\n", Some(1)),
            ("1\nq0\n0\n1\n.\n", Some(2)),
            ("1\nb\n0\n1\n.\n", Some(2)),
            ("1\nb0\n01\n1\n.\n", Some(3)),
            ("1\nb0\n0\n2\n.\n", Some(4)),
            ("1\nb0\n0\n11\n.\n", Some(4)),
            ("1\nb0\n0\n1\n", Some(5)),
            ("1\nb0\n0\n.\n", None),
            ("1\n", Some(2)),
            ("0\nb0\n0\n", Some(3)),
        ];
        for &(text, line) in cases {
            let e = read_witness(text, 1, 1).expect_err(text);
            match (e.clone(), line) {
                (WitnessError::Syntax { line: l, .. }, Some(want)) => {
                    assert_eq!(l, want, "{text:?}: {e}")
                }
                (WitnessError::NoFrames, None) => {}
                _ => panic!("{text:?}: unexpected {e:?}"),
            }
        }
    }
}
