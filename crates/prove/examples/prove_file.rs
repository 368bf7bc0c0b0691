//! Development driver: `cargo run --release -p hypermut-prove --example prove_file -- FILE
//! [ic3|seeded|bmc|cheapbmc|kind|portfolio|sliced|sequence|scorr|houdini|orderhoudini|quickhoudini] [TIMEOUT_S]`. Prints the verdict, depth or invariant size, and time.

use std::time::{Duration, Instant};

use hypermut_aig::aiger::safety_properties;
use hypermut_aig::read_aiger;
use hypermut_prove::{Bmc, Certificate, Engine, Houdini, Ic3, Kind, Portfolio, Scorr, Verdict};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!(
            "usage: prove_file FILE [ic3|seeded|bmc|cheapbmc|kind|portfolio|sliced|sequence|scorr|houdini|orderhoudini|quickhoudini] [TIMEOUT_S]"
        );
        std::process::exit(1);
    };
    let engine = args.get(2).map(String::as_str).unwrap_or("ic3");
    let timeout = args
        .get(3)
        .and_then(|t| t.parse::<f64>().ok())
        .map(Duration::from_secs_f64);
    let bytes = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let mut aig = read_aiger(&bytes, path).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    aig.bad = safety_properties(&aig).iter().take(1).cloned().collect();
    let start = Instant::now();
    let verdict = match engine {
        "bmc" => Bmc {
            max_bound: usize::MAX,
            time_limit: timeout,
        }
        .check(&aig),
        "kind" => Kind {
            time_limit: timeout,
            ..Kind::default()
        }
        .check(&aig),
        "portfolio" => Portfolio::with_jobs(3, timeout).check(&aig),
        // BMC while every frame takes at most HYPERMUT_FRAME_CONFLICTS conflicts (10,000).
        "cheapbmc" => {
            let per_frame = std::env::var("HYPERMUT_FRAME_CONFLICTS")
                .ok()
                .and_then(|c| c.parse().ok())
                .unwrap_or(10_000);
            let limits = hypermut_prove::Limits::timeout(timeout);
            hypermut_prove::bmc::bmc_while_cheap(&aig, usize::MAX, &limits, per_frame)
        }
        // BDD reachability; HYPERMUT_REACH="VARIABLES,NODES" raises its limits.
        "reach" => {
            let mut r = hypermut_prove::reach::Reach::default();
            if let Ok(v) = std::env::var("HYPERMUT_REACH") {
                let mut it = v.split(',').filter_map(|x| x.parse().ok());
                r.max_variables = it.next().unwrap_or(r.max_variables);
                r.node_limit = it.next().unwrap_or(r.node_limit);
            }
            r.check_limited(&aig, &hypermut_prove::Limits::timeout(timeout))
        }
        // Induction over mined clauses: the last try's search, or the first try's quick one.
        "houdini" => {
            Houdini::default().check_limited(&aig, &hypermut_prove::Limits::timeout(timeout))
        }
        // HYPERMUT_HOUDINI="ROUNDS,STEPS,REPLAY" sets the mining runs and the replay steps.
        "orderhoudini" => {
            let mut h = Houdini::with_orders();
            if let Ok(v) = std::env::var("HYPERMUT_HOUDINI") {
                let mut it = v.split(',').filter_map(|x| x.parse().ok());
                h.rounds = it.next().unwrap_or(h.rounds);
                h.steps = it.next().unwrap_or(h.steps);
                h.replay_steps = it.next().unwrap_or(h.replay_steps);
            }
            h.check_limited(&aig, &hypermut_prove::Limits::timeout(timeout))
        }
        "quickhoudini" => {
            Houdini::quick().check_limited(&aig, &hypermut_prove::Limits::timeout(timeout))
        }
        // The first try's schedule of `testgen` (bound 20); prints the stage that answered.
        "sliced" => {
            let s = hypermut_prove::schedule::Schedule::sliced(20, true);
            let run = s.run(&aig, &hypermut_prove::Limits::timeout(timeout));
            eprintln!("stage {:?}", s.stage_name(run.stage));
            run.verdict
        }
        // `hypermut prove --jobs 1`'s schedule; prints the stage that answered.
        "sequence" => {
            let s = hypermut_prove::schedule::Schedule::bdd_then_ic3();
            let run = s.run(&aig, &hypermut_prove::Limits::timeout(timeout));
            eprintln!("stage {:?}", s.stage_name(run.stage));
            run.verdict
        }
        "scorr" => {
            let limits = hypermut_prove::Limits::timeout(timeout);
            let found = Scorr::default().correspondence(&aig, &limits);
            if let Ok(c) = &found {
                eprintln!(
                    "{} equalities after {} refinements in {:.3} s",
                    c.equalities.len(),
                    c.refinements,
                    start.elapsed().as_secs_f64()
                );
            }
            Scorr::default().check_limited(&aig, &limits)
        }
        // IC3 (with the option overrides below) seeded with the latch equalities signal
        // correspondence proves, as the schedules' IC3 stages start.
        _ => {
            let mut e = Ic3::new(timeout);
            if engine == "seeded" {
                let limits = hypermut_prove::Limits::timeout(timeout);
                if let Ok(c) = Scorr::default().correspondence(&aig, &limits) {
                    let mut seeds = c.latch_clauses(&aig);
                    // Experiments: HYPERMUT_SEEDS="FROM,TO" keeps seed clauses FROM..TO and
                    // prints them (to find the seeds that slow IC3 down by bisection).
                    if let Ok(r) = std::env::var("HYPERMUT_SEEDS") {
                        let mut it = r.split(',').filter_map(|x| x.parse::<usize>().ok());
                        let from = it.next().unwrap_or(0).min(seeds.len());
                        let to = it.next().unwrap_or(seeds.len()).clamp(from, seeds.len());
                        seeds = seeds[from..to].to_vec();
                        for c in &seeds {
                            let names: Vec<String> = c
                                .iter()
                                .map(|l| {
                                    let n = aig
                                        .latches
                                        .iter()
                                        .find(|x| x.lit == l.positive())
                                        .map(|x| format!("{}/{:?}", x.name, x.reset))
                                        .unwrap_or_default();
                                    format!("{}{n}", if l.is_neg() { "!" } else { "" })
                                })
                                .collect();
                            eprintln!("seed {names:?}");
                        }
                    }
                    eprintln!("{} seed clauses", seeds.len());
                    e = e.with_lemmas(seeds);
                }
            }
            // Experiments: HYPERMUT_IC3_OPTS="ctg=0,max_ctgs=3,ctg_depth=1,mic=3,lift=1,full=0"
            if let Ok(opts) = std::env::var("HYPERMUT_IC3_OPTS") {
                for kv in opts.split(',') {
                    let Some((k, v)) = kv.split_once('=') else {
                        continue;
                    };
                    let v: usize = v.parse().unwrap_or(0);
                    let o = &mut e.options;
                    match k {
                        "ctg" => o.ctg = v != 0,
                        "ctg_after" => o.ctg_after = v,
                        "max_ctgs" => o.max_ctgs = v,
                        "ctg_depth" => o.max_ctg_depth = v,
                        "mic" => o.mic_attempts = v,
                        "lift" => o.lift = v != 0,
                        "full" => o.full_propagation_every = v,
                        "rebuild" => o.rebuild_after = v,
                        "plain_below" => o.plain_below_frame = v,
                        _ => eprintln!("unknown option {k}"),
                    }
                }
            }
            e.check(&aig)
        }
    };
    let t = start.elapsed().as_secs_f64();
    match verdict {
        Verdict::Safe(Certificate::Invariant { clauses }) => {
            println!("safe invariant={} time={t:.3}", clauses.len())
        }
        Verdict::Safe(Certificate::Equalities { pairs }) => {
            println!("safe equalities={} time={t:.3}", pairs.len())
        }
        Verdict::Safe(c) => println!("safe {c:?} time={t:.3}"),
        Verdict::Unsafe(w) => println!("unsafe depth={} time={t:.3}", w.depth()),
        Verdict::Unknown(r) => println!("unknown ({r}) time={t:.3}"),
    }
}
