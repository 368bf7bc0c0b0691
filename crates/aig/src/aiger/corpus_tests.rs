//! Reading and round trips over the shared AIGER corpus, plus hand-checked small files.

use hypermut_testkit::corpus::aiger_files;

use super::test_support::{read_file, same_behaviour};
use super::{read_aiger, write_aiger, AigerFormat};
use crate::sim::simulate;
use crate::{Aig, Reset};

fn counts(a: &Aig) -> [usize; 9] {
    [
        a.inputs.len(),
        a.latches.len(),
        a.outputs.len(),
        a.num_ands(),
        a.bad.len(),
        a.constraints.len(),
        a.justice.len(),
        a.fairness.len(),
        a.justice.iter().map(Vec::len).sum(),
    ]
}

fn reread(bytes: &[u8], what: &str) -> Aig {
    read_aiger(bytes, what).unwrap_or_else(|e| panic!("re-reading our own output: {e}"))
}

/// Every corpus file (≈145, all small): read → binary → read → binary is a fixpoint, and the
/// ASCII and binary forms keep counts and behaviour.
#[test]
fn every_corpus_file_round_trips() {
    let files = aiger_files("");
    for f in &files {
        let name = f.display().to_string();
        let a = read_file(f);
        let bin1 = write_aiger(&a, AigerFormat::Binary);
        let b = reread(&bin1, &name);
        let bin2 = write_aiger(&b, AigerFormat::Binary);
        assert!(bin1 == bin2, "{name}: second binary write differs");
        assert_eq!(counts(&a), counts(&b), "{name}");
        assert!(
            same_behaviour(&a, &b, 12, 7),
            "{name}: binary form behaves differently"
        );

        let text = write_aiger(&a, AigerFormat::Ascii);
        let c = reread(&text, &name);
        assert_eq!(counts(&a), counts(&c), "{name}");
        assert!(
            same_behaviour(&a, &c, 12, 11),
            "{name}: ASCII form behaves differently"
        );
        // ASCII → binary → ASCII is the identity on our canonical ASCII.
        let c_bin = write_aiger(&c, AigerFormat::Binary);
        assert!(c_bin == bin1, "{name}: ASCII and binary numbering differ");
        let back = write_aiger(&reread(&c_bin, &name), AigerFormat::Ascii);
        assert!(
            back == text,
            "{name}: ASCII → binary → ASCII changed the file"
        );
        // Names and comments survive.
        for (x, y) in a.inputs.iter().zip(&c.inputs) {
            assert_eq!(x.name, y.name, "{name}");
        }
        for (x, y) in a.latches.iter().zip(&c.latches) {
            assert_eq!((x.reset, &x.name), (y.reset, &y.name), "{name}");
        }
        assert_eq!(a.comment, c.comment, "{name}");
    }
    eprintln!("round-tripped {} corpus files", files.len());
}

/// Canonical binary files (all of HWMCC'08 and '19 are canonical: written by the AIGER
/// library or ABC with canonical headers, no justice/fairness symbols) come back byte for
/// byte.
#[test]
fn canonical_binary_files_are_reproduced_exactly() {
    let files: Vec<_> = ["hwmcc08", "hwmcc19"]
        .iter()
        .flat_map(|d| aiger_files(d))
        .filter(|f| f.extension().is_some_and(|e| e == "aig"))
        .collect();
    for f in &files {
        let bytes = std::fs::read(f).expect("corpus file is readable");
        let a = read_file(f);
        let out = write_aiger(&a, AigerFormat::Binary);
        if out != bytes {
            let at = out.iter().zip(&bytes).take_while(|(x, y)| x == y).count();
            panic!("{}: output differs from byte {at} on", f.display());
        }
    }
    eprintln!("{} canonical binary files reproduced", files.len());
}

