#!/usr/bin/env bash
# Probe 976: CPU, allocations and schedulings per commit of pure/store at 64 writers on a RAM-mode
# store (probe 973's run.sh and driver with -ram: no device in the loop, so CPU-bound whatever the
# shared disk does), for each revision in REVS, rotated, N rounds of D; no profiles.
# Usage: flock /work/measure.lock experiments/probes/976-store-64w-ram-cpu/run.sh
#   REVS="3df9826 02c64d5" N=6 D=3s [W=64] > out.txt
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=$here PROFILES=0 N=${N:-6} ARGS="-ram -w ${W:-64}" exec "$here/../973-store-64w-cpu/run.sh"
