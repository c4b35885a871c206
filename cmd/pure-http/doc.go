// Command pure-http is the HTTP harness behind `just http`: it measures
// pure-serve side by side with the servers a Go developer would write
// instead (workbench/pure/baseline/nethttp and .../fasthttp, in memory,
// fdatasync and crash-safe modes) and with nginx serving the same static
// documents, under pure-load.
//
//	pure-http [run] [rounds=3] [duration=10s] [servers=ID,...] [work=W,...] [exp=NNN-slug] [data=DIR] [cpus=0,1] [before=REV] [profile=1]
//	          [listen=IP load-via='ssh HOST' load-bin=PATH]
//	pure-http note DIR
//
// With no arguments at all it prints its usage and measures nothing: a
// whole run takes about half an hour with the defaults, so it starts only
// when run or a key asks for it.
//
// # Method
//
// The programs are built with go build from the current checkout, all with
// CGO_ENABLED=0 (pure-baseline with -tags nosqlite, leaving out the SQLite
// baselines, its only cgo part): statically linked, so no server's peak RSS
// holds libc and the dynamic loader (about 1.5 MB each in a cgo build,
// which Go makes by default where a C compiler is found), and every server
// is built the same way. pure-baseline is built once per implementation
// (-tags nofasthttp for the net/http binary, nonethttp for fasthttp's), as a
// developer's own server would be: neither carries the other's code into
// the pages its peak RSS counts. Records say so in their build field. For
// each round, for each workload, each server that serves the workload runs
// once, in an order rotated by one place per round: a fresh data directory,
// a fresh server pinned to one CPU (taskset), the store prepared (the
// seed's 65 documents, or 1,600 score inputs for the views), a second's
// rest (so that what the preparation set off, such as pure-serve's trimmer
// collecting the seed's garbage, ends first), its peak RSS reset, then
// pure-load --json pinned to the other CPU with GOMAXPROCS=1.
// The server's CPU is utime+stime of its whole process (all threads) from
// /proc/PID/stat before and after the load (nginx: master plus workers);
// its peak RSS is VmHWM from /proc/PID/status after (nginx: the worker),
// and its RSS at rest VmRSS at the peak's reset, before the load. What
// else the machine did during the load is /proc/stat's busy time less the
// server's and pure-load's CPU (other_cpu_s); the 1-minute load average is
// recorded too, but counts threads waiting in fsync.
// Before each durable-write workload the device's fsync latency is probed
// in the data directory's file system (4 KiB append + fdatasync, 200
// times, workbench/experiments/lab/kvbench.Probe).
//
// Read workloads run on pure-serve, the baselines' memory mode and nginx
// (static documents only); durable writes on pure-serve and the baselines'
// fdatasync and crashsafe modes.
//
// Each run is one JSON line (Record) appended to
// experiments/EXP/runs.jsonl and synced; a failed run is recorded with
// its failure and the series goes on. The note (note.md) is rendered from
// runs.jsonl alone: the targets as ratios within rounds, the fsync
// probes, and per workload the medians of every server. A hand-written
// findings.md beside it is quoted at the end.
//
// # A load host
//
// On one machine the load runs beside the servers, and over loopback the
// client's TCP receive work runs on the sending server's CPU, so it
// counts in the server's CPU (for 1 MiB GETs most of it: probes 937 and
// 1012). With a second machine, listen=IP makes the servers listen on an
// address of this host that it reaches, and load-via='ssh HOST' runs
// pure-load there: the command line becomes the prefix, then env
// GOMAXPROCS=1, pure-load's path (load-bin=, built on the load host with
// go build ./cmd/pure-load) and its arguments. Pinning there belongs in
// the prefix (load-via='ssh HOST taskset -c 1'), so cpus= names the
// servers' CPU alone. Records keep load_via and listen; other_cpu_s then
// subtracts the server's CPU only, and the note says where the load ran.
// For issue 11's 1 MiB target on two hosts, for example:
//
//	just http listen=10.0.0.1 load-via='ssh bench@10.0.0.2' load-bin=/home/bench/pure-load \
//	    cpus=0 work=big-8c,get-64c servers=pure-serve,nethttp-memory,nginx
//
// pure-serve's last line on stderr gives its store's publications (synced
// groups of commits), recorded with each run: the write workloads' tables
// show the writes answered per sync. With profile=1 each pure-serve runs
// with --pprof and a CPU profile of its load is kept in EXP/profiles/; the
// note lists the functions with the most samples per workload, so a
// missed target can be read with its reason.
//
// # Pieces
//
//	main.go      main, run, the key=value options, the experiment's name
//	plan.go      servers, workloads, and the rotated plan of runs
//	runner.go    build, the series, one run, pure-load
//	server.go    starting, measuring and stopping a server (and nginx), on
//	             workbench/experiments/lab/httpbench (shared with the pairs
//	             runner's HTTP workloads: the server process, /proc readers,
//	             pure-load)
//	record.go    Record, the JSON line, and its reader
//	note.go      the note's data: targets, medians, ratios, tables
//	render.go    the note's text
//	profiles.go  the note's CPU profile summary (profile=1)
package main
