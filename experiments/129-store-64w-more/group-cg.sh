#!/usr/bin/env bash
# Experiment 129: 126's group-cg.sh (callgrind of BenchmarkGroupShapeRAM, RAM mode, files' fold bound)
# with writers=8 added to its cases: writers=8 (one group of 8 writes from 8 writers per iteration),
# writers=64 (one group of 32 writes from 32 of 64 writers, in the writers' order) and
# writers=64-mixed (scrambled as groups arrive).
# Usage: experiments/129-store-64w-more/group-cg.sh BIN TAG [OUTDIR=/tmp] [N=2000]
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CASES='writers=8$ writers=64$ writers=64-mixed$' exec "$here/../126-store-leader-cpu/group-cg.sh" "$@"
