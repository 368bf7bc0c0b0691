#!/usr/bin/env bash
# Benchmark (not a test): hypermut testgen against the per-mutant pipeline an MCY user runs,
# on the same mutants of the same Verilog designs, side by side in one run.
#
#   scripts/bench-mutants.sh [--sample N] [--seed S] [--abc-timeout S] [--keep DIR]
#                            [--no-pipeline] [MODEL.v ...]
#
# (a) `hypermut testgen MODEL --jobs 1` decides every mutant (BMC, then IC3; tests replayed,
#     certificates re-checked): one process for the whole model.
# (b) for every mutant, one after the other:
#     `hypermut mutant MODEL --id N --emit source -o M.v` (the mutant's source text), then yosys
#     reads original and mutant, builds a miter (`miter -equiv -flatten gold gate miter`) and
#     writes it as AIGER (`write_aiger -zinit`), then ABC `pdr` decides it.
# (c) ABC on hypermut's own per-mutant products (`hypermut product MODEL --mutant N`, written
#     beforehand and not timed): `read P; fold; dprove` and `read P; fold; pdr -T S`, one ABC
#     process per product under `timeout S` (dprove's own limits do not bound all its
#     engines, so one process per design could hang). The time counted is ABC's own: the
#     `Time = X sec` of dprove's and pdr's final line per product (the timeout when the
#     process is killed before it), so solving time, not start-up or reading. The wall time
#     minus ABC's start-up (the mean of 10 `berkeley-abc -c quit`) is printed per design on
#     stderr for comparison.
# Verdicts are compared: killed <-> ABC asserts the miter's trigger, equivalent <-> proved.
# All sides use one core. Prints one Markdown row per model and the total, with (b)/(a) and
# (a) over the better of ABC's dprove and pdr in (c). --no-pipeline skips (b).
#
# A MODEL argument may carry extra hypermut flags in the same word ("x.v --top foo"); yosys then
# uses the `--top` module, else the file's base name. Default: models/verilog/{arbiter,
# car_alarm,traffic_light,uart_tx}.v.
#
# Conventions: yosys's miter starts from a zero-initialised state (`setundef -zero -init`),
# whereas hypermut treats a register without an initial value as uninitialised (a free value
# shared by both copies), and both turn `x` bits into 0 (`setundef -zero -undriven`, and
# `setundef -zero` once more after `techmap`, whose lowering leaves `x` constants). The
# default designs initialise every register, so the conventions agree; on other designs a
# verdict difference may come from this (a mutant killable only from a nonzero start).
# `$ND` (car_alarm_timed.v) is a VIS idiom yosys cannot read.
set -euo pipefail
cd "$(dirname "$0")/.."

SAMPLE="" SEED=0 ABC_T=60 KEEP="" PIPELINE=1
MODELS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --sample) SAMPLE=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --abc-timeout) ABC_T=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    --no-pipeline) PIPELINE=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) MODELS+=("$1"); shift ;;
  esac
