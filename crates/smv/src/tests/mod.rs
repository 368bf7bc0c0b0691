//! End-to-end tests of `parse_smv`: the golden models, malformed inputs, pragmas, semantics,
//! preprocessed models, quoted identifiers and robustness.

mod beverage;
mod corpus;
mod features;
mod fuzz;
mod malformed;
mod pragmas;
mod preprocess;
mod quoted;
mod semantics;

use hypermut_ir::{ExprId, System};

use crate::{parse_smv, SmvError};

/// The beverage machine of the method paper, as shipped in `models/smv`.
pub const BEVERAGE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../models/smv/beverage.smv"
));

/// The counter model shipped in `models/smv`.
pub const COUNTER: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../models/smv/counter.smv"
));

/// Parses `text` as `t.smv`.
pub fn parse(text: &str) -> Result<System, SmvError> {
    parse_smv("t.smv", text)
}

/// Parses `text`, failing the test with the rendered error.
pub fn ok(text: &str) -> System {
    parse(text).unwrap_or_else(|e| panic!("unexpected error:\n{e}"))
}

/// The reachable node whose source text is exactly `text`.
pub fn node_with_text(sys: &System, text: &str) -> ExprId {
    sys.exprs
        .cone(sys.roots())
        .into_iter()
        .find(|id| sys.source_text(*id) == Some(text))
        .unwrap_or_else(|| panic!("no node with text `{text}`"))
}
