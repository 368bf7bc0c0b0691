#!/usr/bin/env bash
# The HTML report in a browser and the lcov tracefile in genhtml (a check script, not a test).
#
#   scripts/report-screenshot.sh [OUT_DIR] [MODEL ...]
#       default: models/smv/beverage.smv and models/verilog/arbiter.v
#
# For each model: `hypermut testgen --report OUT_DIR/<stem>/report.html` (the lcov tracefile
# goes next to it as report.info), then
#   * headless Chromium opens the report and takes a screenshot (<stem>/report.png): the
#     check fails if Chromium logs any console message (a script error, a resource that does
#     not load) or writes no screenshot;
#   * genhtml turns the tracefile into HTML (<stem>/genhtml/): the check fails on a non-zero
#     exit.
# Extra testgen options can be passed in TESTGEN_ARGS (e.g. "--bound 5 --no-prove").
# Prints one line per model and exits non-zero if any check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${1:-/tmp/hypermut-report-screenshot}
shift || true
MODELS=("$@")
if [ ${#MODELS[@]} -eq 0 ]; then
    MODELS=(models/smv/beverage.smv models/verilog/arbiter.v)
fi
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$CHROMIUM" ] || { echo "error: chromium is not installed" >&2; exit 1; }
command -v genhtml >/dev/null || { echo "error: genhtml (lcov) is not installed" >&2; exit 1; }
cargo build -p hypermut --quiet
HM=$ROOT/target/debug/hypermut
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
status=0
read -r -a EXTRA <<< "${TESTGEN_ARGS:-}"

for model in "${MODELS[@]}"; do
    stem=$(basename "${model%.*}")
    dir=$OUT/$stem
    rm -rf "$dir"
    mkdir -p "$dir"
    if ! "$HM" testgen "$model" --out "$dir/results" --report "$dir/report.html" \
        "${EXTRA[@]}" > "$dir/testgen.log" 2>&1; then
        echo "$model: FAIL: testgen (see $dir/testgen.log)"
        status=1
        continue
    fi
    # Chromium's log of the page: with --enable-logging=stderr --v=1 every console message
    # of the page is a line with CONSOLE.
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --enable-logging=stderr \
        --v=1 --screenshot="$dir/report.png" --window-size=1280,2000 \
        "file://$dir/report.html" > "$dir/chromium.log" 2>&1 || true
    problems=()
    if grep -q CONSOLE "$dir/chromium.log"; then
        problems+=("console messages: $(grep CONSOLE "$dir/chromium.log" | head -3 | tr '\n' ' ')")
    fi
    [ -s "$dir/report.png" ] || problems+=("no screenshot (see $dir/chromium.log)")
    if ! genhtml --branch-coverage --quiet -o "$dir/genhtml" "$dir/report.info" \
        > "$dir/genhtml.log" 2>&1; then
        problems+=("genhtml failed: $(tail -3 "$dir/genhtml.log" | tr '\n' ' ')")
    fi
    if [ ${#problems[@]} -eq 0 ]; then
        echo "$model: ok: $dir/report.png, $dir/genhtml/index.html"
    else
        for p in "${problems[@]}"; do
            echo "$model: FAIL: $p"
        done
        status=1
    fi
done
exit $status
