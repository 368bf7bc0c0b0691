//! Benchmark (not a test): front-end lowering time (read, lex, parse, elaborate to the IR)
//! of the given SMV models, best and median of `--runs N` (default 5) runs, with sizes.
//!
//! `cargo run -p hypermut-smv --release --example smv_bench -- [--runs N] FILE…`
//! With `--synthetic`, also times generated models of growing size (many instances of a
//! small module with DEFINEs, arrays and a process-free case-heavy next-state function).

use std::path::Path;
use std::time::{Duration, Instant};

use hypermut_smv::{load_smv, parse_smv};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: usize = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(5);
    println!("model\tlines\tvars\tnodes\tbest ms\tmedian ms");
    let skip_next = |i: usize| i > 0 && args[i - 1] == "--runs";
    for (i, f) in args.iter().enumerate() {
        if f.starts_with("--") || skip_next(i) {
            continue;
        }
        let lines = std::fs::read_to_string(f)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        let mut times = Vec::new();
        let mut size = (0, 0);
        for _ in 0..runs {
            let start = Instant::now();
            match load_smv(Path::new(f)) {
                Ok(sys) => size = (sys.vars.len(), sys.exprs.len()),
                Err(e) => {
                    println!(
                        "{f}\t{lines}\terror: {}",
                        e.to_string().lines().next().unwrap_or("")
                    );
                    break;
                }
            }
            times.push(start.elapsed());
        }
        report(f, lines, size, &mut times);
    }
    if args.iter().any(|a| a == "--synthetic") {
        for n in [100, 1000, 5000] {
            let text = synthetic(n);
            let lines = text.lines().count();
            let mut times = Vec::new();
            let mut size = (0, 0);
            for _ in 0..runs {
                let start = Instant::now();
                if let Ok(sys) = parse_smv("synthetic.smv", &text) {
                    size = (sys.vars.len(), sys.exprs.len());
                }
                times.push(start.elapsed());
            }
            report(&format!("synthetic-{n}"), lines, size, &mut times);
        }
    }
}

fn report(name: &str, lines: usize, (vars, nodes): (usize, usize), times: &mut [Duration]) {
    if times.is_empty() {
        return;
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{name}\t{lines}\t{vars}\t{nodes}\t{:.1}\t{:.1}",
        ms(times[0]),
        ms(times[times.len() / 2])
    );
}

/// A model with `n` instances of a cell module (about 8 lines per instance).
fn synthetic(n: usize) -> String {
    let mut s = String::from(
        "MODULE cell(left, go)\n\
         VAR st : {idle, busy, done}; cnt : 0..7; mem : array 0..3 of boolean;\n\
         DEFINE ready := st = idle & left; full := cnt = 7;\n\
         ASSIGN init(st) := idle; init(cnt) := 0;\n\
         next(st) := case go & ready : busy; st = busy & full : done; st = done : {idle, done}; TRUE : st; esac;\n\
         next(cnt) := case st = busy & cnt < 7 : cnt + 1; st = idle : 0; TRUE : cnt; esac;\n\
         next(mem[0]) := mem[cnt mod 4];\n\
         MODULE main\nIVAR go : boolean;\nVAR\n",
    );
    for i in 0..n {
        let left = if i == 0 {
            "TRUE".to_string()
        } else {
            format!("c{}.full", i - 1)
        };
        s.push_str(&format!("  c{i} : cell({left}, go);\n"));
    }
    s.push_str("INVARSPEC !(c0.full & c1.full)\n");
    s
}
