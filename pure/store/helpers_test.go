package store

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

var seedFlag = flag.Uint64("store.seed", 0, "seed for the randomised tests (0: from STORE_SEED or random)")

// testSeed returns the seed for a randomised test and logs it so a failure
// can be replayed with -store.seed=N or STORE_SEED=N.
func testSeed(t testing.TB) uint64 {
	seed := *seedFlag
	if seed == 0 {
		if v := os.Getenv("STORE_SEED"); v != "" {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				t.Fatalf("STORE_SEED=%q: %v", v, err)
			}
			seed = n
		}
	}
	if seed == 0 {
		seed = rand.Uint64()
	}
	t.Logf("seed %d (replay with -store.seed=%d or STORE_SEED=%d)", seed, seed, seed)
	return seed
}

func tempPath(t testing.TB) string { return filepath.Join(t.TempDir(), "db") }

func mustOpen(t testing.TB, path string, opts *Options) *Store {
	t.Helper()
	s, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// put commits one blind write and returns its revision.
func put(t testing.TB, s *Store, key, val string) uint64 {
	t.Helper()
	tx, err := s.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Put([]byte(key), []byte(val), Any); err != nil {
		t.Fatal(err)
	}
	rev, err := tx.Commit()
	if err != nil {
		t.Fatal(err)
	}
	return rev
}

// get reads key from the current version, copying the value.
func get(t testing.TB, s *Store, key string) (string, uint64, bool) {
	t.Helper()
	sn, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer sn.Release()
	v, rev, ok := sn.Get([]byte(key))
	return string(v), rev, ok
}

// contents returns every key and value of the current version.
func contents(t testing.TB, s *Store) map[string]string {
	t.Helper()
	sn, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer sn.Release()
	m := map[string]string{}
	var prev []byte
	sn.Range(nil, nil, func(k, v []byte, rev uint64) bool {
		if prev != nil && bytes.Compare(prev, k) >= 0 {
			t.Fatalf("Range out of order: %q after %q", k, prev)
		}
		prev = append(prev[:0], k...)
		m[string(k)] = string(v)
		return true
	})
	if len(m) != sn.Len() {
		t.Fatalf("Range saw %d keys, head counts %d", len(m), sn.Len())
	}
	return m
}

func isConflict(err error) bool { return errors.Is(err, ErrConflict) }

func key(i int) string { return fmt.Sprintf("key-%06d", i) }

// commitConcurrently runs writers goroutines that each commit each
// transactions of one new key ("wWW-III"), and calls after (when not nil,
// from the writer's goroutine) with each acknowledged revision.
func commitConcurrently(t *testing.T, s *Store, writers, each int, after func(w int, rev uint64)) {
	t.Helper()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				tx, _ := s.Begin()
				tx.Put(fmt.Appendf(nil, "w%02d-%03d", w, i), []byte("v"), Absent)
				rev, err := tx.Commit()
				if err != nil {
					t.Error(err)
					return
				}
				if after != nil {
					after(w, rev)
				}
			}
		}()
	}
	wg.Wait()
}

// writeModel deletes k in tx (del) or puts val there, and makes model
// say the same.
func writeModel(t testing.TB, tx *Tx, model map[string]string, k []byte, val string, del bool) {
	t.Helper()
	var err error
	if del {
		err = tx.Delete(k, Any)
		delete(model, string(k))
	} else {
		err = tx.Put(k, []byte(val), Any)
		model[string(k)] = val
	}
	if err != nil {
		t.Fatal(err)
	}
}
