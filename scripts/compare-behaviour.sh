#!/usr/bin/env bash
# Behaviour check for refactorings: runs `testgen` on every bundled model and `table` on all of
# them with two hypermut binaries, and shows that every output (stdout, summary.json,
# results, tests, witnesses, certificates, suite.json, the tables) is identical apart from
# times.
#
#   scripts/compare-behaviour.sh BEFORE_BIN [AFTER_BIN] [OUT_DIR]
#
# BEFORE_BIN: a hypermut binary built from the earlier commit, e.g.
#   git worktree add /tmp/old <commit> && (cd /tmp/old && cargo build --release)
# AFTER_BIN defaults to this checkout's target/release/hypermut (built here). Times (the
# `millis` field, the time columns of the tables) and the output directory names are blanked
# before comparing. Exits 1 if anything differs.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BEFORE=${1:?usage: scripts/compare-behaviour.sh BEFORE_BIN [AFTER_BIN] [OUT_DIR]}
AFTER=${2:-}
OUT=${3:-$ROOT/target/compare-behaviour}
JOBS=${JOBS:-$(nproc)}
if [ -z "$AFTER" ]; then
    cargo build --release --quiet
    AFTER=$ROOT/target/release/hypermut
fi
MODELS=(models/smv/*.smv models/verilog/*.v)
rm -rf "$OUT"
mkdir -p "$OUT"

run_side() {
    local side=$1 bin=$2
    mkdir -p "$OUT/$side"
    for m in "${MODELS[@]}"; do
        local name
        name=$(basename "$m")
        "$bin" testgen "$m" --jobs "$JOBS" --out "$OUT/$side/testgen/$name" \
            >"$OUT/$side/testgen/$name.stdout" 2>/dev/null
    done
    "$bin" table "${MODELS[@]}" --jobs "$JOBS" --out "$OUT/$side/table" \
        --csv "$OUT/$side/table.csv" --mutant-csv "$OUT/$side/mutants.csv" \
        >"$OUT/$side/table.md" 2>/dev/null
}

for side in before after; do mkdir -p "$OUT/$side/testgen"; done
echo "running $BEFORE"
run_side before "$BEFORE"
echo "running $AFTER"
run_side after "$AFTER"

# Blank the times, then compare every file.
python3 - "$OUT" <<'PY'
import json, os, re, sys
out = sys.argv[1]

def norm_json(v):
    if isinstance(v, dict):
        return {k: (0 if k == "millis" else norm_json(x)) for k, x in v.items()}
    if isinstance(v, list):
        return [norm_json(x) for x in v]
    return v

def norm_text(path, text):
    base = os.path.basename(path)
    if base.endswith(".json"):
        return json.dumps(norm_json(json.loads(text)), indent=1, sort_keys=True)
    if base.endswith(".jsonl"):
        recs = sorted((norm_json(json.loads(l)) for l in text.splitlines() if l.strip()),
                      key=lambda r: r.get("id", 0))
        return "\n".join(json.dumps(r, sort_keys=True) for r in recs)
    if base == "table.md":
        # Table 4's last four time columns and Table 3's rows keep their numbers except times.
        lines = []
        for l in text.splitlines():
            if l.startswith("| ") and "Killed (%)" not in l:
                cells = l.split("|")
                # Table 4 rows have 8 numeric columns; blank the 3 time columns (5, 6, 8).
                if len(cells) == 11:
                    for k in (6, 7, 9):
                        cells[k] = " t "
                l = "|".join(cells)
            lines.append(l)
        return "\n".join(lines)
    if base == "table.csv":
        # Blank the time columns, found by name in the header.
        lines = text.splitlines()
        header = lines[0].split(",") if lines else []
        times = [k for k, name in enumerate(header) if name.endswith("_time_s") or name.startswith("avg_time")]
        rows = [lines[0]] if lines else []
        for l in lines[1:]:
            c = l.split(",")
            for k in times:
                if k < len(c):
                    c[k] = "t"
            rows.append(",".join(c))
        return "\n".join(rows)
    if base == "mutants.csv":
        rows = []
        for l in text.splitlines():
            c = l.split(",")
            if c[0] != "model" and len(c) >= 12:
                c[-3] = "t"
            rows.append(",".join(c))
        return "\n".join(rows)
    return text

def files(root):
    found = {}
    for dp, _, fn in os.walk(root):
        for f in fn:
            p = os.path.join(dp, f)
            rel = os.path.relpath(p, root)
            with open(p, "rb") as fh:
                data = fh.read()
            try:
                text = data.decode()
                text = text.replace(os.path.join(out, "before"), "OUT").replace(os.path.join(out, "after"), "OUT")
                found[rel] = norm_text(rel, text)
            except UnicodeDecodeError:
                found[rel] = data
    return found

b, a = files(os.path.join(out, "before")), files(os.path.join(out, "after"))
diff = 0
for rel in sorted(set(b) | set(a)):
    if rel not in a or rel not in b:
        print(f"only {'before' if rel in b else 'after'}: {rel}")
        diff += 1
    elif a[rel] != b[rel]:
        print(f"differs: {rel}")
        diff += 1
n = len(set(b) | set(a))
print(f"{n} files compared, {diff} differ")
sys.exit(1 if diff else 0)
PY
