package store

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestBorrow_OutlivesChangesAndCompaction borrows values (inline and out of
// line), then changes the keys, compacts, closes the store, and still reads
// the borrowed bytes; the old mapping is unmapped at the last release.
func TestBorrow_OutlivesChangesAndCompaction(t *testing.T) {
	for _, ram := range []bool{false, true} {
		t.Run(fmt.Sprint("ram=", ram), func(t *testing.T) {
			var s *Store
			var err error
			if ram {
				s, err = OpenRAM(&Options{Strict: true})
			} else {
				s, err = Open(tempPath(t), &Options{Strict: true})
			}
			if err != nil {
				t.Fatal(err)
			}
			small, big := "small value", strings.Repeat("big", 400000)
			put(t, s, "small", small)
			r := put(t, s, "big", big)
			for i := range 200 {
				put(t, s, key(i), strings.Repeat("x", i))
			}
			b1, ok, err := s.Borrow([]byte("big"))
			if err != nil || !ok || b1.Rev() != r {
				t.Fatalf("borrow: %v %v", ok, err)
			}
			sn, _ := s.Snapshot()
			b2, ok := sn.Borrow([]byte("small"))
			if !ok {
				t.Fatal("borrow small")
			}
			sn.Release()
			old := b1.m

			put(t, s, "big", "changed")
			tx, _ := s.Begin()
			tx.Delete([]byte("small"), Any)
			tx.Commit()
			sizeBefore := s.Stats().Size
			if err := s.Compact(); err != nil {
				t.Fatal(err)
			}
			if s.cur.Load().m == old {
				t.Fatal("compaction kept the old mapping")
			}
			if after := s.Stats().Size; after >= sizeBefore {
				t.Fatalf("compaction did not shrink: %d -> %d", sizeBefore, after)
			}
			put(t, s, "big", "changed again")
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if string(b1.Bytes()) != big || string(b2.Bytes()) != small {
				t.Fatal("borrowed bytes changed")
			}
			if old.refs.Load() != 2 {
				t.Fatalf("old mapping has %d references, want the 2 borrows", old.refs.Load())
			}
			b1.Release()
			b2.Release()
			if old.refs.Load() != 0 || old.data != nil {
				t.Fatal("old mapping not unmapped after the last borrower released it")
			}
		})
	}
}

// TestBorrow_AcrossRemap grows the file past its mapping while a value is
// borrowed and a snapshot is pinned.
func TestBorrow_AcrossRemap(t *testing.T) {
	path := tempPath(t)
	s := mustOpen(t, path, &Options{Strict: true, mapMin: 1 << 16})
	defer s.Close()
	put(t, s, "a", "first")
	b, _, _ := s.Borrow([]byte("a"))
	sn, _ := s.Snapshot()
	first := s.cur.Load().m
	for i := range 50 {
		put(t, s, key(i), strings.Repeat("y", 3000))
	}
	put(t, s, "a", "second")
	if s.cur.Load().m == first {
		t.Fatal("no remap happened")
	}
	if v, _, _ := sn.Get([]byte("a")); string(v) != "first" {
		t.Fatal("snapshot changed")
	}
	sn.Release()
	if string(b.Bytes()) != "first" {
		t.Fatal("borrowed value changed")
	}
	b.Release()
	if first.data != nil {
		t.Fatal("first mapping not unmapped")
	}
	if v, _, _ := get(t, s, "a"); v != "second" {
		t.Fatal(v)
	}
}

// TestSnapshot_Allocs asserts that point reads and range scans allocate
// nothing, and that pinning a snapshot or borrowing a value allocates only
// the Snapshot or Borrowed itself: they are not pooled, so that a second
// Release can never reach an object a pool handed to another reader
// (misuse_test.go).
func TestSnapshot_Allocs(t *testing.T) {
	s := mustOpen(t, tempPath(t), nil)
	defer s.Close()
	tx, _ := s.Begin()
	for i := range 1000 {
		tx.Put([]byte(key(i)), bytes.Repeat([]byte("v"), i%200), Any)
	}
	tx.Put([]byte("big"), bytes.Repeat([]byte("B"), 1<<20), Any)
	tx.Commit()
	k := []byte(key(500))
	sn, _ := s.Snapshot()
	defer sn.Release()
	var sink int
	check := func(name string, want float64, fn func()) {
		if n := testing.AllocsPerRun(1000, fn); n != want {
			t.Errorf("%s: %v allocations, want %v", name, n, want)
		}
	}
	check("Snapshot.Get", 0, func() {
		v, _, _ := sn.Get(k)
		sink += len(v)
	})
	check("Snapshot.Borrow", 1, func() {
		b, _ := sn.Borrow([]byte("big"))
		sink += len(b.Bytes())
		b.Release()
	})
	check("Store.Borrow", 1, func() {
		b, _, _ := s.Borrow(k)
		sink += len(b.Bytes())
		b.Release()
	})
	check("Store.Snapshot", 1, func() {
		sn, _ := s.Snapshot()
		sink += sn.Len()
		sn.Release()
	})
	check("Snapshot.Range", 0, func() {
		sn.Range(k, nil, func(k, v []byte, rev uint64) bool { sink++; return sink%100 != 0 })
	})
}
