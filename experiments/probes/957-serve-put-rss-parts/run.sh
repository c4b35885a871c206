#!/bin/bash
cd "${DIR:-/tmp/pr}"
taskset -c 0 ./pure-serve --data d --addr 127.0.0.1:0 --pprof 127.0.0.1:6071 > srv.out 2>&1 &
pid=$!
sleep 0.5
addr=$(grep listening srv.out | grep -o "127.0.0.1:[0-9]*")
taskset -c 1 ./pure-load --workload put -c 64 -d 5s http://$addr > load.out 2>&1
grep -E "VmHWM|VmRSS|RssAnon|RssFile|RssShmem" /proc/$pid/status
awk '/^[0-9a-f]+-[0-9a-f]+ /{name=$6} /^Rss:/{r[name]+=$2} END{for(n in r) if (r[n]>500) print r[n]" kB", n}' /proc/$pid/smaps | sort -rn
curl -s http://127.0.0.1:6071/debug/pprof/heap?debug=1 | grep -E "^# (HeapAlloc|HeapSys|HeapIdle|HeapInuse|HeapReleased|NextGC|StackInuse|Sys) " 
curl -s -o heap.pb.gz http://127.0.0.1:6071/debug/pprof/heap
kill -9 $pid
