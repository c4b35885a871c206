#!/usr/bin/env bash
# Probe 978: probe 973's run.sh and driver (CPU, allocations and schedulings per commit of
# pure/store at 64 writers, then profiles and strace), with this directory for its outputs.
# Usage: flock /work/measure.lock experiments/probes/978-store-64w-cpu-129/run.sh
#   REVS="daa9474 8eae952" N=4 D=3s [DIR=/tmp/s18/drv] > out.txt
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=$here exec "$here/../973-store-64w-cpu/run.sh"
