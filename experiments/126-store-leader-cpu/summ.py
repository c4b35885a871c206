#!/usr/bin/env bash
# Summarise 126's series with experiment 123's summ.py (the same tables:
# per writers, pure/pebble per round and build, or per round for
# pairs-*.jsonl; pure's rate and CPU per commit against main's).
# Usage: summ.py FILE.jsonl
exec python3 "$(dirname "$0")/../123-store-cpu-per-commit/summ.py" "$@"
