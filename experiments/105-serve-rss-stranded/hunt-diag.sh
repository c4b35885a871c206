#!/bin/bash
# hunt.sh BIN N OUTDIR [LOADSECS] : N runs of: start BIN pinned to cpu 0 with --data,
# seed, rest 1s, snapshot, reset peak, get-64c load, snapshot peak.
BIN=$1; N=$2; OUT=$3; LS=${4:-2}
L=${PURE_LOAD:-/tmp/serve12-hunt/pure-load}
mkdir -p $OUT
for i in $(seq 1 $N); do
  tag=$(date +%s%N)
  d=$(mktemp -d /tmp/serve12-hunt/data.XXXX)
  coproc SRV { GODEBUG=${GODEBUGX:-} exec taskset -c 0 $BIN --addr 127.0.0.1:0 --data $d 2>$OUT/$tag.stderr; }
  read -r line <&${SRV[0]}
  addr=${line#listening }
  pid=$SRV_PID
  t0=$(date +%s%N)
  GOMAXPROCS=1 taskset -c 1 $L --json --workload seed http://$addr >/dev/null
  t1=$(date +%s%N); echo "seed $(( (t1-t0)/1000 ))us" >> $OUT/$tag.times
  sleep 1
  cp /proc/$pid/smaps $OUT/$tag.rest.smaps
  cp /proc/$pid/status $OUT/$tag.rest.status
  python3 /tmp/serve12-hunt/pagemap.py $pid > $OUT/$tag.rest.pagemap
  [ -n "$SIG" ] && { kill -USR1 $pid; sleep 0.2; }
  echo 5 > /proc/$pid/clear_refs
  [ "$LS" != 0 ] && GOMAXPROCS=1 taskset -c 1 $L --json --workload get -c 64 -d ${LS}s http://$addr > $OUT/$tag.load.json
  cp /proc/$pid/smaps $OUT/$tag.peak.smaps
  cp /proc/$pid/status $OUT/$tag.peak.status
  [ -n "$SIG" ] && { kill -USR1 $pid; sleep 0.2; }
  kill -TERM $pid; wait $pid 2>/dev/null
  rm -rf $d
  rest=$(awk '/^VmRSS/{print $2}' $OUT/$tag.rest.status); ra=$(awk '/^RssAnon/{print $2}' $OUT/$tag.rest.status)
  hwm=$(awk '/^VmHWM/{print $2}' $OUT/$tag.peak.status); pa=$(awk '/^RssAnon/{print $2}' $OUT/$tag.peak.status)
  echo "{\"tag\":\"$tag\",\"bin\":\"$BIN\",\"rest_rss\":$rest,\"rest_anon\":$ra,\"peak\":$hwm,\"peak_anon_now\":$pa}" | tee -a $OUT/runs.jsonl
done
