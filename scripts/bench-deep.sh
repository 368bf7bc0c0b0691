#!/usr/bin/env bash
# Benchmark (not a test): hypermut testgen on models whose kills need many frames (periodic
# counters, timers, watchdogs), where a difference shows only after 50 to a few hundred steps.
#
#   scripts/bench-deep.sh [--sample N] [--seed S] [--abc S] [--keep DIR] [MODEL ...]
#
# Per model, `hypermut testgen MODEL --timeout $TIMEOUT --jobs $JOBS` decides all mutants (or
# `--sample N` of them, shown in the heading) and prints a Markdown section:
#   * one row: mutants, killed, equivalent, unknown, invalid, error, kills by engine `replay`
#     (fault dropping, docs/method.md §7.8: a test found for another mutant, replayed first),
#     the deepest kill depth, and the wall time of the whole testgen run;
#   * the 5 deepest kills: id, depth, engine, seconds spent on the mutant;
#   * every unknown (and error) mutant with its reason. With `--abc S` (default 60; 0 skips
#     it), each unknown mutant's φ1 product (`hypermut product MODEL --mutant N`) is written,
#     its size shown (inputs / latches / ANDs of the AIGER header), and ABC runs on it twice,
#     one process each under `timeout`: `read; fold; pdr -T S; print_status` and
#     `read; fold; bmc3 -F $ABC_FRAMES -T S; print_status`. Verdict `cex@K` (the product's
#     bad output is asserted in frame K: a kill of depth K that testgen missed), `proved` (an
#     equivalent mutant) or `undecided`, with the wall time.
# A summary table, one row per model, closes the output.
#
# A MODEL argument may carry extra hypermut flags in the same word ("x.smv --pre cpp",
# "x.smv --sample 40"); a `--sample`/`--seed` there overrides the global one for that model
# (and is left out of `hypermut product`). Default models: models/smv-deep/{watchdog,
# sampler}.smv (a 64-cycle watchdog and a 100-cycle majority sampler, written for this
# benchmark) and, when ../shared/corpus/smv exists, the NuSMV robot scheduler (a 0..400 timer,
# sampled) and the shuttle digital autopilot (sampled).
#
# Environment: TIMEOUT (testgen's time limit per mutant, default 20), JOBS (testgen's worker
# threads, default 2), ABC_FRAMES (bmc3 frames, default 300), HYPERMUT_BIN (a hypermut binary
# to measure instead of this checkout's release build), HYPERMUT_SHARED_DIR (default ../shared).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

TIMEOUT=${TIMEOUT:-20} JOBS=${JOBS:-2} ABC_FRAMES=${ABC_FRAMES:-300}
SAMPLE="" SEED=0 ABC_T=60 KEEP=""
MODELS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --sample) SAMPLE=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --abc) ABC_T=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) MODELS+=("$1"); shift ;;
  esac