done
[ ${#MODELS[@]} -gt 0 ] || MODELS=(models/verilog/arbiter.v models/verilog/car_alarm.v
                                   models/verilog/traffic_light.v models/verilog/uart_tx.v)
for tool in yosys berkeley-abc python3 bc; do
  command -v "$tool" >/dev/null || { echo "$tool is missing" >&2; exit 2; }
done
# HYPERMUT_BIN: a hypermut binary to measure instead of this checkout's release build.
if [ -n "${HYPERMUT_BIN:-}" ]; then
  BIN=$HYPERMUT_BIN
else
  cargo build --release -q
  BIN=$PWD/target/release/hypermut
fi
if ! "$BIN" mutant --help >/dev/null 2>&1; then
  echo "this hypermut has no \`mutant\` subcommand (needed for --emit source)" >&2; exit 2
fi
if [ -n "$KEEP" ]; then WORK=$KEEP; mkdir -p "$WORK"; else WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT; fi

now() { date +%s.%N; }
# ABC's start-up time (mean of 10 runs), subtracted per ABC process in (c).
t0=$(date +%s.%N)
for _ in 1 2 3 4 5 6 7 8 9 10; do berkeley-abc -c quit > /dev/null 2>&1; done
ABC_START=$(echo "($(date +%s.%N) - $t0) / 10" | bc -l)
# add the time since $2 to the variable named $1
acc() { local -n v=$1; v=$(echo "$v + $(now) - $2" | bc); }

printf "ABC start-up: %.3f s per process (subtracted in (c))\n\n" "$ABC_START"
echo "| design | mutants | hypermut testgen: killed / equiv | (a) testgen s | (b) mutant + yosys + ABC s (emit / yosys / ABC) | (b)/(a) | verdicts agree | differ | ABC timeout | (c) ABC dprove s | (c) ABC pdr s | (a)/best (c) | (c) agree / undecided |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
TA=0 TB=0 TN=0 TAG=0 TDIF=0 TDP=0 TPDR=0
DIFFS=()
idx=0
for spec in "${MODELS[@]}"; do
  read -r -a words <<< "$spec"
  model=${words[0]}; flags=("${words[@]:1}")
  top=$(basename "$model" .v); incdir=$(dirname "$model")
  for ((j = 0; j < ${#flags[@]}; j++)); do
    [ "${flags[$j]}" = "--top" ] && top=${flags[$((j + 1))]}
  done
  idx=$((idx + 1)); dir=$WORK/$idx-$top; mkdir -p "$dir/m"
  samp=(); [ -n "$SAMPLE" ] && samp=(--sample "$SAMPLE" --seed "$SEED")

  # (a)
  t0=$(now)
  "$BIN" testgen "$model" "${flags[@]}" "${samp[@]}" --jobs 1 --out "$dir/tg" --fresh > "$dir/testgen.log"
  ta=$(echo "$(now) - $t0" | bc)
  python3 - "$dir/tg/summary.json" > "$dir/ours" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(r["id"], r["outcome"])
PY

  # (c): the products first (not timed), then ABC on each.
  mkdir -p "$dir/p"
  ids=()
  while read -r id verdict; do
    [ "$verdict" = invalid ] && continue
    if "$BIN" product "$model" "${flags[@]}" --mutant "$id" -o "$dir/p/$id.aig" 2> "$dir/p/$id.err"; then
      ids+=("$id")
    fi
  done < "$dir/ours"
  : > "$dir/dprove.out"; : > "$dir/pdr.out"
  t=$(now)
  for id in "${ids[@]}"; do
    timeout "$ABC_T" berkeley-abc -c "read $dir/p/$id.aig; fold; print_stats; dprove" >> "$dir/dprove.out" 2>&1 || true
  done
  t_dp=$(echo "$(now) - $t - ${#ids[@]} * $ABC_START" | bc)
  t=$(now)
  for id in "${ids[@]}"; do
    timeout "$ABC_T" berkeley-abc -c "read $dir/p/$id.aig; fold; print_stats; pdr -T $ABC_T" >> "$dir/pdr.out" 2>&1 || true
  done
  t_pdr=$(echo "$(now) - $t - ${#ids[@]} * $ABC_START" | bc)
  echo "$model: ABC wall minus start-up: dprove $t_dp s, pdr $t_pdr s" >&2
  crow=$(python3 - "$dir/ours" "$dir/dprove.out" "$dir/pdr.out" "$ABC_T" <<'PY'
import re, sys
ours = dict(l.split() for l in open(sys.argv[1]) if l.strip())
limit = float(sys.argv[4])
def verdicts(path):
    """Verdict per product, and ABC's own time for it: the largest `Time = X sec` it printed
    (dprove's and pdr's final line is their total), or the limit when no final line came."""
    out, current, times, final = {}, None, {}, set()
    for line in open(path, errors="replace"):
        m = re.search(r"/p/(\d+)\s*:.*i/o", line)
        if m:
            current = m.group(1)
            out[current] = "undecided"
            times[current] = 0.0
            continue
        if current is None:
            continue
        t = re.search(r"Time =\s*([0-9.]+) sec", line)
        if t:
            times[current] = max(times[current], float(t.group(1)))
        if re.search(r"Networks are|Property (proved|FAILED|UNDECIDED)|was asserted in frame|SATISFIABLE", line):
            final.add(current)
        if "Networks are equivalent" in line or "Property proved" in line:
            out[current] = "equivalent"
        elif "NOT EQUIVALENT" in line or "was asserted in frame" in line or "Property FAILED" in line:
            out[current] = "killed"
    return out, sum(times[i] if i in final else limit for i in times)
(d, td), (p, tp) = verdicts(sys.argv[2]), verdicts(sys.argv[3])
decided = [i for i in ours if ours[i] in ("killed", "equivalent")]
agree = sum(1 for i in decided if (d.get(i) == ours[i]) or (p.get(i) == ours[i]))
undecided = sum(1 for i in decided if d.get(i, "undecided") == "undecided" and p.get(i, "undecided") == "undecided")
wrong = [i for i in decided for v in (d.get(i), p.get(i)) if v not in (None, "undecided", ours[i])]
print(agree, undecided, ",".join(sorted(set(wrong))) or "-", f"{td:.2f}", f"{tp:.2f}")
PY
)
  # ABC's own solve times replace the wall times minus start-up (more exact under load).
  read -r cagree cund cwrong t_dp t_pdr <<< "$crow"
  [ "$cwrong" != "-" ] && DIFFS+=("$model (c): ABC disagrees on $cwrong")

  # (b)
  t_emit=0 t_yosys=0 t_abc=0
  : > "$dir/theirs"
  while read -r id _; do
    [ "$PIPELINE" = 1 ] || break
    t=$(now)
    "$BIN" mutant "$model" "${flags[@]}" --id "$id" --emit source -o "$dir/m/$id.v" 2> "$dir/m/$id.emit.err"
    acc t_emit "$t"
    t=$(now)
    if yosys -q -l "$dir/m/$id.yosys.log" -p "
        read_verilog -I $incdir $model; rename $top gold;
        read_verilog -I $incdir $dir/m/$id.v; rename $top gate;
        proc; flatten; memory_dff; memory_collect; memory_map; opt_clean;
        setundef -zero -undriven -init; async2sync;
        miter -equiv -flatten gold gate miter; hierarchy -top miter;
        opt -keepdc; techmap; opt -fast -keepdc; dffunmap; setundef -zero; aigmap; opt_clean;
        write_aiger -zinit $dir/m/$id.aig" > /dev/null 2>&1; then
      acc t_yosys "$t"
      t=$(now)
      text=$(berkeley-abc -c "read $dir/m/$id.aig; pdr -T $ABC_T" 2>&1 || true)
      acc t_abc "$t"
      case "$text" in
        *"Property proved"*) v=equivalent ;;
        *"was asserted in frame"*|*"Property FAILED"*) v=killed ;;
        *) v=timeout ;;
      esac
    else
      acc t_yosys "$t"
      v=yosys-error
    fi
    echo "$id $v" >> "$dir/theirs"
  done < "$dir/ours"
  tb=$(echo "$t_emit + $t_yosys + $t_abc" | bc)

  row=$(python3 - "$dir/ours" "$dir/theirs" <<'PY'
import sys
ours = dict(l.split() for l in open(sys.argv[1]) if l.strip())
theirs = dict(l.split() for l in open(sys.argv[2]) if l.strip())
n = len(ours)
k = sum(v == "killed" for v in ours.values())
e = sum(v == "equivalent" for v in ours.values())
agree = sum(ours[i] == theirs.get(i) for i in ours)
timeout = sum(theirs.get(i) == "timeout" for i in ours)
diff = [i for i in ours if ours[i] != theirs.get(i) and theirs.get(i) != "timeout"]
kinds = {}
for i in diff:
    kinds.setdefault(f"{ours[i]}/{theirs.get(i)}", []).append(i)
text = ";".join(f"{len(v)}x{k}(ids:{','.join(v[:10])}{',...' if len(v) > 10 else ''})"
                for k, v in sorted(kinds.items()))
print(n, k, e, agree, len(diff), timeout, text or "-")
PY
)
  read -r n k e agree ndiff tout diff <<< "$row"
  best=$(echo "if ($t_dp < $t_pdr) $t_dp else $t_pdr" | bc -l)
  [ "$PIPELINE" = 1 ] || { agree=0; ndiff=0; tout=0; }
  printf "| %s | %d | %d / %d | %.1f | %.1f (%.1f / %.1f / %.1f) | %.1f× | %d | %d | %d | %.2f | %.2f | %.2f× | %d / %d |\n" \
    "$model" "$n" "$k" "$e" "$ta" "$tb" "$t_emit" "$t_yosys" "$t_abc" "$(echo "$tb / $ta" | bc -l)" \
    "$agree" "$ndiff" "$tout" "$t_dp" "$t_pdr" "$(echo "$ta / $best" | bc -l)" "$cagree" "$cund"
  [ "$ndiff" -gt 0 ] && DIFFS+=("$model: $diff")
  TA=$(echo "$TA + $ta" | bc) TB=$(echo "$TB + $tb" | bc)
  TDP=$(echo "$TDP + $t_dp" | bc) TPDR=$(echo "$TPDR + $t_pdr" | bc)
  TN=$((TN + n)) TAG=$((TAG + agree)) TDIF=$((TDIF + ndiff))
done
TBEST=$(echo "if ($TDP < $TPDR) $TDP else $TPDR" | bc -l)
printf "| **total** | %d | | %.1f | %.1f | %.1f× | %d | %d | | %.2f | %.2f | %.2f× | |\n" "$TN" "$TA" "$TB" "$(echo "$TB / $TA" | bc -l)" "$TAG" "$TDIF" "$TDP" "$TPDR" "$(echo "$TA / $TBEST" | bc -l)"
if [ ${#DIFFS[@]} -gt 0 ]; then
  echo
  echo "Verdicts that differ (count x hypermut/yosys+ABC, first ids; files in ${KEEP:-a temporary directory, rerun with --keep DIR}):"
  printf '  %s\n' "${DIFFS[@]}"
fi
