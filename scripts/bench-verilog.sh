#!/usr/bin/env bash
# Benchmark (not a test): the Verilog front-end against yosys on every design of the shared
# corpus, side by side in one run.
#
#   scripts/bench-verilog.sh [--timeout SECONDS] [--only NAME_REGEX]
#
# Per design (tests/data/verilog/corpus-designs.txt; corpus in ../shared/corpus/verilog or
# $HYPERMUT_SHARED_DIR/corpus/verilog):
#   hypermut     release `hypermut aiger design.v [--lib-file f]... --top T -o h.aig`
#   yosys prep   read_verilog; hierarchy; proc; flatten; memory_collect; memory_map;
#                setundef -zero; opt -keepdc; async2sync; techmap; opt -fast -keepdc;
#                dffunmap; setundef -undriven -zero; aigmap; opt_clean; write_aiger
#                (the structural flow the equivalence checks use)
#   yosys synth  read_verilog; hierarchy; proc; flatten; memory_dff; memory_collect;
#                memory_map; async2sync; synth -flatten -top T; dffunmap;
#                setundef -undriven -zero; aigmap; opt_clean; write_aiger
#                (with ABC logic optimisation, docs/formats.md §12.2)
# Wall time (seconds, including process start and file writing) and the AND count of the
# AIGER file written. A tool that fails or exceeds the time limit shows `fail`/`timeout`.
#
# Summary: totals over the designs all three succeed on, and geometric means of the ratios
# hypermut / yosys (time, and ANDs over designs where both counts are positive).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SHARED=${HYPERMUT_SHARED_DIR:-$ROOT/../shared}
CORPUS=$SHARED/corpus/verilog
LIST=$ROOT/tests/data/verilog/corpus-designs.txt
LIMIT=600
ONLY=.
while [ $# -gt 0 ]; do
    case "$1" in
        --timeout) LIMIT=$2; shift 2 ;;
        --only) ONLY=$2; shift 2 ;;
        *) echo "usage: $0 [--timeout SECONDS] [--only NAME_REGEX]" >&2; exit 2 ;;
    esac
done
if [ ! -d "$CORPUS" ]; then
    echo "the shared corpus ($CORPUS) is not available" >&2
    exit 1
fi
for tool in yosys bc; do
    command -v "$tool" >/dev/null || { echo "$tool is not installed" >&2; exit 1; }
done

cargo build --release -q -p hypermut
HYPERMUT=$ROOT/target/release/hypermut
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

now() { date +%s.%N; }

# AND count from the header `aig M I L O A …` of a binary AIGER file.
ands() { head -n 1 "$1" | awk '{print $6}'; }

# run OUT_FILE CMD… : runs CMD with the time limit; prints "seconds ands" or "fail"/"timeout".
run() {
    local out=$1
    shift
    rm -f "$out"
    local t0 t1 rc=0
    t0=$(now)
    timeout "$LIMIT" "$@" >"$TMP/log" 2>&1 || rc=$?
    t1=$(now)
    if [ "$rc" -eq 124 ]; then
        echo "timeout -"
    elif [ "$rc" -ne 0 ] || [ ! -s "$out" ]; then
        echo "fail -"
    else
        printf '%.2f %s\n' "$(echo "$t1 - $t0" | bc)" "$(ands "$out")"
    fi
}

yosys_flow() { # flow top out files…
    local flow=$1 top=$2 out=$3
    shift 3
    local incs=() f
    for f in "$@"; do incs+=("-I$(dirname "$f")"); done
    local middle
    if [ "$flow" = prep ]; then
        middle="memory_collect; memory_map; setundef -zero; opt -keepdc; async2sync; techmap; opt -fast -keepdc"
    else
        middle="memory_dff; memory_collect; memory_map; async2sync; synth -flatten -top $top"
    fi
    local script="read_verilog ${incs[*]} $*; hierarchy -check -top $top; proc; flatten; $middle; dffunmap; setundef -undriven -zero; aigmap; opt_clean; write_aiger -I -O $out"
    # Designs with SystemVerilog assertions need -formal; fip_risc8 needs -defer (an unused
    # module reads a memory file the corpus lacks).
    yosys -q -p "$script" ||
        yosys -q -p "${script/read_verilog/read_verilog -formal}" ||
        yosys -q -p "${script/read_verilog/read_verilog -defer}"
}

export -f yosys_flow

echo "| design | hypermut s | hypermut ANDs | yosys prep s | yosys prep ANDs | yosys synth s | yosys synth ANDs |"
echo "|---|---:|---:|---:|---:|---:|---:|"
n=0
both=0
declare -A SUM=([hs]=0 [ha]=0 [ps]=0 [pa]=0 [ss]=0 [sa]=0)
LOGS=$TMP/ratios
: >"$LOGS"
while IFS='|' read -r name top files; do
    name=$(echo "$name" | xargs)
    [ -z "$name" ] && continue
    case "$name" in \#*) continue ;; esac
    echo "$name" | grep -Eq -- "$ONLY" || continue
    top=$(echo "$top" | xargs)
    paths=()
    for f in $files; do paths+=("$CORPUS/$f"); done
    libs=()
    for f in "${paths[@]:1}"; do libs+=(--lib-file "$f"); done
    n=$((n + 1))
    read -r hs ha < <(run "$TMP/h.aig" "$HYPERMUT" aiger "${paths[0]}" "${libs[@]}" --top "$top" -o "$TMP/h.aig")
    read -r ps pa < <(run "$TMP/p.aig" bash -c 'yosys_flow "$@"' _ prep "$top" "$TMP/p.aig" "${paths[@]}")
    read -r ss sa < <(run "$TMP/s.aig" bash -c 'yosys_flow "$@"' _ synth "$top" "$TMP/s.aig" "${paths[@]}")
    printf "| %s | %s | %s | %s | %s | %s | %s |\n" "$name" "$hs" "$ha" "$ps" "$pa" "$ss" "$sa"
    if [ "$ha" != - ] && [ "$pa" != - ] && [ "$sa" != - ]; then
        both=$((both + 1))
        SUM[hs]=$(echo "${SUM[hs]} + $hs" | bc)
        SUM[ps]=$(echo "${SUM[ps]} + $ps" | bc)
        SUM[ss]=$(echo "${SUM[ss]} + $ss" | bc)
        SUM[ha]=$((SUM[ha] + ha))
        SUM[pa]=$((SUM[pa] + pa))
        SUM[sa]=$((SUM[sa] + sa))
        echo "$hs $ha $ps $pa $ss $sa" >>"$LOGS"
    fi
done <"$LIST"

# Geometric mean of column a / column b (skipping rows where either is 0).
geo() {
    awk -v a="$1" -v b="$2" '$a > 0 && $b > 0 { s += log($a / $b); k++ }
        END { if (k) printf "%.3f (over %d designs)", exp(s / k), k; else printf "-" }' "$LOGS"
}

echo
echo "$n designs; all three flows succeed on $both."
printf "Totals over those: hypermut %.2f s / %d ANDs; yosys prep %.2f s / %d ANDs; yosys synth %.2f s / %d ANDs.\n" \
    "${SUM[hs]}" "${SUM[ha]}" "${SUM[ps]}" "${SUM[pa]}" "${SUM[ss]}" "${SUM[sa]}"
echo "Geometric mean hypermut / yosys prep:  time $(geo 1 3), ANDs $(geo 2 4)"
echo "Geometric mean hypermut / yosys synth: time $(geo 1 5), ANDs $(geo 2 6)"
