// Command pure-appbench measures Pure's apps against what a Go developer
// would pick instead, SQLite (experiment 035), side by side in one run,
// the order of the sides rotated every round, and writes one JSON line
// per measured cell:
//
//	pure-appbench [--parts tpcc,bank,http] [--rounds 5] [--tx 20000] [--warmup-tx 0] [--bank-time 300ms]
//	              [--http-time 8s] [--terminals 64] [--bin DIR] [--dir DIR] [--out FILE] [--cpuprofile FILE]
//
// The parts:
//
//   - tpcc: TPC-C at the specification's sizes (W=1), in process, on one
//     goroutine: Pure's app runtime on a RAM store (app.StartLocal and Do,
//     the request's query or JSON body parsed as a server would) against
//     package sqlite on an in-memory database (its Run on the same
//     tpcc.Tx). Each round runs the same --tx transactions of the mix on
//     both sides, from the same seed; a cell records its wall time and the
//     process's CPU time over it. Both databases carry on from round to
//     round; the consistency conditions are checked on both at the end.
//     --warmup-tx runs that many transactions on each side first, not
//     measured, as TPC-C's ramp-up (the first transactions after the load
//     touch the stores' fresh memory).
//   - bank: each bank query (bankwork.Queries) on 10,000 and 100,000
//     accounts, Pure against SQLite in memory: repeated for --bank-time
//     per cell, ns per query. The answers are compared once, byte for byte.
//   - http: durable TPC-C over HTTP: pure-serve --app tpcc --data against
//     pure-baseline --app tpcc --mode wal-full (net/http and SQLite in WAL
//     with synchronous=FULL), each pinned to CPU 0 with taskset, driven by
//     pure-load --workload tpcc (--terminals, --http-time) pinned to CPU 1.
//     A cell records pure-load's result and the server's CPU time over the
//     run (its process CPU clock, the same source for both).
//
// --bin holds pure-serve, pure-baseline and pure-load (the http part); --dir
// is where the durable servers keep their data (a fresh subdirectory each).
//
// # Pieces
//
//	main.go    flags, the record, the parts in order
//	inproc.go  the tpcc and bank parts
//	http.go    the http part
package main
