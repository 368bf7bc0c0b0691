//! From candidates to numbered mutants: one textual edit elaborated into several nodes
//! becomes one mutant with several sites, textual duplicates across operators are dropped,
//! and mutants are numbered by source position, operator and replacement.

use std::collections::{BTreeMap, HashSet};

use hypermut_ir::{ExprId, Span, System};

use super::ctx::Candidate;
use crate::edit::Edit;
use crate::operators::{Mutant, Operator};
use crate::text::normalise;

/// Whether `x` lies in the expression below `y` (strictly).
fn is_below(sys: &System, x: ExprId, y: ExprId) -> bool {
    let mut stack = sys.exprs.node(y).kind.children();
    let mut seen = HashSet::new();
    while let Some(c) = stack.pop() {
        if c == x {
            return true;
        }
        if c > x && seen.insert(c) {
            stack.extend(sys.exprs.node(c).kind.children());
        }
    }
    false
}

/// The candidates that make one textual edit (same span, operator and replacement).
struct Group {
    original: String,
    /// Each distinct edit with the nodes it was proposed on.
    variants: Vec<(Edit, Vec<ExprId>)>,
}

/// The one edit a textual edit stands for. Different edits for the same text are resolved
/// in favour of a node that contains all the others (the text denotes the outermost one);
/// otherwise the text is ambiguous and dropped.
fn resolve(sys: &System, mut variants: Vec<(Edit, Vec<ExprId>)>) -> Option<(Edit, Vec<ExprId>)> {
    if variants.len() == 1 {
        return variants.pop();
    }
    let top = variants.iter().flat_map(|(_, s)| s.iter().copied()).max()?;
    let all_below = variants
        .iter()
        .flat_map(|(_, s)| s.iter().copied())
        .all(|s| s == top || is_below(sys, s, top));
    let (edit, _) = variants.into_iter().find(|(_, s)| s.contains(&top))?;
    all_below.then(|| (edit, vec![top]))
}

/// Merges, deduplicates, sorts and numbers the candidates.
pub(crate) fn finish(sys: &System, cands: Vec<Candidate>) -> Vec<Mutant> {
    // One source edit may have been elaborated into several nodes: one mutant, many sites.
    let mut groups: BTreeMap<(Span, Operator, String), Group> = BTreeMap::new();
    for c in cands {
        let g = groups
            .entry((c.span, c.op, c.replacement))
            .or_insert_with(|| Group {
                original: c.original,
                variants: Vec::new(),
            });
        match g.variants.iter_mut().find(|(e, _)| *e == c.edit) {
            Some((_, sites)) => {
                if !sites.contains(&c.site) {
                    sites.push(c.site)
                }
            }
            None => g.variants.push((c.edit, vec![c.site])),
        }
    }
    let mut out: Vec<Mutant> = Vec::new();
    for ((span, op, replacement), group) in groups {
        let Some((edit, mut sites)) = resolve(sys, group.variants) else {
            continue;
        };
        // A widening makes one choice site; on several nodes it would tie choices together
        // that the edited text keeps apart (`ops/choices.rs`).
        if matches!(edit, Edit::Widen { .. }) && sites.len() > 1 {
            continue;
        }
        sites.sort();
        let all = sites.clone();
        sites.retain(|s| !all.iter().any(|t| t != s && is_below(sys, *s, *t)));
        let Some((&site, rest)) = sites.split_first() else {
            continue;
        };
        out.push(Mutant {
            id: 0,
            operator: op,
            site,
            extra_sites: rest.to_vec(),
            span,
            original: group.original,
            replacement,
            edit,
        });
    }
    out.sort_by(|x, y| {
        (
            x.span.file,
            x.span.start,
            x.span.end,
            x.operator,
            &x.replacement,
        )
            .cmp(&(
                y.span.file,
                y.span.start,
                y.span.end,
                y.operator,
                &y.replacement,
            ))
    });
    // The same textual edit from two operators is one mutant: the first operator keeps it.
    let mut seen_text: HashSet<(Span, String)> = HashSet::new();
    out.retain(|m| seen_text.insert((m.span, normalise(&m.replacement))));
    for (i, m) in out.iter_mut().enumerate() {
        m.id = i;
    }
    out
}
