package sqlite

import (
	"database/sql"
	"fmt"
	"path/filepath"

	_ "github.com/mattn/go-sqlite3" // the driver "sqlite3"
)

// Mode is where a DB keeps its data and how it syncs.
type Mode int

const (
	// Memory is a private in-memory database (nothing on disk).
	Memory Mode = iota
	// WALFull is a file in write-ahead-log mode with synchronous=FULL: a
	// commit is durable when it returns.
	WALFull
)

// String returns the mode's name as records use it.
func (m Mode) String() string {
	if m == WALFull {
		return "wal-full"
	}
	return "memory"
}

// Open opens a database in mode; dir holds the WALFull file (ignored for
// Memory), name names it. The pool holds one connection.
func Open(mode Mode, dir, name string) (*sql.DB, error) {
	dsn := "file:" + name + "?mode=memory&_foreign_keys=0"
	if mode == WALFull {
		if dir == "" {
			return nil, fmt.Errorf("sqlite: WALFull needs a directory for the database file")
		}
		dsn = "file:" + filepath.Join(dir, name+".db") + "?_journal_mode=WAL&_synchronous=FULL&_busy_timeout=5000"
	}
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", dsn, err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", dsn, err)
	}
	return db, nil
}
