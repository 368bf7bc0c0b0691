//! Run management of `hypermut testgen`: results are never lost or duplicated. An interrupted
//! run continues with `--resume` and ends with the same verdicts; shards together give the
//! verdicts of one full run; an existing results directory is not overwritten by accident.
//! The runs compared here turn fault dropping off (`--no-replay`): which pooled test kills a
//! mutant depends on what the other threads, shards or the earlier process found
//! (docs/method.md §7.8), whereas each mutant's own engines give the same test every time.

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
    hypermut_ok(&[
        "testgen",
        "--no-replay",
        MODEL,
        "--bound",
        "10",
        "--out",
        full_s,
    ]);
    let reference = verdicts(&full);

    // A second run into the same directory refuses to overwrite the results.
    let o = hypermut(&[
        "testgen",
        "--no-replay",
        MODEL,
        "--bound",
        "10",
        "--out",
        full_s,
    ]);
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
        "testgen",
        "--no-replay",
        MODEL,
        "--bound",
        "9",
        "--out",
        full_s,
        "--resume",
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    hypermut_ok(&[
        "testgen",
        "--no-replay",
        MODEL,
        "--bound",
        "10",
        "--out",
        full_s,
        "--resume",
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
        "testgen",
        "--no-replay",
        MODEL,
        "--bound",
        "10",
        "--out",
        full_s,
        "--fresh",
    ]);
    assert_eq!(verdicts(&full), reference);
}

/// The files of a results directory's `tests/` folder, by name.
fn test_files(dir: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir.join("tests")) else {
        return files;
    };
    for e in entries {
        let e = e.expect("directory entry");
        files.insert(
            e.file_name().to_string_lossy().into_owned(),
            std::fs::read_to_string(e.path()).expect("test file"),
        );
    }
    files
}

