#!/usr/bin/env bash
# Experiment 129: callgrind counts of the store workloads (RAM mode, one goroutine) for main and the
# branch (scripts/store-counts), R=3. Instruction counts need no lock, but this is two CPU-heavy
# processes' worth of valgrind: take the lock so that nobody's timed series runs beside it.
# Usage: flock /work/measure.lock experiments/129-store-64w-more/counts.sh [TAG] [BUILDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../scripts/store-counts" "$here/counts-${1:-1}.jsonl" "${2:-main=daa9474 new=8eae952}" 3
