//! Why a system cannot be bit-blasted.

/// Why a system cannot be bit-blasted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BlastError {
    /// A nondeterministic choice is left; the nd transformation turns choices into inputs.
    #[error(
        "{at}: nondeterministic choice #{site} must be turned into an input before bit-blasting"
    )]
    Choice {
        /// Where it occurs.
        at: String,
        /// The choice site.
        site: u32,
    },
    /// A state variable without next-state function.
    #[error("state variable `{var}` has no next-state function (give it an input first)")]
    FreeNext {
        /// The variable.
        var: String,
    },
    /// `next(v)` outside a transition constraint.
    #[error("{at}: next() is only allowed in transition constraints")]
    NextOutsideTrans {
        /// Where it occurs.
        at: String,
    },
    /// `next(v)` of a variable that has no next-state function (an input).
    #[error("{at}: next({var}) is undefined: `{var}` has no next-state function")]
    NextUndefined {
        /// Where it occurs.
        at: String,
        /// The variable.
        var: String,
    },
    /// Initial values that depend on each other.
    #[error("the initial value of `{var}` depends on itself")]
    CyclicInit {
        /// A variable on the cycle.
        var: String,
    },
    /// An ill-typed expression, an unencodable type or an oversized width.
    #[error("{at}: {detail}")]
    Type {
        /// Where it occurs.
        at: String,
        /// What is wrong.
        detail: String,
    },
    /// A constant initial value outside the variable's type.
    #[error("initial value {value} of `{var}` is outside its type {ty}")]
    InitOutOfRange {
        /// The variable.
        var: String,
        /// The value.
        value: String,
        /// The variable's type.
        ty: String,
    },
    /// A reference to an expression or variable that does not exist.
    #[error("{at}: reference to unknown {what} #{index}")]
    Dangling {
        /// Where it occurs.
        at: String,
        /// `expression` or `variable`.
        what: &'static str,
        /// The dangling index.
        index: u32,
    },
}
