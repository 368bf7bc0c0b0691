use std::sync::atomic::AtomicUsize;

use super::*;

/// An engine that counts steps (one per limit check, 0.1 ms apart) until `until` or its
/// limits, and records that it ended.
struct Ticker {
    ticks: Arc<AtomicUsize>,
    ended: Arc<AtomicBool>,
    until: usize,
}

impl Ticker {
    fn new(until: usize) -> (Self, Arc<AtomicUsize>, Arc<AtomicBool>) {
        let ticks = Arc::new(AtomicUsize::new(0));
        let ended = Arc::new(AtomicBool::new(false));
        let t = Ticker {
            ticks: ticks.clone(),
            ended: ended.clone(),
            until,
        };
        (t, ticks, ended)
    }
}

impl Engine for Ticker {
    fn check(&mut self, aig: &Aig) -> Verdict {
        self.check_limited(aig, &Limits::none())
    }

    fn check_limited(&mut self, _aig: &Aig, limits: &Limits) -> Verdict {
        let verdict = loop {
            if limits.reached() {
                break Verdict::Unknown("stopped".into());
            }
            let n = self.ticks.fetch_add(1, Ordering::SeqCst) + 1;
            if n >= self.until {
                break Verdict::Unknown(format!("ticked {n}"));
            }
            std::thread::sleep(Duration::from_micros(100));
        };
        self.ended.store(true, Ordering::SeqCst);
        verdict
    }
}

fn held(started: Started) -> Held {
    match started {
        Started::Held(h) => h,
        Started::Done(v) => panic!("ended in its first slice: {v:?}"),
    }
}

#[test]
fn an_engine_that_ends_in_its_first_slice_gives_its_verdict() {
    let (t, ticks, ended) = Ticker::new(5);
    match start(t, &Aig::new(), &Limits::none(), Duration::from_secs(60)) {
        Started::Done(v) => assert_eq!(v, Verdict::Unknown("ticked 5".into())),
        Started::Held(_) => panic!("held"),
    }
    assert_eq!(ticks.load(Ordering::SeqCst), 5);
    assert!(ended.load(Ordering::SeqCst));
}

#[test]
fn a_held_engine_does_not_run_and_goes_on_when_resumed() {
    let (t, ticks, ended) = Ticker::new(usize::MAX);
    let h = held(start(
        t,
        &Aig::new(),
        &Limits::none(),
        Duration::from_millis(20),
    ));
    let at_hold = ticks.load(Ordering::SeqCst);
    assert!(at_hold > 0, "it ran in its first slice");
    std::thread::sleep(Duration::from_millis(30));
    assert_eq!(ticks.load(Ordering::SeqCst), at_hold, "it ran while held");
    assert!(!ended.load(Ordering::SeqCst));
    let v = h.resume(&Limits::timeout(Some(Duration::from_millis(20))));
    assert_eq!(v, Verdict::Unknown("stopped".into()));
    assert!(ticks.load(Ordering::SeqCst) > at_hold, "it went on");
    assert!(ended.load(Ordering::SeqCst));
}

#[test]
fn a_resumed_engine_ends_by_itself() {
    let (t, ticks, _) = Ticker::new(400);
    let h = held(start(t, &Aig::new(), &Limits::none(), Duration::ZERO));
    assert!(ticks.load(Ordering::SeqCst) < 400);
    assert_eq!(
        h.resume(&Limits::none()),
        Verdict::Unknown("ticked 400".into())
    );
}

#[test]
fn a_cancelled_schedule_stops_a_resumed_engine() {
    let (t, _, ended) = Ticker::new(usize::MAX);
    let h = held(start(t, &Aig::new(), &Limits::none(), Duration::ZERO));
    let flag = Arc::new(AtomicBool::new(true));
    let v = h.resume(&Limits::none().with_stop(flag));
    assert_eq!(v, Verdict::Unknown("stopped".into()));
    assert!(ended.load(Ordering::SeqCst));
}

#[test]
fn dropping_a_held_engine_ends_its_thread() {
    let (t, ticks, ended) = Ticker::new(usize::MAX);
    let h = held(start(
        t,
        &Aig::new(),
        &Limits::none(),
        Duration::from_millis(5),
    ));
    drop(h);
    assert!(ended.load(Ordering::SeqCst), "its thread ended");
    let after = ticks.load(Ordering::SeqCst);
    std::thread::sleep(Duration::from_millis(10));
    assert_eq!(ticks.load(Ordering::SeqCst), after);
}

#[test]
fn an_engine_run_for_a_slice_is_held_again_after_it() {
    let (t, ticks, ended) = Ticker::new(usize::MAX);
    let mut h = held(start(t, &Aig::new(), &Limits::none(), Duration::ZERO));
    let before = ticks.load(Ordering::SeqCst);
    assert_eq!(h.run_for(Duration::from_millis(20), &Limits::none()), None);
    let after = ticks.load(Ordering::SeqCst);
    assert!(after > before, "it ran in its slice");
    std::thread::sleep(Duration::from_millis(30));
    assert_eq!(
        ticks.load(Ordering::SeqCst),
        after,
        "it ran while held again"
    );
    assert!(!ended.load(Ordering::SeqCst));
    // The limits end a slice early and stop the engine.
    let v = h.run_for(
        Duration::from_secs(60),
        &Limits::timeout(Some(Duration::from_millis(10))),
    );
    assert_eq!(v, Some(Verdict::Unknown("stopped".into())));
    assert!(ended.load(Ordering::SeqCst));
}

#[test]
fn an_engine_that_ends_within_a_slice_gives_its_verdict() {
    let (t, _, _) = Ticker::new(300);
    let mut h = held(start(t, &Aig::new(), &Limits::none(), Duration::ZERO));
    assert_eq!(
        h.run_for(Duration::from_secs(60), &Limits::none()),
        Some(Verdict::Unknown("ticked 300".into()))
    );
}
