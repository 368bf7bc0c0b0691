//! `hypermut search`: does a test of one kill class with exactly K + 1 steps kill one mutant?
//! One depth of the bounded ∃∀ search (`docs/method.md` §4.7), timed on its own so that
//! benchmarks compare solving with solving (`scripts/bench-definite.sh`).

use std::time::{Duration, Instant};

use anyhow::Result;
use hypermut_prove::BmcError;
use hypermut_testgen::allowed::nondeterministic_inputs;
use hypermut_testgen::kill_class::search_at;
use hypermut_testgen::{mutant_product, Error, KillClass};

use crate::args::{parse_seconds, ModelArgs};
use crate::report::print_error;

/// Exit status when a test was found.
pub const EXIT_FOUND: u8 = 0;
/// Exit status when no test of the class and length exists.
pub const EXIT_NONE: u8 = 1;
/// Exit status on an error or when the time limit stopped the search.
pub const EXIT_ERROR: u8 = 2;

/// Options of `hypermut search`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub model: ModelArgs,
    /// Mutant id (see `hypermut mutants`).
    #[arg(long = "mutant", value_name = "ID")]
    pub mutant: usize,
    /// Depth K: the test has K + 1 steps (frames 0..=K) and the outputs must differ in one
    /// of them, whatever nd values the runs take.
    #[arg(long, value_name = "K")]
    pub depth: usize,
    /// The kill class asked for: `definite` (∃ inputs ∀ nd values of both) or `potential`
    /// (∃ inputs and mutant nd values ∀ original nd values).
    #[arg(long, default_value = "definite", value_name = "definite|potential", value_parser = parse_class)]
    pub class: KillClass,
    /// Time limit of the search, in seconds (default: none).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<f64>,
    /// Also print the test found, as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Parses `--class`: only the classes the ∃∀ search decides.
fn parse_class(text: &str) -> Result<KillClass, String> {
    [KillClass::Definite, KillClass::Potential]
        .into_iter()
        .find(|c| c.name() == text)
        .ok_or_else(|| format!("expected `definite` or `potential`, found `{text}`"))
}

/// How the search ended.
#[derive(Debug)]
pub enum Outcome {
    /// A test of the class with `depth + 1` steps (as JSON) and the refutations it took.
    Found {
        /// The test, serialised.
        test: serde_json::Value,
        /// Refutations of the ∃∀ loop.
        refutations: usize,
    },
    /// No such test exists; the refutations it took to show it.
    None {
        /// Refutations of the ∃∀ loop.
        refutations: usize,
    },
    /// The time limit stopped the search.
    Timeout,
}

impl Outcome {
    /// The process's exit status for this outcome.
    pub fn exit_code(&self) -> u8 {
        match self {
            Outcome::Found { .. } => EXIT_FOUND,
            Outcome::None { .. } => EXIT_NONE,
            Outcome::Timeout => EXIT_ERROR,
        }
    }

    /// The one line the command prints, `solve` being the time spent in the search.
    pub fn line(&self, class: KillClass, depth: usize, solve: Duration) -> String {
        let what = format!("{} test of {} steps", class.name(), depth + 1);
        let t = solve.as_secs_f64();
        match self {
            Outcome::Found { refutations, .. } => {
                format!("{what}: found ({t:.3} s, {refutations} refutations)")
            }
            Outcome::None { refutations } => {
                format!("{what}: none ({t:.3} s, {refutations} refutations)")
            }
            Outcome::Timeout => format!("{what}: timeout ({t:.3} s, time limit reached)"),
        }
    }
}

/// Loads the model, builds the mutant's product and runs the search at `args.depth`; the
/// returned duration covers the search only, not loading and building.
pub fn search(args: &Args) -> Result<(Outcome, Duration)> {
    let model = args.model.load()?;
    let mp = mutant_product(&model, args.mutant)?;
    let private = nondeterministic_inputs(&mp, model.options.x_as_input);
    let start = Instant::now();
    let deadline = args.timeout.map(|s| start + Duration::from_secs_f64(s));
    let result = search_at(&mp, &private, args.class, args.depth, deadline);
    let solve = start.elapsed();
    let outcome = match result {
        Ok(r) => match r.test {
            Some(t) => Outcome::Found {
                test: serde_json::to_value(&t)?,
                refutations: r.refutations,
            },
            None => Outcome::None {
                refutations: r.refutations,
            },
        },
        Err(e) if is_interrupted(&e) => Outcome::Timeout,
        Err(e) => return Err(e.into()),
    };
    Ok((outcome, solve))
}

/// Whether the error is the time limit stopping a solver.
fn is_interrupted(e: &Error) -> bool {
    match e {
        Error::Bmc(BmcError::Interrupted) => true,
        Error::Context { source, .. } => is_interrupted(source),
        _ => false,
    }
}

