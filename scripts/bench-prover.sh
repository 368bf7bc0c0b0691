#!/usr/bin/env bash
# Benchmark of hypermut's prover on one thread against ABC `pdr` and rIC3 `-e ic3`
# (docs/formats.md §12.7): `hypermut prove --jobs 1` (its default engine on one thread: IC3
# for 0.6 s, held while quick BMC, BMC by leaps and BDD reachability run, then resumed and
# taking turns with the leaps; row `hypermut`) and
# `--engine ic3` (row `hypermut-ic3`).
#
#   scripts/bench-prover.sh [FILE.aig|FILE.aag ...]
#
# Without arguments: every AIGER file with a known result (SAT/UNSAT) in
# ../shared/corpus/MANIFEST.md. Each file is converted once to canonical binary AIGER with
# hypermut's writer (ABC and rIC3 read only binary files reliably, docs/formats.md §9.6) and the
# same binary file goes to every tool, one run after the other, each with the same wall-clock
# limit. Not a test: it takes a while (up to files × tools × TIMEOUT).
#
# Environment: TIMEOUT (seconds, default 60), OUT (result directory, default
# target/bench-prover), RIC3 (path of rIC3; default: on PATH or /opt/anchors/ric3-*/bin/rIC3).
#
# Output: $OUT/results.tsv (id, I, L, A, expected, tool, verdict, depth, wall_s, user_s,
# maxrss_MB) and a summary table on stdout: solved counts, wrong verdicts, PAR-2, and per
# file the time ratio hypermut / other tool where both solved (hypermut: the `hypermut` row).
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
TIMEOUT=${TIMEOUT:-60}
OUT=${OUT:-$ROOT/target/bench-prover}
mkdir -p "$OUT/bin" "$OUT/wit"

RIC3=${RIC3:-}
if [ -z "$RIC3" ]; then
  if command -v rIC3 >/dev/null 2>&1; then RIC3=$(command -v rIC3);
  else for r in /opt/anchors/ric3-*/bin/rIC3; do [ -x "$r" ] && RIC3=$r; done; fi
fi
have_abc=0; command -v berkeley-abc >/dev/null 2>&1 && have_abc=1
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

echo "building hypermut (release) ..." >&2
(cd "$ROOT" && cargo build --release -q -p hypermut && \
  cargo build --release -q -p hypermut-prove --example to_binary) || exit 1
HYPERMUT=$ROOT/target/release/hypermut
TO_BINARY=$ROOT/target/release/examples/to_binary

# The file list with expected results ("safe" / "unsafe" / "?").
LIST=$OUT/files.tsv
if [ $# -gt 0 ]; then
  for f in "$@"; do printf '%s\t?\n' "$f"; done > "$LIST"
else
  python3 - "$SHARED/corpus" > "$LIST" <<'EOF'
import re, sys
root = sys.argv[1]
sec = None
for line in open(root + "/MANIFEST.md"):
    m = re.match(r"### (aiger/\S+)", line)
    if line.startswith("### "):
        sec = m.group(1) if m else None
        continue
    if sec and line.startswith("| `"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        exp = cells[7]
        v = "safe" if exp.startswith("UNSAT") else "unsafe" if exp.startswith("SAT") else None
        if v:
            print(f"{root}/{sec}/{cells[0].strip('`')}\t{v}")
EOF
fi

RES=$OUT/results.tsv
printf 'id\tI\tL\tA\texpected\ttool\tverdict\tdepth\twall_s\tuser_s\tmaxrss_MB\n' > "$RES"

# run TOOL-NAME OUTFILE CMD...: runs with the limit, leaves "wall user maxrss_kB" in $OUT/time
run() {
  local out=$1; shift
  /usr/bin/time -f "%e %U %M" -o "$OUT/time" timeout -k 5 "$TIMEOUT" "$@" > "$out" 2>&1
}

declare -A seen
while IFS=$'\t' read -r file expected; do
  id=$(basename "$file"); id=${id%.*}
  # Same base name in two places (counter.aag, true.aag): qualify with the directory.
  [ -n "${seen[$id]:-}" ] && id="$(basename "$(dirname "$file")")-$id"
  seen[$id]=1
  bin=$OUT/bin/$id.aig
  if ! "$TO_BINARY" "$file" "$bin" 2>"$OUT/err"; then
    echo "skipping $file: $(cat "$OUT/err")" >&2; continue
  fi
  read -r _ M I L O A _ < <(head -c 200 "$bin" | head -1)
  echo "== $id (I=$I L=$L A=$A, expected $expected)" >&2

  # hypermut: the default engine on one thread, and IC3 alone
  for variant in "hypermut --jobs 1" "hypermut-ic3 --engine ic3"; do
    name=${variant%% *}; flags=${variant#* }
    wit=$OUT/wit/$id.$name.wit; rm -f "$wit"
    # shellcheck disable=SC2086 # flags are two words
    run "$OUT/log" "$HYPERMUT" prove "$bin" $flags --witness "$wit"; code=$?
    case $code in 20) v=safe;; 10) v=unsafe;; 0) v=timeout;; 124|137) v=timeout;; *) v=crash;; esac
    depth=""; [ "$v" = unsafe ] && depth=$(( $(grep -c "^[01x]*$" "$wit") - 3 ))
    read -r w u m < <(tail -1 "$OUT/time")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n' "$id" "$I" "$L" "$A" "$expected" "$name" "$v" "$depth" "$w" "$u" $((m/1024)) >> "$RES"
  done

  # ABC pdr
  if [ $have_abc = 1 ]; then
    run "$OUT/log" berkeley-abc -c "read $bin; fold; pdr -T $TIMEOUT"
    if grep -q "Property proved" "$OUT/log"; then v=safe; depth="";
    elif grep -q "was asserted in frame" "$OUT/log"; then v=unsafe
      depth=$(grep -o 'was asserted in frame [0-9]*' "$OUT/log" | head -1 | grep -o '[0-9]*$')
    elif grep -qi "error\|cannot" "$OUT/log"; then v=crash; depth="";
    else v=timeout; depth=""; fi
    read -r w u m < <(tail -1 "$OUT/time")
    printf '%s\t%s\t%s\t%s\t%s\tabc-pdr\t%s\t%s\t%s\t%s\t%d\n' "$id" "$I" "$L" "$A" "$expected" "$v" "$depth" "$w" "$u" $((m/1024)) >> "$RES"
  fi

  # rIC3 -e ic3
  if [ -n "$RIC3" ]; then
    cert=$OUT/wit/$id.ric3.wit; rm -f "$cert"
    run "$OUT/log" "$RIC3" -e ic3 "$bin" "$cert"; code=$?
    case $code in 20) v=safe;; 10) v=unsafe;; 124|137) v=timeout;; *) v=crash;; esac
    depth=""; [ "$v" = unsafe ] && [ -f "$cert" ] && depth=$(( $(grep -c "^[01x]*$" "$cert") - 3 ))
    read -r w u m < <(tail -1 "$OUT/time")
    printf '%s\t%s\t%s\t%s\t%s\tric3-ic3\t%s\t%s\t%s\t%s\t%d\n' "$id" "$I" "$L" "$A" "$expected" "$v" "$depth" "$w" "$u" $((m/1024)) >> "$RES"
  fi
