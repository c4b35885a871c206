package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"syscall"
	"time"

	"workbench/pure/app"
	"workbench/pure/apps/bank"
	"workbench/pure/apps/scores"
	"workbench/pure/apps/tpcc"
	"workbench/pure/store"
)

// servedApp is an app --app can name: its declaration and, for apps that
// start from seeded data, how to seed it at the sizes the flags give.
type servedApp struct {
	new  func() app.App
	seed func(st *store.Store, c *config) error // nil: starts empty
	size func(c *config) string                 // the seeded size, as the marker records it
}

// apps maps --app to the app it serves.
var apps = map[string]servedApp{
	"scores": {new: scores.New},
	"bank": {new: bank.New,
		seed: func(st *store.Store, c *config) error { return bank.Seed(st, c.accounts) },
		size: func(c *config) string { return fmt.Sprintf("accounts=%d", c.accounts) }},
	"tpcc": {new: tpcc.New,
		seed: func(st *store.Store, c *config) error { return tpcc.Seed(st, tpccScales[c.tpccScale], tpccLoadSeed) },
		size: func(c *config) string { return fmt.Sprintf("scale=%s seed=%d", c.tpccScale, tpccLoadSeed) }},
}

// tpccScales are the values of --tpcc-scale.
var tpccScales = map[string]tpcc.Scale{"full": tpcc.Full, "small": tpcc.Small}

// tpccLoadSeed is the seed of TPC-C's initial data; a driver's Mix needs
// it for the run-time NURand constants (tpcc.NewMix).
const tpccLoadSeed = 1

// seededKey is the store key that records that app name's data was
// seeded whole, and at which size. It lies outside every app's records
// ("a/<name>/...") and every document ("d/...").
func seededKey(name string) []byte { return []byte("pure-serve/seeded/" + name) }

// seedIfNew seeds app name in st unless it was seeded before: at the first
// start in a --data directory, and at every --ram start. A store holding
// the app's records without the marker was cut off while seeding (or
// written by something else), and one seeded at another size would not
// be what the flags ask: both are refused with what to do.
func seedIfNew(st *store.Store, name string, c *config, stderr io.Writer) error {
	sa := apps[name]
	if sa.seed == nil {
		return nil
	}
	want := sa.size(c)
	sn, err := st.Snapshot()
	if err != nil {
		return err
	}
	mark, _, marked := sn.Get(seededKey(name))
	mark = bytes.Clone(mark)
	has := false
	prefix := []byte("a/" + name + "/")
	sn.Range(prefix, append(bytes.Clone(prefix[:len(prefix)-1]), '0'), func(_, _ []byte, _ uint64) bool { has = true; return false })
	sn.Release()
	switch {
	case marked && string(mark) == want:
		return nil
	case marked:
		return fmt.Errorf("app %s: the store was seeded with %s, not %s: pass the flags it was seeded with, or start with an empty --data directory", name, mark, want)
	case has:
		return fmt.Errorf("app %s: the store holds some of its records but no seeding marker (seeding was cut off?): start with an empty --data directory", name)
	}
	t0 := time.Now()
	if err := sa.seed(st, c); err != nil {
		return fmt.Errorf("seeding app %s: %w", name, err)
	}
	tx, err := st.Begin()
	if err != nil {
		return err
	}
	if err := tx.Put(seededKey(name), []byte(want), store.Any); err != nil {
		tx.Rollback()
		return err
	}
	if _, err := tx.Commit(); err != nil {
		return fmt.Errorf("seeding app %s: %w", name, err)
	}
	fmt.Fprintf(stderr, "pure-serve: seeded %s (%s) in %.1fs\n", name, want, time.Since(t0).Seconds())
	return nil
}

// AppStats is the JSON object of GET /debug/app on the --pprof listener:
// the process's CPU time and the app runtime's counters, so a driver can
// take the difference over a run (CPU per transaction, the owner's share
// of a core).
type AppStats struct {
	CPUNs     int64  `json:"cpu_ns"`        // user + system CPU of the whole process since it started
	OwnerBusy int64  `json:"owner_busy_ns"` // app.Stats.Busy
	Batches   uint64 `json:"batches"`
	Saves     uint64 `json:"saves"`
	Inputs    uint64 `json:"inputs"`
	Views     uint64 `json:"views"`
}

// appStats returns the AppStats of now as JSON (the app's counters zero
// when rt is nil).
func appStats(rt *app.Runtime) []byte {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	s := AppStats{CPUNs: ru.Utime.Nano() + ru.Stime.Nano()}
	if rt != nil {
		st := rt.Stats()
		s.OwnerBusy, s.Batches, s.Saves, s.Inputs, s.Views = int64(st.Busy), st.Batches, st.Saves, st.Inputs, st.Views
	}
	b, _ := json.Marshal(s) // plain integers always encode
	return append(b, '\n')
}
