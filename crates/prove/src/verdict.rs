//! The answer of an engine on the AIG it was given.

use hypermut_aig::Witness;

use crate::certificate::Certificate;

/// The answer of an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No bad state is reachable.
    Safe(Certificate),
    /// A bad state is reachable; the witness reaches it.
    Unsafe(Witness),
    /// No verdict (bound or resource limit reached).
    Unknown(String),
}
