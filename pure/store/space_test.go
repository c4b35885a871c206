package store

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestSpace_LongRun is the long space test behind `just space-store
// writes=N`: four writers overwrite and delete keys of a fixed key space in
// one durable file with automatic compaction on, and every sampleEvery
// writes a sample records where the current version's records end (the
// file's size without preallocated zeros), the bytes of the records its
// tree reaches (what a compaction would keep), the size the file had after
// the last compaction and the bytes the file holds on disk. Samples go as
// JSON lines to STORE_SPACE_OUT (default: the test log only).
//
// It asserts the bound Options.AutoCompact documents at every sample: the
// records end under 3 times the size after the last compaction plus 2 x
// AutoCompact, plus the groups that can be in flight (one transaction per
// writer). At the end every key must hold its last value and the file must
// verify.
//
// STORE_SPACE_WRITES sets the number of writes (it runs only when set),
// STORE_SPACE_KEYS the key space (default 20,000) and STORE_SPACE_AUTOCOMPACT
// Options.AutoCompact in bytes (default 8 MiB).
func TestSpace_LongRun(t *testing.T) {
	writes := envInt(t, "STORE_SPACE_WRITES", 0)
	if writes == 0 {
		t.Skip("STORE_SPACE_WRITES unset: the long space test runs through `just space-store writes=N`")
	}
	keys := envInt(t, "STORE_SPACE_KEYS", 20000)
	auto := int64(envInt(t, "STORE_SPACE_AUTOCOMPACT", 8<<20))
	const (
		writers     = 4
		perTx       = 8
		deleteEvery = 10
		minValue    = 16
		maxValue    = 1024
	)
	sampleEvery := max(writes/400, perTx*writers)
	seed := testSeed(t)

	var out *json.Encoder
	if p := os.Getenv("STORE_SPACE_OUT"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			t.Fatalf("STORE_SPACE_OUT: %v", err)
		}
		defer f.Close()
		out = json.NewEncoder(f)
	}
	emit := func(v map[string]any) {
		if out != nil {
			if err := out.Encode(v); err != nil {
				t.Error(err)
			}
		}
	}
	emit(map[string]any{"kind": "config", "writes": writes, "keys": keys, "writers": writers, "per_tx": perTx,
		"delete_every": deleteEvery, "min_value": minValue, "max_value": maxValue, "auto_compact": auto,
		"sample_every": sampleEvery, "seed": seed})

	path := tempPath(t)
	s := mustOpen(t, path, &Options{AutoCompact: auto})
	defer func() { s.Close() }()

	// Each writer owns the keys k with k % writers == w, so its model
	// needs no lock: models[w][k] is the value it last committed, "" for
	// deleted.
	models := make([]map[int]string, writers)
	var done atomic.Int64
	var smu sync.Mutex // one sample at a time
	var maxAmp, maxOver float64
	// What the transactions in flight when a committer starts waiting can
	// add: per key a value, its leaf and a branch rewritten.
	slack := int64(writers * perTx * (maxValue + 3*defaultNodeSize))
	var last atomic.Int64 // the writes of the latest sample
	sample := func(n int64) {
		smu.Lock()
		defer smu.Unlock()
		last.Store(n)
		s.wmu.Lock()
		compacted, auto := s.compactedSize, s.opts.AutoCompact
		s.wmu.Unlock()
		v := s.acquireCurrent()
		if v == nil {
			t.Error("store closed during the run")
			return
		}
		end := int64(v.h.off + headSize)
		live := int64(dataStart(v.m.data)) + headSize
		if c, err := checkRecords(v.m.data, v.h); err != nil {
			t.Errorf("after %d writes: %v", n, err)
		} else {
			for _, e := range c.exts { // nodes, values and log records
				live += int64(e.len)
			}
		}
		v.m.release()
		var disk int64 // what the file holds on disk, preallocation included
		if fi, err := os.Stat(path); err == nil {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				disk = st.Blocks * 512
			}
		}
		st := s.Stats()
		trigger := 2*compacted + auto // where a compaction starts
		bound := 3*compacted + 2*auto + slack
		if end > bound {
			t.Errorf("after %d writes: records end at %d, over the bound %d (3 x %d after the last compaction + 2 x %d + %d in flight)",
				n, end, bound, compacted, auto, slack)
		}
		amp := float64(end) / float64(live)
		maxAmp = max(maxAmp, amp)
		maxOver = max(maxOver, float64(end)/float64(bound))
		emit(map[string]any{"kind": "sample", "writes": n, "file_bytes": end, "live_bytes": live,
			"compacted_bytes": compacted, "disk_bytes": disk, "keys": st.Keys, "compactions": st.Compactions,
			"amp": amp, "trigger_bytes": trigger, "bound_bytes": bound})
	}

	start := time.Now()
	var wg sync.WaitGroup
	for w := range writers {
		models[w] = map[int]string{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, uint64(w)))
			val := make([]byte, maxValue)
			for {
				base := done.Add(perTx)
				if base > int64(writes) {
					return
				}
				tx, err := s.Begin()
				if err != nil {
					t.Error(err)
					return
				}
				staged := map[int]string{}
				for range perTx {
					k := rng.IntN(keys/writers)*writers + w
					key := []byte(fmt.Sprintf("key-%08d", k))
					if rng.IntN(deleteEvery) == 0 {
						tx.Delete(key, Any)
						staged[k] = ""
						continue
					}
					n := minValue + rng.IntN(maxValue-minValue+1)
					for i := range n {
						val[i] = byte('a' + (k+i+int(base))%26)
					}
					tx.Put(key, val[:n], Any)
					staged[k] = string(val[:n])
				}
				if _, err := tx.Commit(); err != nil {
					t.Error(err)
					return
				}
				for k, v := range staged {
					models[w][k] = v
				}
				if base/int64(sampleEvery) != (base-perTx)/int64(sampleEvery) {
					sample(base)
				}
			}
		}()
	}
	wg.Wait()
	if total := int64(writes / perTx * perTx); last.Load() != total {
		sample(total) // the last writes, unless a writer just sampled them
	}
	secs := time.Since(start).Seconds()

	want := map[string]string{}
	for _, m := range models {
		for k, v := range m {
			if v != "" {
				want[fmt.Sprintf("key-%08d", k)] = v
			}
		}
	}
	if got := contents(t, s); !sameModel(got, want) {
		t.Errorf("%d keys at the end, want %d (or values differ)", len(got), len(want))
	}
	if err := s.Check(); err != nil {
		t.Error(err)
	}
	st := s.Stats()
	emit(map[string]any{"kind": "end", "seconds": secs, "compactions": st.Compactions,
		"max_amp": maxAmp, "max_of_bound": maxOver, "longest_pause_s": st.CompactPause.Seconds()})
	t.Logf("%d writes in %.0f s: %d compactions, largest amplification %.2f, largest file/bound %.2f, longest pause %v",
		writes, secs, st.Compactions, maxAmp, maxOver, st.CompactPause)
}

// envInt reads a positive integer from the environment, def when unset.
func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive number", name, v)
	}
	return n
}
