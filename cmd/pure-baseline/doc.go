// Command pure-baseline serves the HTTP contract's documents and scoreboard
// with a hand-written baseline, for measuring pure-serve against:
//
//	pure-baseline --impl nethttp|fasthttp --mode memory|fdatasync|crashsafe [--data DIR] [--addr HOST:PORT]
//	pure-baseline --app tpcc|bank --mode memory|wal-full [--data DIR] [--tpcc-scale full|small] [--accounts N] [--stats ADDR] [--addr HOST:PORT]
//
// It prints `listening HOST:PORT` (the bound address) as its first line on
// stdout, serves until SIGTERM or SIGINT, then stops cleanly. --ram is
// --mode memory, for the contract's common flags. The implementations are
// workbench/pure/baseline/nethttp and workbench/pure/baseline/fasthttp, the
// modes those of workbench/pure/baseline/kv. With --app tpcc it serves
// TPC-C's routes (those of pure-serve --app tpcc, so pure-load --workload
// tpcc drives both) from workbench/pure/baseline/sqlitehttp over SQLite
// (workbench/pure/baseline/sqlite), loaded afresh at every start (--app
// bank: the bank's views, over --accounts N seeded accounts): in
// memory, or with --data DIR in DIR/tpcc.db in WAL mode with
// synchronous=FULL (the default with --data). --stats ADDR serves
// GET /debug/app, the process's CPU time, for pure-load --stats.
//
// SQLite's driver needs cgo, and a cgo binary loads libc and the dynamic
// loader, about 1.5 MB of resident pages more. Built with -tags nosqlite the
// command has no --app (it says so) and links statically with
// CGO_ENABLED=0; cmd/pure-http builds it so, and pure-serve the same way,
// so that both sides' peak RSS is measured without libc. -tags nonethttp
// or nofasthttp leaves that implementation out (--impl then says so):
// cmd/pure-http builds one binary per implementation, as a developer's own
// server would be, so that neither's peak RSS counts the other's pages.
//
// # Pieces
//
//	main.go  main and run: flags, the store, the listener, the server
//	app.go   --app tpcc|bank: TPC-C or the bank on SQLite (package sqlite) behind net/http (package sqlitehttp)
//	app_nosqlite.go  --app refused in a -tags nosqlite build
//	impl_nethttp.go, impl_fasthttp.go  each implementation, unless -tags nonethttp or nofasthttp
package main
