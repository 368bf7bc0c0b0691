#!/usr/bin/env bash
# Example: decide the mutants of one model with a Slurm job array, then merge the shards.
#
#   sbatch --array=1-16 scripts/slurm-testgen.sh MODEL OUT_PREFIX      # one task per shard
#   sbatch --dependency=afterok:<array job id> --wrap \
#       "scripts/slurm-testgen.sh --merge MODEL OUT_PREFIX 16"         # after all tasks
#
# Each task runs `hypermut testgen --shard i/N` into OUT_PREFIX-i (a task that is preempted
# or killed continues where it stopped when resubmitted: `--resume`); the merge checks that
# every mutant was decided exactly once and writes OUT_PREFIX (summary.json, results.jsonl,
# tests/, witnesses/, certificates/) as one unsharded run would.
#
# LSF: `bsub -J "hm[1-16]" scripts/slurm-testgen.sh MODEL OUT` works the same way: the task
# index is read from SLURM_ARRAY_TASK_ID, else LSB_JOBINDEX; the shard count from
# SLURM_ARRAY_TASK_COUNT, else HYPERMUT_SHARDS.
#
# Options: HYPERMUT_SELECT holds front-end and mutant-selection options given to both testgen
# and merge (e.g. `--top cpu --operators ror,aor --sample 500 --seed 7`); HYPERMUT_OPTS holds
# testgen-only ones (e.g. `--timeout 600 --bound 30`).
#SBATCH --job-name=hypermut
#SBATCH --cpus-per-task=4
#SBATCH --time=04:00:00
set -euo pipefail
HYPERMUT=${HYPERMUT:-hypermut}

if [ "${1:-}" = "--merge" ]; then
    [ $# -eq 4 ] || { echo "usage: $0 --merge MODEL OUT_PREFIX N" >&2; exit 2; }
    model=$2 prefix=$3 n=$4
    shards=()
    for i in $(seq 1 "$n"); do shards+=("$prefix-$i"); done
    # shellcheck disable=SC2086
    exec "$HYPERMUT" merge "$model" ${HYPERMUT_SELECT:-} --out "$prefix" "${shards[@]}"
fi

[ $# -eq 2 ] || { echo "usage: $0 MODEL OUT_PREFIX   (inside a job array)" >&2; exit 2; }
model=$1 prefix=$2
index=${SLURM_ARRAY_TASK_ID:-${LSB_JOBINDEX:-}}
count=${SLURM_ARRAY_TASK_COUNT:-${HYPERMUT_SHARDS:-}}
if [ -z "$index" ] || [ -z "$count" ]; then
    echo "not inside a job array: set SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT" \
        "(or LSB_JOBINDEX/HYPERMUT_SHARDS)" >&2
    exit 2
fi
out="$prefix-$index"
resume=()
[ -f "$out/run.json" ] && resume=(--resume)
# shellcheck disable=SC2086
exec "$HYPERMUT" testgen "$model" ${HYPERMUT_SELECT:-} ${HYPERMUT_OPTS:-} --jobs "${SLURM_CPUS_PER_TASK:-1}" \
    --shard "$index/$count" --out "$out" "${resume[@]}"
