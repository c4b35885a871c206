package store

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
)

// TestCompact_CommitsDuringCopy commits puts and deletes at each step of
// an online compaction (during the first copy, during the rounds, and
// while it waits for the writer lock): the compacted file holds all of
// them, verifies, and reopens to the same contents.
func TestCompact_CommitsDuringCopy(t *testing.T) {
	seed := testSeed(t)
	rng := rand.New(rand.NewPCG(seed, 15))
	path := tempPath(t)
	s := mustOpen(t, path, &Options{AutoCompact: -1, nodeSize: 256})
	defer func() { s.Close() }()
	model := map[string]string{}
	write := func(n int) {
		tx, _ := s.Begin()
		for range n {
			k := key(rng.IntN(3000))
			if rng.IntN(4) == 0 {
				tx.Delete([]byte(k), Any)
				delete(model, k)
				continue
			}
			v := strings.Repeat(k[len(k)-2:], 1+rng.IntN(40))
			if rng.IntN(30) == 0 {
				v = strings.Repeat("L", 1500+rng.IntN(3000)) // out of line
			}
			tx.Put([]byte(k), []byte(v), Any)
			model[k] = v
		}
		if _, err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	for range 60 {
		write(50)
	}
	steps := map[string]int{}
	s.testHookCompact = func(step string) {
		steps[step]++
		switch step {
		case "start", "copied":
			for range 20 {
				write(1 + rng.IntN(20))
			}
		case "synced":
			write(5)
		}
	}
	for range 3 {
		if err := s.Compact(); err != nil {
			t.Fatal(err)
		}
		if got := contents(t, s); !sameModel(got, model) {
			t.Fatalf("after compaction: %d keys, want %d", len(got), len(model))
		}
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
	}
	for _, step := range []string{"start", "copied", "synced", "renamed"} {
		if steps[step] != 3 {
			t.Errorf("step %q seen %d times in 3 compactions", step, steps[step])
		}
	}
	st := s.Stats()
	if st.Compactions != 3 {
		t.Errorf("Stats.Compactions %d, want 3", st.Compactions)
	}
	t.Logf("longest compaction pause %v (busy machine)", st.CompactPause)
	s.Close()
	s = mustOpen(t, path, &Options{Strict: true})
	if got := contents(t, s); !sameModel(got, model) {
		t.Fatalf("after reopen: %d keys, want %d", len(got), len(model))
	}
}

// TestAutoCompact_BoundedSpace overwrites a bounded set of keys from four
// writers for many commits with automatic compaction on: the file's
// records never exceed the bound Options.AutoCompact documents (3 times
// the compacted size plus 2 x AutoCompact, plus one group), compactions
// happen in the background, and nothing is lost.
func TestAutoCompact_BoundedSpace(t *testing.T) {
	const auto = 128 << 10
	path := tempPath(t)
	s := mustOpen(t, path, &Options{AutoCompact: auto})
	defer func() { s.Close() }()
	var mu sync.Mutex
	model := map[string]string{}
	var maxSize, maxCompacted uint64
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 400 {
				k := fmt.Sprintf("w%d-%03d", w, (i*37)%150)
				v := strings.Repeat(fmt.Sprint(i%10), 100)
				tx, _ := s.Begin()
				tx.Put([]byte(k), []byte(v), Any)
				if _, err := tx.Commit(); err != nil {
					t.Error(err)
					return
				}
				st := s.Stats()
				mu.Lock()
				model[k] = v
				maxSize = max(maxSize, st.Size)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	st := s.Stats()
	maxCompacted = st.Size // the live tree: the same 600 keys all along
	bound := 3*maxCompacted + 2*auto + 16<<10
	t.Logf("%d compactions, largest file %d bytes, live %d, bound %d, longest pause %v (busy machine)",
		st.Compactions, maxSize, maxCompacted, bound, st.CompactPause)
	if st.Compactions < 3 {
		t.Fatalf("%d compactions in 1,600 commits of ~2 KiB each with AutoCompact %d", st.Compactions, auto)
	}
	if maxSize > bound {
		t.Fatalf("file grew to %d bytes, over the bound %d (live %d, AutoCompact %d)", maxSize, bound, maxCompacted, auto)
	}
	if got := contents(t, s); !sameModel(got, model) {
		t.Fatalf("%d keys after compactions, want %d", len(got), len(model))
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestOpen_RemovesLeftoverCompaction: a path.compact left by a compaction
// killed before its rename is removed at Open, and the old file is the
// store.
func TestOpen_RemovesLeftoverCompaction(t *testing.T) {
	path := tempPath(t)
	s := mustOpen(t, path, nil)
	put(t, s, "a", "1")
	s.Close()
	if err := os.WriteFile(path+".compact", []byte("half a compaction"), 0o644); err != nil {
		t.Fatal(err)
	}
	ro := mustOpen(t, path, &Options{ReadOnly: true})
	ro.Close()
	if _, err := os.Stat(path + ".compact"); err != nil {
		t.Fatalf("a read-only Open removed path.compact: %v", err)
	}
	s = mustOpen(t, path, nil)
	defer s.Close()
	if _, err := os.Stat(path + ".compact"); !os.IsNotExist(err) {
		t.Fatalf("path.compact still there after Open: %v", err)
	}
	if v, _, _ := get(t, s, "a"); v != "1" {
		t.Fatalf("a=%q", v)
	}
}

// TestCompact_CloseDuringCopy closes the store while a compaction copies:
// Close waits for it to give up, its new file is removed, and the file
// reopens with everything.
func TestCompact_CloseDuringCopy(t *testing.T) {
	path := tempPath(t)
	s := mustOpen(t, path, &Options{AutoCompact: -1})
	for i := range 3000 {
		if i%500 == 0 {
			tx, _ := s.Begin()
			for j := range 500 {
				tx.Put([]byte(key(i+j)), []byte(strings.Repeat("v", 900)), Any)
			}
			if _, err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
		}
	}
	closed := make(chan error, 1)
	s.testHookCompact = func(step string) {
		if step == "start" {
			go func() { closed <- s.Close() }()
			for !s.cstop.Load() {
				// Close announces itself before it waits for us.
			}
		}
	}
	err := s.Compact()
	if err == nil || !strings.Contains(err.Error(), "closing") {
		t.Fatalf("Compact interrupted by Close: %v, want it stopped", err)
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".compact"); !os.IsNotExist(err) {
		t.Fatalf("path.compact left after an abandoned compaction: %v", err)
	}
	s = mustOpen(t, path, &Options{Strict: true})
	defer s.Close()
	if n := s.Stats().Keys; n != 3000 {
		t.Fatalf("%d keys after reopen, want 3000", n)
	}
}
