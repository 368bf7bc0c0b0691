//! Fuzzes the SMV front-end (lexer, parser, elaborator): no input may make it panic or fail
//! internally; every rejection is a located error whose span lies inside the text; every
//! accepted model's expression spans lie inside the text too.
//!
//! Run (from `fuzz/`):
//! `RUSTC_BOOTSTRAP=1 cargo fuzz run smv_load -- -dict=dict/smv.dict -rss_limit_mb=2048`

#![no_main]

use hypermut_smv::{parse_smv_with, SmvError, SmvOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let len = text.len() as u32;
    match parse_smv_with("fuzz.smv", &text, &SmvOptions::default()) {
        Ok(loaded) => {
            let sys = &loaded.system;
            for id in sys.exprs.cone(sys.roots()) {
                if let Some(s) = sys.exprs.node(id).span {
                    assert!(
                        s.start <= s.end && s.end <= len,
                        "span {s:?} outside the text"
                    );
                }
            }
            assert_eq!(loaded.property_instances.len(), sys.properties.len());
        }
        Err(e @ SmvError::Source { .. }) => {
            let s = e.span().expect("a source error has a span");
            assert!(
                s.start <= s.end && s.end <= len,
                "error span {s:?} outside the text"
            );
        }
        Err(e) => panic!("unexpected failure: {e}"),
    }
});
