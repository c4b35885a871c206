#!/usr/bin/env bash
# Experiment 126: callgrind counts of the store workloads (RAM mode, one goroutine) for main and the
# branch (scripts/store-counts). Usage: experiments/126-store-leader-cpu/counts.sh [TAG] [BUILDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../scripts/store-counts" "$here/counts-${1:-1}.jsonl" "${2:-main=3df9826 new=d3f7efc}" 3
