// Package sqlitehttp is the server a Go developer would write instead of
// pure-serve --app tpcc or --app bank: net/http's server and ServeMux in
// front of package sqlite's transactions and queries (SQLite through
// github.com/mattn/go-sqlite3 and database/sql), with the routes of
// package tpcc or package bank, so the same driver (package tpccload,
// pure-load --workload tpcc) runs against both and the bank's views
// answer the app's bytes.
//
// Each request is one SQL transaction on the DB's one connection:
// database/sql queues the handlers' goroutines for it, as SQLite has one
// writer anyway. In sqlite.WALFull mode a commit syncs its WAL frames
// before the answer is written, so an answered transaction is durable, as
// pure-serve --data promises; SQLite does not share a sync among
// transactions.
//
// # Pieces
//
//	handler.go  TPCC: the routes, the requests parsed into tpcc.Tx
//	bank.go     Bank: the bank's views, their fields and paging parsed as the app does
//	serve.go    Serve: the http.Server with its timeouts, shut down with the context
package sqlitehttp
