#!/usr/bin/env bash
# Exported testbenches in the simulators (a check script, not a test).
#
#   scripts/testbench-sim.sh [OUT_DIR] [MODEL.v ...]            default: the bundled Verilog models
#   scripts/testbench-sim.sh --corpus [OUT_DIR] [NAME ...]      designs of ../shared/corpus/verilog,
#       by their names in tests/data/verilog/corpus-designs.txt (default: $CORPUS_DESIGNS)
#
# For each design: `hypermut testgen`, then `hypermut testbench` (the definite tests), then
#   * iverilog and verilator on the original: every exported test must pass;
#   * iverilog on every definite-killed mutant whose test is exported, the mutant's design
#     written by `hypermut mutant --id N --emit source --design-dir` (all files of the design,
#     the mutated one edited, and a file list): the testbench must fail (non-zero exit) and the
#     mutant's own test must print FAIL, unless that test is INCONCLUSIVE in `hypermut run`
#     too (the mutant left the test's branch where the original allows its outputs, or the
#     allowed list of the killing step is capped: docs/method.md §4.1.1, nothing fails it);
#   * verilator on VERILATOR_MUTANTS (default 5) of those mutants (each is a C++ build);
#   * every simulation is compared, test by test, with `hypermut run --junit` on the same
#     design: PASS / FAIL / INCONCLUSIVE must be the runner's pass / fail / inconclusive. The
#     testbench holds the definite tests only, `hypermut run` runs all: the tests compared are
#     those the testbench prints a line for.
# HYPERMUT names the binary to use (default: a release build of this tree). TESTGEN_ARGS bounds
# the runs (default: none for bundled models; for corpus designs
# `--sample 20 --seed 1 --bound 12 --timeout 10 --search-timeout 1`).
# Prints one line per design and exits non-zero if any expectation fails.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CORPUS=0
if [ "${1:-}" = "--corpus" ]; then
    CORPUS=1
    shift
