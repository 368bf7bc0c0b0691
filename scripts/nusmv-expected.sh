#!/usr/bin/env bash
# Regenerates NuSMV 2.5.4's expected values for tests/nusmv_agreement.rs:
#
#   tests/data/nusmv/accept.tsv     model <TAB> strict|old|rejected   (does NuSMV accept it;
#                                   `old` = only with -old, NuSMV's backward compatibility)
#   tests/data/nusmv/verdicts.tsv   model <TAB> property name <TAB> true|false:DEPTH|unknown
#                                   for every safety property hypermut exports
#                                   (INVARSPEC p, AG p, G p); NuSMV checks the same p with
#                                   `check_invar -p "p [IN instance]"` (BDD reachability with
#                                   cone of influence; its counterexamples are shortest,
#                                   DEPTH = their number of states - 1).
#   tests/data/nusmv/traces/*.trace 20 random simulation traces of 10 steps
#                                   (`pick_state -r; simulate -r -k 10`) for every model
#                                   without exported properties, in a compact format:
#                                     V name…            variables (hypermut's IR variables,
#                                                        not DEFINEs), in NuSMV's order
#                                     T                  a new trace
#                                     S v1 v2 …          a state (values in V order, `?` = not shown)
#                                     I v1 v2 …          the inputs of the next transition
#
# Usage: scripts/nusmv-expected.sh [corpus-dir]   (default ../shared/corpus/smv)
# Needs: /opt/anchors/nusmv/bin/NuSMV (../shared/scripts/install-oracles.sh nusmv), python3,
# cargo. Models that NuSMV cannot handle within the time limit get `unknown` / no traces.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CORPUS="${1:-$ROOT/../shared/corpus/smv}"
NUSMV="${NUSMV:-/opt/anchors/nusmv/bin/NuSMV}"
LIMIT="${NUSMV_TIMEOUT:-600}"
OUT="$ROOT/tests/data/nusmv"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

