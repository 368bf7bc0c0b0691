//! An engine that can be held and resumed: it runs in a thread of its own, and while it is
//! held another engine has the processor; resumed, it goes on exactly where it was, with its
//! solvers, frames and learnt clauses intact (`docs/method.md` §7.9). A schedule on one
//! thread uses it to give IC3 a first short slice, run other engines, and then let the same
//! IC3 run on instead of starting it over.
//!
//! Only one of the two threads computes at any time: the scheduling thread waits while the
//! engine runs, and the engine waits at its [`Gate`] (the next time it checks its limits)
//! while it is held.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use hypermut_aig::Aig;

use crate::engine::Engine;
use crate::limits::{Gate, Limits};
use crate::verdict::Verdict;

/// An engine held at its gate, waiting to be resumed ([`Held::resume`]); dropped, it is
/// stopped and its thread ended.
#[derive(Debug)]
pub struct Held {
    gate: Arc<Gate>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<Verdict>>,
}

/// What a first slice of a suspendable engine gave.
#[derive(Debug)]
pub enum Started {
    /// The engine ended within its slice with this verdict.
    Done(Verdict),
    /// The engine is held.
    Held(Held),
}

/// Marks the gate finished when the engine's thread ends, even by a panic.
struct Finish(Arc<Gate>);

impl Drop for Finish {
    fn drop(&mut self) {
        self.0.finish();
    }
}

/// Runs `engine` on `aig` within `limits` for at most `first` (less if the limits are
/// reached before); its verdict if it ended by then, otherwise the engine held.
pub fn start<E: Engine + Send + 'static>(
    mut engine: E,
    aig: &Aig,
    limits: &Limits,
    first: Duration,
) -> Started {
    let gate = Arc::new(Gate::new());
    let stop = Arc::new(AtomicBool::new(false));
    let own = limits.with_stop(stop.clone()).with_gate(gate.clone());
    let aig = aig.clone();
    let finish = Finish(gate.clone());
    let thread = std::thread::spawn(move || {
        let _finish = finish;
        engine.check_limited(&aig, &own)
    });
    let mut held = Held {
        gate,
        stop,
        thread: Some(thread),
    };
    let end = Instant::now() + first;
    let end = limits.deadline.map_or(end, |d| d.min(end));
    if held.gate.wait_done(Some(end)) || held.gate.close() {
        return Started::Done(held.join());
    }
    Started::Held(held)
}

impl Held {
    /// Lets the engine go on until it ends or `limits` are reached (then it is stopped);
    /// its verdict.
    pub fn resume(mut self, limits: &Limits) -> Verdict {
        match self.run_until(None, limits) {
            Some(v) => v,
            // Held again: the deadline of `limits` came between two checks; stop it.
            None => {
                self.stop.store(true, Ordering::Relaxed);
                self.gate.open();
                self.join()
            }
        }
    }

    /// Lets the engine go on for at most `slice` (less if `limits` are reached first, then
    /// it is stopped): its verdict if it ended, `None` if it is held again.
    pub fn run_for(&mut self, slice: Duration, limits: &Limits) -> Option<Verdict> {
        self.run_until(Some(Instant::now() + slice), limits)
    }

    /// Lets the engine go on until it ends, `limits` are reached (then it is stopped) or
    /// `end` comes (then it is held again, `None`).
    fn run_until(&mut self, end: Option<Instant>, limits: &Limits) -> Option<Verdict> {
        self.gate.open();
        let end = match (end, limits.deadline) {
            (Some(e), Some(d)) => Some(e.min(d)),
            (e, d) => e.or(d),
        };
        loop {
            // Checked every few milliseconds for a cancellation flag of `limits`.
            let tick = Instant::now() + Duration::from_millis(5);
            if self.gate.wait_done(Some(end.map_or(tick, |e| e.min(tick)))) {
                return Some(self.join());
            }
            if limits.reached() {
                self.stop.store(true, Ordering::Relaxed);
                return Some(self.join());
            }
            if end.is_some_and(|e| Instant::now() >= e) {
                return self.gate.close().then(|| self.join());
            }
        }
    }

    /// Waits for the engine's thread to end (it must have been stopped or have ended);
    /// its verdict.
    fn join(&mut self) -> Verdict {
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(v)) => v,
            Some(Err(_)) => Verdict::Unknown("the engine's thread panicked".into()),
            None => Verdict::Unknown("the engine was already joined".into()),
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.stop.store(true, Ordering::Relaxed);
            self.gate.open();
            let _ = self.join();
        }
    }
}

#[cfg(test)]
mod tests;
