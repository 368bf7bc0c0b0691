#!/usr/bin/env bash
# The Verilog front-end against yosys on the whole shared corpus.
#
#   scripts/yosys-equiv.sh          equivalence table: for every design both accept, hypermut's
#                                   and yosys's AIGER are compared by hypermut's miter + prover
#                                   and by ABC dsec (tests/verilog_yosys.rs, whole_corpus_table)
#   scripts/yosys-equiv.sh bench    the benchmark (not a test), scripts/bench-verilog.sh
#
# HYPERMUT_EQUIV_ONLY=name1,name2 limits the equivalence table to the designs named.
#
# Designs and their top modules are listed in tests/data/verilog/corpus-designs.txt; the corpus
# is ../shared/corpus/verilog (or $HYPERMUT_SHARED_DIR/corpus/verilog).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SHARED=${HYPERMUT_SHARED_DIR:-$ROOT/../shared}
CORPUS=$SHARED/corpus/verilog
if [ ! -d "$CORPUS" ]; then
    echo "the shared corpus ($CORPUS) is not available" >&2
    exit 1
fi

equiv() {
    HYPERMUT_SHARED_DIR=$SHARED cargo test --release -p hypermut --test verilog_yosys -- \
        --ignored --nocapture whole_corpus_table
}

case "${1:-equiv}" in
    equiv) equiv ;;
    bench) exec "$ROOT/scripts/bench-verilog.sh" ;;
    *)
        echo "usage: $0 [equiv|bench]" >&2
        exit 2
        ;;
esac
