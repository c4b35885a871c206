package store

import (
	"errors"
	"strings"
	"testing"
)

// conn stands for a caller's per-connection state, with the reused
// snapshot and borrowed value embedded in it.
type conn struct {
	sn Snapshot
	b  Borrowed
}

// TestSnapshotInto_Allocs: SnapshotInto, Get and Release on a snapshot the
// caller owns allocate nothing, nor do BorrowInto and Release, from a
// snapshot or from the store.
func TestSnapshotInto_Allocs(t *testing.T) {
	s := mustOpen(t, tempPath(t), nil)
	defer s.Close()
	for i := range 2000 {
		put(t, s, key(i), "0123456789abcdef")
	}
	c := new(conn)
	k := []byte(key(77))
	cases := map[string]func(){
		"SnapshotInto+Get+Release": func() {
			if err := s.SnapshotInto(&c.sn); err != nil {
				t.Fatal(err)
			}
			if v, _, ok := c.sn.Get(k); !ok || len(v) != 16 {
				t.Fatal("Get through a filled snapshot failed")
			}
			c.sn.Release()
		},
		"Snapshot.BorrowInto+Release": func() {
			if !c.sn.BorrowInto(&c.b, k) || len(c.b.Bytes()) != 16 {
				t.Fatal("BorrowInto failed")
			}
			c.b.Release()
		},
		"Store.BorrowInto+Release": func() {
			if ok, err := s.BorrowInto(&c.b, k); !ok || err != nil || len(c.b.Bytes()) != 16 {
				t.Fatalf("Store.BorrowInto: %v %v", ok, err)
			}
			c.b.Release()
		},
	}
	for name, fn := range cases {
		if strings.HasPrefix(name, "Snapshot.") {
			if err := s.SnapshotInto(&c.sn); err != nil {
				t.Fatal(err)
			}
		}
		if n := testing.AllocsPerRun(1000, fn); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, n)
		}
		c.sn.Release()
	}
	if got := refs(s); got != 2 {
		t.Fatalf("mapping references %d after the loops, want 2 (writer and version)", got)
	}
}

// TestSnapshotInto_ReadsItsVersion: a refilled snapshot reads the version
// current at its filling, and a borrowed value filled from it outlives it.
func TestSnapshotInto_ReadsItsVersion(t *testing.T) {
	s := mustOpen(t, tempPath(t), nil)
	defer s.Close()
	var c conn
	for i := range 5 {
		put(t, s, "a", strings.Repeat("x", i+1))
		if err := s.SnapshotInto(&c.sn); err != nil {
			t.Fatal(err)
		}
		put(t, s, "a", "changed")
		if v, _, _ := c.sn.Get([]byte("a")); string(v) != strings.Repeat("x", i+1) {
			t.Fatalf("filling %d reads %q", i, v)
		}
		if !c.sn.BorrowInto(&c.b, []byte("a")) {
			t.Fatal("BorrowInto: key absent")
		}
		c.sn.Release()
		if err := s.Compact(); err != nil {
			t.Fatal(err)
		}
		if string(c.b.Bytes()) != strings.Repeat("x", i+1) {
			t.Fatalf("borrowed value %q after its snapshot and compaction", c.b.Bytes())
		}
		c.b.Release()
	}
	if err := s.SnapshotInto(&c.sn); err != nil {
		t.Fatal(err)
	}
	if c.sn.BorrowInto(&c.b, []byte("absent")) {
		t.Fatal("BorrowInto found an absent key")
	}
	if c.b.Bytes() != nil {
		t.Fatal("BorrowInto of an absent key left bytes in b")
	}
	c.sn.Release()
	if ok, err := s.BorrowInto(&c.b, []byte("absent")); ok || err != nil {
		t.Fatalf("Store.BorrowInto of an absent key: %v %v", ok, err)
	}
}

// TestSnapshotInto_Misuse: filling a live snapshot or borrowed value
// panics with a clear message and harms neither it nor anyone else; a
// second Release is a no-op; a transaction's snapshot cannot be filled;
// after Close, filling reports ErrClosed; the file reopens.
func TestSnapshotInto_Misuse(t *testing.T) {
	s := mustOpen(t, tempPath(t), nil)
	put(t, s, "a", "1")
	base := refs(s)
	var c conn
	if err := s.SnapshotInto(&c.sn); err != nil {
		t.Fatal(err)
	}
	if !c.sn.BorrowInto(&c.b, []byte("a")) {
		t.Fatal("BorrowInto: key absent")
	}
	tx, _ := s.Begin()
	for name, tc := range map[string]struct {
		fn   func()
		want string
	}{
		"SnapshotInto on a live snapshot":     {func() { s.SnapshotInto(&c.sn) }, "still live"},
		"Snapshot.BorrowInto on a live value": {func() { c.sn.BorrowInto(&c.b, []byte("a")) }, "still live"},
		"Store.BorrowInto on a live value":    {func() { s.BorrowInto(&c.b, []byte("a")) }, "still live"},
		"SnapshotInto on a Tx's snapshot":     {func() { s.SnapshotInto(tx.Snapshot()) }, "transaction's Snapshot"},
	} {
		func() {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, tc.want) {
					t.Errorf("%s: panic %v, want one containing %q", name, r, tc.want)
				}
			}()
			tc.fn()
		}()
	}
	tx.Rollback()
	if v, _, ok := c.sn.Get([]byte("a")); !ok || string(v) != "1" {
		t.Fatal("a live snapshot was damaged by a refused filling")
	}
	if string(c.b.Bytes()) != "1" {
		t.Fatal("a live borrowed value was damaged by a refused filling")
	}
	if got := refs(s); got != base+2 {
		t.Fatalf("references %d with one snapshot and one value held, want %d", got, base+2)
	}
	for range 3 {
		c.sn.Release()
		c.b.Release()
	}
	if got := refs(s); got != base {
		t.Fatalf("references %d after repeated releases, want %d", got, base)
	}
	func() {
		defer func() {
			if msg, _ := recover().(string); !strings.Contains(msg, "used after Release") {
				t.Errorf("BorrowInto from a released snapshot: panic %q", msg)
			}
		}()
		c.sn.BorrowInto(&c.b, []byte("a"))
	}()
	checkFreshPairs(t, s)

	// Filled and held across Close: the file reopens; the snapshot still
	// reads; afterwards filling reports ErrClosed and leaves it released.
	if err := s.SnapshotInto(&c.sn); err != nil {
		t.Fatal(err)
	}
	path := s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := mustOpen(t, path, &Options{Strict: true})
	put(t, s2, "a", "2")
	if v, _, _ := c.sn.Get([]byte("a")); string(v) != "1" {
		t.Fatalf("held snapshot reads %q after Close and another handle's commit", v)
	}
	c.sn.Release()
	if err := s.SnapshotInto(&c.sn); !errors.Is(err, ErrClosed) {
		t.Fatalf("SnapshotInto after Close: %v, want ErrClosed", err)
	}
	if _, err := s.BorrowInto(&c.b, []byte("a")); !errors.Is(err, ErrClosed) {
		t.Fatalf("BorrowInto after Close: %v, want ErrClosed", err)
	}
	c.sn.Release() // released already: a no-op
	if err := s2.SnapshotInto(&c.sn); err != nil {
		t.Fatal(err)
	}
	if v, _, _ := c.sn.Get([]byte("a")); string(v) != "2" {
		t.Fatalf("refilled from the new handle: %q", v)
	}
	c.sn.Release()
	s2.Close()
}
