#!/usr/bin/env bash
# Benchmark: hypermut's bounded ∃∀ search for definite-killing tests (`hypermut search`,
# docs/method.md §4.7) against Z3 on the quantified SMT-LIB encoding φ_dk, on the parametrised
# beverage machine, as the paper "Mutation testing with hyperproperties" measured Z3 (bound 12
# within 20 s, unknown at 13). Not a test: it runs until both tools fail or k reaches KMAX.
#
#   scripts/bench-definite.sh [OUTDIR]        (default OUTDIR: /tmp)
#
# Instances. For each bound k = 1, 2, 3, … both tools get the same question: does a linear
# test of k + 1 steps (frames 0..k) definitely kill the refill mutant (the tank is refilled
# with c - 1 units instead of c; hypermut's `const-1` mutant) of the machine with capacity c?
# scripts/gen-beverage.py writes the SMV model and the SMT-LIB file. The shortest definite test
# drains the tank (c requests), fills it, drains it again (c requests) and observes the missing
# drink one frame later: it exists iff k ≥ 2c + 1. The capacity scales with the bound as in
# the paper, c = max(1, ⌊k/2⌋): for odd k ≥ 3 the shortest test has exactly depth k (answer
# found / sat, with no slack), for even k it needs depth k + 1 (answer none / unsat, by one
# frame). The answers alternate, so both directions of the question are measured, and the
# expected answer is known by hand (column `expected`).
#
# Per instance: `hypermut search MODEL --mutant ID --depth k --timeout TIMEOUT` (release
# build; its printed time covers the search only, after loading the model and building the
# mutant's product) and `z3 -T:TIMEOUT FILE.smt2` (wall time of the process, parsing included,
# which is negligible here). A tool's column stops at its first failure: more than TIMEOUT
# seconds, `unknown`, or an error. The summary gives, per tool, the largest k completed with
# every smaller k completed, and checks that the tools agree with each other and with the
# expected answer wherever they answered (exit status 1 if not).
#
# Environment: TIMEOUT (seconds per run, default 20), KMAX (last bound tried, default 300),
# Z3 (the z3 binary, default: on PATH).
#
# Output: OUTDIR/bench-definite.csv (k, capacity, mutant, expected, hypermut, hypermut_s,
# refutations, z3, z3_s) and the instances under OUTDIR/bench-definite/; the summary on stdout.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUTDIR=${1:-/tmp}
TIMEOUT=${TIMEOUT:-20}
KMAX=${KMAX:-300}
Z3=${Z3:-$(command -v z3 || true)}
[ -n "$Z3" ] || { echo "needs z3 (apt-get install -y z3)" >&2; exit 1; }
WORK=$OUTDIR/bench-definite
CSV=$OUTDIR/bench-definite.csv
mkdir -p "$WORK" || exit 1

echo "building hypermut (release) ..." >&2
(cd "$ROOT" && cargo build --release -q -p hypermut) || exit 1
HYPERMUT=$ROOT/target/release/hypermut
GEN=$ROOT/scripts/gen-beverage.py

# model C: writes the SMV model of capacity C (once) and prints the refill mutant's id: the
# `const-1` mutant of the constant C on the refill line.
model() {
  local c=$1 smv=$WORK/beverage-$1.smv
  [ -f "$smv" ] || python3 "$GEN" --capacity "$c" --smv "$smv" || return 1
  "$HYPERMUT" mutants "$smv" --json | python3 -c '
import json, sys
smv, c = sys.argv[1], sys.argv[2]
line = next(i + 1 for i, l in enumerate(open(smv)) if "inp = fill & wtr = 0" in l)
ids = [m["id"] for m in json.load(sys.stdin)
       if m["operator"] == "const-1" and m["original"] == c
       and m["location"].rsplit(":", 2)[1] == str(line)]
print(ids[0])' "$smv" "$c"
}

# now: seconds since the epoch, with nanoseconds.
now() { date +%s.%N; }

