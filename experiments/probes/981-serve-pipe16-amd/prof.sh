set -e
cd /tmp/pp; rm -rf d
taskset -c 0 ./ps --data d --addr 127.0.0.1:0 > srv.out 2>&1 &
pid=$!
sleep 0.5
addr=$(grep listening srv.out | grep -o "127.0.0.1:[0-9]*" | head -1)
./pl --workload seed http://$addr > /dev/null
sleep 1
taskset -c 1 ./pl --workload get -c 64 --pipeline 16 -d 8s --json http://$addr > load.json &
lp=$!
sleep 1.5
perf record -e cpu-clock -F 2000 -g -p $pid -o perf.data -- sleep 4 2> /dev/null
wait $lp
kill $pid
