//! Run management of `hypermut testgen`: results are never lost or duplicated. An interrupted
//! run continues with `--resume` and ends with the same verdicts; shards together give the
//! verdicts of one full run; an existing results directory is not overwritten by accident.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{hypermut, hypermut_ok};
use serde_json::Value as Json;

const MODEL: &str = "models/smv/counter.smv";

/// id → (outcome, depth) from a results directory's summary.
fn verdicts(dir: &Path) -> BTreeMap<u64, (String, Option<u64>)> {
    let s: Json =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).expect("summary"))
            .expect("JSON");
    s["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["id"].as_u64().expect("id"),
                (
                    r["outcome"].as_str().expect("outcome").to_string(),
                    r["depth"].as_u64(),
                ),
            )
        })
        .collect()
}

fn result_ids(dir: &Path) -> Vec<u64> {
    std::fs::read_to_string(dir.join("results.jsonl"))
        .expect("results.jsonl")
        .lines()
        .map(|l| {
            serde_json::from_str::<Json>(l).expect("a JSON line")["id"]
                .as_u64()
                .expect("id")
        })
        .collect()
}

#[test]
fn interrupted_run_resumes_without_redoing_or_duplicating() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let full = tmp.path().join("full");
    let full_s = full.to_str().expect("utf-8");
    hypermut_ok(&["testgen", MODEL, "--bound", "10", "--out", full_s]);
    let reference = verdicts(&full);

    // A second run into the same directory refuses to overwrite the results.
    let o = hypermut(&["testgen", MODEL, "--bound", "10", "--out", full_s]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume"));

    // Simulate a run killed after 7 results, in the middle of writing the 8th line.
    let text = std::fs::read_to_string(full.join("results.jsonl")).expect("results");
    let lines: Vec<&str> = text.lines().collect();
    let mut cut = lines[..7].join("\n");
    cut.push('\n');
    cut.push_str(&lines[7][..lines[7].len() / 2]);
    std::fs::write(full.join("results.jsonl"), cut).expect("truncate");
    std::fs::remove_file(full.join("summary.json")).expect("no summary yet");

    // Resuming with other options is refused; with the same options it completes.
    let o = hypermut(&[
        "testgen", MODEL, "--bound", "9", "--out", full_s, "--resume",
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    hypermut_ok(&[
        "testgen", MODEL, "--bound", "10", "--out", full_s, "--resume",
    ]);
    assert_eq!(verdicts(&full), reference);
    let mut ids = result_ids(&full);
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n, "no mutant decided twice");
    assert_eq!(n, reference.len());

    // --fresh starts over.
    hypermut_ok(&[
        "testgen", MODEL, "--bound", "10", "--out", full_s, "--fresh",
    ]);
    assert_eq!(verdicts(&full), reference);
}

#[test]
fn shards_together_equal_one_full_run() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let full = tmp.path().join("full");
    hypermut_ok(&[
        "testgen",
        MODEL,
        "--bound",
        "10",
        "--out",
        full.to_str().expect("utf-8"),
    ]);
    let reference = verdicts(&full);
    let mut union = BTreeMap::new();
    for i in 0..3 {
        let dir = tmp.path().join(format!("shard{i}"));
        let shard = format!("{i}/3");
        hypermut_ok(&[
            "testgen",
            MODEL,
            "--bound",
            "10",
            "--shard",
            &shard,
            "--out",
            dir.to_str().expect("utf-8"),
        ]);
        let part = verdicts(&dir);
        assert!(
            part.keys().all(|id| id % 3 == i),
            "shard {i} holds only its slice"
        );
        union.extend(part);
    }
    assert_eq!(union, reference);
    let o = hypermut(&[
        "testgen",
        MODEL,
        "--shard",
        "3/3",
        "--out",
        tmp.path().join("x").to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(2), "clap rejects a bad shard");
}