/// A non-canonical header (`aig … 14 0`: a trailing zero field, written by ABC) is read and
/// written back canonically: only the header changes.
#[test]
fn trailing_zero_header_field_is_dropped() {
    let Some(f) = aiger_files("mchyper/alternation-free_2015/i2c")
        .into_iter()
        .next()
    else {
        return;
    };
    let bytes = std::fs::read(&f).expect("corpus file is readable");
    let out = write_aiger(&read_file(&f), AigerFormat::Binary);
    let header_end = |b: &[u8]| b.iter().position(|&c| c == b'\n').unwrap_or(b.len());
    let (ho, hb) = (header_end(&out), header_end(&bytes));
    assert_eq!(&bytes[..hb], b"aig 1533 72 254 0 1207 14 0");
    assert_eq!(&out[..ho], b"aig 1533 72 254 0 1207 14");
    assert!(out[ho..] == bytes[hb..], "body and symbols are unchanged");
}

fn examples(name: &str) -> Option<Aig> {
    let f = aiger_files("aiger-examples")
        .into_iter()
        .find(|f| f.file_name().is_some_and(|n| n == name))?;
    Some(read_file(&f))
}

/// `halfadder.aag` lists its AND gates out of order; sum and carry are still x⊕y and x∧y.
#[test]
fn halfadder_is_sorted_and_correct() {
    let Some(a) = examples("halfadder.aag") else {
        return;
    };
    assert_eq!(a.inputs[0].name, "x");
    assert_eq!(a.outputs[1].name, "c");
    assert_eq!(a.comment.as_deref(), Some("half adder"));
    for (x, y) in [(false, false), (false, true), (true, false), (true, true)] {
        let t = simulate(&a, &[], &[vec![Some(x), Some(y)]]);
        assert_eq!(t.frames[0].outputs, [x ^ y, x && y], "x={x} y={y}");
    }
}

/// `toggle-re.aag`: Q' = reset ∧ (enable ⊕ Q) (reset is active low), read from ANDs that are
/// not in topological order.
#[test]
fn toggle_re_behaves_as_specified() {
    let Some(a) = examples("toggle-re.aag") else {
        return;
    };
    assert_eq!(a.inputs[1].name, "reset");
    assert_eq!(a.latches[0].reset, Reset::Zero);
    let stim = [
        (true, true),
        (true, true),
        (false, true),
        (true, true),
        (true, false),
    ];
    let inputs: Vec<_> = stim.iter().map(|&(e, r)| vec![Some(e), Some(r)]).collect();
    let t = simulate(&a, &[], &inputs);
    let mut q = false;
    for (k, &(e, r)) in stim.iter().enumerate() {
        assert_eq!(t.frames[k].outputs, [q, !q], "frame {k}");
        q = r && (e ^ q);
    }
}

/// `cnt1.aag` has B = 1 but no room for it in `M − I − L` (flussab's bound; worked around).
#[test]
fn cnt1_with_bad_but_no_and_gate_is_read() {
    let Some(a) = examples("cnt1.aag") else {
        return;
    };
    assert_eq!(counts(&a), [0, 1, 0, 0, 1, 0, 0, 0, 0]);
    assert_eq!(a.latches[0].next, !a.latches[0].lit);
    assert_eq!(a.bad[0].lit, a.latches[0].lit);
    assert_eq!(
        write_aiger(&a, AigerFormat::Ascii),
        b"aag 1 0 1 0 0 1\n2 3\n2\n"
    );
}

/// cnt1e.aag in binary is the byte sequence given in docs/formats.md §9.8.
#[test]
fn cnt1e_binary_matches_formats_md() {
    let Some(a) = examples("cnt1e.aag") else {
        return;
    };
    let mut want = b"aig 5 1 1 0 3 1\n10\n4\n".to_vec();
    want.extend_from_slice(&[0x01, 0x02, 0x04, 0x02, 0x01, 0x02]);
    want.extend_from_slice(b"b0 AIGER_NEVER\n");
    assert_eq!(write_aiger(&a, AigerFormat::Binary), want);
}
