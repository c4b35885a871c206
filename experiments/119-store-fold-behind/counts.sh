#!/usr/bin/env bash
# Experiment 119: callgrind counts of the store workloads for each build
# (BUILDS="name=rev ...", default main and new), R fresh
# processes each, into counts-$TAG.jsonl with a "build" field (name-rev);
# then the note is regenerated (scripts/store-counts does the counting).
# Instruction counts need no measurement lock.
#
# Usage: experiments/119-store-fold-behind/counts.sh
#   TAG=1 BUILDS="main=6f2877c new=9ee445e" R=3
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tagn=${TAG:-1} builds=${BUILDS:-main=6f2877c new=9ee445e} r=${R:-3}
"$root/scripts/store-counts" "$here/counts-$tagn.jsonl" "$builds" "$r"
exec "$here/run.sh" note
