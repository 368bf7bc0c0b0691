//! The waveforms `testgen` writes (`waveforms/mutant-N.vcd`, `docs/formats.md` §2.6), read by
//! an independent VCD reader (Python's pyvcd; skipped, with a message, without it): every
//! killing test has one, with the scopes `original` and `mutant`, the original's outputs
//! are the test's expected ones, and `diverged` rises at the first step where the two
//! copies' outputs (or constraints) differ: the test's depth for a φ1 test, no later for a
//! test of the ∃∀ search.

mod common;

use std::process::Command;

use common::{hypermut_ok, root};

/// Checks the waveforms of the results directory `sys.argv[1]`; prints `checked N`.
const CHECK: &str = r#"
import json, os, sys
from vcd.reader import tokenize, TokenKind

out = sys.argv[1]
reasons = {}
for line in open(os.path.join(out, "results.jsonl")):
    r = json.loads(line)
    reasons[r["id"]] = r["reason"]
checked = 0
for name in sorted(os.listdir(os.path.join(out, "tests"))):
    test = json.load(open(os.path.join(out, "tests", name)))
    mid = test["mutant"]
    path = os.path.join(out, "waveforms", f"mutant-{mid}.vcd")
    assert os.path.exists(path), f"no waveform for mutant {mid}"
    scope, names, legends, changes, sizes, now = [], {}, {}, {}, {}, 0
    timescale = None
    with open(path, "rb") as f:
        for tok in tokenize(f):
            k = tok.kind
            if k is TokenKind.COMMENT and tok.data.strip().startswith("enum "):
                var, codes = tok.data.strip()[5:].split(": ", 1)
                legends[var] = {v: int(c) for c, v in (p.split("=", 1) for p in codes.split())}
            elif k is TokenKind.TIMESCALE:
                timescale = (int(tok.data.magnitude), tok.data.unit.value)
            elif k is TokenKind.SCOPE:
                scope.append(tok.data.ident)
            elif k is TokenKind.UPSCOPE:
                scope.pop()
            elif k is TokenKind.VAR:
                full = "/".join(scope + [tok.data.reference])
                names.setdefault(tok.data.id_code, []).append(full)
                sizes[full] = tok.data.size
            elif k is TokenKind.CHANGE_TIME:
                assert tok.data >= now
                now = tok.data
            elif k in (TokenKind.CHANGE_SCALAR, TokenKind.CHANGE_VECTOR):
                v = tok.data.value
                v = int(v) if isinstance(v, str) else v
                for n in names[tok.data.id_code]:
                    changes.setdefault(n, []).append((now, v))
    assert timescale == (1, "ns"), timescale
    for s in ("original", "mutant"):
        assert any(n.startswith(f"test/{s}/") for n in sizes), f"mutant {mid}: no scope {s}"

    def at(n, k):
        vals = [v for t, v in changes[n] if t <= 10 * k]
        assert vals, f"mutant {mid}: {n} has no value in step {k}"
        return vals[-1]

    def code(o, text):
        if o in legends:
            return legends[o][text]
        if text in ("TRUE", "FALSE"):
            return int(text == "TRUE")
        n = int(text.split("_", 1)[-1])
        return n % (1 << sizes[f"test/original/{o}"])

    steps = len(test["frames"])
    outs = test["outputs"] + ["constraints_ok"]
    differ = [k for k in range(steps)
              if any(at(f"test/original/{o}", k) != at(f"test/mutant/{o}", k) for o in outs)]
    assert differ, f"mutant {mid}: the copies never differ"
    first = differ[0]
    for k in range(steps):
        assert at("test/step", k) == k
        assert at("test/clk", k) == 1 and [v for t, v in changes["test/clk"] if t <= 10 * k + 5][-1] == 0
        assert at("test/diverged", k) == int(k >= first), f"mutant {mid}: diverged in step {k}"
        for o, text in test["frames"][k]["outputs"].items():
            assert at(f"test/original/{o}", k) == code(o, text), f"mutant {mid} step {k}: {o}"
    if "search found" in reasons[mid]:
        assert first <= test["depth"], f"mutant {mid}: diverges at {first} after depth {test['depth']}"
    else:
        assert first == test["depth"], f"mutant {mid}: diverges at {first}, depth {test['depth']}"
    checked += 1
print(f"checked {checked}")
"#;

#[test]
fn waveforms_read_back_with_pyvcd() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let out_s = out.to_str().expect("utf-8 path");
    hypermut_ok(&["testgen", "models/smv/beverage.smv", "--out", out_s]);
    let tests = std::fs::read_dir(out.join("tests"))
        .expect("tests/")
        .count();
    let waves = std::fs::read_dir(out.join("waveforms"))
        .expect("waveforms/")
        .count();
    assert!(tests > 0);
    assert_eq!(waves, tests, "one waveform per test");
    let have_pyvcd = Command::new("python3")
        .args(["-c", "import vcd.reader"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_pyvcd {
        eprintln!("SKIPPED: the pyvcd check (python3 with pyvcd not found; `pip install pyvcd`)");
        return;
    }
    let run = Command::new("python3")
        .args(["-c", CHECK, out_s])
        .current_dir(root())
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(stdout.trim(), format!("checked {tests}"));
}
