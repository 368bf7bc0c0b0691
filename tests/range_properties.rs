//! `hypermut aiger --range-properties` makes NuSMV's run-time range errors checkable: an
//! unguarded increment of a 0..3 counter leaves its range after three steps, a guarded one
//! never does; ABC agrees on the exported file.

mod common;

use common::{abc_bmc_bad_only, have, hypermut_ok};
use hypermut_prove::bmc::Bmc;
use hypermut_prove::{Engine, Verdict};
use hypermut_testkit::abc;

fn export(dir: &std::path::Path, guard: &str) -> hypermut_aig::Aig {
    let model = dir.join(format!("m{}.smv", guard.len()));
    std::fs::write(
        &model,
        format!("MODULE main\nVAR x : 0..3;\nASSIGN init(x) := 0;\n  next(x) := case {guard} : x + 1; TRUE : x; esac;\n"),
    )
    .expect("write model");
    let out = model.with_extension("aig");
    hypermut_ok(&[
        "aiger",
        model.to_str().expect("utf-8"),
        "--range-properties",
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    hypermut_aig::read_aiger(&std::fs::read(&out).expect("written"), "m").expect("reads")
}

#[test]
fn range_violation_is_a_reachable_bad_state() {
    let dir = tempfile::tempdir().expect("temp dir");
    let aig = export(dir.path(), "TRUE");
    assert_eq!(aig.bad.len(), 1);
    assert_eq!(aig.bad[0].name, "range next(x)");
    let depth = match (Bmc {
        max_bound: 10,
        time_limit: None,
    })
    .check(&aig)
    {
        Verdict::Unsafe(w) => w.depth(),
        other => panic!("expected a violation, got {other:?}"),
    };
    assert_eq!(depth, 3, "x = 3 in frame 3, and x + 1 = 4 is out of range");
    if have("berkeley-abc") {
        assert_eq!(
            abc_bmc_bad_only(&aig, dir.path(), 10),
            abc::Bmc::Asserted(3)
        );
    }
    let aig = export(dir.path(), "x < 3");
    assert_eq!(aig.bad.len(), 1);
    // The guard keeps the value in range; structural hashing may already fold the property.
    assert!(!matches!(
        (Bmc {
            max_bound: 10,
            time_limit: None
        })
        .check(&aig),
        Verdict::Unsafe(_)
    ));
    if have("berkeley-abc") {
        assert!(!matches!(
            abc_bmc_bad_only(&aig, dir.path(), 10),
            abc::Bmc::Asserted(_)
        ));
    }
}
