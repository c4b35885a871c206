#!/usr/bin/env bash
# Experiment 166: issue 15's open time and space amplification on the final code (whole groups):
# experiment 028's open-time run (files of 64-2048 MiB built by the store before checkpoints,
# 3f79559, and by this tree; cold and warm opens, 3 rounds; runs.jsonl, machine.json, note.md
# here), then `just space-store writes=3000000 auto=8388608` (space.jsonl here; the test fails
# past the bound Options.AutoCompact documents); findings.md reads both.
# Usage: flock /work/measure.lock experiments/166-store-open-space-final/run.sh
#        experiments/166-store-open-space-final/run.sh note   (regenerate note.md)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../.." && pwd)
if [[ ${1:-} == note ]]; then OUT=$here exec "$root/experiments/028-store-open-time/run.sh" note; fi
OUT=$here "$root/experiments/028-store-open-time/run.sh"
cd "$root" && just space-store writes=3000000 auto=8388608 out="$here/space.jsonl"
