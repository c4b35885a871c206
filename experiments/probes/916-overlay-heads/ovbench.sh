#!/usr/bin/env bash
# ovbench.sh BIN TAG: BenchmarkGetOverlay's sub-benchmarks under callgrind, each at N1=20000
# and N2=120000 iterations; prints (Ir(N2)-Ir(N1))/(N2-N1), the instructions per Get
# with the setup (filling the store) cancelled out. BIN: a test binary of pure/store
# (go test -c -o BIN ./pure/store); TAG names the output. Keeps the callgrind outputs in
# $CGDIR (default /tmp).
set -euo pipefail
bin=$1 tag=$2
cd "$(dirname "$0")/../../../pure/store"
for sub in 'overlay=1000/keys=log' 'overlay=1000/keys=tree' 'overlay=0/keys=tree'; do
  declare -A ir
  for n in 20000 120000; do
    out=${CGDIR:-/tmp}/$tag.$(echo $sub | tr '/=' '__').$n
    env GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 GOGC=off valgrind --tool=callgrind --callgrind-out-file=$out.cg --log-file=$out.log "$bin" -test.run='^$' -test.bench="^BenchmarkGetOverlay\$/^${sub%%/*}\$/^${sub#*/}\$" -test.benchtime=${n}x >/dev/null
    ir[$n]=$(grep -m1 '^summary:' $out.cg | awk '{print $2}')
  done
  echo "{\"tag\":\"$tag\",\"bench\":\"GetOverlay/$sub\",\"n1\":20000,\"ir1\":${ir[20000]},\"n2\":120000,\"ir2\":${ir[120000]},\"ir_per_op\":$(echo "scale=2; (${ir[120000]}-${ir[20000]})/100000" | bc)}"
done