printf 'k,capacity,mutant,expected,hypermut,hypermut_s,refutations,z3,z3_s\n' > "$CSV"
h_alive=1; z_alive=1; h_max=0; z_max=0; bad=0
for ((k = 1; k <= KMAX && (h_alive || z_alive); k++)); do
  c=$(( k / 2 > 1 ? k / 2 : 1 ))
  smv=$WORK/beverage-$c.smv
  id=$(model "$c") || { echo "cannot write or list the model of capacity $c" >&2; exit 1; }
  expected=$([ "$k" -ge $((2 * c + 1)) ] && echo found || echo none)

  h=-; hs=; hr=
  if [ "$h_alive" = 1 ]; then
    # The search limit is TIMEOUT; `timeout` only guards against a hang outside the search.
    line=$(timeout -k 5 $((TIMEOUT * 3 + 30)) "$HYPERMUT" search "$smv" --mutant "$id" \
      --depth "$k" --timeout "$TIMEOUT" 2>"$WORK/hypermut.err")
    if [[ $line =~ :\ (found|none)\ \(([0-9.]+)\ s,\ ([0-9]+)\ refutations\) ]]; then
      h=${BASH_REMATCH[1]}; hs=${BASH_REMATCH[2]}; hr=${BASH_REMATCH[3]}
      awk -v t="$hs" -v m="$TIMEOUT" 'BEGIN { exit !(t > m) }' && h=slow
    elif [[ $line =~ timeout\ \(([0-9.]+)\ s ]]; then
      h=timeout; hs=${BASH_REMATCH[1]}
    else
      h=error; echo "hypermut at k=$k: $line $(cat "$WORK/hypermut.err")" >&2
    fi
  fi

  z=-; zs=
  if [ "$z_alive" = 1 ]; then
    smt=$WORK/phi-dk-c$c-k$k.smt2
    python3 "$GEN" --capacity "$c" --smt "$smt" --bound "$k" || exit 1
    t0=$(now)
    out=$("$Z3" -T:"$TIMEOUT" "$smt" 2>&1 | head -n 1)
    zs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
    case $out in
      sat | unsat | unknown | timeout) z=$out ;;
      *) z=error; echo "z3 at k=$k: $out" >&2 ;;
    esac
    [ "$z" = sat ] || [ "$z" = unsat ] && awk -v t="$zs" -v m="$TIMEOUT" \
      'BEGIN { exit !(t > m) }' && z=slow
  fi

  printf '%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$k" "$c" "$id" "$expected" "$h" "$hs" "$hr" "$z" "$zs" \
    | tee -a "$CSV"

  # Answers against each other and against the expected one.
  if [ "$h" = found ] || [ "$h" = none ]; then
    [ "$h" = "$expected" ] || { echo "MISMATCH k=$k: hypermut $h, expected $expected" >&2; bad=1; }
    h_max=$k
  elif [ "$h_alive" = 1 ]; then h_alive=0; fi
  if [ "$z" = sat ] || [ "$z" = unsat ]; then
    zz=$([ "$z" = sat ] && echo found || echo none)
    [ "$zz" = "$expected" ] || { echo "MISMATCH k=$k: z3 $z, expected $expected" >&2; bad=1; }
    if [ "$h" = found ] || [ "$h" = none ]; then
      [ "$zz" = "$h" ] || { echo "MISMATCH k=$k: hypermut $h, z3 $z" >&2; bad=1; }
    fi
    z_max=$k
  elif [ "$z_alive" = 1 ]; then z_alive=0; fi
done

reached() { [ "$1" = 1 ] && echo " (still completing at KMAX = $KMAX)" || echo; }
echo
echo "largest bound completed with every smaller one (limit ${TIMEOUT} s per run):"
echo "  hypermut search: k = $h_max$(reached "$h_alive")"
echo "  z3:              k = $z_max$(reached "$z_alive")"
if [ "$bad" = 0 ]; then
  echo "answers: every answer agrees with the other tool's and with the expected one"
else
  echo "answers: MISMATCHES (see above)"
fi
echo "results: $CSV"
exit "$bad"
