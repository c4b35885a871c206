package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// TestPrealloc_ZeroTailRecovers grows a store past preallocFrom, so zeros
// follow its last head, and opens copies of the file as a power cut could
// leave it: the zeros whole, or a commit torn inside them. Each recovers
// the acknowledged state, cuts the tail and goes on committing; commits
// written over the zeros survive a reopen.
func TestPrealloc_ZeroTailRecovers(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/db"
	s := mustOpen(t, path, &Options{Strict: true})
	model := map[string]string{}
	big := bytes.Repeat([]byte("p"), 64<<10)
	for i := 0; s.end < preallocFrom+(256<<10); i++ {
		k := fmt.Sprintf("big%03d", i)
		put(t, s, k, string(big))
		model[k] = string(big)
	}
	for i := range 50 { // small commits, written over the zeros
		put(t, s, key(i), "small")
		model[key(i)] = "small"
	}
	end := s.end
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if uint64(fi.Size()) <= end {
		t.Fatalf("file is %d bytes, records end at %d: nothing preallocated", fi.Size(), end)
	}
	cut, _ := os.ReadFile(path) // every commit is synced: a power cut now

	// A torn commit inside the zeros: the records of an unsynced commit,
	// half written, after the last head.
	tx, _ := s.Begin()
	tx.Put([]byte("torn"), big, Any)
	if _, err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	torn := bytes.Clone(cut)
	half := end + (s.end-end)/2
	copy(torn[end:half], after[end:half])

	for name, b := range map[string][]byte{"zeros": cut, "torn": torn} {
		p := dir + "/" + name
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		c := mustOpen(t, p, &Options{Strict: true})
		if got := contents(t, c); !sameModel(got, model) {
			t.Fatalf("%s: %d keys recovered, want %d", name, len(got), len(model))
		}
		if c.end != end {
			t.Fatalf("%s: recovered end %d, want %d", name, c.end, end)
		}
		put(t, c, "after", "recovery")
		c.Close()
		c = mustOpen(t, p, &Options{Strict: true})
		if v, _, _ := get(t, c, "after"); v != "recovery" {
			t.Fatalf("%s: commit after recovery lost", name)
		}
		c.Close()
	}

	model["torn"] = string(big)
	s.Close()
	s = mustOpen(t, path, &Options{Strict: true})
	defer s.Close()
	if got := contents(t, s); !sameModel(got, model) {
		t.Fatalf("reopen: %d keys, want %d", len(got), len(model))
	}
}

// TestCrash_KillDuringCommitsPreallocated is TestCrash_KillDuringCommits
// on a store holding more than preallocFrom bytes of live data, so the
// child commits over preallocated zeros and is killed among them.
func TestCrash_KillDuringCommitsPreallocated(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 7))
	path := tempPath(t)
	s := mustOpen(t, path, nil)
	fill := bytes.Repeat([]byte("f"), 16<<10)
	for i := range 100 {
		put(t, s, fmt.Sprint("fill", i), string(fill))
	}
	s.Close()
	var acked int
	for c := range 10 {
		acks := runCrashChild(t, path, 50+rng.IntN(400), 64<<10)
		acked += len(acks)
		s, err := Open(path, &Options{Strict: c%2 == 0}) // from the checkpoint in odd cycles
		if err != nil {
			t.Fatalf("cycle %d: reopen after kill: %v", c, err)
		}
		if s.end < preallocFrom {
			t.Fatalf("cycle %d: store of %d bytes is not preallocated", c, s.end)
		}
		sn, _ := s.Snapshot()
		for _, a := range acks {
			if _, rev, ok := sn.Get([]byte(a.key)); !ok || rev < a.rev {
				t.Errorf("cycle %d: acknowledged %s at rev %d, found rev %d (present %v)", c, a.key, a.rev, rev, ok)
			}
		}
		sn.Release()
		if len(contents(t, s)) < 100 {
			t.Errorf("cycle %d: fill keys lost", c)
		}
		s.Close()
	}
	t.Logf("10 cycles, %d acknowledged", acked)
}

// TestPrealloc_LargeGroupsAppendNoZeros: once groups are large on average
// (preallocGroupMax), commits stop appending zeros, so the file ends where
// its records do; when groups are small again, zeros come back.
func TestPrealloc_LargeGroupsAppendNoZeros(t *testing.T) {
	path := t.TempDir() + "/db"
	s := mustOpen(t, path, &Options{Strict: true})
	defer s.Close()
	size := func() uint64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return uint64(fi.Size())
	}
	big := bytes.Repeat([]byte("L"), 512<<10)
	for i := range 24 {
		put(t, s, fmt.Sprintf("large%02d", i), string(big))
	}
	if s.groupAvg < preallocGroupMax {
		t.Fatalf("groupAvg %d after 512 KiB groups, want at least %d", s.groupAvg, preallocGroupMax)
	}
	if got := size(); got != s.end {
		t.Fatalf("file is %d bytes, records end at %d: zeros appended after large groups", got, s.end)
	}
	for i := 0; s.groupAvg >= preallocGroupMax || size() == s.end; i++ {
		if i == 200 {
			t.Fatalf("after %d small commits: groupAvg %d, file %d, end %d: no zeros again", i, s.groupAvg, size(), s.end)
		}
		put(t, s, key(i), "small")
	}
	s.Close()
	c := mustOpen(t, path, &Options{Strict: true})
	defer c.Close()
	if v, _, _ := get(t, c, "large23"); v != string(big) {
		t.Fatalf("large23: %d bytes after reopen", len(v))
	}
}
