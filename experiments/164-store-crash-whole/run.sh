#!/usr/bin/env bash
# Experiment 164: experiment 120's kill -9 run (`just crash-store cycles=1000`: kills during
# open, during commits, during compaction, and all three on one growing file) on the code with
# whole groups, which changed how concurrent commits are grouped into syncs.
# Usage: experiments/164-store-crash-whole/run.sh        (crash.txt, then note.md)
#        experiments/164-store-crash-whole/run.sh note   (only note.md from crash.txt)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here exec "$here/../120-store-crash-1000/run.sh" "$@"
