#!/usr/bin/env bash
# Cross-check hypermut's mutant verdicts against ABC's PDR, mutant by mutant.
#
#   scripts/crosscheck-mutants.sh [--sample N] [--seed S] [--jobs J] [--timeout S]
#                                 [--abc-timeout S] [--keep DIR] [--no-corpus] [MODEL ...]
#
# For each model: `hypermut testgen MODEL --out DIR` (with `--sample N --seed S` if given), then
# for every decided mutant `hypermut product MODEL --mutant ID -o P.aig` and
# `berkeley-abc -c "read P.aig; fold; pdr -T 60"` (`fold`: products carry AIGER constraints).
# Verdicts must agree: killed <-> ABC "Output 0 ... was asserted" / "Property FAILED",
# equivalent <-> "Property proved". An equivalent mutant whose product has a constant-false
# kill may also get ABC's "Does not work for combinational networks" (nothing to check).
# Invalid mutants (out-of-range assignment) are not compared: their product's verdict is about
# the out-of-range behaviour, not about equivalence.
#
# A MODEL argument is a path followed by any extra hypermut flags in the same word, e.g.
# "path/to/x.v --top foo --observe-state". Without MODEL arguments: every bundled model
# (models/smv/*.smv, models/verilog/*.v) plus the corpus models listed below, when
# ../shared/corpus exists (`--no-corpus` leaves them out).
#
# Prints one Markdown row per model and a total; exits 1 on any disagreement, 2 on a usage or
# tool error. ABC timeouts and undecided hypermut verdicts are counted, not failures.
set -euo pipefail
cd "$(dirname "$0")/.."

SAMPLE="" SEED=0 JOBS=2 TIMEOUT=60 ABC_T=60 KEEP="" CORPUS=1
MODELS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --sample) SAMPLE=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    --abc-timeout) ABC_T=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    --no-corpus) CORPUS=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) MODELS+=("$1"); shift ;;
  esac
done

# Corpus models that hypermut accepts and whose mutants are all decided within seconds
# (checked with the default 60 s budget). Paths are relative to the corpus root.
CORPUS_MODELS=(
  "smv/lmcs-2006/short/short.smv"
  "smv/nusmv-2.6.0-examples/example_cmu/counter.smv"
  "smv/lmcs-2006/aiger-1.9/counter/counter.smv"
  "smv/aiger-examples/latch0.smv"
  "smv/nusmv-2.6.0-examples/example_cmu/semaphore.smv"
  "smv/pono-tests/counter_bitvector.smv"
  "smv/aiger-examples/s2cfair.smv"
  "smv/lmcs-2006/dme/dme2.smv"
  "smv/aiger-examples/mult2.smv"
  "smv/hyperrusty/sync/12_mapsynth/msynth2_MA.smv"
  "smv/nusmv-2.6.0-examples/example_cmu/syncarb5.smv"
  "smv/lmcs-2006/mutex/mutex.smv"
  "smv/hyperrusty/sync/0_infoflow/info.smv"
  "verilog/ispras24-seq/dffe.v"
  "verilog/ispras24-seq/sdffce.v"
  "verilog/ispras24-seq/aldffe.v"
  "verilog/mchyper/alternation-free_2015/ethernet/rtl/verilog/eth_register.v"
  "verilog/hyperrusty/LED/system_ee.v"
  "verilog/vis-verilog2smv/Rotate/rotate32.v"
  "verilog/mchyper/quantifier-alternation_2019/bakery/sym4.v"
  "verilog/vis-verilog2smv/Spinner/spinner32.v"
  "verilog/mchyper/alternation-free_2015/ethernet/rtl/verilog/eth_clockgen.v"
  "verilog/mchyper/alternation-free_2015/hamming/ham_7_4_enc/rtl/verilog/ham_7_4_enc1.v"
  "verilog/quip/fip_risc8/alu.v"
  "verilog/opencores-iwls05/simple_spi/fifo4.v"
  "verilog/texas97/PPC60X_bus/src/arbiter.v"
  "verilog/opencores-iwls05/spi/spi_clgen.v"
)

