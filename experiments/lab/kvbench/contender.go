package kvbench

import (
	"errors"
	"fmt"
	"strings"
)

// Writer is the write side of a contender: durable single-key commits.
//
// Concurrency: Put may be called from many goroutines at once (up to the
// contender's MaxWriters); Syncs may be called at any time; Close is called
// once, after every Put has returned.
type Writer interface {
	// Put commits key=val as one transaction of its own and returns once
	// the commit is durable (synced to the device). It may keep neither
	// slice after it returns.
	Put(key, val []byte) error
	// Syncs returns the number of syncs the contender has made since it was
	// opened, and false when it cannot tell.
	Syncs() (uint64, bool)
	// Close closes the store; its directory may be removed afterwards.
	Close() error
}

// Store is a Writer that can also read and bulk-load.
//
// Concurrency: as for Writer; Get and Scan see the latest durable commit
// and may run beside Put.
type Store interface {
	Writer
	// Get appends the value of key to dst[:0] and returns it; ok is false
	// when the key is absent. Each call reads the latest committed version
	// afresh, as a request in a server would.
	Get(key, dst []byte) (val []byte, ok bool, err error)
	// Scan calls fn for the first n keys at or after from, in key order,
	// and returns how many it visited. key and val are valid only during
	// the call to fn.
	Scan(from []byte, n int, fn func(key, val []byte)) (int, error)
	// Load writes the keys ReadKey(0) to ReadKey(keys-1), each with value
	// val, by the contender's fastest bulk path, and returns once they are
	// durable and settled for reading. It is never measured.
	Load(keys int, val []byte) error
}

// Contender describes one way of storing: a store and its commit method.
type Contender struct {
	// Name identifies the contender in flags and records, e.g. "pebble".
	Name string
	// About says in one line what is measured, for notes and -help.
	About string
	// MaxWriters is the largest number of concurrent writers the contender
	// takes part with; 0 means any.
	MaxWriters int
	// Reads reports whether the contender takes part in the read
	// workloads. Contenders whose reads are another contender's (bbolt
	// committing with Batch reads as bbolt does) leave it false.
	Reads bool
	// Open opens a fresh store in dir, an existing empty directory. The
	// Writer is a Store when the contender can read.
	Open func(dir string) (Writer, error)
}

// Names of the contenders, as they appear in flags and records.
const (
	NamePure       = "pure"           // workbench/pure/store
	NameBbolt      = "bbolt"          // go.etcd.io/bbolt, DB.Update
	NameBboltBatch = "bbolt-batch"    // go.etcd.io/bbolt, DB.Batch
	NamePebble     = "pebble"         // github.com/cockroachdb/pebble, Sync: true
	NameRaw        = "fdatasync-4k"   // append 4 KiB + fdatasync
	NameGroup      = "bare-group"     // a bare group commit, syncs back to back
	NameGroupAll   = "bare-group-all" // a bare group commit waiting for all its writers
	NamePureNoAuto = "pure-noauto"    // workbench/pure/store, automatic compaction off
	NamePureTree   = "pure-tree"      // workbench/pure/store without log records (every commit rewrites its leaves and paths)
	NamePureNoWait = "pure-nowait"    // workbench/pure/store, Options.GroupWait off
)

var contenders = []Contender{
	{
		Name:  NamePure,
		About: "workbench/pure/store: Begin, Put, Commit (group commit, one fdatasync per group); reads borrow from the mapping",
		Reads: true,
		Open:  openPure,
	},
	{
		Name:  NameBbolt,
		About: "go.etcd.io/bbolt v1.5.0: DB.Update per commit (default options)",
		Reads: true,
		Open:  func(dir string) (Writer, error) { return openBbolt(dir, false) },
	},
	{
		Name:  NameBboltBatch,
		About: "go.etcd.io/bbolt v1.5.0: DB.Batch per commit (MaxBatchSize 1000, MaxBatchDelay 10 ms: the defaults)",
		Open:  func(dir string) (Writer, error) { return openBbolt(dir, true) },
	},
	{
		Name:  NamePebble,
		About: "github.com/cockroachdb/pebble v1.1.5: DB.Set with Sync: true (WAL group commit); 64 MiB block cache",
		Reads: true,
		Open:  openPebble,
	},
	{
		Name:       NameRaw,
		About:      "a loop appending 4 KiB to a growing file and calling fdatasync after each: the ceiling for one writer",
		MaxWriters: 1,
		Open:       openRaw,
	},
	{
		Name:  NameGroup,
		About: "a bare group commit with one sync in flight, syncs back to back: writers queue (length, key, value) records, one goroutine writes all that queued during the last sync in one call to a file preallocated with zeros and calls fdatasync; no index (group.go)",
		Open:  func(dir string) (Writer, error) { return openGroup(dir, false) },
	},
	{
		Name:  NameGroupAll,
		About: "bare-group, but before each write it waits (at most 2 ms) until every writer of the group just synced has queued again, so each sync carries all the writers and the device idles while they come back (group.go)",
		Open:  func(dir string) (Writer, error) { return openGroup(dir, true) },
	},
}

// diagnostic are contenders named only on purpose (-contenders), never
// in the default set: variants of a store that explain its results.
var diagnostic = []Contender{
	{
		Name:  NamePureNoAuto,
		About: "workbench/pure/store with Options.AutoCompact -1 (no automatic compaction): what compaction costs the commit rate",
		Open:  openPureNoAuto,
	},
	{
		Name:  NamePureTree,
		About: "workbench/pure/store with Options.FoldEntries -1 (no log records: every commit rewrites the leaves and paths it changes, as before log records)",
		Reads: true,
		Open:  openPureTree,
	},
	{
		Name:  NamePureNoWait,
		About: "workbench/pure/store with Options.GroupWait -1 (a leader with the disk idle never waits for its group to gather): what the gathering wait costs or gains",
		Open:  openPureNoWait,
	},
}

// All returns every contender of the default set, in the default order of
// a round.
func All() []Contender {
	return append([]Contender(nil), contenders...)
}

// Lookup returns the contender called name.
func Lookup(name string) (Contender, bool) {
	for _, c := range append(All(), diagnostic...) {
		if c.Name == name {
			return c, true
		}
	}
	return Contender{}, false
}

// Parse returns the contenders named in a comma-separated list, in the
// list's order. An unknown or repeated name is an error that lists the
// known names.
func Parse(list string) ([]Contender, error) {
	var out []Contender
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		c, ok := Lookup(name)
		if !ok {
			return nil, fmt.Errorf("unknown contender %q: known are %s", name, strings.Join(names(), ", "))
		}
		if seen[name] {
			return nil, fmt.Errorf("contender %q named twice", name)
		}
		seen[name] = true
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, errors.New("no contenders named: known are " + strings.Join(names(), ", "))
	}
	return out, nil
}

func names() []string {
	var ns []string
	for _, c := range append(All(), diagnostic...) {
		ns = append(ns, c.Name)
	}
	return ns
}
