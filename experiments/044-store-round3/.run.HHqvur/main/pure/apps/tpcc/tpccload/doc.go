// Package tpccload drives a TPC-C server over HTTP/1.1 the way the
// research measures it: T terminals (64 by default), each one keep-alive
// connection and its own Mix (package tpcc) from its own seed, sending the
// next transaction as soon as the last one is answered: no keying time and
// no think time, so the server is always busy. It works against any
// server with the routes of package tpcc (pure-serve --app tpcc, or the
// SQLite baseline's net/http handler).
//
// After the run it reports transactions/s, New-Orders committed per
// minute (the 1 % rolled back by the specification are counted as
// transactions, not as New-Orders), latency quantiles, and, when the
// server has a stats endpoint (Config.Stats: pure-serve's
// --pprof ADDR serves /debug/app), the server process's CPU per
// transaction and the app owner goroutine's share of a core over the run.
// Then it asks the server's consistency view (conditions 1 to 4) and
// reports its answer: "ok" or what failed.
//
// Each transaction carries its own logical time (tpcc.Tx.Now): terminal i
// of T numbers its k-th transaction base+k*T+i, base taken from the clock
// at the run's start (microseconds times 100), so history rows never
// collide across terminals or across runs on the same data.
//
// # Pieces
//
//	load.go    Config, Result, Run: terminals started, merged, stats and the check
//	client.go  one terminal's connection: requests written, answers read
package tpccload
