//! Writes hypermut's AIGER of a Verilog design (development aid; the CLI does this for
//! users): load → make choices controllable (free initial values kept) → bit-blast.
//!
//! Usage: `vaig [--top T] [--observe-state] out.aig file.v…`

use std::path::PathBuf;

use hypermut_aig::aiger::{write_aiger, AigerFormat};
use hypermut_aig::blast::{blast, BlastOptions};
use hypermut_ir::{Role, VarId};
use hypermut_verilog::{load_verilog, VerilogOptions};

fn main() {
    let mut opts = VerilogOptions::default();
    let mut files = Vec::new();
    let mut out = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--top" => opts.top = args.next(),
            "--observe-state" => opts.observe_state = true,
            _ if out.is_none() => out = Some(PathBuf::from(a)),
            _ => files.push(PathBuf::from(a)),
        }
    }
    let Some(out) = out else {
        eprintln!("usage: vaig [--top T] [--observe-state] out.aig file.v…");
        std::process::exit(2);
    };
    let mut sys = match load_verilog(&files, &opts) {
        Ok(l) => l.system,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let keep: Vec<VarId> = (0..sys.vars.len() as u32)
        .map(VarId)
        .filter(|v| sys.var(*v).role != Role::Input && sys.var(*v).init.is_none())
        .collect();
    if let Err(e) = hypermut_mutate::make_controllable(&mut sys, &keep) {
        eprintln!("{e}");
        std::process::exit(1);
    }
    let aig = match blast(&sys, &BlastOptions::default()) {
        Ok(b) => b.aig,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let format = if out.extension().is_some_and(|e| e == "aig") {
        AigerFormat::Binary
    } else {
        AigerFormat::Ascii
    };
    if let Err(e) = std::fs::write(&out, write_aiger(&aig, format)) {
        eprintln!("{}: {e}", out.display());
        std::process::exit(1);
    }
}
