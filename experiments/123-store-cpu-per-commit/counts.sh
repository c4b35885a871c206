#!/usr/bin/env bash
# Experiment 123: callgrind counts of the store workloads (RAM mode, one goroutine) for main and the
# branch (scripts/store-counts). Usage: experiments/123-store-cpu-per-commit/counts.sh [TAG] [BUILDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../scripts/store-counts" "$here/counts-${1:-1}.jsonl" "${2:-main=5329533 new=26ec9bb}" 3
