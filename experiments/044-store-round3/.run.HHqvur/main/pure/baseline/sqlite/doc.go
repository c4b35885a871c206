// Package sqlite is what a Go developer would pick instead of Pure's app
// runtime for the bank queries and TPC-C: SQLite through
// github.com/mattn/go-sqlite3 (SQLite's own C code, built with cgo) and
// database/sql, with prepared statements and the schema and indexes a
// careful developer would write, answers encoded with encoding/json.
//
// Why that driver: it runs SQLite's C amalgamation, the engine Go users
// measure when they say "SQLite"; the pure-Go translation
// (modernc.org/sqlite) is a slower engine, and a comparison against it
// would flatter Pure. The cost is cgo: building this package needs a C
// compiler (gcc), and the first build compiles SQLite (about 50 s here,
// cached afterwards).
//
// Two modes (Open): Memory, a private in-memory database, and WALFull, a
// file with journal_mode=WAL and synchronous=FULL, so a commit returns
// only after its WAL frames are synced. A DB holds one connection, as an
// in-memory database must and as a single-writer store is best used.
//
// # Pieces
//
//	db.go    Open, the modes
//	bank.go  the bank app's schema, seeding and its seven queries in SQL
//	tpcc.go  TPC-C's schema, loading and five transactions in SQL
package sqlite
