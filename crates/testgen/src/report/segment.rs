//! Splitting a text covered by overlapping byte ranges (the mutants of a file) into
//! non-overlapping segments, each with the ranges that cover it.

/// A piece `start..end` of a text and the ranges covering all of it (indices into the ranges
/// given to [`segments`], ascending; empty for text no range covers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// The ranges that cover the segment.
    pub covering: Vec<usize>,
}

/// Splits `0..len` into consecutive non-empty segments such that every range of `ranges`
/// (`start..end`, clamped to `len`) covers each segment whole or not at all. Segments start
/// and end only where a range starts or ends (or at 0 and `len`); empty ranges cover nothing.
pub fn segments(len: usize, ranges: &[(usize, usize)]) -> Vec<Segment> {
    let clamped: Vec<(usize, usize)> = ranges
        .iter()
        .map(|&(s, e)| (s.min(len), e.min(len)))
        .collect();
    let mut cuts: Vec<usize> = vec![0, len];
    for &(s, e) in &clamped {
        if s < e {
            cuts.push(s);
            cuts.push(e);
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    // Ranges sorted by start, entered into the active set as the sweep passes their start.
    let mut by_start: Vec<usize> = (0..clamped.len())
        .filter(|&k| clamped[k].0 < clamped[k].1)
        .collect();
    by_start.sort_by_key(|&k| clamped[k].0);
    let mut next = 0;
    let mut active: Vec<usize> = Vec::new();
    let mut out = Vec::with_capacity(cuts.len());
    for w in cuts.windows(2) {
        let (start, end) = (w[0], w[1]);
        active.retain(|&k| clamped[k].1 > start);
        while next < by_start.len() && clamped[by_start[next]].0 <= start {
            active.push(by_start[next]);
            next += 1;
        }
        let mut covering = active.clone();
        covering.sort_unstable();
        out.push(Segment {
            start,
            end,
            covering,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks `segments` against a byte-by-byte computation of which ranges cover what.
    fn check(len: usize, ranges: &[(usize, usize)]) {
        let segs = segments(len, ranges);
        let mut at = 0;
        for s in &segs {
            assert_eq!(s.start, at, "consecutive: {segs:?}");
            assert!(s.start < s.end, "non-empty: {segs:?}");
            for b in s.start..s.end {
                let by_hand: Vec<usize> = (0..ranges.len())
                    .filter(|&k| ranges[k].0 <= b && b < ranges[k].1)
                    .collect();
                assert_eq!(s.covering, by_hand, "byte {b} of {ranges:?}: {segs:?}");
            }
            at = s.end;
        }
        assert_eq!(at, len, "whole text: {segs:?}");
        // Neighbours differ in coverage, or one of them has a range start or end there.
        for w in segs.windows(2) {
            let edge = w[0].end;
            let cut = ranges
                .iter()
                .any(|&(s, e)| s < e && (s == edge || e == edge));
            assert!(w[0].covering != w[1].covering || cut, "{segs:?}");
        }
    }

    #[test]
    fn overlapping_and_nested_ranges() {
        // "inp = req & wtr > 0": the whole condition, `inp = req`, `wtr > 0`, `0`.
        let ranges = [(0, 19), (0, 9), (12, 19), (18, 19), (12, 19)];
        let segs = segments(25, &ranges);
        let shape: Vec<(usize, usize, Vec<usize>)> = segs
            .iter()
            .map(|s| (s.start, s.end, s.covering.clone()))
            .collect();
        assert_eq!(
            shape,
            vec![
                (0, 9, vec![0, 1]),
                (9, 12, vec![0]),
                (12, 18, vec![0, 2, 4]),
                (18, 19, vec![0, 2, 3, 4]),
                (19, 25, vec![]),
            ]
        );
        check(25, &ranges);
    }

    #[test]
    fn empty_and_out_of_range_ranges() {
        assert_eq!(segments(0, &[]), vec![]);
        assert_eq!(
            segments(4, &[(2, 2), (3, 99)]),
            vec![
                Segment {
                    start: 0,
                    end: 3,
                    covering: vec![]
                },
                Segment {
                    start: 3,
                    end: 4,
                    covering: vec![1]
                }
            ]
        );
        check(4, &[(2, 2), (3, 4), (4, 9)]);
    }

    #[test]
    fn random_ranges_match_the_byte_by_byte_coverage() {
        let mut rng = hypermut_mutate::SplitMix64::new(11);
        for _ in 0..300 {
            let len = (rng.next() % 40) as usize;
            let n = (rng.next() % 8) as usize;
            let ranges: Vec<(usize, usize)> = (0..n)
                .map(|_| {
                    let a = (rng.next() % 45) as usize;
                    let b = (rng.next() % 45) as usize;
                    (a.min(b), a.max(b))
                })
                .collect();
            let clamped: Vec<(usize, usize)> = ranges
                .iter()
                .map(|&(s, e)| (s.min(len), e.min(len)))
                .collect();
            check(len, &clamped);
            assert_eq!(segments(len, &ranges), segments(len, &clamped));
        }
    }
}
