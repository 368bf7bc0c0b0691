#!/usr/bin/env bash
# Benchmark (not a test) of the SMV front-end: lowering time and peak memory of
# `hypermut aiger MODEL -o out.aag` (release build: read, parse, elaborate, nd
# transformation, bit-blast, write) for the largest corpus models, side by side with
# NuSMV 2.5.4 doing the comparable job in the same run: read, flatten, encode the variables
# and build the boolean (bit-level) model, i.e. `NuSMV -source CMD MODEL` with
#   read_model; flatten_hierarchy; encode_variables; build_boolean_model; quit
# (with `-old` where NuSMV needs it, as recorded in tests/data/nusmv/accept.tsv).
#
#   scripts/bench-smv.sh [MODEL.smv ...]
#
# Without arguments: the TOP (default 8) largest `.smv` files of ../shared/corpus/smv by
# line count. Each tool runs RUNS times (default 3) per model; the table shows the fastest
# wall-clock time and the peak resident memory of the runs (/usr/bin/time).
#
# Environment: TOP, RUNS, NUSMV (default /opt/anchors/nusmv/bin/NuSMV), TIMEOUT (seconds
# per run, default 300).
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${CORPUS:-$ROOT/../shared/corpus/smv}
TOP=${TOP:-8}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-300}
NUSMV=${NUSMV:-/opt/anchors/nusmv/bin/NuSMV}
ACCEPT=$ROOT/tests/data/nusmv/accept.tsv

[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
have_nusmv=1
[ -x "$NUSMV" ] || { echo "NuSMV not found at $NUSMV: its columns stay empty" >&2; have_nusmv=0; }

echo "building hypermut (release) ..." >&2
(cd "$ROOT" && cargo build --release -q -p hypermut) || exit 1
HYPERMUT=$ROOT/target/release/hypermut
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
printf 'read_model\nflatten_hierarchy\nencode_variables\nbuild_boolean_model\nquit\n' \
  > "$WORK/build.cmd"

if [ $# -gt 0 ]; then
  MODELS=("$@")
else
  [ -d "$CORPUS" ] || { echo "no corpus at $CORPUS" >&2; exit 1; }
  CORPUS=$(cd "$CORPUS" && pwd)
  mapfile -t MODELS < <(find "$CORPUS" -name '*.smv' -exec wc -l {} + | grep -v ' total$' |
    sort -rn | head -n "$TOP" | awk '{print $2}')
fi

# Runs a command RUNS times under /usr/bin/time; prints "best_ms peak_MB status"
# (status: ok, or the failing exit code / "timeout"). Wall time from the shell's clock in
# milliseconds (including process start), peak memory from /usr/bin/time.
measure() {
  local best="" peak=0 status=ok
  for _ in $(seq "$RUNS"); do
    local t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -f '%M' -o "$WORK/time" timeout "$TIMEOUT" "$@" \
      > "$WORK/out" 2> "$WORK/err" < /dev/null
    local rc=$?
    t1=$(date +%s%N)
    if [ $rc -eq 124 ]; then status=timeout; break; fi
    if [ $rc -ne 0 ]; then status="exit $rc"; break; fi
    local ms=$(( (t1 - t0) / 1000000 )) kb
    kb=$(tail -n 1 "$WORK/time")
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    [ "$kb" -gt "$peak" ] && peak=$kb
  done
  if [ "$status" = ok ]; then
    printf '%s %s ok\n' "$best" "$(awk -v k="$peak" 'BEGIN { printf "%.0f", k / 1024 }')"
  else
    printf -- '- - %s\n' "$status"
  fi
}

printf '| model | lines | hypermut aiger ms | hypermut MB | AIG (inputs/latches/ands) | NuSMV 2.5.4 ms | NuSMV MB | NuSMV flags |\n'
printf '|---|---:|---:|---:|---|---:|---:|---|\n'
for m in "${MODELS[@]}"; do
  rel=${m#"$CORPUS"/}
  lines=$(wc -l < "$m")
  read -r hs hmb hst < <(measure "$HYPERMUT" aiger "$m" -o "$WORK/out.aag")
  if [ "$hst" = ok ]; then
    aig=$(head -n 1 "$WORK/out.aag" | awk '{print $3 "/" $4 "/" $6}')
  else
    aig="failed ($hst): $(grep -m 1 'error' "$WORK/err" | cut -c 1-120)"
  fi
  ns=- nmb=- flags=-
  if [ $have_nusmv -eq 1 ]; then
    mode=$(awk -F '\t' -v m="$rel" '$1 == m { print $2 }' "$ACCEPT" 2>/dev/null)
    flags=""
    [ "$mode" = old ] && flags="-old"
    if [ "$mode" = rejected ]; then
      flags="rejected by NuSMV"
    else
      # shellcheck disable=SC2086
      read -r ns nmb nst < <(measure "$NUSMV" $flags -source "$WORK/build.cmd" "$m")
      [ "$nst" = ok ] || ns="$nst"
      [ -n "$flags" ] || flags="(none)"
    fi
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' \
    "$rel" "$lines" "$hs" "$hmb" "$aig" "$ns" "$nmb" "$flags"
done
