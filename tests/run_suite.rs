//! `hypermut run` end to end (`docs/formats.md` §2.5): a suite made by `hypermut testgen`
//! passes on its own original (SMV and Verilog), the test of a definite-killed mutant fails
//! on the mutant's emitted source, and the JUnit report parses and counts the verdicts.

mod common;

use std::path::Path;

use common::{have, hypermut, hypermut_ok};
use hypermut_testgen::testbench::read_tests;
use hypermut_testgen::KillClass;

/// Runs testgen on `model` into `dir/out`, then `hypermut run` of `target` with a JUnit
/// report; returns (exit code, stdout, JUnit text).
fn run(target: &str, out: &Path, junit: &Path) -> (i32, String, String) {
    let o = hypermut(&[
        "run",
        target,
        "--tests",
        &out.to_string_lossy(),
        "--junit",
        &junit.to_string_lossy(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let xml = std::fs::read_to_string(junit).unwrap_or_default();
    (o.status.code().expect("an exit code"), stdout, xml)
}

/// The verdict line of `mutant-N` in `hypermut run`'s output.
fn verdict(stdout: &str, id: usize) -> String {
    let prefix = format!("mutant-{id}: ");
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no line for mutant-{id}:\n{stdout}"))
        .to_string()
}

/// Counts of testcases, failures and skips in a JUnit file, read with python3's XML parser
/// when there is one, else by counting elements.
fn junit_counts(xml: &str, dir: &Path) -> (usize, usize, usize) {
    if have("python3") {
        let file = dir.join("check.xml");
        std::fs::write(&file, xml).expect("write");
        let script = "import sys, xml.etree.ElementTree as E\n\
            r = E.parse(sys.argv[1]).getroot()\nassert r.tag == 'testsuite'\n\
            c = r.findall('testcase')\n\
            print(len(c), sum(len(t.findall('failure')) for t in c), \
            sum(len(t.findall('skipped')) for t in c), r.get('tests'), r.get('failures'), \
            r.get('skipped'))";
        let o = std::process::Command::new("python3")
            .args(["-c", script])
            .arg(&file)
            .output()
            .expect("python3 runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let n: Vec<usize> = String::from_utf8_lossy(&o.stdout)
            .split_whitespace()
            .map(|w| w.parse().expect("a count"))
            .collect();
        assert_eq!(n[..3], n[3..], "attributes disagree with the elements");
        (n[0], n[1], n[2])
    } else {
        assert!(xml.starts_with("<?xml") && xml.trim_end().ends_with("</testsuite>"));
        (
            xml.matches("<testcase ").count(),
            xml.matches("<failure ").count(),
            xml.matches("<skipped ").count(),
        )
    }
}

#[test]
fn a_beverage_suite_passes_on_the_original_and_fails_on_a_mutant() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let model = "models/smv/beverage.smv";
    hypermut_ok(&["testgen", model, "--out", &out.to_string_lossy()]);
    let tests = read_tests(&out).expect("the tests");
    assert!(!tests.is_empty());

    // The original: every test passes (a potential test's nd values for the choice only the
    // mutant has are ignored; the original's own choices take the test's values).
    let (code, stdout, xml) = run(model, &out, &dir.path().join("orig.xml"));
    assert_eq!(code, 0, "{stdout}");
    let skipped = 0;
    for t in &tests {
        let v = verdict(&stdout, t.test.mutant);
        assert_eq!(v, "pass", "mutant-{} ({:?})", t.test.mutant, t.kill_class);
    }
    assert_eq!(junit_counts(&xml, dir.path()), (tests.len(), 0, skipped));

    // A definite-killed mutant's source: its own test fails.
    let killed = tests
        .iter()
        .find(|t| t.kill_class == KillClass::Definite)
        .expect("a definite test");
    let id = killed.test.mutant;
    let source = dir.path().join("mutant.smv");
    hypermut_ok(&[
        "mutant",
        model,
        "--id",
        &id.to_string(),
        "--emit",
        "source",
        "-o",
        &source.to_string_lossy(),
    ]);
    let (code, stdout, xml) = run(&source.to_string_lossy(), &out, &dir.path().join("m.xml"));
    assert_eq!(code, 1, "{stdout}");
    assert!(verdict(&stdout, id).starts_with("fail: step "), "{stdout}");
    let fails = stdout.lines().filter(|l| l.contains(": fail: ")).count();
    let (cases, failures, _) = junit_counts(&xml, dir.path());
    assert_eq!((cases, failures), (tests.len(), fails));
}

#[test]
fn a_verilog_suite_passes_on_its_original() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let model = "models/verilog/traffic_light.v";
    hypermut_ok(&["testgen", model, "--out", &out.to_string_lossy()]);
    let tests = read_tests(&out).expect("the tests");
    assert!(!tests.is_empty());
    let (code, stdout, xml) = run(model, &out, &dir.path().join("v.xml"));
    assert_eq!(code, 0, "{stdout}");
    for t in &tests {
        assert_eq!(verdict(&stdout, t.test.mutant), "pass");
    }
    assert_eq!(junit_counts(&xml, dir.path()), (tests.len(), 0, 0));
}

#[test]
fn a_missing_tests_folder_is_an_error() {
    let o = hypermut(&[
        "run",
        "models/smv/beverage.smv",
        "--tests",
        "/nonexistent/hm",
    ]);
    assert_eq!(o.status.code(), Some(2));
}