[ -x "$NUSMV" ] || { echo "NuSMV not found at $NUSMV" >&2; exit 1; }
CORPUS="$(cd "$CORPUS" && pwd)"
mkdir -p "$OUT/traces"
rm -f "$OUT"/traces/*.trace

(cd "$ROOT" && cargo build --release -q -p hypermut-smv --example smv_load)
LOAD="$ROOT/target/release/examples/smv_load"

# Runs NuSMV on a command file; prints the output; fails if the script was aborted.
run_nusmv() { # flags model cmdfile outfile
  ( ulimit -v 4000000; timeout "$LIMIT" "$NUSMV" $1 -source "$3" "$2" < /dev/null > "$4" 2>&1 ) || true
  ! grep -q "aborting 'source" "$4" && grep -q "." "$4"
}

printf 'read_model\nflatten_hierarchy\nencode_variables\nbuild_flat_model\nquit\n' > "$WORK/flat.cmd"
: > "$OUT/accept.tsv"
: > "$OUT/verdicts.tsv"

cd "$CORPUS"
find . -name '*.smv' | sed 's|^\./||' | sort | while read -r model; do
  key="$(echo "${model%.smv}" | sed 's|/|__|g')"
  # 1. Does NuSMV accept the model (strictly or with -old)?
  mode=rejected
  if run_nusmv "" "$model" "$WORK/flat.cmd" "$WORK/acc.out"; then
    mode=strict
  elif run_nusmv "-old" "$model" "$WORK/flat.cmd" "$WORK/acc.out"; then
    mode=old
  fi
  printf '%s\t%s\n' "$model" "$mode" >> "$OUT/accept.tsv"
  [ "$mode" = rejected ] && continue
  flags=""; [ "$mode" = old ] && flags="-old"

  # 2. Properties hypermut exports, checked one by one.
  "$LOAD" --props "$model" | grep '^PROP' > "$WORK/props.tsv" || true
  if [ -s "$WORK/props.tsv" ]; then
    # All checks in one run; `echo PROPERTY k` separates their outputs. A failing command
    # aborts the script, so on failure every property is checked in a run of its own.
    python3 - "$WORK/props.tsv" all > "$WORK/check.cmd" <<'PY'
import sys
props = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
only = None if sys.argv[2] == "all" else int(sys.argv[2])
print("go")
for k, (_, _, name, inst, text) in enumerate(props):
    if only is not None and k != only:
        continue
    ctx = f" IN {inst}" if inst else ""
    print(f"echo PROPERTY {k}")
    print(f'check_invar -p "{text}{ctx}"')
print("quit")
PY
    : > "$WORK/check.all"
    if run_nusmv "-dynamic -coi $flags" "$model" "$WORK/check.cmd" "$WORK/check.out"; then
      cat "$WORK/check.out" >> "$WORK/check.all"
    else
      n=$(wc -l < "$WORK/props.tsv")
      for k in $(seq 0 $((n - 1))); do
        python3 - "$WORK/props.tsv" "$k" > "$WORK/one.cmd" <<'PY'
import sys
props = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
k = int(sys.argv[2])
_, _, name, inst, text = props[k]
ctx = f" IN {inst}" if inst else ""
print("go")
print(f"echo PROPERTY {k}")
print(f'check_invar -p "{text}{ctx}"')
print("quit")
PY
        run_nusmv "-dynamic -coi $flags" "$model" "$WORK/one.cmd" "$WORK/one.out" || true
        cat "$WORK/one.out" >> "$WORK/check.all"
      done
    fi
    python3 - "$model" "$WORK/props.tsv" "$WORK/check.all" >> "$OUT/verdicts.tsv" <<'PY'
import sys, re
model, props, out = sys.argv[1:4]
names = [l.rstrip("\n").split("\t")[2] for l in open(props)]
verdict, states, k = {}, {}, None
for line in open(out, errors="replace"):
    if m := re.match(r"^PROPERTY (\d+)", line):
        k = int(m.group(1))
    elif (m := re.match(r"^-- invariant .* is (true|false)$", line.rstrip())) and k is not None:
        verdict.setdefault(k, m.group(1))
    elif line.startswith("-> State:") and k is not None and verdict.get(k) == "false":
        states[k] = states.get(k, 0) + 1
for i, n in enumerate(names):
    v = verdict.get(i, "unknown")
    if v == "false" and states.get(i):
        v = f"false:{states[i] - 1}"
    print(f"{model}\t{n}\t{v}")
PY
    continue
  fi

  # 3. No properties: random simulation traces (only for models hypermut accepts).
  "$LOAD" --vars "$model" | grep '^VARS' | cut -f3 > "$WORK/vars.txt" || continue
  [ -s "$WORK/vars.txt" ] || continue
  {
    echo "go"
    for _ in $(seq 20); do echo "pick_state -r"; echo "simulate -r -k 10"; done
    echo "show_traces -a -v"
    echo "quit"
  } > "$WORK/sim.cmd"
  run_nusmv "-dynamic $flags" "$model" "$WORK/sim.cmd" "$WORK/sim.out" || continue
  python3 - "$WORK/sim.out" "$WORK/vars.txt" > "$OUT/traces/$key.trace" <<'PY'
import sys, re
lines = open(sys.argv[1], errors="replace").read().splitlines()
wanted = set(open(sys.argv[2]).read().split())  # hypermut's variables (not DEFINEs)
names, seen, traces, cur, kind = [], set(), [], None, None
for l in lines:
    if "Trace number:" in l:
        cur = []
        traces.append(cur)
    elif m := re.match(r"^-> (State|Input): \d+\.\d+ <-", l):
        kind = m.group(1)[0]
        if cur is not None:
            cur.append((kind, {}))
    elif (m := re.match(r"^\s+(\S+) = (\S+)$", l)) and cur:
        name, val = m.groups()
        if name not in wanted:
            continue
        cur[-1][1][name] = val
        if name not in seen:
            seen.add(name)
            names.append(name)
print("V " + " ".join(names))
for t in traces:
    print("T")
    for kind, vals in t:
        print(kind + " " + " ".join(vals.get(n, "?") for n in names))
PY
  grep -q '^S' "$OUT/traces/$key.trace" || rm -f "$OUT/traces/$key.trace"
done
echo "accept: $(wc -l < "$OUT/accept.tsv") models, verdicts: $(wc -l < "$OUT/verdicts.tsv"), traces: $(ls "$OUT/traces" | wc -l)"