/// Runs the command and returns its exit status: 0 found, 1 none, 2 error or time limit.
pub fn run(args: &Args) -> u8 {
    match search(args) {
        Ok((outcome, solve)) => {
            println!("{}", outcome.line(args.class, args.depth, solve));
            if let (true, Outcome::Found { test, .. }) = (args.json, &outcome) {
                match serde_json::to_string_pretty(test) {
                    Ok(s) => println!("{s}"),
                    Err(e) => {
                        print_error(&e.into());
                        return EXIT_ERROR;
                    }
                }
            }
            outcome.exit_code()
        }
        Err(e) => {
            print_error(&e);
            EXIT_ERROR
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    use hypermut_mutate::{enumerate, Operator};
    use hypermut_testgen::{FrontendOptions, Model};

    fn beverage() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models/smv/beverage.smv")
    }

    /// The id of the mutant that refills the beverage machine's tank with 1 unit instead of 2.
    fn refill_one() -> usize {
        let (model, _) =
            Model::load(&[beverage()], &FrontendOptions::default()).expect("beverage loads");
        let text = std::fs::read_to_string(beverage()).expect("readable");
        let line = text
            .lines()
            .position(|l| l.contains("inp = fill & wtr = 0"))
            .expect("refill line")
            + 1;
        enumerate(&model.system, &Operator::ALL)
            .into_iter()
            .find(|m| {
                let loc = model.system.sources.location(m.span).to_string();
                loc.contains(&format!(":{line}:")) && m.original == "2" && m.replacement == "1"
            })
            .expect("refill 2 → 1 mutant")
            .id
    }

    /// The command line `search`'s options are parsed from, as a user types it.
    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        args: Args,
    }

    fn args(mutant: usize, depth: usize, class: KillClass) -> Args {
        let line = [
            "search".to_string(),
            beverage().display().to_string(),
            format!("--mutant={mutant}"),
            format!("--depth={depth}"),
            format!("--class={}", class.name()),
        ];
        <Line as clap::Parser>::try_parse_from(line)
            .expect("valid command line")
            .args
    }

    #[test]
    fn the_refill_mutant_needs_two_tanks_and_one_more_frame() {
        // By hand: the difference shows only after the tank is drained (2 requests), refilled
        // (1 fill) and drained again by 2 requests; `out` is registered, so the mutant's
        // missing drink shows in frame 2 + 1 + 2 = 5. Both copies choose coffee or tea
        // freely, so only "served or not" can tell them apart, which every run does there.
        let id = refill_one();
        for depth in 0..=6 {
            let (outcome, _) = search(&args(id, depth, KillClass::Definite)).expect("searched");
            assert_eq!(
                matches!(outcome, Outcome::Found { .. }),
                depth >= 5,
                "depth {depth}: {outcome:?}"
            );
            if let Outcome::Found { test, .. } = &outcome {
                assert_eq!(test["depth"], depth);
                assert_eq!(test["requires_nd_control"], false);
            }
        }
    }

    #[test]
    fn the_found_test_drains_fills_and_drains() {
        let (outcome, _) = search(&args(refill_one(), 5, KillClass::Definite)).expect("ok");
        let Outcome::Found { test, .. } = outcome else {
            panic!("no test: {outcome:?}")
        };
        let inputs: Vec<String> = test["frames"]
            .as_array()
            .expect("frames")
            .iter()
            .take(5)
            .map(|f| f["inputs"]["inp"].as_str().unwrap_or("?").to_string())
            .collect();
        assert_eq!(inputs, ["req", "req", "fill", "req", "req"]);
    }

    #[test]
    fn a_potential_test_is_no_shorter_here() {
        // The machine's only nondeterminism is coffee or tea, which the mutation does not
        // touch: a potential test needs the same drained-refilled-drained sequence.
        let id = refill_one();
        for (depth, found) in [(4, false), (5, true)] {
            let (outcome, _) = search(&args(id, depth, KillClass::Potential)).expect("ok");
            assert_eq!(matches!(outcome, Outcome::Found { .. }), found, "{depth}");
        }
    }

    #[test]
    fn a_zero_time_limit_is_a_timeout_with_status_two() {
        let mut a = args(refill_one(), 5, KillClass::Definite);
        a.timeout = Some(0.0);
        let (outcome, _) = search(&a).expect("a timeout is no error");
        assert!(matches!(outcome, Outcome::Timeout), "{outcome:?}");
        assert_eq!(outcome.exit_code(), EXIT_ERROR);
    }

    #[test]
    fn an_unknown_mutant_is_an_error() {
        assert!(search(&args(100_000, 1, KillClass::Definite)).is_err());
    }

    #[test]
    fn only_the_searched_classes_parse() {
        assert_eq!(parse_class("definite"), Ok(KillClass::Definite));
        assert_eq!(parse_class("potential"), Ok(KillClass::Potential));
        assert!(parse_class("controlled").is_err());
        assert!(parse_class("Definite").is_err());
    }

    #[test]
    fn the_line_names_class_steps_answer_and_refutations() {
        let d = Duration::from_millis(1500);
        let found = Outcome::Found {
            test: serde_json::Value::Null,
            refutations: 3,
        };
        assert_eq!(
            found.line(KillClass::Definite, 5, d),
            "definite test of 6 steps: found (1.500 s, 3 refutations)"
        );
        let none = Outcome::None { refutations: 0 };
        assert_eq!(
            none.line(KillClass::Potential, 0, d),
            "potential test of 1 steps: none (1.500 s, 0 refutations)"
        );
        assert_eq!((found.exit_code(), none.exit_code()), (0, 1));
    }
}
