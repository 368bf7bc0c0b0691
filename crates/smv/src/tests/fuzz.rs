//! Robustness: mutated and truncated models never panic; every error is located.

use hypermut_testkit::fuzz::{apply, assert_handled, edits, prefixes, token_soup};
use proptest::prelude::*;

use super::{parse, BEVERAGE, COUNTER};
use crate::SmvError;

/// Bytes that matter to the lexer.
const LEXICAL: &[u8] = b"(){};:,=!&|<>-+*/?.@[]0129azAZ_$# \n";

/// Parsing either succeeds or fails with a located source error (never internally).
fn check(text: &str) {
    assert_handled(text, parse(text), |e| {
        matches!(e, SmvError::Source { .. }) && e.span().is_some()
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn mutated_beverage_never_panics(edits in edits(LEXICAL)) {
        check(&apply(BEVERAGE, &edits));
    }

    #[test]
    fn mutated_counter_never_panics(edits in edits(LEXICAL)) {
        check(&apply(COUNTER, &edits));
    }
}

#[test]
fn every_prefix_of_the_golden_models_is_handled() {
    for model in [BEVERAGE, COUNTER] {
        prefixes(model, 1).for_each(check);
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
    token_soup("MODULE main\n", &words, 2000, 30).for_each(|t| check(&t));
}
