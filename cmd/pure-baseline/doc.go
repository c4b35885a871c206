// Command pure-baseline serves the HTTP contract's documents and scoreboard
// with a hand-written baseline, for measuring pure-serve against:
//
//	pure-baseline --impl nethttp|fasthttp --mode memory|fdatasync|crashsafe [--data DIR] [--addr HOST:PORT]
//
// It prints `listening HOST:PORT` (the bound address) as its first line on
// stdout, serves until SIGTERM or SIGINT, then stops cleanly. --ram is
// --mode memory, for the contract's common flags. The implementations are
// workbench/pure/baseline/nethttp and workbench/pure/baseline/fasthttp, the
// modes those of workbench/pure/baseline/kv.
//
// # Pieces
//
//	main.go  main and run: flags, the store, the listener, the server
package main
