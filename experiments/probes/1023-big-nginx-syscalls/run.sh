#!/bin/bash
# Probe 1023: system calls and context switches per 1 MiB answer, pure-serve
# (--data, the seed's 1 MiB document) against nginx (the baseline's
# configuration: sendfile for /docs/big), each on CPU 1 with pure-load
# --workload big -c 8 on CPU 0; perf stat counts tracepoints for 3 s of
# a 5 s load. Usage: run.sh BINDIR OUT [nginx-first]
set -e
BIN=$1; OUT=$2; mkdir -p $OUT; D=$(mktemp -d); chmod 755 $D
EV=syscalls:sys_enter_sendfile64,syscalls:sys_enter_sendto,syscalls:sys_enter_sendmsg,syscalls:sys_enter_writev,syscalls:sys_enter_write,syscalls:sys_enter_recvfrom,syscalls:sys_enter_read,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_pwait,syscalls:sys_enter_setsockopt,sched:sched_switch,task-clock
measure() { # name pid url
  taskset -c 0 $BIN/pure-load --workload big -c 8 -d 1s $3 > /dev/null
  taskset -c 0 $BIN/pure-load --workload big -c 8 -d 5s --json $3 > $OUT/$1-load.json &
  local lp=$!; sleep 1
  perf stat -x, -e $EV -p $2 -o $OUT/$1-stat.csv -- sleep 3
  wait $lp
}
run_pure() {
# pure-serve
taskset -c 1 $BIN/pure-serve --data $D/data --addr 127.0.0.1:0 > $D/addr.txt 2>/dev/null &
SP=$!; for i in $(seq 50); do [ -s $D/addr.txt ] && break; sleep 0.1; done
A=$(head -1 $D/addr.txt | grep -o '[0-9.]*:[0-9]*' | head -1)
$BIN/pure-load --workload seed http://$A > /dev/null
measure pure-serve $SP http://$A
kill $SP; wait $SP || true
}
run_nginx() {
# nginx, the baseline's configuration with the same 1 MiB document written in one write
mkdir -p $D/ng/root/docs $D/ng/tmp/body
head -c 1048576 /dev/urandom > $D/ng/root/docs/big
sed -e '/^{{- if .User}}/,/^{{- end}}/d' -e "s#{{.Prefix}}#$D/ng#g" -e "s#{{.Addr}}#127.0.0.1:18791#" "$(cd "$(dirname "$0")"/../../.. && pwd)"/pure/baseline/nginx/nginx.conf.tmpl > $D/ng/nginx.conf
sed -i 's/^user .*//' $D/ng/nginx.conf
taskset -c 1 nginx -p $D/ng -c $D/ng/nginx.conf -e $D/ng/error.log &
NP=$!; sleep 1
W=$(pgrep -P $NP | head -1)
measure nginx $W http://127.0.0.1:18791
kill -QUIT $NP; wait $NP || true
}
if [ "$3" = nginx-first ]; then run_nginx; run_pure; else run_pure; run_nginx; fi
rm -rf $D
