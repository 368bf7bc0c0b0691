#!/usr/bin/env bash
# Benchmark (not a test): every mutant of every corpus Verilog design up to a size decided by
# `hypermut testgen`, one design after the other.
#
#   scripts/bench-corpus-testgen.sh [--max-ands N] [--timeout S] [--jobs J] [--only REGEX]
#                                   [--skip REGEX] [--out DIR]
#
# Designs: tests/data/verilog/corpus-designs.txt (corpus in ../shared/corpus/verilog or
# $HYPERMUT_SHARED_DIR/corpus/verilog). A design is run when `hypermut aiger` reads it and
# writes at most N AND gates (default 10,000); each of its mutants gets S seconds (default
# 60) of engine time, on J worker threads (default: all cores). Prints one Markdown row per
# design (ANDs, mutants, killed, equivalent, unknown, invalid, errors, the deepest kill,
# wall time) and the totals. --only and --skip select designs by name (extended regexes).
# The testgen output of each design stays in DIR/NAME (default: a temporary folder, removed
# at the end). A design without outputs has only equivalent mutants (every Verilog
# register is observable with `--observe-state`, which this script does not pass).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SHARED=${HYPERMUT_SHARED_DIR:-$ROOT/../shared}
CORPUS=$SHARED/corpus/verilog
LIST=$ROOT/tests/data/verilog/corpus-designs.txt
MAX_ANDS=10000 TIMEOUT=60 JOBS=$(nproc) ONLY=. SKIP='^$' OUT=""
while [ $# -gt 0 ]; do
    case "$1" in
        --max-ands) MAX_ANDS=$2; shift 2 ;;
        --timeout) TIMEOUT=$2; shift 2 ;;
        --jobs) JOBS=$2; shift 2 ;;
        --only) ONLY=$2; shift 2 ;;
        --skip) SKIP=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
if [ ! -d "$CORPUS" ]; then
    echo "the shared corpus ($CORPUS) is not available" >&2
    exit 1
fi
# HYPERMUT_BIN: a hypermut binary to measure instead of this checkout's release build.
if [ -n "${HYPERMUT_BIN:-}" ]; then
    HM=$HYPERMUT_BIN
else
    cargo build --release -q -p hypermut
    HM=$ROOT/target/release/hypermut
fi
if [ -n "$OUT" ]; then mkdir -p "$OUT"; else OUT=$(mktemp -d); trap 'rm -rf "$OUT"' EXIT; fi

now() { date +%s.%N; }

echo "| design | ANDs | mutants | killed | equivalent | unknown | invalid | errors | deepest kill | wall s |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
TOTALS="0 0 0 0 0 0 0"
while IFS='|' read -r name top files; do
    name=$(echo "$name" | xargs)
    case "$name" in ''|'#'*) continue ;; esac
    echo "$name" | grep -Eq "$ONLY" || continue
    if echo "$name" | grep -Eq "$SKIP"; then continue; fi
    top=$(echo "$top" | xargs)
    read -r -a rel <<< "$files"
    paths=()
    for f in "${rel[@]}"; do paths+=("$CORPUS/$f"); done
    dir=$OUT/${name//\//_}
    mkdir -p "$dir"
    if ! "$HM" aiger "${paths[@]}" --top "$top" -o "$dir/design.aig" 2> "$dir/aiger.err"; then
        echo "| $name | fail | | | | | | | | |"
        continue
    fi
    ands=$(head -n 1 "$dir/design.aig" | awk '{print $6}')
    [ "$ands" -le "$MAX_ANDS" ] || continue
    t0=$(now)
    if ! "$HM" testgen "${paths[@]}" --top "$top" --timeout "$TIMEOUT" --jobs "$JOBS" \
            --out "$dir/tg" --fresh > "$dir/testgen.log" 2>&1; then
        echo "| $name | $ands | testgen failed: see $dir/testgen.log | | | | | | | |"
        continue
    fi
    wall=$(echo "$(now) - $t0" | bc)
    row=$(python3 - "$dir/tg" <<'PY'
import json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
deepest = 0
try:
    lines = open(d + "/results.jsonl").readlines()
except FileNotFoundError:  # a design without mutants
    lines = []
for line in lines:
    r = json.loads(line)
    if r["outcome"] == "killed" and r.get("depth") is not None:
        deepest = max(deepest, r["depth"])
keys = ["mutants", "killed", "equivalent", "unknown", "invalid", "errors"]
print(" ".join(str(s[k]) for k in keys), deepest)
PY
)
    read -r n k e u i x deep <<< "$row"
    printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f |\n" \
        "$name" "$ands" "$n" "$k" "$e" "$u" "$i" "$x" "$deep" "$wall"
    read -r tn tk te tu ti tx tw <<< "$TOTALS"
    TOTALS="$((tn + n)) $((tk + k)) $((te + e)) $((tu + u)) $((ti + i)) $((tx + x)) $(echo "$tw + $wall" | bc)"
done < "$LIST"
read -r tn tk te tu ti tx tw <<< "$TOTALS"
printf "| **total** | | %s | %s | %s | %s | %s | %s | | %.1f |\n" "$tn" "$tk" "$te" "$tu" "$ti" "$tx" "$tw"
