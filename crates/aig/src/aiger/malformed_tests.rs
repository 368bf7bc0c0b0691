//! Malformed input is rejected with a located message; nothing panics.

use hypermut_testkit::corpus::aiger_files;
use hypermut_testkit::XorShift64;

use super::{read_aiger, write_aiger, AigerFormat};
use crate::{AigerError, Reset};

/// `(description, file, expected line or None, expected message fragment)`.
type Case = (&'static str, &'static [u8], Option<usize>, &'static str);

const CASES: &[Case] = &[
    ("empty file", b"", Some(1), "not an AIGER file"),
    ("not AIGER", b"hello\n", Some(1), "not an AIGER file"),
    (
        "truncated ASCII body",
        b"aag 3 2 0 1 1\n2\n4\n",
        Some(4),
        "end of file",
    ),
    (
        "missing final newline",
        b"aag 1 1 0 1 0\n2\n2",
        Some(3),
        "newline",
    ),
    (
        "undefined output",
        b"aag 2 1 0 1 0\n2\n4\n",
        Some(3),
        "output literal 4 is undefined",
    ),
    (
        "undefined AND operand",
        b"aag 3 1 0 1 1\n2\n6\n6 2 4\n",
        Some(4),
        "AND operand literal 4",
    ),
    (
        "undefined next state",
        b"aag 2 0 1 0 0\n2 4\n",
        Some(2),
        "next-state literal 4",
    ),
    (
        "literal above M",
        b"aag 1 1 0 1 0\n2\n4\n",
        Some(3),
        "exceeds",
    ),
    (
        "cycle",
        b"aag 4 1 0 1 2\n2\n6\n6 8 2\n8 6 2\n",
        Some(4),
        "cyclic definition for AND gate 6",
    ),
    (
        "self loop",
        b"aag 2 1 0 1 1\n2\n4\n4 4 2\n",
        Some(4),
        "cyclic definition for AND gate 4",
    ),
    (
        "input defined twice",
        b"aag 2 2 0 0 0\n2\n2\n",
        Some(3),
        "already defined as an input",
    ),
    (
        "AND redefines latch",
        b"aag 3 1 1 0 1\n2\n4 4\n4 2 2\n",
        Some(4),
        "already defined as a latch",
    ),
    (
        "odd input literal",
        b"aag 1 1 0 0 0\n3\n",
        Some(2),
        "negated",
    ),
    (
        "general reset",
        b"aag 2 1 1 0 0\n2\n4 4 2\n",
        Some(3),
        "general reset",
    ),
    (
        "non-canonical number",
        b"aag 1 1 0 1 0\n2\n02\n",
        Some(3),
        "leading zeros",
    ),
    (
        "non-canonical header",
        b"aag 01 1 0 0 0\n2\n",
        Some(1),
        "leading zeros",
    ),
    (
        "binary M != I+L+A",
        b"aig 5 1 0 0 0\n",
        Some(1),
        "M = I + L + A",
    ),
    (
        "binary truncated varint",
        b"aig 2 1 0 1 1\n4\n\x82",
        None,
        "end of file",
    ),
    (
        "binary missing AND",
        b"aig 2 1 0 1 1\n4\n",
        None,
        "end of file",
    ),
    (
        "binary self-reference",
        b"aig 2 1 0 1 1\n4\n\x00\x02",
        None,
        "cyclic definition",
    ),
    (
        "binary truncated latches",
        b"aig 2 1 1 0 0\n",
        Some(2),
        "end of file",
    ),
    (
        "misplaced c symbol",
        b"aag 1 1 0 0 0\n2\nc1 x\n",
        Some(3),
        "no invariant constraints",
    ),
    (
        "symbol out of range",
        b"aag 1 1 0 0 0\n2\ni1 x\n",
        Some(3),
        "out of range",
    ),
    (
        "two symbols for one input",
        b"aag 1 1 0 0 0\n2\ni0 x\ni0 y\n",
        Some(4),
        "second symbol",
    ),
    (
        "garbage after body",
        b"aag 1 1 0 0 0\n2\nfoo\n",
        Some(3),
        "expected a symbol",
    ),
    (
        "comment without newline",
        b"aag 1 1 0 0 0\n2\nc\nabc",
        Some(4),
        "missing newline",
    ),
    (
        "header with 4 numbers",
        b"aag 1 1 0 0\n2\n",
        Some(1),
        "4 numbers",
    ),
];

#[test]
fn malformed_files_are_rejected_with_line_and_message() {
    let mut problems = Vec::new();
    for &(what, bytes, line, fragment) in CASES {
        let e = match read_aiger(bytes, "bad.aag") {
            Ok(_) => {
                problems.push(format!("{what}: accepted"));
                continue;
            }
            Err(e) => e,
        };
        let prefix = match line {
            Some(l) => format!("bad.aag:{l}: "),
            None => "bad.aag: ".to_string(),
        };
        if e.line() != line
            || !e.message().contains(fragment)
            || !e.to_string().starts_with(&prefix)
        {
            problems.push(format!(
                "{what}: got `{e}`, want line {line:?} and `{fragment}`"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn error_display_is_file_line_message() {
    let e = AigerError::Line {
        file: "x.aag".into(),
        line: 7,
        message: "boom".into(),
    };
    assert_eq!(e.to_string(), "x.aag:7: boom");
}

/// Things flussab 0.1.1 gets wrong on its own (see `header.rs`, `trailer.rs`) and other
/// valid corner cases.
#[test]
fn valid_corner_cases_are_accepted() {
    let cases: &[(&str, &[u8])] = &[
        (
            "bad symbol without latches",
            b"aag 1 1 0 0 0 1\n2\n2\nb0 p\n",
        ),
        (
            "b1 with one latch",
            b"aag 2 1 1 0 0 2\n2\n4 2\n2\n4\nb1 q\nb0 p\nl0 r\n",
        ),
        (
            "justice and fairness symbols",
            b"aag 1 1 0 0 0 0 0 1 1\n2\n1\n2\n3\nj0 live\nf0 fair\n",
        ),
        ("nine-field zero suffix", b"aag 1 1 0 1 0 0 0 0 0\n2\n2\n"),
        ("seven-field header", b"aag 1 1 0 1 0 0 0\n2\n2\n"),
        ("unused literal below M", b"aag 5 1 0 1 0\n2\n3\n"),
        ("empty comment", b"aag 0 0 0 0 0\nc\n"),
        ("name with spaces", b"aag 1 1 0 0 0\n2\ni0 a b  c\n"),
    ];
    for &(what, bytes) in cases {
        if let Err(e) = read_aiger(bytes, what) {
            panic!("{what}: {e}");
        }
    }
    let a = read_aiger(cases[1].1, "t").expect("valid");
    assert_eq!((a.bad[0].name.as_str(), a.bad[1].name.as_str()), ("p", "q"));
    let a = read_aiger(cases[3].1, "t").expect("valid");
    assert_eq!(
        write_aiger(&a, AigerFormat::Ascii),
        b"aag 1 1 0 1 0\n2\n2\n"
    );
    let a = read_aiger(cases[6].1, "t").expect("valid");
    assert_eq!(write_aiger(&a, AigerFormat::Ascii), b"aag 0 0 0 0 0\nc\n");
}

#[test]
fn latch_resets_and_renumbering() {
    // Latches 0, 1 and uninitialised, numbered out of binary order in the ASCII file.
    let text = b"aag 7 1 3 1 1\n14\n2 8\n4 2 1\n6 6 6\n8\n8 14 4\ni0 in\n";
    let a = read_aiger(text, "t").expect("valid");
    let resets: Vec<_> = a.latches.iter().map(|l| l.reset).collect();
    assert_eq!(resets, [Reset::Zero, Reset::One, Reset::Free]);
    // Canonical numbering: input 2, latches 4 6 8, AND 10 = 4 ∧ 2 (old 8 = 14 ∧ 4).
    let out = write_aiger(&a, AigerFormat::Ascii);
    assert_eq!(
        String::from_utf8_lossy(&out),
        "aag 5 1 3 1 1\n2\n4 10\n6 4 1\n8 8 8\n10\n10 6 2\ni0 in\n"
    );
}

/// Truncations and byte flips of real files must give `Ok` or `Err`, never a panic.
#[test]
fn damaged_files_never_panic() {
    let mut files = aiger_files("aiger-examples");
    files.extend(aiger_files("hwmcc19/beem").into_iter().take(2));
    let mut rng = XorShift64::from_state(0x2545_f491_4f6c_dd1d);
    for f in &files {
        let bytes = std::fs::read(f).expect("corpus file is readable");
        let step = (bytes.len() / 200).max(1);
        for cut in (0..bytes.len()).step_by(step) {
            let _ = read_aiger(&bytes[..cut], "cut");
        }
        for _ in 0..200 {
            let seed = rng.next_u64();
            let mut damaged = bytes.clone();
            if damaged.is_empty() {
                break;
            }
            let at = (seed as usize) % damaged.len();
            damaged[at] = (seed >> 32) as u8;
            let _ = read_aiger(&damaged, "flip");
        }
    }
}