done
if [ ${#MODELS[@]} -eq 0 ]; then
  MODELS=(models/smv-deep/watchdog.smv models/smv-deep/sampler.smv)
  CORPUS=${HYPERMUT_SHARED_DIR:-$ROOT/../shared}/corpus/smv
  if [ -d "$CORPUS" ]; then
    MODELS+=("$CORPUS/nusmv-2.6.0-examples/smv-dist/robot.smv --sample 40 --seed 1"
             "$CORPUS/shuttle-autopilot/shuttle_digital_autopilot.smv --sample 40 --seed 1")
  fi
fi
for tool in python3 timeout; do
  command -v "$tool" >/dev/null || { echo "$tool is missing" >&2; exit 2; }
done
if [ "$ABC_T" != 0 ] && ! command -v berkeley-abc >/dev/null; then
  echo "berkeley-abc is missing (or pass --abc 0)" >&2; exit 2
fi
if [ -n "${HYPERMUT_BIN:-}" ]; then
  BIN=$HYPERMUT_BIN
else
  cargo build --release -q -p hypermut
  BIN=$ROOT/target/release/hypermut
fi
if [ -n "$KEEP" ]; then WORK=$KEEP; mkdir -p "$WORK"; else WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT; fi

# run ABC's script $2 on product $1 under a wall-clock limit; prints "verdict seconds"
abc_run() {
  local t0 t1 log status
  t0=$(date +%s.%N)
  log=$(timeout $((ABC_T + 10)) berkeley-abc -c "read $1; fold; $2; print_status" 2>&1 || true)
  t1=$(date +%s.%N)
  status=$(grep -m1 '^Status = ' <<< "$log" || true)
  python3 - "$status" "$t0" "$t1" <<'EOF'
import re, sys
s, t0, t1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
m = re.search(r"Status = (-?\d+)", s)
f = re.search(r"CEX: Po = +\d+ +Frame = +(\d+)", s)
v = "undecided" if not m else {"1": "proved", "0": f"cex@{f.group(1)}" if f else "cex"}.get(m.group(1), "undecided")
print(v, f"{t1 - t0:.2f}")
EOF
}

SUMMARY=()
for spec in "${MODELS[@]}"; do
  read -r -a words <<< "$spec"
  model=${words[0]}
  flags=() msample=$SAMPLE mseed=$SEED
  for ((i = 1; i < ${#words[@]}; i++)); do
    case "${words[i]}" in
      --sample) msample=${words[i + 1]}; i=$((i + 1)) ;;
      --seed) mseed=${words[i + 1]}; i=$((i + 1)) ;;
      *) flags+=("${words[i]}") ;;
    esac
  done
  name=$(basename "$model" .smv)
  out=$WORK/$name; mkdir -p "$out"
  sel=(); label="all mutants"
  if [ -n "$msample" ]; then sel=(--sample "$msample" --seed "$mseed"); label="--sample $msample --seed $mseed"; fi
  t0=$(date +%s.%N)
  if ! "$BIN" testgen "$model" "${flags[@]}" "${sel[@]}" --timeout "$TIMEOUT" --jobs "$JOBS" \
       --out "$out/tg" --fresh > "$out/testgen.log" 2>&1; then
    echo "## $name: testgen failed (see $out/testgen.log)"; echo; tail -5 "$out/testgen.log"; echo
    SUMMARY+=("| $name | $label | testgen failed | | | | | | | | |")
    continue
  fi
  wall=$(echo "$(date +%s.%N) - $t0" | bc)
  echo "## $name ($label; timeout ${TIMEOUT} s, $JOBS jobs)"
  echo
  row=$(python3 - "$out/tg/summary.json" "$name" "$label" "$wall" <<'EOF'
import json, sys
path, name, label, wall = sys.argv[1:]
s = json.load(open(path))
rs = s["results"]
kills = [r for r in rs if r["outcome"] == "killed"]
replay = sum(1 for r in kills if r.get("engine") == "replay")
deepest = max((r["depth"] for r in kills if r.get("depth") is not None), default=None)
count = lambda o: sum(1 for r in rs if r["outcome"] == o)
cells = [len(rs), count("killed"), count("equivalent"), count("unknown"), count("invalid"),
         count("error"), replay, "-" if deepest is None else deepest, f"{float(wall):.1f}"]
print("| mutants | killed | equivalent | unknown | invalid | error | replay kills | deepest kill | wall s |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
print("| " + " | ".join(map(str, cells)) + " |")
print()
print("5 deepest kills:")
print()
print("| id | depth | engine | s |")
print("|---:|---:|---|---:|")
top = sorted(kills, key=lambda r: (-(r.get("depth") or 0), r["id"]))[:5]
for r in top:
    print(f"| {r['id']} | {r.get('depth')} | {r.get('engine')} | {r.get('millis', 0) / 1000:.2f} |")
print()
# the summary row goes last, on a line of its own, for the caller
print("SUMMARY| " + " | ".join(map(str, [name, label] + cells)) + " |")
EOF
)
  grep -v '^SUMMARY' <<< "$row"
  SUMMARY+=("$(grep '^SUMMARY' <<< "$row" | sed 's/^SUMMARY//')")
  # the unknown and error mutants, one per line: id, outcome, operator, location, text, reason
  mapfile -t undecided < <(python3 - "$out/tg/summary.json" <<'EOF'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    if r["outcome"] in ("unknown", "error"):
        text = f"{r.get('original', '')} → {r.get('replacement', '')}".replace("|", "\\|").replace("\n", " ")
        reason = (r.get("reason") or "").replace("|", "\\|").replace("\n", " ")
        loc = r.get("location") or ""
        loc = loc.rsplit("/", 1)[-1] if isinstance(loc, str) else loc
        print("\t".join(map(str, [r["id"], r["outcome"], r.get("operator", ""), loc, text, reason])))
EOF
)
  if [ ${#undecided[@]} -eq 0 ]; then echo "No unknown mutants."; echo; continue; fi
  echo "Unknown / error mutants:"
  echo
  if [ "$ABC_T" = 0 ]; then
    echo "| id | outcome | operator | location | mutation | reason |"
    echo "|---:|---|---|---|---|---|"
  else
    echo "| id | outcome | operator | location | mutation | reason | product I / L / A | ABC pdr (s) | ABC bmc3 -F $ABC_FRAMES (s) |"
    echo "|---:|---|---|---|---|---|---:|---|---|"
  fi
  for line in "${undecided[@]}"; do
    IFS=$'\t' read -r id outcome op loc text reason <<< "$line"
    cells="| $id | $outcome | $op | $loc | $text | $reason |"
    if [ "$ABC_T" != 0 ] && [ "$outcome" = unknown ]; then
      p=$out/p$id.aig
      if "$BIN" product "$model" "${flags[@]}" --mutant "$id" -o "$p" > /dev/null 2>&1; then
        # binary AIGER header: aig M I L O A [B C J F]
        size=$(head -n1 "$p" | awk '{print $3 " / " $4 " / " $6}')
        read -r pv ps <<< "$(abc_run "$p" "pdr -T $ABC_T")"
        read -r bv bs <<< "$(abc_run "$p" "bmc3 -F $ABC_FRAMES -T $ABC_T")"
        cells+=" $size | $pv ($ps) | $bv ($bs) |"
      else
        cells+=" product failed | | |"
      fi
    elif [ "$ABC_T" != 0 ]; then
      cells+=" | | |"
    fi
    echo "$cells"
  done
  echo
done

echo "## Summary (timeout ${TIMEOUT} s per mutant, $JOBS jobs)"
echo
echo "| model | mutants run | mutants | killed | equivalent | unknown | invalid | error | replay kills | deepest kill | wall s |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${SUMMARY[@]}"
