//! Fuzzes the AIGER reader: arbitrary bytes must never make it panic. Whatever it accepts
//! must be written back (binary and ASCII) in a form it accepts again with the same
//! counts, and must simulate without panicking.
//!
//! Run (from `fuzz/`): `RUSTC_BOOTSTRAP=1 cargo fuzz run aiger_reader -- -dict=dict/aiger.dict`

#![no_main]

use hypermut_aig::{read_aiger, simulate, write_aiger, AigerFormat};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(aig) = read_aiger(data, "fuzz") else {
        return;
    };
    for format in [AigerFormat::Binary, AigerFormat::Ascii] {
        let bytes = write_aiger(&aig, format);
        let back = match read_aiger(&bytes, "round-trip") {
            Ok(a) => a,
            Err(e) => panic!("the writer's {format:?} output is rejected: {e}"),
        };
        assert_eq!(back.inputs.len(), aig.inputs.len());
        assert_eq!(back.latches.len(), aig.latches.len());
        assert_eq!(back.outputs.len(), aig.outputs.len());
        assert_eq!(back.bad.len(), aig.bad.len());
        assert_eq!(back.constraints.len(), aig.constraints.len());
    }
    let frames = vec![vec![Some(true); aig.inputs.len()]; 3];
    let trace = simulate(&aig, &[], &frames);
    assert_eq!(trace.frames.len(), 3);
});
