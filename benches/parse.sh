#!/bin/sh
# Runs the parse benchmark pinned to one CPU (less noise from the scheduler
# moving it around). Arguments are passed on: set names (kgs, fox-pro,
# ai-games, all). BENCH_CPU picks the CPU (default: the last one);
# BENCH_RUNS and KIFU_CORPUS are read by the benchmark itself.
set -eu
cd "$(dirname "$0")/.."

cargo bench --bench parse --no-run

if command -v taskset >/dev/null 2>&1; then
    cpu="${BENCH_CPU:-$(($(nproc) - 1))}"
    echo "parse.sh: pinned to CPU $cpu" >&2
    exec taskset -c "$cpu" cargo bench --bench parse -- "$@"
else
    echo "parse.sh: taskset not found; running unpinned" >&2
    exec cargo bench --bench parse -- "$@"
fi
