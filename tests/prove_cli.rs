//! `hypermut prove` through the binary: HWMCC exit codes (10 unsafe, 20 safe, 0 unknown, 1
//! error), the witness and certificate files it writes, and located errors.

mod common;

use std::path::{Path, PathBuf};

use common::hypermut;
use hypermut_aig::{
    check_witness, read_aiger, read_witness, write_aiger, Aig, AigerFormat, Named, Reset,
};

/// A 2-bit counter; output 0 is "counter = 3" (reachable at depth 3), output 1 is "counter = 3
/// and a constant-0 latch" (unreachable). Old format: no bad section, outputs are properties.
fn counter_file(dir: &Path) -> PathBuf {
    let mut g = Aig::new();
    let a = g.add_latch("a", Reset::Zero);
    let b = g.add_latch("b", Reset::Zero);
    let z = g.add_latch("z", Reset::Zero);
    let nb = g.xor(a, b);
    g.set_next(a, !a);
    g.set_next(b, nb);
    let three = g.and(a, b);
    let never = g.and(three, z);
    for (lit, name) in [(three, "three"), (never, "never")] {
        g.outputs.push(Named {
            lit,
            name: name.into(),
        });
    }
    let path = dir.join("counter.aag");
    std::fs::write(&path, write_aiger(&g, AigerFormat::Ascii)).expect("write");
    path
}

fn read(path: &Path) -> Aig {
    read_aiger(&std::fs::read(path).expect("file"), "f").expect("AIGER")
}

/// Exit code and stderr of `hypermut prove FILE ARGS...`.
fn prove(file: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut all = vec!["prove", file.to_str().expect("utf-8")];
    all.extend_from_slice(args);
    let out = hypermut(&all);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn outputs_are_properties_and_exit_codes_follow_hwmcc() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = counter_file(dir.path());
    let w0 = dir.path().join("w0.txt");
    let (code, _) = prove(&file, &["--witness", w0.to_str().expect("utf-8")]);
    assert_eq!(code, Some(10));
    let ws = read_witness(&std::fs::read_to_string(&w0).expect("witness"), 3, 0).expect("HWMCC");
    assert_eq!(check_witness(&read(&file), &ws[0]), Ok(3));
    assert_eq!(ws[0].properties, vec!["b0".to_string()]);

    let (w1, cert) = (dir.path().join("w1.txt"), dir.path().join("cert.aig"));
    let (code, _) = prove(
        &file,
        &[
            "--property",
            "1",
            "--witness",
            w1.to_str().expect("utf-8"),
            "--certificate",
            cert.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(code, Some(20));
    assert_eq!(std::fs::read_to_string(&w1).expect("witness"), "0\nb1\n.\n");
    let circuit = read(&cert);
    assert_eq!((circuit.latches.len(), circuit.bad.len()), (3, 1));

    let (code, err) = prove(&file, &["--property", "2"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("there is no property 2"), "{err}");
}

#[test]
fn every_engine_answers_and_errors_are_reported() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = counter_file(dir.path());
    for engine in ["ic3", "bmc", "kind", "bdd", "portfolio"] {
        assert_eq!(prove(&file, &["--engine", engine]).0, Some(10), "{engine}");
        // BMC cannot prove safety: it stops at the time limit.
        let want = if engine == "bmc" { 0 } else { 20 };
        let args = ["--engine", engine, "--property", "1", "--timeout", "1"];
        assert_eq!(prove(&file, &args).0, Some(want), "{engine}");
    }
    let cert = dir.path().join("c.aig");
    let args = [
        "--engine",
        "kind",
        "--certificate",
        cert.to_str().expect("utf-8"),
    ];
    assert_eq!(prove(&file, &args).0, Some(1));
    assert!(!cert.exists());
    assert_eq!(prove(&dir.path().join("missing.aig"), &[]).0, Some(1));
    let bad = dir.path().join("bad.aag");
    std::fs::write(&bad, "aag 1 0 0 1 0\n3\n").expect("write");
    let (code, err) = prove(&bad, &[]);
    assert_eq!(code, Some(1));
    assert!(err.contains("bad.aag:2:"), "{err}");
    assert_eq!(prove(&file, &["--timeout=-1"]).0, Some(1));
}
