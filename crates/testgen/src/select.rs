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

/// A subset of the mutants: some operators and/or a random sample.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
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
        let every = all_mutants(sys);
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
