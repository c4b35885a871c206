#!/usr/bin/env bash
# Experiment 112: callgrind counts of the store workloads for each build
# (BUILDS="name=rev ...", default main and tab), R fresh
# processes each, into counts-$TAG.jsonl with a "build" field (name-rev);
# then the note is regenerated (scripts/store-counts does the counting).
# Instruction counts need no measurement lock.
#
# Usage: experiments/112-store-pending-table/counts.sh
#   TAG=1 BUILDS="main=88057b6 tab=b459da2" R=3; TAG=2 BUILDS="main=88057b6 tab=b459da2 small=7af6e02" R=3
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tagn=${TAG:-1} builds=${BUILDS:-main=88057b6 tab=b459da2} r=${R:-3}
"$root/scripts/store-counts" "$here/counts-$tagn.jsonl" "$builds" "$r"
exec "$here/run.sh" note
