#!/usr/bin/env bash
# Probe 931: how the traces in runs.jsonl were taken (by hand, each under
# `flock /work/measure.lock`; the traces are not kept).
#
#   perf: a pure-kvbench of the revision, alone, one contender at a time:
#     perf record -q -o pure.perf -e syscalls:sys_enter_fdatasync,syscalls:sys_exit_fdatasync,\
#       syscalls:sys_enter_pwrite64,syscalls:sys_exit_pwrite64 -a -- \
#       pure-kvbench -only writes -contenders pure -writers 64 -rounds 1 -duration 2s -probe 1 -out x.jsonl -dir DIR
#     stats.py perf pure.perf NAME >> runs.jsonl      (likewise -contenders pebble)
#   go: probe_trace.go.txt copied into pure/store as a .go file, pev("syncstart n=%d", ...) and
#     pev("syncend") around Sync in syncPublish, pev at the group's and the fold's steps, probeDump()
#     in Close; then
#     PURE_TRACE=tr.txt pure-kvbench -only writes -contenders pure -writers 64 -rounds 1 -duration 2s -probe 1 -out x.jsonl -dir DIR
#     stats.py go tr.txt NAME [groups] >> runs.jsonl
#   note: python3 note.py
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/note.py"