fi
OUT=${1:-/tmp/hypermut-testbench-sim}
shift || true
NAMES=("$@")
VERILATOR_MUTANTS=${VERILATOR_MUTANTS:-5}
CORPUS_DESIGNS=${CORPUS_DESIGNS:-"huffenc spi_correct ham_7_4_dec divider_top compiler_opt/dbe i2c"}
if [ "$CORPUS" = 1 ]; then
    TESTGEN_ARGS=${TESTGEN_ARGS:-"--sample 20 --seed 1 --bound 12 --timeout 10 --search-timeout 1"}
    CORPUS_DIR=${HYPERMUT_SHARED_DIR:-$ROOT/../shared}/corpus/verilog
    [ -d "$CORPUS_DIR" ] || { echo "error: the corpus $CORPUS_DIR is not there" >&2; exit 1; }
    if [ ${#NAMES[@]} -eq 0 ]; then
        read -r -a NAMES <<<"$CORPUS_DESIGNS"
    fi
else
    TESTGEN_ARGS=${TESTGEN_ARGS:-}
    if [ ${#NAMES[@]} -eq 0 ]; then
        NAMES=(models/verilog/*.v)
    fi
fi
for tool in iverilog vvp verilator python3; do
    command -v "$tool" >/dev/null || { echo "error: $tool is not installed" >&2; exit 1; }
done
if [ -n "${HYPERMUT:-}" ]; then
    HM=$HYPERMUT
else
    cargo build --release --quiet -p hypermut
    HM=$ROOT/target/release/hypermut
fi
mkdir -p "$OUT"
status=0

# Reads `name | top | files` of corpus design $1 into TOP and FILES (absolute paths).
corpus_design() {
    local n t f
    while IFS='|' read -r n t f; do
        [ "$(echo "$n" | xargs)" = "$1" ] || continue
        TOP=$(echo "$t" | xargs)
        read -r -a FILES <<<"$f"
        FILES=("${FILES[@]/#/$CORPUS_DIR/}")
        return 0
    done < <(grep -v '^#' tests/data/verilog/corpus-designs.txt)
    echo "error: no corpus design $1" >&2
    return 1
}

# The ids of the definite-killed mutants of a results directory.
definite_ids() {
    python3 - "$1" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
print(" ".join(str(r["id"]) for r in s["results"]
               if r["outcome"] == "killed" and r.get("kill_class") == "definite"))
EOF
}

# Compares a simulation's output ($1) with `hypermut run --junit` ($2) test by test; prints
# `agree X of Y` and one line per disagreement (and returns 1). With $3 = a mutant id, that
# mutant's own test must FAIL, or be INCONCLUSIVE as in `hypermut run` (prints
# `inconclusive`): the mutant left the test's branch at a step where the original allows its
# outputs, or the allowed outputs of the killing step are capped; by the rule of
# docs/method.md §4.1.1 nothing fails it then.
compare() {
    python3 - "$@" <<'EOF'
import re, sys
sim = {}
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"(PASS|FAIL|INCONCLUSIVE) mutant-(\d+)\b", line)
    if m:
        sim[int(m.group(2))] = m.group(1).lower()
run = {}
xml = open(sys.argv[2]).read()
for m in re.finditer(r'<testcase name="mutant-(\d+)"[^>]*?(/>|>(.*?)</testcase>)', xml, re.S):
    body = m.group(3) or ""
    if "<failure" in body:
        v = "fail"
    elif 'message="inconclusive' in body:
        v = "inconclusive"
    elif "<skipped" in body:
        v = "not runnable"
    else:
        v = "pass"
    run[int(m.group(1))] = v
bad = [f"mutant-{i}: simulator {sim[i].upper()}, hypermut run {run.get(i, 'missing')}"
       for i in sorted(sim) if run.get(i) != sim[i]]
print(f"agree {len(sim) - len(bad)} of {len(sim)}")
if len(sys.argv) > 3:
    own = int(sys.argv[3])
    if sim.get(own) == "inconclusive" and run.get(own) == "inconclusive":
        print("inconclusive")
    elif sim.get(own) != "fail":
        bad.append(f"mutant-{own}: its own test gives {sim.get(own, 'no line').upper()}, not FAIL")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF
}

# Adds the `agree X of Y` of comparison output $1 to tests_ok and tests_n.
tally() {
    local x y
    read -r _ x _ y < <(grep '^agree' "$1" || echo "agree 0 of 0")
    tests_ok=$((tests_ok + x))
    tests_n=$((tests_n + y))
}

# `P/F/I` counts of a simulation's output.
counts() {
    local p f i
    p=$(grep -c '^PASS mutant-' "$1" || true)
    f=$(grep -c '^FAIL mutant-' "$1" || true)
    i=$(grep -c '^INCONCLUSIVE mutant-' "$1" || true)
    echo "$p/$f/$i"
}

# iverilog: compiles the testbench with the file list $2 and runs it; output in $3.
iv() {
    local dir=$1 list=$2 out=$3
    iverilog -g2012 -o "$dir/sim.vvp" -c "$list" "$dir/tb.v" >"$out" 2>&1 &&
        vvp -n "$dir/sim.vvp" >"$out" 2>&1
}

# verilator: builds and runs the testbench with the file list $2; output in $3. The testbench
# writes registers of the design (power-up values): --public-flat-rw keeps verilator from
# optimising those writes away.
vl() {
    local dir=$1 list=$2 out=$3
    rm -rf "$dir/vl"
    verilator --binary --timing --public-flat-rw -Wno-fatal -Wno-lint -Wno-style \
        --top-module hypermut_tb --Mdir "$dir/vl" -o sim -f "$list" "$dir/tb.v" >"$out" 2>&1 &&
        ("$dir/vl/sim"; exit $?) >"$out" 2>&1
}

# `hypermut run` of the tests in $1 on the design of file list $2; JUnit report in $3.
run_junit() {
    "$HM" run -f "$2" "${TOP_ARGS[@]}" --tests "$1" --junit "$3" >"$3.txt" 2>&1 || true
    [ -s "$3" ] || { echo "  hypermut run failed: $(tail -1 "$3.txt")" >&2; return 1; }
}

for name in "${NAMES[@]}"; do
    if [ "$CORPUS" = 1 ]; then
        corpus_design "$name" || { status=1; continue; }
        TOP_ARGS=(--top "$TOP")
    else
        FILES=("$ROOT/$name")
        [ -f "${FILES[0]}" ] || FILES=("$name")
        TOP_ARGS=()
        name=$(basename "$name" .v)
    fi
    dir=$OUT/${name//\//_}
    rm -rf "$dir"
    mkdir -p "$dir"
    # The original as a file list: the include folders are the files' folders.
    for f in "${FILES[@]}"; do echo "+incdir+$(dirname "$f")"; done | sort -u >"$dir/orig.f"
    printf '%s\n' "${FILES[@]}" >>"$dir/orig.f"
    # shellcheck disable=SC2086
    "$HM" testgen "${FILES[@]}" "${TOP_ARGS[@]}" $TESTGEN_ARGS --out "$dir/out" >"$dir/testgen.txt" 2>&1
    total=$("$HM" mutants "${FILES[@]}" "${TOP_ARGS[@]}" --json 2>/dev/null |
        python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
    decided=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["mutants"])' "$dir/out/summary.json")
    if ! "$HM" testbench "${FILES[@]}" "${TOP_ARGS[@]}" --tests "$dir/out" -o "$dir/tb.v" >"$dir/testbench.txt" 2>&1; then
        # e.g. a design with $ND choices, which no simulator runs: said, not a failure.
        echo "$name: no testbench: $(grep -m1 '^error' "$dir/testbench.txt" || tail -1 "$dir/testbench.txt")"
        continue
    fi
    exported=$(grep -o "[0-9]* of [0-9]* tests exported" "$dir/testbench.txt" || echo "?")
    problems=()
    # The original.
    iv "$dir" "$dir/orig.f" "$dir/orig-iv.txt" || problems+=("the original fails in iverilog")
    vl "$dir" "$dir/orig.f" "$dir/orig-vl.txt" || problems+=("the original fails in verilator")
    n_exp=${exported%% *}
    for sim in iv vl; do
        c=$(counts "$dir/orig-$sim.txt")
        [ "$c" = "$n_exp/0/0" ] || problems+=("original in $sim: $c pass/fail/inconclusive of $n_exp")
    done
    run_ok=0 run_n=0 tests_ok=0 tests_n=0
    if run_junit "$dir/out" "$dir/orig.f" "$dir/run-orig.xml"; then
        for sim in iv vl; do
            run_n=$((run_n + 1))
            if compare "$dir/orig-$sim.txt" "$dir/run-orig.xml" >"$dir/cmp-orig-$sim.txt"; then
                run_ok=$((run_ok + 1))
            else
                problems+=("original, $sim: $(grep -v '^agree\|^inconclusive' "$dir/cmp-orig-$sim.txt" | head -3 | tr '\n' ';')")
            fi
            tally "$dir/cmp-orig-$sim.txt"
        done
    else
        problems+=("hypermut run fails on the original")
    fi
    # The definite-killed mutants whose test is exported.
    n=0 vl_n=0 iv_failed=0 vl_failed=0 iv_inc=0 vl_inc=0
    for id in $(definite_ids "$dir/out"); do
        grep -qE "^(PASS|FAIL|INCONCLUSIVE) mutant-$id( |\$)" "$dir/orig-iv.txt" || continue
        m=$dir/m-$id
        "$HM" mutant "${FILES[@]}" "${TOP_ARGS[@]}" --id "$id" --emit source --design-dir "$m" \
            >/dev/null 2>"$m.txt"
        cp "$dir/tb.v" "$m/tb.v"
        n=$((n + 1))
        run_junit "$dir/out" "$m/design.f" "$m/run.xml" 2>/dev/null ||
            { problems+=("hypermut run fails on mutant $id"); continue; }
        sims=(iv)
        if [ "$vl_n" -lt "$VERILATOR_MUTANTS" ]; then
            sims+=(vl)
            vl_n=$((vl_n + 1))
        fi
        for sim in "${sims[@]}"; do
            exit_ok=0
            $sim "$m" "$m/design.f" "$m/$sim.txt" && exit_ok=1
            run_n=$((run_n + 1))
            if compare "$m/$sim.txt" "$m/run.xml" "$id" >"$m/cmp-$sim.txt"; then
                run_ok=$((run_ok + 1))
            else
                problems+=("mutant $id, $sim: $(grep -v '^agree\|^inconclusive' "$m/cmp-$sim.txt" | head -3 | tr '\n' ';')")
            fi
            tally "$m/cmp-$sim.txt"
            if grep -q '^inconclusive' "$m/cmp-$sim.txt"; then
                if [ "$sim" = iv ]; then iv_inc=$((iv_inc + 1)); else vl_inc=$((vl_inc + 1)); fi
            elif [ "$exit_ok" = 0 ]; then
                if [ "$sim" = iv ]; then iv_failed=$((iv_failed + 1)); else vl_failed=$((vl_failed + 1)); fi
            else
                problems+=("mutant $id passes the testbench in $sim")
            fi
        done
    done
    echo "$name: ${#FILES[@]} file(s); mutants $decided of $total decided; $exported;" \
        "original pass/fail/inconclusive: iverilog $(counts "$dir/orig-iv.txt"), verilator $(counts "$dir/orig-vl.txt");" \
        "definite mutants failing: iverilog $iv_failed of $n, verilator $vl_failed of $vl_n" \
        "(own test inconclusive, as in hypermut run: iverilog $iv_inc, verilator $vl_inc);" \
        "hypermut run agrees: $run_ok of $run_n simulations, $tests_ok of $tests_n test verdicts"
    for p in "${problems[@]}"; do
        echo "  $name: $p" >&2
    done
    [ ${#problems[@]} -eq 0 ] || status=1
done
exit $status
