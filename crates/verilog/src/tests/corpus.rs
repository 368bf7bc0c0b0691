//! The shared Verilog corpus: at least 90 % of the designs lower to the IR; every failure is a
//! located error.

use std::path::{Path, PathBuf};

use crate::{load_verilog, VerilogError, VerilogOptions};

/// The design list (`name | top | files`), shared with the yosys equivalence checks.
const DESIGNS: &str = include_str!("../../../../tests/data/verilog/corpus-designs.txt");

fn corpus_dir() -> Option<PathBuf> {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/verilog"
    ));
    dir.is_dir().then(|| dir.to_path_buf())
}

#[test]
fn corpus_designs_lower_or_fail_with_a_location() {
    let Some(dir) = corpus_dir() else {
        eprintln!("skipping: the shared corpus (../shared/corpus/verilog) is not available");
        return;
    };
    let mut total = 0;
    let mut accepted = 0;
    let mut failures = Vec::new();
    for line in DESIGNS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [name, top, files] = fields.as_slice() else {
            panic!("malformed design line `{line}`");
        };
        let paths: Vec<PathBuf> = files.split_whitespace().map(|f| dir.join(f)).collect();
        let opts = VerilogOptions {
            top: Some(top.to_string()),
            ..VerilogOptions::default()
        };
        total += 1;
        match load_verilog(&paths, &opts) {
            Ok(l) => {
                accepted += 1;
                assert!(
                    !l.system.outputs.is_empty()
                        || l.system
                            .vars
                            .iter()
                            .any(|v| v.role != hypermut_ir::Role::Input),
                    "{name}: empty system"
                );
            }
            Err(e @ VerilogError::Source { .. }) => {
                assert!(e.span().is_some());
                failures.push(format!(
                    "{name}: {}",
                    e.to_string().lines().next().unwrap_or("")
                ));
            }
            Err(e) => panic!("{name}: unlocated failure: {e}"),
        }
    }
    eprintln!("corpus: {accepted} of {total} Verilog designs lowered");
    for f in &failures {
        eprintln!("  {f}");
    }
    assert!(
        accepted * 10 >= total * 9,
        "only {accepted} of {total} designs lowered"
    );
}

/// Loads a corpus design by its files (relative to the corpus folder).
fn corpus_design(top: &str, files: &[&str], observe: bool) -> Option<hypermut_ir::System> {
    let Some(dir) = corpus_dir() else {
        eprintln!("skipping: the shared corpus (../shared/corpus/verilog) is not available");
        return None;
    };
    let paths: Vec<PathBuf> = files.iter().map(|f| dir.join(f)).collect();
    let opts = VerilogOptions {
        top: Some(top.to_string()),
        observe_state: observe,
        ..VerilogOptions::default()
    };
    Some(
        load_verilog(&paths, &opts)
            .unwrap_or_else(|e| panic!("{e}"))
            .system,
    )
}

#[test]
fn vis_bakery_with_typedef_enum_runs_process_zero_through_its_loop() {
    // yosys rejects `loc reg pc[0:HIPROC]` and iverilog the vl2mv declaration order, so the
    // expectation is worked out by hand from the source: with `select = 0` and `pause = 0`
    // process 0 takes its ticket (L1-L3), checks processes 0, 1, 2 (L5-L8 three times), finds
    // j = 3 > HIPROC (L5 → L9), enters and leaves its critical section (L9-L11) and returns
    // to L1. Locations L1..L11 are the enumeration values 0..10.
    let Some(sys) = corpus_design(
        "bakery",
        &["mchyper/alternation-free_2015/bakery/good_bakery.v"],
        true,
    ) else {
        return;
    };
    let frames = vec![super::f(&[("select", 0), ("pause", 0)]); 21];
    assert_eq!(
        super::trace(&sys, &frames, "pc[0]"),
        vec![0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 8, 9, 10, 0]
    );
    // The other processes never move.
    assert!(super::trace(&sys, &frames, "pc[1]")
        .iter()
        .all(|pc| *pc == 0));
}

#[test]
fn vis_nondeterminism_becomes_choice_sites() {
    // texas97 cache coherence: `$ND` in continuous assignments of modules instantiated
    // several times; PPC60X bus: the `ND_2`/`ND_4` library functions.
    if let Some(sys) = corpus_design(
        "protocol",
        &["texas97/cache_coherence/two_processor_bin.v"],
        false,
    ) {
        assert_eq!(sys.choices.len(), 8);
        // Every resolution of the choices is a legal run.
        let frames: Vec<super::Stim> = (0..6u32)
            .map(|k| super::Stim {
                inputs: vec![],
                choices: (0..8).map(|c| (c, k % 2)).collect(),
            })
            .collect();
        super::run(&sys, &frames);
    }
    if let Some(sys) = corpus_design(
        "main",
        &[
            "texas97/PPC60X_bus/src/main1.v",
            "texas97/PPC60X_bus/src/arbiter.v",
            "texas97/PPC60X_bus/src/cpu.v",
            "texas97/PPC60X_bus/src/mem.v",
        ],
        false,
    ) {
        // One CPU, the arbiter and the memory: 14 `ND_<n>` calls (ND_2, ND_4, ND_8, ND_16).
        assert_eq!(sys.choices.len(), 14);
        let mut arities: Vec<u32> = sys.choices.iter().map(|c| c.arity).collect();
        arities.sort_unstable();
        arities.dedup();
        assert_eq!(arities, vec![2, 4, 8, 16]);
    }
}
