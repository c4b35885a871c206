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
		t.Fatalf("%v allocations per put+commit, want at most %v (the Tx handle, the version and in log mode its overlay's entries)", n, want)
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
// is replaced by a small one after its group, so a server seeded with a
// 1 MiB document does not keep megabytes resident; consecutive large groups
// keep theirs.
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
	if c := cap(s.buf); c > keepBufMin {
		t.Fatalf("after one 1 MiB commit the buffer's capacity is %d, want it replaced by a small one", c)
	}
	put(t, s, key(3), big)
	if c := cap(s.buf); c < 1<<20 {
		t.Fatalf("after a second 1 MiB commit in a row the buffer's capacity is %d, want it kept (at least 1 MiB)", c)
	}
	// Small groups after large ones: kept while the peak decays (1/256
	// per group), then replaced.
	for i := range 1000 {
		put(t, s, key(4+i), "small")
		if c := cap(s.buf); c <= keepBufMin {
			if i < 100 {
				t.Fatalf("dropped after %d small commits following large ones, want kept a few groups", i+1)
			}
			return
		}
	}
	t.Fatalf("after 1,000 small commits following large ones the buffer's capacity is %d, want it replaced by a small one", cap(s.buf))
}

func TestKeepBuf(t *testing.T) {
	for _, c := range []struct {
		cap, peak int
		kept      bool
	}{
		{4 << 10, 0, true},
		{keepBufMin, 0, true},
		{2 << 20, 0, false},
		{2 << 20, keepBufMin, false},
		{2 << 20, 512 << 10, true},
		{512 << 10, 128 << 10, true},
		{512 << 10, 100 << 10, false},
		{2 << 20, nextPeak(nextPeak(1<<20, 1000), 1000), true}, // the peak decays slowly
		{2 << 20, nextPeak(0, 1000), false},
		{32 << 20, 32 << 20, false},
	} {
		buf := make([]byte, 10, c.cap)
		got := keepBuf(buf, c.peak)
		kept := &got[:1][0] == &buf[0]
		if kept != c.kept || len(got) != 0 || (!kept && cap(got) != max(c.peak, 4<<10)) {
			t.Errorf("keepBuf(cap %d, peak %d) = len %d cap %d (the same array: %v), want kept=%v, empty, else the peak's size", c.cap, c.peak, len(got), cap(got), kept, c.kept)
		}
	}
}
