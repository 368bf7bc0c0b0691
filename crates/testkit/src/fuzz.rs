//! The robustness harness of the front-ends: mutated, truncated and random texts never make
//! them panic, and every error they report is located. The front-end tests supply what is
//! language-specific (the sample texts, the bytes and words that matter to the lexer, and
//! what counts as a located error); the cargo-fuzz targets in `fuzz/` check the same
//! property on arbitrary bytes.

use std::fmt::Display;

use proptest::prelude::*;

use crate::rng::xorshift;

/// Asserts the property on one text: loading it either succeeded (`result` is `Ok`) or
/// failed with an error that `located` accepts (a source error that carries its location).
/// Any other error is an internal failure, and fails the test with the text.
pub fn assert_handled<T, E: Display>(
    text: &str,
    result: Result<T, E>,
    located: impl FnOnce(&E) -> bool,
) {
    if let Err(e) = result {
        if !located(&e) {
            panic!("internal or unlocated failure on\n{text}\n{e}");
        }
    }
}

/// One byte edit of a text: replace, insert or delete at a position (taken modulo the
/// length).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Replace the byte at the position.
    Replace(usize, u8),
    /// Insert a byte before the position (or at the end).
    Insert(usize, u8),
    /// Delete the byte at the position.
    Delete(usize),
}

/// `base` with `edits` applied in order (bytes that are no longer UTF-8 become U+FFFD).
pub fn apply(base: &str, edits: &[Edit]) -> String {
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

/// A byte: one of `lexical` (the bytes that matter to the lexer) or any byte, equally
/// often.
pub fn byte(lexical: &'static [u8]) -> impl Strategy<Value = u8> {
    prop_oneof![prop::sample::select(lexical.to_vec()), any::<u8>()]
}

/// One edit at any position, its byte drawn by [`byte`].
pub fn edit(lexical: &'static [u8]) -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), byte(lexical)).prop_map(|(i, b)| Edit::Replace(i, b)),
        (any::<usize>(), byte(lexical)).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
    ]
}

/// One to five edits (for [`apply`]).
pub fn edits(lexical: &'static [u8]) -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec(edit(lexical), 1..6)
}

/// The prefixes of `text` that end at every `step`-th character boundary, from the empty
/// one on (the whole text is not included).
pub fn prefixes(text: &str, step: usize) -> impl Iterator<Item = &str> {
    text.char_indices()
        .step_by(step.max(1))
        .map(move |(i, _)| &text[..i])
}

/// `texts` token soups: `header` followed by up to `max_tokens − 1` words of `words`, each
/// followed by a space, chosen by a deterministic xorshift walk (the same texts every run).
pub fn token_soup<'a>(
    header: &'a str,
    words: &'a [&'a str],
    texts: usize,
    max_tokens: u64,
) -> impl Iterator<Item = String> + 'a {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..texts).map(move |_| {
        let mut text = String::from(header);
        for _ in 0..(state % max_tokens) {
            xorshift(&mut state);
            text.push_str(words[(state % words.len() as u64) as usize]);
            text.push(' ');
        }
        state = state.wrapping_add(1);
        text
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_apply_modulo_the_length() {
        let e = [
            Edit::Replace(5, b'x'),
            Edit::Insert(9, b'y'),
            Edit::Delete(0),
        ];
        // "abc" → "abx" (5 mod 3 = 2) → "aybx" (9 mod 4 = 1) → "ybx".
        assert_eq!(apply("abc", &e), "ybx");
        assert_eq!(apply("", &[Edit::Delete(3), Edit::Replace(1, b'z')]), "");
        assert_eq!(apply("é", &[Edit::Delete(0)]), "\u{fffd}");
    }

    #[test]
    fn prefixes_stop_at_character_boundaries() {
        let p: Vec<&str> = prefixes("aé b", 1).collect();
        assert_eq!(p, ["", "a", "aé", "aé "]);
        assert_eq!(prefixes("abcdef", 3).collect::<Vec<_>>(), ["", "abc"]);
    }

    #[test]
    fn token_soups_are_deterministic() {
        let words = ["x", "y", "z"];
        let a: Vec<String> = token_soup("H ", &words, 50, 7).collect();
        assert_eq!(a, token_soup("H ", &words, 50, 7).collect::<Vec<_>>());
        assert!(a
            .iter()
            .all(|t| t.starts_with("H ") && t.split(' ').count() <= 9));
        assert!(a.iter().any(|t| t.len() > 4));
    }

    #[test]
    #[should_panic(expected = "unlocated failure")]
    fn an_unlocated_error_fails() {
        assert_handled::<(), _>("t", Err("no place"), |_| false);
    }

    proptest! {
        #[test]
        fn edited_texts_stay_strings(edits in edits(b"ab\n")) {
            let _ = apply("sample text", &edits);
        }
    }
}
