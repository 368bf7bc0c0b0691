//! Fuzz target: the preprocessor, parser and elaborator never panic on arbitrary text (with
//! and without `observe_state`); every error is located or an I/O-free design error.
//!
//! Run (from `fuzz/`): `RUSTC_BOOTSTRAP=1 cargo fuzz run verilog_load -- -dict=dict/verilog.dict`

#![no_main]

use hypermut_verilog::{parse_verilog, VerilogError, VerilogOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let opts = VerilogOptions {
        observe_state: data.first().is_some_and(|b| b & 1 == 1),
        x_as_input: data.first().is_some_and(|b| b & 2 == 2),
        ..VerilogOptions::default()
    };
    match parse_verilog(&[("fuzz.v", &text)], &opts) {
        Ok(_) | Err(VerilogError::Source { .. }) | Err(VerilogError::Design(_)) => {}
        Err(e) => panic!("{e}"),
    }
});
