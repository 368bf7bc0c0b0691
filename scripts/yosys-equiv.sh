#!/usr/bin/env bash
# The Verilog front-end against yosys on the whole shared corpus.
#
#   scripts/yosys-equiv.sh          equivalence table: for every design both accept, hypermut's
#                                   and yosys's AIGER are compared by hypermut's miter + prover
#                                   and by ABC dsec (tests/verilog_yosys.rs, whole_corpus_table)
#   scripts/yosys-equiv.sh bench    benchmark (not a test): hypermut (load, bit-blast, write
#                                   AIGER) vs yosys (read, synth, write_aiger), wall time and
#                                   AND count per design
#
# Designs and their top modules are listed in tests/data/verilog/corpus-designs.txt; the corpus
# is ../shared/corpus/verilog (or $HYPERMUT_SHARED_DIR/corpus/verilog).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SHARED=${HYPERMUT_SHARED_DIR:-$ROOT/../shared}
CORPUS=$SHARED/corpus/verilog
LIST=$ROOT/tests/data/verilog/corpus-designs.txt
if [ ! -d "$CORPUS" ]; then
    echo "the shared corpus ($CORPUS) is not available" >&2
    exit 1
fi

equiv() {
    HYPERMUT_SHARED_DIR=$SHARED cargo test --release -p hypermut --test verilog_yosys -- \
        --ignored --nocapture whole_corpus_table
}

# AND count from an AIGER header (`aig M I L O A …`).
ands() { head -c 200 "$1" | head -1 | awk '{print $6}'; }

now() { date +%s.%N; }

bench() {
    cargo build --release -q -p hypermut-verilog --example vaig
    local vaig=$ROOT/target/release/examples/vaig
    local tmp
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    echo "| design | hypermut s | hypermut ANDs | yosys s | yosys ANDs |"
    echo "|---|---:|---:|---:|---:|"
    local n=0 hs=0 ys=0 ha=0 ya=0 both=0
    while IFS='|' read -r name top files; do
        name=$(echo "$name" | xargs)
        [ -z "$name" ] && continue
        case "$name" in \#*) continue ;; esac
        top=$(echo "$top" | xargs)
        local paths=() incs=()
        for f in $files; do
            paths+=("$CORPUS/$f")
            incs+=("-I" "$(dirname "$CORPUS/$f")")
        done
        n=$((n + 1))
        local t0 t1 h_s="-" h_a="fail" y_s="-" y_a="fail"
        t0=$(now)
        if timeout 600 "$vaig" --top "$top" "$tmp/h.aig" "${paths[@]}" >/dev/null 2>&1; then
            t1=$(now)
            h_s=$(echo "$t1 - $t0" | bc)
            h_a=$(ands "$tmp/h.aig")
        fi
        t0=$(now)
        if timeout 600 yosys -q -p "read_verilog ${incs[*]} ${paths[*]}; hierarchy -check -top $top; proc; flatten; memory_dff; memory_collect; memory_map; async2sync; synth -flatten -top $top; dffunmap; setundef -undriven -zero; aigmap; opt_clean; write_aiger -I -O $tmp/y.aig" >/dev/null 2>&1; then
            t1=$(now)
            y_s=$(echo "$t1 - $t0" | bc)
            y_a=$(ands "$tmp/y.aig")
        fi
        printf "| %s | %s | %s | %s | %s |\n" "$name" "$h_s" "$h_a" "$y_s" "$y_a"
        if [ "$h_a" != fail ] && [ "$y_a" != fail ]; then
            both=$((both + 1))
            hs=$(echo "$hs + $h_s" | bc)
            ys=$(echo "$ys + $y_s" | bc)
            ha=$((ha + h_a))
            ya=$((ya + y_a))
        fi
    done <"$LIST"
    echo
    echo "$n designs; both tools succeed on $both: hypermut ${hs}s / $ha ANDs, yosys ${ys}s / $ya ANDs (sums over those)"
}

case "${1:-equiv}" in
    equiv) equiv ;;
    bench) bench ;;
    *)
        echo "usage: $0 [equiv|bench]" >&2
        exit 2
        ;;
esac
