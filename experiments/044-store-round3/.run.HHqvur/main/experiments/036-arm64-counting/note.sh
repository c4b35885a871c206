#!/usr/bin/env bash
# Writes note.md of experiment 036 from attempts.jsonl (what run.sh
# recorded) and findings.md (hand-written), byte for byte the same each time.
# Usage: experiments/036-arm64-counting/note.sh
set -euo pipefail
cd "$(dirname "$0")"
{
  echo "# Experiment 036: counting arm64 instructions on an x86-64 machine"
  echo
  echo "Generated from attempts.jsonl by \`experiments/036-arm64-counting/note.sh\`;"
  echo "\`experiments/036-arm64-counting/run.sh\` tries everything afresh (about 2 minutes) and"
  echo "regenerates it. Findings, the last section, are written by hand (findings.md)."
  echo
  jq -r 'select(.attempt=="host")' attempts.jsonl | jq -rs '
    "Machine: kernel \(.[0].kernel), \(.[0].qemu), \(.[0].valgrind), \(.[0].go); " +
    "run \(.[0].date); load average \(.[0].loadavg) at the start, \(.[-1].loadavg) at the end."'
  echo
  echo "## What each attempt did"
  jq -r 'select(.attempt!="host") |
    "\n### \(.attempt): \(.what)\n\nExit status \(.exit).\n\n```sh\n\(.command)\n```\n\n```text\n\(.output|join("\n"))\n```"' attempts.jsonl
  echo
  cat findings.md
} > note.md
