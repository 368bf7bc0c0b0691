//! Loads a Verilog design and prints a summary (development aid).
//!
//! Usage: `vload [--top T] [-I dir] [--observe-state] file.v…`

use std::path::PathBuf;

use hypermut_verilog::{load_verilog, VerilogOptions};

fn main() {
    let mut opts = VerilogOptions::default();
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--top" => opts.top = args.next(),
            "-I" => opts.include_dirs.extend(args.next().map(PathBuf::from)),
            "--observe-state" => opts.observe_state = true,
            _ => files.push(PathBuf::from(a)),
        }
    }
    match load_verilog(&files, &opts) {
        Ok(l) => {
            for d in &l.diagnostics {
                eprintln!("{d}");
            }
            let s = &l.system;
            let n = |r| s.vars.iter().filter(|v| v.role == r).count();
            println!(
                "ok {}: {} inputs, {} state, {} frozen, {} outputs, {} choices, {} nodes",
                s.name,
                n(hypermut_ir::Role::Input),
                n(hypermut_ir::Role::State),
                n(hypermut_ir::Role::Frozen),
                s.outputs.len(),
                s.choices.len(),
                s.exprs.len()
            );
        }
        Err(e) => {
            println!("{e}");
            std::process::exit(1);
        }
    }
}
