package store

import "testing"

// TestCommit_Allocs: a RAM-mode transaction putting one small value
// allocates only the Tx and the version its group publishes (with, when it
// writes a log record, the new version's overlay entries: an immutable
// list, since older versions keep theirs); the leader's
// working tree, edited nodes and lists are reused from group to group, and
// the Tx holds a small key and value inline.
func TestCommit_Allocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	t.Run("log", func(t *testing.T) { testCommitAllocs(t, nil, 3) })
	t.Run("tree", func(t *testing.T) { testCommitAllocs(t, &Options{FoldEntries: -1}, 2) })
}

func testCommitAllocs(t *testing.T, opts *Options, want float64) {
	s, err := OpenRAM(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 5000 {
		put(t, s, key(i), "0123456789abcdef")
	}
	k, v := []byte(key(77)), []byte("0123456789abcdef")
	n := testing.AllocsPerRun(1000, func() {
		tx, _ := s.Begin()
		tx.Put(k, v, Any)
		if _, err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	})
	if n > want {
		t.Fatalf("%v allocations per put+commit, want at most %v (the Tx, the version and in log mode its overlay's entries)", n, want)
	}
}

// TestCommit_AllocsLargeTx: a transaction that outgrows the Tx's own room
// (20 puts of 200 bytes, as an app's turn) takes its buffer and lists
// from a pool and gives them back when it ends: after a warm-up it
// allocates what a one-key transaction does, not its buffer's growth.
func TestCommit_AllocsLargeTx(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	s, err := OpenRAM(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 5000 {
		put(t, s, key(i), "0123456789abcdef")
	}
	val := make([]byte, 200)
	var keys [][]byte
	for i := range 20 {
		keys = append(keys, []byte(key(100+i*37)))
	}
	n := testing.AllocsPerRun(500, func() {
		tx, _ := s.Begin()
		for _, k := range keys {
			tx.Put(k, val, Any)
		}
		if _, err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	})
	if n > 3 {
		t.Fatalf("%v allocations per commit of 20 puts, want at most 3 (the Tx, the version, its overlay's entries)", n)
	}
}

// TestCommit_BigBufferNotKept: the commit buffer a single large value grew
// is dropped after its group, so a server seeded with a 1 MiB document does
// not keep megabytes resident; consecutive large groups keep theirs.
func TestCommit_BigBufferNotKept(t *testing.T) {
	s, err := OpenRAM(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	big := string(make([]byte, 1<<20))
	put(t, s, key(1), "small")
	if c := cap(s.buf); c == 0 || c > keepBufMin {
		t.Fatalf("after a small commit the buffer's capacity is %d, want kept and at most %d", c, keepBufMin)
	}
	put(t, s, key(2), big)
	if c := cap(s.buf); c != 0 {
		t.Fatalf("after one 1 MiB commit the buffer's capacity is %d, want it dropped (0)", c)
	}
	put(t, s, key(3), big)
	if c := cap(s.buf); c < 1<<20 {
		t.Fatalf("after a second 1 MiB commit in a row the buffer's capacity is %d, want it kept (at least 1 MiB)", c)
	}
	put(t, s, key(4), "small") // the group before was large: kept once more
	put(t, s, key(5), "small")
	if c := cap(s.buf); c != 0 {
		t.Fatalf("after two small commits following large ones the buffer's capacity is %d, want it dropped (0)", c)
	}
}

func TestKeepBuf(t *testing.T) {
	for _, c := range []struct {
		cap, prev int
		kept      bool
	}{
		{4 << 10, 0, true},
		{keepBufMin, 0, true},
		{2 << 20, 0, false},
		{2 << 20, keepBufMin, false},
		{2 << 20, keepBufMin + 1, true},
		{32 << 20, 32 << 20, false},
	} {
		got := keepBuf(make([]byte, 10, c.cap), c.prev)
		if (got != nil) != c.kept || (got != nil && len(got) != 0) {
			t.Errorf("keepBuf(cap %d, prev %d) = len %d cap %d, want kept=%v and empty", c.cap, c.prev, len(got), cap(got), c.kept)
		}
	}
}
