//! Which mutants a job works on: an operator subset, a random sample, a shard. Ids are always
//! those of the full list, so they stay valid whatever is selected.

use serde::{Deserialize, Serialize};

use hypermut_ir::{Language, Span, System};
use hypermut_mutate::{enumerate, Mutant, Operator};
use hypermut_smv::SpanOrigins;

use crate::error::{Error, Result};
use crate::load::Model;

/// Every mutant of a model, with the default operators, in id order.
pub fn all_mutants(sys: &System) -> Vec<Mutant> {
    enumerate(sys, &Operator::ALL)
}

/// A subset of the mutants: some ids, some operators and/or a random sample.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Only mutants with these ids (all when `None`).
    pub ids: Option<IdList>,
    /// Only mutants of these operators (all when `None`).
    pub operators: Option<Vec<Operator>>,
    /// Only this many mutants, drawn uniformly at random (deterministic for `seed`).
    pub sample: Option<usize>,
    /// Seed of `sample`.
    pub seed: u64,
}

impl Selection {
    /// The selected mutants of `sys`, in id order.
    pub fn select(&self, sys: &System) -> Vec<Mutant> {
        let mut every = all_mutants(sys);
        if let Some(ids) = &self.ids {
            every.retain(|m| ids.contains(m.id));
        }
        let chosen: Vec<Mutant> = match &self.operators {
            None => every,
            Some(ops) => every
                .into_iter()
                .filter(|m| ops.contains(&m.operator))
                .collect(),
        };
        match self.sample {
            Some(n) => hypermut_mutate::sample(&chosen, n, self.seed),
            None => chosen,
        }
    }

    /// An id of `ids` (the largest) that a model with `count` mutants (ids `0..count`) lacks.
    pub fn missing_id(&self, count: usize) -> Option<usize> {
        self.ids
            .as_ref()
            .and_then(|l| l.largest())
            .filter(|&id| id >= count)
    }
}

/// Mutant ids as the command line gives them: `3,7,10-20` (ranges inclusive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdList(Vec<std::ops::RangeInclusive<usize>>);

impl IdList {
    /// Whether `id` is in the list.
    pub fn contains(&self, id: usize) -> bool {
        self.0.iter().any(|r| r.contains(&id))
    }

    /// The largest id in the list.
    pub fn largest(&self) -> Option<usize> {
        self.0.iter().map(|r| *r.end()).max()
    }

    /// Parses `3,7,10-20`: comma-separated ids and inclusive ranges `a-b` with `a <= b`.
    pub fn parse(text: &str) -> Result<IdList, String> {
        let number = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("`{}` is not a mutant id", t.trim()))
        };
        let mut ranges = Vec::new();
        for item in text.split(',') {
            let r = match item.split_once('-') {
                Some((a, b)) => {
                    let (a, b) = (number(a)?, number(b)?);
                    if a > b {
                        return Err(format!("`{}`: a range must go up", item.trim()));
                    }
                    a..=b
                }
                None => {
                    let a = number(item)?;
                    a..=a
                }
            };
            ranges.push(r);
        }
        Ok(IdList(ranges))
    }
}

/// A deterministic slice of the mutants: those whose id is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which slice (0-based; the command line counts from 1).
    pub index: usize,
    /// Number of slices.
    pub count: usize,
}

impl Shard {
    /// Whether mutant `id` belongs to this slice.
    pub fn contains(&self, id: usize) -> bool {
        id % self.count == self.index
    }

    /// Parses the command line's 1-based `i/n` (1 ≤ i ≤ n).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| format!("expected `i/n`, e.g. `0/4`, found `{text}`"))?;
        let index: usize = i
            .trim()
            .parse()
            .map_err(|_| format!("`{i}` is not a number"))?;
        let count: usize = n
            .trim()
            .parse()
            .map_err(|_| format!("`{n}` is not a number"))?;
        if count == 0 || index == 0 || index > count {
            return Err(format!(
                "expected `i/n` with 1 <= i <= n, found `{index}/{count}`"
            ));
        }
        Ok(Shard {
            index: index - 1,
            count,
        })
    }
}

/// The mutant with id `id` of the full list of `sys` (the model shown as `model` in the
/// error), or an error naming the valid range.
pub fn mutant_by_id(sys: &System, model: &str, id: usize) -> Result<Mutant> {
    let all = all_mutants(sys);
    let count = all.len();
    all.into_iter()
        .find(|m| m.id == id)
        .ok_or_else(|| Error::NoSuchMutant {
            id,
            model: model.to_string(),
            count,
        })
}

/// Where a model's mutants lie in the files the user wrote: the spans of a preprocessed
/// SMV model (`--pre`) lie in the preprocessed text and are traced back through its line
/// markers (`docs/formats.md` §11.7); other spans are taken as they are.
#[derive(Clone, Debug)]
pub struct Locator {
    /// The preprocessed text's line origins (a preprocessed SMV model only).
    origins: Option<SpanOrigins>,
}

impl Locator {
    /// The locator of `model`'s spans.
    pub fn new(model: &Model) -> Locator {
        let preprocessed = model.language == Language::Smv && !model.options.pre.is_empty();
        Locator {
            origins: preprocessed.then(|| SpanOrigins::read(&model.system.sources)),
        }
    }

    /// Where `span`, a span of `sys`, lies in the files the user wrote.
    pub fn span(&self, sys: &System, span: Span) -> Span {
        match &self.origins {
            Some(o) => o.original_span(&sys.sources, span),
            None => span,
        }
    }

    /// `file:line:col` of a mutant in the files the user wrote.
    pub fn location(&self, sys: &System, m: &Mutant) -> String {
        sys.sources.location(self.span(sys, m.span)).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_lists_parse_ranges_and_refuse_junk() {
        let l = IdList::parse("3, 7,10-12").expect("valid");
        let got: Vec<usize> = (0..20).filter(|&i| l.contains(i)).collect();
        assert_eq!(got, vec![3, 7, 10, 11, 12]);
        assert_eq!(l.largest(), Some(12));
        for bad in ["", "a", "3-", "5-2", "1,,2", "-1"] {
            assert!(IdList::parse(bad).is_err(), "{bad}");
        }
        let s = Selection {
            ids: Some(l),
            ..Selection::default()
        };
        assert_eq!(s.missing_id(13), None);
        assert_eq!(s.missing_id(12), Some(12));
    }

    #[test]
    fn shards_parse_one_based_and_partition_the_ids() {
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 1, count: 3 }));
        for bad in ["0/3", "4/3", "1/0", "x/2", "3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let shards: Vec<Shard> = (1..=3)
            .map(|i| Shard::parse(&format!("{i}/3")).expect("valid"))
            .collect();
        for id in 0..30 {
            assert_eq!(shards.iter().filter(|s| s.contains(id)).count(), 1);
        }
    }
}
