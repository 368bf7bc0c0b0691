//! Which properties of an AIG checkers check.

use thiserror::Error;

use crate::graph::{Aig, Named};

/// The safety properties of `aig` as checkers see them: the bad-state properties, or the
/// outputs when the file has no bad section (docs/formats.md §9.4, like `aigsim -m`).
pub fn safety_properties(aig: &Aig) -> &[Named] {
    if aig.bad.is_empty() {
        &aig.outputs
    } else {
        &aig.bad
    }
}

/// Why one safety property of an AIG cannot be checked on its own.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum PropertyError {
    /// The AIG has neither bad properties nor outputs.
    #[error("no safety property (no bad section and no outputs)")]
    NoProperty,
    /// The index is past the last safety property.
    #[error("there is no property {index} (the file has {count} safety properties)")]
    NoSuchProperty {
        /// The index asked for.
        index: usize,
        /// How many safety properties there are.
        count: usize,
    },
}

/// The problem of checking safety property `index` of `aig` (see [`safety_properties`]) on
/// its own: the same circuit with that property as its only bad property, constraints kept,
/// justice and fairness properties dropped.
pub fn single_property(aig: &Aig, index: usize) -> Result<Aig, PropertyError> {
    let props = safety_properties(aig);
    if props.is_empty() {
        return Err(PropertyError::NoProperty);
    }
    let p = props
        .get(index)
        .cloned()
        .ok_or(PropertyError::NoSuchProperty {
            index,
            count: props.len(),
        })?;
    let mut problem = aig.clone();
    problem.bad = vec![p];
    problem.justice.clear();
    problem.fairness.clear();
    Ok(problem)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Reset;

    #[test]
    fn outputs_count_only_without_a_bad_section() {
        let mut g = Aig::new();
        let a = g.add_latch("a", Reset::Zero);
        g.set_next(a, !a);
        assert_eq!(
            single_property(&g, 0).err(),
            Some(PropertyError::NoProperty)
        );
        g.outputs.push(Named {
            lit: a,
            name: "o".into(),
        });
        g.outputs.push(Named {
            lit: !a,
            name: "p".into(),
        });
        let p = single_property(&g, 1).expect("output 1 is a property");
        assert_eq!(p.bad.len(), 1);
        assert_eq!(p.bad[0].lit, !a);
        assert_eq!(
            single_property(&g, 2).err(),
            Some(PropertyError::NoSuchProperty { index: 2, count: 2 })
        );
        g.bad.push(Named {
            lit: a,
            name: "b".into(),
        });
        assert_eq!(safety_properties(&g).len(), 1);
        assert_eq!(single_property(&g, 0).expect("bad 0").bad[0].lit, a);
        assert!(single_property(&g, 1).is_err());
    }
}
