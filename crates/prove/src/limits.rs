//! Resource limits shared by all engines: a wall-clock deadline and a cancellation flag
//! (set by the [`Portfolio`](crate::Portfolio) when another engine has answered).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustsat::solvers::ControlSignal;

/// When an engine must give up: at `deadline`, or as soon as `stop` is set.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall-clock deadline.
    pub deadline: Option<Instant>,
    /// Cooperative cancellation flags (any one set stops the engine).
    pub stop: Vec<Arc<AtomicBool>>,
}

impl Limits {
    /// No limit at all.
    pub fn none() -> Self {
        Limits::default()
    }

    /// A deadline `timeout` from now (no deadline for `None`).
    pub fn timeout(timeout: Option<Duration>) -> Self {
        Limits {
            deadline: timeout.map(|t| Instant::now() + t),
            stop: Vec::new(),
        }
    }

    /// The same limits with an additional cancellation flag.
    pub fn with_stop(&self, stop: Arc<AtomicBool>) -> Self {
        let mut l = self.clone();
        l.stop.push(stop);
        l
    }

    /// Whether the deadline has passed or cancellation was requested.
    pub fn reached(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.stop.iter().any(|s| s.load(Ordering::Relaxed))
    }

    /// A SAT-solver terminator callback that stops the solver when [`Limits::reached`].
    pub fn terminator(&self) -> impl FnMut() -> ControlSignal + Send + 'static {
        let me = self.clone();
        move || {
            if me.reached() {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        }
    }

    /// The limits of a slice of the time left: the same cancellation flags and a deadline
    /// `share` (0 to 1) of the way from now to this deadline (none without one).
    pub fn slice(&self, share: f64) -> Limits {
        let mut sliced = self.clone();
        if let Some(deadline) = self.deadline {
            if share < 1.0 {
                let now = Instant::now();
                let left = deadline.saturating_duration_since(now);
                sliced.deadline = Some(now + left.mul_f64(share.clamp(0.0, 1.0)));
            }
        }
        sliced
    }

    /// Whether any limit is set (so that a terminator is worth attaching).
    pub fn is_limited(&self) -> bool {
        self.deadline.is_some() || !self.stop.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadline_and_stop_flag() {
        assert!(!Limits::none().reached());
        assert!(!Limits::none().is_limited());
        assert!(Limits::timeout(Some(Duration::ZERO)).reached());
        assert!(!Limits::timeout(Some(Duration::from_secs(3600))).reached());
        let flag = Arc::new(AtomicBool::new(false));
        let l = Limits::none().with_stop(flag.clone());
        assert!(l.is_limited() && !l.reached());
        let mut t = l.terminator();
        assert_eq!(t(), ControlSignal::Continue);
        flag.store(true, Ordering::Relaxed);
        assert!(l.reached());
        assert_eq!(t(), ControlSignal::Terminate);
    }
}
