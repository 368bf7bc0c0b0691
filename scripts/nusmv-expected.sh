#!/usr/bin/env bash
# Regenerates NuSMV 2.5.4's expected values for tests/nusmv_agreement.rs:
#
#   tests/data/nusmv/accept.tsv     model <TAB> strict|old|rejected|timeout   (does NuSMV
#                                   read and flatten it; `old` = only with -old, NuSMV's
#                                   backward compatibility; `timeout` = not within the limit)
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
#   tests/data/nusmv/no-traces.tsv  model <TAB> reason <TAB> NuSMV's message, for every model
#                                   NuSMV accepts, without exported properties and without
#                                   traces; reason: range-error (NuSMV's run-time "cannot
#                                   assign value"), empty-init (NuSMV finds no initial
#                                   state), timeout, not-loaded (hypermut rejects it), error
#
# Usage: scripts/nusmv-expected.sh [corpus-dir]   (default ../shared/corpus/smv)
# Needs: /opt/anchors/nusmv/bin/NuSMV (../shared/scripts/install-oracles.sh nusmv), python3,
# cargo. Models that NuSMV cannot handle within the time limit (NUSMV_TIMEOUT seconds per
# NuSMV run, default 600) get `unknown` / no traces.
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

# Runs NuSMV on a command file, output to a file; fails if the script was aborted or
# timed out (then TIMED_OUT=1).
run_nusmv() { # flags model cmdfile outfile
  TIMED_OUT=0
  local rc=0
  ( ulimit -v 4000000; timeout "$LIMIT" "$NUSMV" $1 -source "$3" "$2" < /dev/null > "$4" 2>&1 ) || rc=$?
  [ "$rc" -eq 124 ] && TIMED_OUT=1
  [ "$rc" -ne 124 ] && ! grep -q "aborting 'source" "$4" && grep -q "." "$4"
}

printf 'read_model\nflatten_hierarchy\nencode_variables\nbuild_flat_model\nquit\n' > "$WORK/flat.cmd"
: > "$OUT/accept.tsv"
: > "$OUT/verdicts.tsv"
: > "$OUT/no-traces.tsv"

cd "$CORPUS"
find . -name '*.smv' | sed 's|^\./||' | sort | while read -r model; do
  key="$(echo "${model%.smv}" | sed 's|/|__|g')"
  # 1. Does NuSMV accept the model (strictly or with -old)?
  mode=rejected
  if run_nusmv "" "$model" "$WORK/flat.cmd" "$WORK/acc.out"; then
    mode=strict
  elif [ "$TIMED_OUT" = 1 ]; then
    mode=timeout
  elif run_nusmv "-old" "$model" "$WORK/flat.cmd" "$WORK/acc.out"; then
    mode=old
  elif [ "$TIMED_OUT" = 1 ]; then
    mode=timeout
  fi
  printf '%s\t%s\n' "$model" "$mode" >> "$OUT/accept.tsv"
  [ "$mode" = rejected ] || [ "$mode" = timeout ] && continue
  flags=""; [ "$mode" = old ] && flags="-old"

  # 2. Properties hypermut exports, checked one by one.
  "$LOAD" --props "$model" | grep '^PROP' > "$WORK/props.tsv" || true
  if [ -s "$WORK/props.tsv" ]; then
    # All checks in one run; `echo PROPERTY k` separates their outputs. A run that stops
    # early (NuSMV aborts the script on an error, or the time limit hits) leaves the first
    # property without a verdict `unknown` and resumes with the next one, within a budget of
    # 3 time limits per model.
    python3 - "$model" "$WORK/props.tsv" "$NUSMV" "$LIMIT" "-dynamic -coi $flags" "$WORK" \
      >> "$OUT/verdicts.tsv" <<'PY'
import re, subprocess, sys, time
model, props, nusmv, limit, flags, work = sys.argv[1:7]
limit = int(limit)
props = [l.rstrip("\n").split("\t") for l in open(props)]
verdict, states = {}, {}
todo = list(range(len(props)))
budget_end = time.time() + 3 * limit
while todo and time.time() < budget_end:
    cmd = ["go"]
    for k in todo:
        _, _, name, inst, text = props[k]
        ctx = f" IN {inst}" if inst else ""
        cmd += [f"echo PROPERTY {k}", f'check_invar -p "{text}{ctx}"']
    cmd.append("quit")
    with open(f"{work}/check.cmd", "w") as f:
        f.write("\n".join(cmd) + "\n")
    left = max(1, min(limit, int(budget_end - time.time())))
    try:
        out = subprocess.run(
            ["sh", "-c", f'ulimit -v 4000000; exec "$0" {flags} -source "$1" "$2"',
             nusmv, f"{work}/check.cmd", model],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            timeout=left).stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace")
    k = None
    for line in out.splitlines():
        if m := re.match(r"^PROPERTY (\d+)", line):
            k = int(m.group(1))
        elif (m := re.match(r"^-- invariant .* is (true|false)$", line.rstrip())) and k is not None:
            verdict.setdefault(k, m.group(1))
        elif line.startswith("-> State:") and k is not None and verdict.get(k) == "false":
            states[k] = states.get(k, 0) + 1
    rest = [k for k in todo if k not in verdict]
    # The first property without a verdict stopped the run: give it up.
    todo = rest[1:] if rest else []
for i, (_, _, n, _, _) in enumerate(props):
    v = verdict.get(i, "unknown")
    if v == "false" and states.get(i):
        v = f"false:{states[i] - 1}"
    print(f"{model}\t{n}\t{v}")
PY
    continue
  fi

  # 3. No properties: random simulation traces (only for models hypermut accepts).
  "$LOAD" --vars "$model" | grep '^VARS' | cut -f3 > "$WORK/vars.txt" || true
  if [ ! -s "$WORK/vars.txt" ]; then
    printf '%s\tnot-loaded\thypermut rejects the model\n' "$model" >> "$OUT/no-traces.tsv"
    continue
  fi
  {
    echo "go"
    for _ in $(seq 20); do echo "pick_state -r"; echo "simulate -r -k 10"; done
    echo "show_traces -a -v"
    echo "quit"
  } > "$WORK/sim.cmd"
  if ! run_nusmv "-dynamic $flags" "$model" "$WORK/sim.cmd" "$WORK/sim.out"; then
    reason=error
    if [ "$TIMED_OUT" = 1 ]; then
      reason=timeout
    elif grep -q "cannot assign value" "$WORK/sim.out"; then
      reason=range-error
    elif grep -q "set of initial states is EMPTY" "$WORK/sim.out"; then
      reason=empty-init
    fi
    detail=$(grep -v '^\*\*\*\|WARNING' "$WORK/sim.out" |
      grep -m 1 -iE 'cannot assign|EMPTY|error' | tr '\t' ' ' | cut -c 1-200 || true)
    printf '%s\t%s\t%s\n' "$model" "$reason" "$detail" >> "$OUT/no-traces.tsv"
    continue
  fi
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
  if ! grep -q '^S' "$OUT/traces/$key.trace"; then
    rm -f "$OUT/traces/$key.trace"
    printf '%s\terror\tno simulation step in NuSMV'"'"'s output\n' "$model" >> "$OUT/no-traces.tsv"
  fi
done
echo "accept: $(wc -l < "$OUT/accept.tsv") models, verdicts: $(wc -l < "$OUT/verdicts.tsv"), traces: $(ls "$OUT/traces" | wc -l), without traces: $(wc -l < "$OUT/no-traces.tsv")"