done < "$LIST"

python3 - "$RES" "$TIMEOUT" <<'EOF'
import csv, sys
from collections import defaultdict
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
limit = float(sys.argv[2])
tools = []
for r in rows:
    if r["tool"] not in tools:
        tools.append(r["tool"])
by = defaultdict(dict)
for r in rows:
    by[r["id"]][r["tool"]] = r
def solved(r):
    return r["verdict"] in ("safe", "unsafe")
print(f"\n{len(by)} files, limit {limit:g} s\n")
print("| tool | solved | safe | unsafe | wrong | PAR-2 (s) |")
print("|---|---|---|---|---|---|")
for t in tools:
    rs = [by[i][t] for i in by if t in by[i]]
    ok = [r for r in rs if solved(r)]
    wrong = [r for r in ok if r["expected"] in ("safe", "unsafe") and r["verdict"] != r["expected"]]
    par2 = sum(float(r["wall_s"]) if solved(r) and r not in wrong else 2 * limit for r in rs)
    print(f"| {t} | {len(ok)} | {sum(r['verdict']=='safe' for r in ok)} | "
          f"{sum(r['verdict']=='unsafe' for r in ok)} | {len(wrong)} | {par2:.1f} |")
for i in by:
    vs = {by[i][t]["verdict"] for t in by[i] if solved(by[i][t])}
    if len(vs) > 1:
        print(f"DISAGREEMENT on {i}: " + ", ".join(f"{t}={by[i][t]['verdict']}" for t in by[i]))
others = [t for t in tools if not t.startswith("hypermut")]
print("\nper file (wall seconds; ratio = hypermut / other, where both solved)\n")
print("| file | I/L/A | expected | " + " | ".join(tools) + " | " + " | ".join(f"ratio vs {t}" for t in others) + " |")
print("|---|---|---|" + "---|" * (len(tools) + len(others)))
for i, d in by.items():
    any_r = next(iter(d.values()))
    cells = []
    for t in tools:
        r = d.get(t)
        if r is None:
            cells.append("-")
        elif solved(r):
            dep = f"@{r['depth']}" if r["depth"] else ""
            cells.append(f"{r['verdict']}{dep} {float(r['wall_s']):.2f}")
        else:
            cells.append(r["verdict"])
    ratios = []
    h = d.get("hypermut")
    for t in others:
        r = d.get(t)
        if h and r and solved(h) and solved(r):
            ratios.append(f"{max(float(h['wall_s']), 0.01) / max(float(r['wall_s']), 0.01):.2f}")
        else:
            ratios.append("-")
    print(f"| {i} | {any_r['I']}/{any_r['L']}/{any_r['A']} | {any_r['expected']} | "
          + " | ".join(cells) + " | " + " | ".join(ratios) + " |")
EOF
