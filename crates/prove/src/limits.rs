//! Resource limits shared by all engines: a wall-clock deadline, a cancellation flag (set by
//! the [`Portfolio`](crate::Portfolio) when another engine has answered) and a gate that
//! holds an engine while another one has the processor ([`crate::suspend`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rustsat::solvers::ControlSignal;

/// When an engine must give up: at `deadline`, or as soon as `stop` is set.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall-clock deadline.
    pub deadline: Option<Instant>,
    /// Cooperative cancellation flags (any one set stops the engine).
    pub stop: Vec<Arc<AtomicBool>>,
    /// A gate the engine waits at, whenever it checks its limits, while the gate is closed.
    pub gate: Option<Arc<Gate>>,
}

impl Limits {
    /// No limit at all.
    pub fn none() -> Self {
        Limits::default()
    }

    /// A deadline `timeout` from now (no deadline for `None`).
    pub fn timeout(timeout: Option<Duration>) -> Self {
        Limits::until(timeout.map(|t| Instant::now() + t))
    }

    /// The deadline `deadline` (none for `None`) and nothing else.
    pub fn until(deadline: Option<Instant>) -> Self {
        Limits {
            deadline,
            ..Limits::default()
        }
    }

    /// The same limits with an additional cancellation flag.
    pub fn with_stop(&self, stop: Arc<AtomicBool>) -> Self {
        let mut l = self.clone();
        l.stop.push(stop);
        l
    }

    /// The same limits, held at `gate` whenever it is closed.
    pub fn with_gate(&self, gate: Arc<Gate>) -> Self {
        let mut l = self.clone();
        l.gate = Some(gate);
        l
    }

    /// Whether the deadline has passed or cancellation was requested; first waits, while
    /// the gate (if any) is closed.
    pub fn reached(&self) -> bool {
        if let Some(g) = &self.gate {
            g.pass();
        }
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

/// A gate between one engine's thread and the thread that schedules it: while the gate is
/// closed, the engine waits the next time it checks its [`Limits`] (between two SAT queries,
/// or inside one when the solver polls its terminator), so that exactly one of the two
/// threads computes at any time and the engine later goes on exactly where it was held.
#[derive(Debug, Default)]
pub struct Gate {
    state: Mutex<GateState>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct GateState {
    closed: bool,
    /// Whether the engine is waiting at the closed gate.
    held: bool,
    /// Whether the engine's thread has ended.
    done: bool,
}

impl Gate {
    /// An open gate.
    pub fn new() -> Self {
        Gate::default()
    }

    fn lock(&self) -> MutexGuard<'_, GateState> {
        // The state is three flags, valid whatever a panicking holder left behind.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The engine's side: waits while the gate is closed.
    fn pass(&self) {
        let mut s = self.lock();
        while s.closed {
            s.held = true;
            self.changed.notify_all();
            s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s.held = false;
    }

    /// The engine's side: its thread has ended (its result can be taken).
    pub fn finish(&self) {
        self.lock().done = true;
        self.changed.notify_all();
    }

    /// Waits until the engine's thread has ended or `until` (if any) has come; whether it
    /// has ended.
    pub fn wait_done(&self, until: Option<Instant>) -> bool {
        let mut s = self.lock();
        while !s.done {
            s = match until {
                None => self.changed.wait(s).unwrap_or_else(|e| e.into_inner()),
                Some(t) => {
                    let left = t.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return false;
                    }
                    self.changed
                        .wait_timeout(s, left)
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
            };
        }
        true
    }

    /// Closes the gate and waits until the engine is held at it or its thread has ended;
    /// whether it has ended.
    pub fn close(&self) -> bool {
        let mut s = self.lock();
        s.closed = true;
        while !s.held && !s.done {
            s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s.done
    }

    /// Opens the gate: the engine goes on.
    pub fn open(&self) {
        self.lock().closed = false;
        self.changed.notify_all();
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
