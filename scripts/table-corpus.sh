#!/usr/bin/env bash
# Tables 3 and 4 (`hypermut table`) on the bundled models and on corpus models of each
# language (a reproduction run, not a test).
#
#   scripts/table-corpus.sh [OUT_DIR]     default OUT_DIR: target/table-corpus
#
# Corpus models: 22 SMV and 22 Verilog files of ../shared/corpus (or
# $HYPERMUT_SHARED_DIR/corpus) that hypermut reads without per-model options, from small to a
# few thousand mutants. Large models are sampled: SAMPLE mutants per model (default 40,
# seed SEED, default 1), each with a TIMEOUT (default 20 s) budget; the bundled models are
# run in full with the default budget. Writes OUT_DIR/{models,smv,verilog}.{md,csv} and the
# per-mutant CSVs next to them.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SHARED=${HYPERMUT_SHARED_DIR:-$ROOT/../shared}
OUT=${1:-$ROOT/target/table-corpus}
SAMPLE=${SAMPLE:-40}
SEED=${SEED:-1}
TIMEOUT=${TIMEOUT:-20}
JOBS=${JOBS:-$(nproc)}
if [ ! -d "$SHARED/corpus" ]; then
    echo "the shared corpus ($SHARED/corpus) is not available" >&2
    exit 1
fi
cargo build --release --quiet
HM=$ROOT/target/release/hypermut
mkdir -p "$OUT"

SMV=(
    lmcs-2006/short/short.smv
    pynusmv/src/tests/pynusmv/models/inputs.smv
    nusmv-2.6.0-examples/example_cmu/counter.smv
    hyperqb/demo/mini.smv
    pynusmv/examples/atlk/transmission.smv
    pono-tests/counter_bitvector.smv
    pynusmv/examples/ctl/admin.smv
    ebmc-regression/array/array_of_boolean1.smv
    nusmv-2.6.0-examples/example_cmu/semaphore.smv
    lmcs-2006/aiger-1.9/dme/dme2.smv
    hyperrusty/sync/12_mapsynth/msynth2_MA.smv
    aiger-examples/mult2.smv
    hyperrusty/sync/20_keypad/keypad.smv
    hyperrusty/sync/0_infoflow/info.smv
    pynusmv/examples/ctl/simple-scheduler.smv
    lmcs-2006/mutex/mutex.smv
    hyperrusty/sync/18_bidding/bid_unsafe.smv
    lmcs-2006/srg5/srg5.smv
    cervoliu-toy-examples/selection-sort/selectsort.smv
    hyperrusty/sync/15_bank/bank3_complex_V1.smv
    wutka-puzzles/diehard.smv
    nusmv-2.6.0-examples/prod-cons/prod-cons.smv
)
VERILOG=(
    ispras24-seq/dffsr.v
    ispras24-seq/dlatch.v
    ispras24-seq/sdff.v
    ispras24-seq/adffe.v
    mchyper/quantifier-alternation_2019/SoftwareDoping/AEC000625/strategyAEC625_1.v
    vcegar/AR/example.v
    vis-verilog2smv/Rotate/rotate32.v
    quip/mux8_64bit/mux8_64bit.v
    hyperrusty/LED/system_ee.v
    mchyper/quantifier-alternation_2019/bakery/sym4.v
    vis-verilog2smv/Spinner/spinner32.v
    mchyper/alternation-free_2015/hamming/ham_7_4_enc/rtl/verilog/ham_7_4_enc_wb.v
    vis-verilog2smv/Palu/palu.v
    quip/oc_fcmp/oc_fcmp.v
    vis-verilog2smv/FIFOs/FIFOs.v
    mchyper/alternation-free_2015/bakery/good_bakery.atom.v
    mchyper/asynchronous-hyperltl_2021/spi/spi_correct/src/spi_slave.v
    hyperrusty/LED/system_ae.v
    quip/barrel16/barrel16.v
    mchyper/alternation-free_2015/huffman/huffenc.v
    vcegar/itc99_b13/b13_1.v
    quip/oc_gpio/oc_gpio.v
)

table() {
    local name=$1
    shift
    "$HM" table "$@" --jobs "$JOBS" --out "$OUT/$name" \
        --csv "$OUT/$name.csv" --mutant-csv "$OUT/$name-mutants.csv" --markdown "$OUT/$name.md"
}

table models models/smv/*.smv models/verilog/*.v
table smv --sample "$SAMPLE" --seed "$SEED" --timeout "$TIMEOUT" \
    "${SMV[@]/#/$SHARED/corpus/smv/}"
table verilog --sample "$SAMPLE" --seed "$SEED" --timeout "$TIMEOUT" \
    "${VERILOG[@]/#/$SHARED/corpus/verilog/}"
