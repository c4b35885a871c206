#!/usr/bin/env bash
# Probe 975: probe 973's run.sh and driver (CPU, allocations and schedulings per commit of
# pure/store at 64 writers, then profiles and strace), with this directory for its outputs.
# Usage: flock /work/measure.lock experiments/probes/975-store-64w-cpu-126/run.sh
#   REVS="3df9826 90065c6" N=3 D=3s [DIR=/tmp/s16/drv] > out.txt
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=$here exec "$here/../973-store-64w-cpu/run.sh"
