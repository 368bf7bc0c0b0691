#!/usr/bin/env bash
# Side-by-side benchmark: hypermut testgen (build every mutant's product, BMC, replay every
# test) against ABC's bmc3 on the very same product files, at the same bound.
#
#   scripts/bench-testgen.sh [BOUND] [MODEL.smv ...]     (default: bound 20, models/smv/*.smv)
#
# Prints one Markdown row per model: mutants, hypermut wall time / peak memory, ABC wall time /
# peak memory for bmc3 over all products in one ABC process, and whether the verdicts agree.
set -euo pipefail
cd "$(dirname "$0")/.."
BOUND=${1:-20}; shift || true
MODELS=("$@"); [ ${#MODELS[@]} -gt 0 ] || MODELS=(models/smv/*.smv)
command -v berkeley-abc >/dev/null || { echo "berkeley-abc is missing (install-oracles.sh apt)"; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (apt-get install time)"; exit 1; }
cargo build --release -q
BIN=target/release/hypermut
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT

echo "| model | mutants | hypermut testgen (s / MiB) | ABC bmc3, same products (s / MiB) | kills |"
echo "|---|---:|---:|---:|---|"
for m in "${MODELS[@]}"; do
  name=$(basename "$m" .smv); out=$WORK/$name; mkdir -p "$out/p"
  /usr/bin/time -f "%e %M" -o "$out/time" "$BIN" testgen "$m" --bound "$BOUND" --jobs 1 --out "$out/tg" > /dev/null
  read -r hm_s hm_kb < "$out/time"
  n=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['mutants'])" "$out/tg/summary.json")
  script=""
  for ((i = 0; i < n; i++)); do
    "$BIN" product "$m" --mutant "$i" -o "$out/p/$i.aig"
    script+="read $out/p/$i.aig; fold; bmc3 -F $((BOUND + 1)); "
  done
  /usr/bin/time -f "%e %M" -o "$out/abctime" berkeley-abc -c "$script" > "$out/abc.log" 2>&1
  read -r abc_s abc_kb < "$out/abctime"
  # Per-mutant agreement is asserted by tests/abc_agreement.rs; here only the counts.
  ours=$(python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(s['killed'], s['invalid'])" "$out/tg/summary.json")
  abc_kills=$(grep -c "was asserted in frame" "$out/abc.log" || true)
  agree="hypermut killed/invalid: ${ours/ //}, ABC asserted: $abc_kills"
  printf "| %s | %s | %.2f / %.1f | %.2f / %.1f | %s |\n" "$name" "$n" "$hm_s" "$(echo "$hm_kb/1024" | bc -l)" \
    "$abc_s" "$(echo "$abc_kb/1024" | bc -l)" "$agree"
done