command -v berkeley-abc >/dev/null || { echo "berkeley-abc is missing (install-oracles.sh apt)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is missing" >&2; exit 2; }
if [ ${#MODELS[@]} -eq 0 ]; then
  for m in models/smv/*.smv models/verilog/*.v; do MODELS+=("$m"); done
  CORPUS_ROOT=../shared/corpus
  if [ "$CORPUS" = 1 ] && [ -d "$CORPUS_ROOT" ]; then
    for m in "${CORPUS_MODELS[@]}"; do MODELS+=("$CORPUS_ROOT/$m"); done
  elif [ "$CORPUS" = 1 ]; then
    echo "note: $CORPUS_ROOT is absent, only the bundled models are checked" >&2
  fi
fi

cargo build --release -q
BIN=$PWD/target/release/hypermut
if [ -n "$KEEP" ]; then WORK=$KEEP; mkdir -p "$WORK"; else WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT; fi

# One ABC run on one product; prints "ID VERDICT" with VERDICT one of
# falsified / proved / combinational / timeout / error.
abc_one() {
  local aig=$1 id=$2 text
  text=$(berkeley-abc -c "read $aig; fold; pdr -T $ABC_T" 2>&1 || true)
  case "$text" in
    *"Does not work for combinational networks"*) echo "$id combinational" ;;
    *"Property proved"*) echo "$id proved" ;;
    *"was asserted in frame"*|*"Property FAILED"*) echo "$id falsified" ;;
    *"timeout"*|*"Timeout"*|*"Reached"*) echo "$id timeout" ;;
    *) echo "$id error"; printf '%s\n' "$text" > "$aig.abc.log" ;;
  esac
}
export -f abc_one
export ABC_T

echo "| model | mutants | killed | equivalent | invalid | undecided | agree | disagree | abc-timeout | testgen s | products + ABC s |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
T_MUT=0 T_K=0 T_E=0 T_I=0 T_U=0 T_A=0 T_D=0 T_T=0
DISAGREE=()
n_model=0
for spec in "${MODELS[@]}"; do
  read -r -a words <<< "$spec"
  model=${words[0]}; flags=("${words[@]:1}")
  n_model=$((n_model + 1))
  dir=$WORK/$n_model-$(basename "$model"); mkdir -p "$dir/p"
  samp=(); [ -n "$SAMPLE" ] && samp=(--sample "$SAMPLE" --seed "$SEED")
  t0=$(date +%s.%N)
  if ! "$BIN" testgen "$model" "${flags[@]}" "${samp[@]}" --jobs "$JOBS" --timeout "$TIMEOUT" \
        --out "$dir/tg" --fresh > "$dir/testgen.log" 2>&1; then
    echo "| ${spec#../shared/corpus/} | testgen failed: $(tail -n 1 "$dir/testgen.log") | | | | | | | | | |"
    DISAGREE+=("$model: testgen failed"); continue
  fi
  t1=$(date +%s.%N)
  # id outcome, one line per mutant
  python3 - "$dir/tg/summary.json" > "$dir/verdicts" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(r["id"], r["outcome"])
PY
  while read -r id outcome; do
    case "$outcome" in killed|equivalent)
      "$BIN" product "$model" "${flags[@]}" --mutant "$id" -o "$dir/p/$id.aig" 2> "$dir/p/$id.err" \
        || echo "product of mutant $id failed: $(cat "$dir/p/$id.err")" >&2 ;;
    esac
  done < "$dir/verdicts"
  find "$dir/p" -name '*.aig' | sort -V | while read -r f; do echo "$f $(basename "$f" .aig)"; done \
    | xargs -r -P "$JOBS" -n 2 bash -c 'abc_one "$0" "$1"' > "$dir/abc"
  t2=$(date +%s.%N)
  row=$(python3 - "$dir/verdicts" "$dir/abc" <<'PY'
import sys
ours = dict(l.split() for l in open(sys.argv[1]) if l.strip())
abc = dict(l.split() for l in open(sys.argv[2]) if l.strip())
n = len(ours)
k = sum(v == "killed" for v in ours.values())
e = sum(v == "equivalent" for v in ours.values())
i = sum(v == "invalid" for v in ours.values())
u = n - k - e - i
agree = disagree = timeout = 0
bad = []
for mid, v in ours.items():
    if v not in ("killed", "equivalent"):
        continue
    t = abc.get(mid, "missing")
    if t == "timeout":
        timeout += 1
    elif (v == "killed" and t == "falsified") or (v == "equivalent" and t in ("proved", "combinational")):
        agree += 1
    else:
        disagree += 1
        bad.append(f"{mid}:{v}/abc-{t}")
print(n, k, e, i, u, agree, disagree, timeout, ",".join(bad) or "-")
PY
)
  read -r n k e i u a d t bad <<< "$row"
  printf "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %.1f | %.1f |\n" "${spec#../shared/corpus/}" \
    "$n" "$k" "$e" "$i" "$u" "$a" "$d" "$t" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
  [ "$d" -gt 0 ] && DISAGREE+=("$spec: $bad")
  T_MUT=$((T_MUT + n)) T_K=$((T_K + k)) T_E=$((T_E + e)) T_I=$((T_I + i)) T_U=$((T_U + u))
  T_A=$((T_A + a)) T_D=$((T_D + d)) T_T=$((T_T + t))
done
echo "| **total** ($n_model models) | $T_MUT | $T_K | $T_E | $T_I | $T_U | $T_A | $T_D | $T_T | | |"
if [ ${#DISAGREE[@]} -gt 0 ]; then
  echo
  echo "DISAGREEMENTS OR FAILURES (mutant:hypermut/ABC), files in ${KEEP:-a temporary directory; rerun with --keep DIR}:"
  printf '  %s\n' "${DISAGREE[@]}"
  exit 1
fi
