package store

import (
	"errors"
	"testing"
)

// TestCheck_DetectsDamage breaks one invariant at a time in a RAM store's
// image (which is writable, unlike a file mapping) and expects Check to
// report ErrCorrupt.
func TestCheck_DetectsDamage(t *testing.T) {
	build := func() (*Store, []byte, head) {
		s, _ := OpenRAM(&Options{nodeSize: 256, FoldEntries: -1}) // a tree: log records are damaged in TestCheck_DetectsLogDamage
		tx, _ := s.Begin()
		for i := range 200 {
			tx.Put([]byte(key(i)), []byte("value"), Any)
		}
		tx.Put([]byte("zbig"), make([]byte, 5000), Any)
		tx.Commit()
		v := s.cur.Load()
		if err := checkFull(v.m.data, v.h); err != nil {
			t.Fatal(err)
		}
		return s, v.m.data, v.h
	}
	expect := func(name string, err error) {
		t.Helper()
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Check returned %v, want ErrCorrupt", name, err)
		}
	}

	s, d, h := build()
	d[h.off-10] ^= 1 // a byte of the root node
	expect("checksum", checkFull(d, h))
	s.Close()

	s, d, h = build()
	hc := h
	hc.count++
	expect("key count", checkTree(d, hc))
	hc = h
	hc.rev = 0
	expect("revision", checkTree(d, hc))
	hc = h
	hc.root = h.off + 1
	expect("root outside", checkTree(d, hc))
	s.Close()

	// Key order: make the second key of the first leaf sort before the first.
	s, d, h = build()
	leaf := h.root
	for nodeKind(d, leaf) == kindBranch {
		leaf = branchChild(d, entAt(d, leaf, 0))
	}
	k := leafKey(d, entAt(d, leaf, 1))
	k[len(k)-1] = '0' - 1
	expect("key order", checkTree(d, h))
	s.Close()

	// A branch pointing twice at the same child: overlap or key mismatch.
	s, d, h = build()
	e0, e1 := entAt(d, h.root, 0), entAt(d, h.root, 1)
	copy(d[e1:e1+8], d[e0:e0+8])
	expect("shared child", checkTree(d, h))
	s.Close()
}

// TestCheck_DetectsLogDamage breaks log records over a tree, one way at a
// time, and expects Check to report ErrCorrupt.
func TestCheck_DetectsLogDamage(t *testing.T) {
	build := func() (*Store, []byte, head) {
		s, _ := OpenRAM(&Options{nodeSize: 256, FoldEntries: 1 << 20})
		for i := range 50 {
			tx, _ := s.Begin()
			tx.Put([]byte(key(i)), []byte("value"), Any)
			if i%7 == 3 {
				tx.Delete([]byte(key(i-2)), Any)
			}
			tx.Commit()
		}
		v := s.cur.Load()
		if v.ov == nil || v.m.data[v.h.root] != kindLog {
			t.Fatalf("head's root at %d is not a log record", v.h.root)
		}
		if err := checkFull(v.m.data, v.h); err != nil {
			t.Fatal(err)
		}
		return s, v.m.data, v.h
	}
	expect := func(name string, err error) {
		t.Helper()
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Check returned %v, want ErrCorrupt", name, err)
		}
	}
	cases := map[string]func(d []byte, h *head){
		"key count":      func(d []byte, h *head) { h.count++ },
		"revision":       func(d []byte, h *head) { le.PutUint64(d[h.root+logHdrSize:], h.rev+1) },
		"zero revision":  func(d []byte, h *head) { le.PutUint64(d[h.root+logHdrSize:], 0) },
		"entry flags":    func(d []byte, h *head) { d[h.root+logHdrSize+14] = 0x80 },
		"key length":     func(d []byte, h *head) { le.PutUint16(d[h.root+logHdrSize+12:], 0) },
		"entry overruns": func(d []byte, h *head) { le.PutUint32(d[h.root+logHdrSize+8:], 1000) },
		"base after":     func(d []byte, h *head) { le.PutUint64(d[h.root+recHdrSize:], h.root+1) },
		"record length":  func(d []byte, h *head) { le.PutUint32(d[h.root+4:], uint32(h.off)) },
		"base overlaps": func(d []byte, h *head) {
			le.PutUint64(d[logBase(d, h.root)+recHdrSize:], logBase(d, logBase(d, h.root))+1) // lands inside the record below
		},
	}
	for name, damage := range cases {
		s, d, h := build()
		damage(d, &h)
		expect(name, checkTree(d, h))
		s.Close()
	}
}
