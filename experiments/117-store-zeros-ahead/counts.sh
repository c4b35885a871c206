#!/usr/bin/env bash
# Experiment 117: callgrind counts of the store workloads for each build
# (BUILDS="name=rev ...", default main and ahead), R fresh
# processes each, into counts-$TAG.jsonl with a "build" field (name-rev);
# then the note is regenerated (scripts/store-counts does the counting).
# Instruction counts need no measurement lock.
#
# Usage: experiments/117-store-zeros-ahead/counts.sh
#   TAG=1 BUILDS="main=a7998df ahead=eaa5a8a" R=3
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tagn=${TAG:-1} builds=${BUILDS:-main=a7998df ahead=eaa5a8a} r=${R:-3}
"$root/scripts/store-counts" "$here/counts-$tagn.jsonl" "$builds" "$r"
exec "$here/run.sh" note
