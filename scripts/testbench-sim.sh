#!/usr/bin/env bash
# Exported testbenches in the simulators (a check script, not a test).
#
#   scripts/testbench-sim.sh [OUT_DIR] [MODEL.v ...]   default: the bundled Verilog models
#
# For each model: `hypermut testgen`, then `hypermut testbench` (the definite tests), then
#   * iverilog and verilator on the original source: every exported test must pass;
#   * iverilog on the emitted source of every definite-killed mutant (`hypermut mutant --id N
#     --emit source`): the testbench must fail (non-zero exit of vvp);
#   * verilator on VERILATOR_MUTANTS (default 5) of those mutants (each is a C++ build).
# Prints one line per model and exits non-zero if any expectation fails.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${1:-/tmp/hypermut-testbench-sim}
shift || true
MODELS=("$@")
if [ ${#MODELS[@]} -eq 0 ]; then
    MODELS=(models/verilog/*.v)
fi
VERILATOR_MUTANTS=${VERILATOR_MUTANTS:-5}
for tool in iverilog vvp verilator python3; do
    command -v "$tool" >/dev/null || { echo "error: $tool is not installed" >&2; exit 1; }
done
cargo build --release --quiet
HM=$ROOT/target/release/hypermut
mkdir -p "$OUT"
status=0

# The ids of the definite-killed mutants of a results directory.
definite_ids() {
    python3 - "$1" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
print(" ".join(str(r["id"]) for r in s["results"]
               if r["outcome"] == "killed" and r.get("kill_class") == "definite"))
EOF
}

# Builds and runs the testbench with verilator; prints the simulation's output.
verilate() {
    local dir=$1 tb=$2 src=$3
    rm -rf "$dir"
    verilator --binary --timing -Wno-fatal -Wno-lint -Wno-style --top-module hypermut_tb \
        --Mdir "$dir" -o sim "$tb" "$src" >"$dir.log" 2>&1 && "$dir/sim"
}

for model in "${MODELS[@]}"; do
    name=$(basename "$model" .v)
    dir=$OUT/$name
    rm -rf "$dir"
    mkdir -p "$dir"
    "$HM" testgen "$model" --out "$dir/out" >"$dir/testgen.txt" 2>&1
    if ! "$HM" testbench "$model" --tests "$dir/out" -o "$dir/tb.v" >"$dir/testbench.txt" 2>&1; then
        # e.g. a design with $ND choices, which no simulator runs: said, not a failure.
        echo "$name: no testbench: $(grep -m1 '^error' "$dir/testbench.txt" || tail -1 "$dir/testbench.txt")"
        continue
    fi
    iverilog -g2012 -o "$dir/orig.vvp" "$dir/tb.v" "$model"
    orig_iv=$(vvp -n "$dir/orig.vvp" | tail -1)
    orig_vl=$(verilate "$dir/vl-orig" "$dir/tb.v" "$model" | grep "tests passed" || true)
    ids=$(definite_ids "$dir/out")
    n=0 failed=0 vl_n=0 vl_failed=0
    for id in $ids; do
        src=$dir/mutant-$id.v
        "$HM" mutant "$model" --id "$id" --emit source -o "$src" >/dev/null 2>&1
        n=$((n + 1))
        if iverilog -g2012 -o "$dir/m.vvp" "$dir/tb.v" "$src" 2>/dev/null &&
            ! vvp -n "$dir/m.vvp" >"$dir/m.txt" 2>&1; then
            failed=$((failed + 1))
        else
            echo "  $name: mutant $id passes the testbench in iverilog" >&2
        fi
        if [ "$vl_n" -lt "$VERILATOR_MUTANTS" ]; then
            vl_n=$((vl_n + 1))
            if ! verilate "$dir/vl-m" "$dir/tb.v" "$src" >"$dir/vl-m.txt" 2>&1; then
                vl_failed=$((vl_failed + 1))
            else
                echo "  $name: mutant $id passes the testbench in verilator" >&2
            fi
        fi
    done
    exported=$(grep -o "[0-9]* of [0-9]* tests exported" "$dir/testbench.txt" || echo "?")
    echo "$name: $exported; original: iverilog '$orig_iv', verilator '$orig_vl';" \
        "definite mutants failing: iverilog $failed of $n, verilator $vl_failed of $vl_n"
    case "$orig_iv" in *"tests passed"*) ;; *) status=1 ;; esac
    [ -n "$orig_vl" ] || status=1
    [ "$failed" -eq "$n" ] && [ "$vl_failed" -eq "$vl_n" ] || status=1
    if [ -n "$orig_vl" ]; then
        read -r p _ t _ <<<"$orig_vl"
        [ "$p" = "$t" ] || status=1
    fi
    read -r p _ t _ <<<"$orig_iv" || true
    [ "${p:-x}" = "${t:-y}" ] || status=1
done
exit $status
