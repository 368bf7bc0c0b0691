//! Robustness: mutated and truncated models never panic; every error is located.

use proptest::prelude::*;

use super::{parse, BEVERAGE, COUNTER};
use crate::SmvError;

/// Parsing either succeeds or fails with a located source error (never internally).
fn check(text: &str) {
    match parse(text) {
        Ok(_) => {}
        Err(e @ SmvError::Source { .. }) => assert!(e.span().is_some()),
        Err(e) => panic!("internal failure on\n{text}\n{e}"),
    }
}

/// One byte edit: replace, insert or delete at a position (taken modulo the length).
#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize),
}

fn apply(base: &str, edits: &[Edit]) -> String {
    let mut bytes = base.as_bytes().to_vec();
    for e in edits {
        let len = bytes.len().max(1);
        match *e {
            Edit::Replace(i, b) if !bytes.is_empty() => bytes[i % len] = b,
            Edit::Insert(i, b) => bytes.insert(i % (bytes.len() + 1), b),
            Edit::Delete(i) if !bytes.is_empty() => {
                bytes.remove(i % len);
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Bytes that matter to the lexer, plus arbitrary ones.
fn byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        prop::sample::select(b"(){};:,=!&|<>-+*/?.@[]0129azAZ_$# \n".to_vec()),
        any::<u8>(),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), byte()).prop_map(|(i, b)| Edit::Replace(i, b)),
        (any::<usize>(), byte()).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn mutated_beverage_never_panics(edits in prop::collection::vec(edit(), 1..6)) {
        check(&apply(BEVERAGE, &edits));
    }

    #[test]
    fn mutated_counter_never_panics(edits in prop::collection::vec(edit(), 1..6)) {
        check(&apply(COUNTER, &edits));
    }
}

#[test]
fn every_prefix_of_the_golden_models_is_handled() {
    for model in [BEVERAGE, COUNTER] {
        for (i, _) in model.char_indices() {
            check(&model[..i]);
        }
    }
}

#[test]
fn token_soup_is_handled() {
    let words = [
        "MODULE", "main", "VAR", "IVAR", "ASSIGN", "DEFINE", "TRANS", "INVAR", "case", "esac",
        "next", "init", "(", ")", "{", "}", ":", ";", ":=", "x", "0..2", "TRUE", "&", "=", "-",
        ",", "boolean", "?",
    ];
    // A deterministic pseudo-random walk over token sequences.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..2000 {
        let mut text = String::from("MODULE main\n");
        for _ in 0..(state % 30) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            text.push_str(words[(state % words.len() as u64) as usize]);
            text.push(' ');
        }
        check(&text);
        state = state.wrapping_add(1);
    }
}
