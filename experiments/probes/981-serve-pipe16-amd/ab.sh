# usage: ab.sh ROUNDS WORKLOAD_ARGS... ; env per variant in VARIANTS ("name:ENV" items)
set -e
cd /tmp/pp
rounds=$1; shift
for ((r=0; r<rounds; r++)); do
  for v in $VARIANTS; do
    name=${v%%:*}; envs=${v#*:}; [[ $envs == "-" ]] && envs=""
    rm -rf d
    env $envs taskset -c 0 ./ps --data d --addr 127.0.0.1:0 > srv.out 2>&1 &
    pid=$!
    for _ in $(seq 50); do grep -q listening srv.out 2>/dev/null && break; sleep 0.1; done
    addr=$(grep listening srv.out | grep -o "127.0.0.1:[0-9]*" | head -1)
    ./pl --workload seed http://$addr > /dev/null
    sleep 1
    t0=$(awk '{print $14+$15}' /proc/$pid/stat)
    taskset -c 1 ./pl "$@" --json http://$addr > load.json
    t1=$(awk '{print $14+$15}' /proc/$pid/stat)
    hwm=$(awk '/VmHWM/{print $2}' /proc/$pid/status)
    kill $pid; wait $pid 2>/dev/null || true
    python3 -c "
import json,sys; d=json.load(open('load.json')); cpu=($t1-$t0)/100
print('r$r', '$name', round(d['ok_per_s']), round(d['ok']/cpu) if cpu else 0, 'per-cpu-s', 'hwm', $hwm)"
  done
done
