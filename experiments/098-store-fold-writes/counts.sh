#!/usr/bin/env bash
# Experiment 098: callgrind counts of the store workloads for each build
# (BUILDS="name=rev ...", default main and the kept fold change), R fresh
# processes each, into counts-$TAG.jsonl with a "build" field (name-rev);
# then the note is regenerated (scripts/store-counts does the counting).
# Instruction counts need no measurement lock.
#
# Usage: experiments/098-store-fold-writes/counts.sh
#   TAG=1 BUILDS="main=f73a8ac fold=d757897" R=3;
#   TAG=2 BUILDS="main=f73a8ac fold=69edfa9" R=3
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tagn=${TAG:-1} builds=${BUILDS:-main=f73a8ac fold=69edfa9} r=${R:-3}
"$root/scripts/store-counts" "$here/counts-$tagn.jsonl" "$builds" "$r"
exec "$here/run.sh" note
