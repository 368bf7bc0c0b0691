//! Loads SMV models and reports, per model, whether it was accepted (with the time taken),
//! the first line of the error otherwise, and the front-end's warnings and notes (with
//! `--notes`, one line each: `file:line:col: severity: message`).
//!
//! `cargo run -p hypermut-smv --release --example smv_load -- [--props] [--notes] FILE…`
//! With `--props`, prints one line per exported safety property:
//! `PROP <tab> file <tab> name <tab> instance <tab> normalised text of the invariant`
//! (the `p` of `INVARSPEC p`, `AG p`, `G p`; the instance is empty for main).
//! With `--vars`, prints `VARS <tab> file <tab> name…` (the IR variables, space-separated).

use std::path::Path;
use std::time::Instant;

use hypermut_smv::{load_smv_with, SmvOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let props = args.iter().any(|a| a == "--props");
    let notes = args.iter().any(|a| a == "--notes");
    let vars = args.iter().any(|a| a == "--vars");
    for f in args.iter().filter(|a| !a.starts_with("--")) {
        let start = Instant::now();
        match load_smv_with(Path::new(f), &SmvOptions::default()) {
            Ok(l) => {
                let ms = start.elapsed().as_secs_f64() * 1e3;
                if vars {
                    let names: Vec<&str> = l.system.vars.iter().map(|v| v.name.as_str()).collect();
                    println!("VARS\t{f}\t{}", names.join(" "));
                } else if props {
                    for (p, inst) in l.system.properties.iter().zip(&l.property_instances) {
                        let text = p
                            .span
                            .map(|s| l.system.sources.snippet(s).to_string())
                            .unwrap_or_default();
                        println!("PROP\t{f}\t{}\t{inst}\t{}", p.name, one_line(&text));
                    }
                } else {
                    println!(
                        "OK\t{f}\t{ms:.1} ms\t{} vars\t{} nodes\t{} props",
                        l.system.vars.len(),
                        l.system.exprs.len(),
                        l.system.properties.len()
                    );
                }
                if notes {
                    for d in &l.diagnostics {
                        println!("  {}", d.headline());
                    }
                }
            }
            Err(e) => {
                let first = e.to_string().lines().next().unwrap_or("").to_string();
                println!("ERR\t{f}\t{first}");
            }
        }
    }
}

/// Text without `--` comments and with white space collapsed.
fn one_line(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let code = line.split("--").next().unwrap_or("");
        for w in code.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(w);
        }
    }
    out
}
