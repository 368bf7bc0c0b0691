//! The interface every model checker implements.

use hypermut_aig::Aig;

use crate::limits::Limits;
use crate::verdict::Verdict;

/// A model checker for AIGER safety properties.
pub trait Engine {
    /// Decides reachability of `aig.bad[0]` under `aig.constraints`.
    fn check(&mut self, aig: &Aig) -> Verdict;

    /// [`Engine::check`] that also stops (with `Unknown`) when `limits` are reached. The
    /// default ignores `limits`.
    fn check_limited(&mut self, aig: &Aig, limits: &Limits) -> Verdict {
        let _ = limits;
        self.check(aig)
    }
}