#[test]
fn kill_9_in_the_middle_of_a_run_then_resume_equals_an_uninterrupted_run() {
    const SLOW: &str = "models/verilog/arbiter.v";
    let tmp = tempfile::tempdir().expect("temp dir");
    let full = tmp.path().join("full");
    hypermut_ok(&[
        "testgen",
        "--no-replay",
        SLOW,
        "--jobs",
        "1",
        "--out",
        full.to_str().expect("utf-8"),
    ]);
    let reference = verdicts(&full);
    let total = reference.len();

    // Kill the run with SIGKILL once some results are on disk; retry if it finished first.
    let dir = tmp.path().join("killed");
    let dir_s = dir.to_str().expect("utf-8");
    let mut killed_after = None;
    for attempt in 0..20 {
        let _ = std::fs::remove_dir_all(&dir);
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hypermut"))
            .args([
                "testgen",
                "--no-replay",
                SLOW,
                "--jobs",
                "1",
                "--out",
                dir_s,
            ])
            .current_dir(common::root())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("hypermut starts");
        let want = 1 + attempt % 5;
        loop {
            let lines = std::fs::read_to_string(dir.join("results.jsonl"))
                .map(|t| t.lines().count())
                .unwrap_or(0);
            if child.try_wait().expect("status").is_some() {
                break;
            }
            if lines >= want {
                child.kill().expect("SIGKILL");
                break;
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        let status = child.wait().expect("status");
        if !status.success() {
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(status.signal(), Some(9), "the run died of SIGKILL");
            killed_after = Some(result_ids(&dir).len());
            break;
        }
    }
    let done = killed_after.expect("a run was killed before it finished (20 attempts)");
    assert!(
        done < total,
        "killed with {done} of {total} mutants decided"
    );
    assert!(
        !dir.join("summary.json").exists(),
        "no summary of a killed run"
    );

    let out = hypermut_ok(&[
        "testgen",
        "--no-replay",
        SLOW,
        "--jobs",
        "1",
        "--out",
        dir_s,
        "--resume",
    ]);
    assert!(out.contains(&format!("{total} mutants")), "{out}");
    assert_eq!(verdicts(&dir), reference);
    assert_eq!(test_files(&dir), test_files(&full), "the same tests");
    let ids = result_ids(&dir);
    let distinct: std::collections::BTreeSet<u64> = ids.iter().copied().collect();
    assert_eq!(ids.len(), distinct.len(), "no mutant decided twice");
    assert_eq!(ids.len(), total);
}

#[test]
fn shards_merged_equal_one_full_run() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let full = tmp.path().join("full");
    hypermut_ok(&[
        "testgen",
        "--no-replay",
        MODEL,
        "--bound",
        "10",
        "--out",
        full.to_str().expect("utf-8"),
    ]);
    let reference = verdicts(&full);
    let mut shard_dirs = Vec::new();
    let mut union = BTreeMap::new();
    for i in 1..=3 {
        let dir = tmp.path().join(format!("shard{i}"));
        let shard = format!("{i}/3");
        hypermut_ok(&[
            "testgen",
            "--no-replay",
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
            part.keys().all(|id| id % 3 == i - 1),
            "shard {i} holds only its slice"
        );
        union.extend(part);
        shard_dirs.push(dir.to_str().expect("utf-8").to_string());
    }
    // Together the shards decide every mutant as the full run does.
    assert_eq!(union, reference);
    let o = hypermut(&[
        "testgen",
        "--no-replay",
        MODEL,
        "--shard",
        "0/3",
        "--out",
        tmp.path().join("x").to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(2), "clap rejects a bad shard");
    let merged = tmp.path().join("merged");
    let merged_s = merged.to_str().expect("utf-8");

    // Two of three shards: refused, nothing written.
    let o = hypermut(&[
        "merge",
        MODEL,
        "--out",
        merged_s,
        &shard_dirs[0],
        &shard_dirs[2],
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("shards missing: 2/3"));
    assert!(!merged.join("summary.json").exists());
    // A shard given twice: refused.
    let o = hypermut(&[
        "merge",
        MODEL,
        "--out",
        merged_s,
        &shard_dirs[0],
        &shard_dirs[0],
        &shard_dirs[1],
    ]);
    assert_eq!(o.status.code(), Some(1));

    let mut args = vec!["merge", MODEL, "--out", merged_s];
    args.extend(shard_dirs.iter().map(String::as_str));
    hypermut_ok(&args);
    assert_eq!(verdicts(&merged), reference);
    assert_eq!(test_files(&merged), test_files(&full));
    let suite = |d: &Path| std::fs::read_to_string(d.join("suite.json")).expect("suite.json");
    assert_eq!(suite(&merged), suite(&full), "the same test suite");
    let mut ids = result_ids(&merged);
    ids.sort();
    assert_eq!(
        ids,
        result_ids(&full)
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
    );

    // A shard whose test file went missing: refused before anything is written.
    let broken = tmp.path().join("broken");
    let victim = std::fs::read_dir(Path::new(&shard_dirs[1]).join("tests"))
        .expect("tests")
        .next()
        .expect("a test file")
        .expect("entry")
        .path();
    std::fs::remove_file(&victim).expect("remove");
    let o = hypermut(&[
        "merge",
        MODEL,
        "--out",
        broken.to_str().expect("utf-8"),
        &shard_dirs[0],
        &shard_dirs[1],
        &shard_dirs[2],
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is missing"));
    assert!(!broken.exists(), "nothing written");

    // Shards of another model are refused.
    let o = hypermut(&[
        "merge",
        "models/smv/beverage.smv",
        "--out",
        tmp.path().join("m2").to_str().expect("utf-8"),
        &shard_dirs[0],
        &shard_dirs[1],
        &shard_dirs[2],
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("another model"));
}

#[test]
fn tests_say_whether_they_need_control_of_nondeterminism() {
    let tmp = tempfile::tempdir().expect("temp dir");
    // car_alarm_timed.smv lets time pass nondeterministically (kills of all three classes);
    // arbiter.v is deterministic (every kill is definite).
    for (model, nondeterministic) in [
        ("models/smv/car_alarm_timed.smv", true),
        ("models/verilog/arbiter.v", false),
    ] {
        let dir = tmp.path().join(if nondeterministic { "nd" } else { "det" });
        let out = hypermut_ok(&["testgen", model, "--out", dir.to_str().expect("utf-8")]);
        let files = test_files(&dir);
        assert!(!files.is_empty(), "{model} has killing tests");
        let mut classes = std::collections::BTreeSet::new();
        for (name, text) in &files {
            let t: Json = serde_json::from_str(text).expect("JSON test");
            let sets_nd = t["frames"]
                .as_array()
                .expect("frames")
                .iter()
                .any(|f| f["nd"].as_object().is_some_and(|o| !o.is_empty()));
            assert_eq!(sets_nd, nondeterministic, "{model} {name}");
            let class = t["kill_class"].as_str().expect("kill_class");
            classes.insert(class.to_string());
            assert_eq!(
                t["requires_nd_control"].as_bool(),
                Some(class == "controlled"),
                "{model} {name}"
            );
            let note = t["note"].as_str().expect("note");
            let prefix = match (class, nondeterministic) {
                ("definite", false) => "deterministic",
                ("definite", true) => "definite",
                ("potential", _) => "potential",
                _ => "requires control of nondeterminism",
            };
            assert!(note.starts_with(prefix), "{model} {name}: {class}: {note}");
        }
        let expected: &[&str] = if nondeterministic {
            &["controlled", "definite", "potential"]
        } else {
            &["definite"]
        };
        assert_eq!(
            classes.iter().map(String::as_str).collect::<Vec<_>>(),
            expected
        );
        assert!(out.contains("killing tests: "), "{out}");
        // The score per kill class, recomputed from summary.json: kills of the class or a
        // stronger one over the mutants that are neither equivalent nor invalid.
        let summary: Json = serde_json::from_str(
            &std::fs::read_to_string(dir.join("summary.json")).expect("summary"),
        )
        .expect("JSON");
        let results = summary["results"].as_array().expect("results");
        let count = |f: &dyn Fn(&Json) -> bool| results.iter().filter(|r| f(r)).count() as f64;
        let killed_as = |c: &str| count(&|r| r["outcome"] == "killed" && r["kill_class"] == c);
        let killable = count(&|r| r["outcome"] != "equivalent" && r["outcome"] != "invalid");
        let definite = killed_as("definite");
        let potential = definite + killed_as("potential");
        let any = count(&|r| r["outcome"] == "killed");
        assert_eq!(summary["definite"].as_f64(), Some(definite), "{model}");
        let line = format!(
            "mutation score by kill class: definite {:.1}%, potential or better {:.1}%, any kill {:.1}%",
            100.0 * definite / killable,
            100.0 * potential / killable,
            100.0 * any / killable
        );
        assert!(out.contains(&line), "{model}: {line}\n{out}");
    }
}

#[test]
fn a_model_without_outputs_is_warned_about_and_has_no_score() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let model = tmp.path().join("noout.v");
    std::fs::write(
        &model,
        "module m(input clk, input a);\n  reg r;\n  always @(posedge clk) r <= r ^ a;\nendmodule\n",
    )
    .expect("write");
    let out = tmp.path().join("out");
    let run = hypermut(&[
        "testgen",
        model.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        stderr.contains("warning: the model has no outputs"),
        "{stderr}"
    );
    assert!(stdout.contains("mutation score n/a"), "{stdout}");
    assert!(!stdout.contains("100.0%"), "{stdout}");
}
