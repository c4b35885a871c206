package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestStore_PutGetReopen(t *testing.T) {
	path := tempPath(t)
	s := mustOpen(t, path, &Options{Strict: true})
	big := strings.Repeat("x", 3<<20)
	r1 := put(t, s, "a", "1")
	r2 := put(t, s, "big", big)
	r3 := put(t, s, "a", "2")
	if r1 != 1 || r2 != 2 || r3 != 3 {
		t.Fatalf("revisions %d %d %d, want 1 2 3", r1, r2, r3)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, path, &Options{Strict: true})
	defer s.Close()
	if v, rev, ok := get(t, s, "a"); !ok || v != "2" || rev != 3 {
		t.Fatalf("a = %q rev %d %v", v, rev, ok)
	}
	if v, rev, ok := get(t, s, "big"); !ok || v != big || rev != 2 {
		t.Fatalf("big: len %d rev %d %v", len(v), rev, ok)
	}
	if _, _, ok := get(t, s, "missing"); ok {
		t.Fatal("missing key found")
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

func TestStore_ManyKeysSplitMerge(t *testing.T) {
	for _, ram := range []bool{false, true} {
		t.Run(fmt.Sprint("ram=", ram), func(t *testing.T) {
			opts := &Options{Strict: true, nodeSize: 256}
			var s *Store
			var err error
			if ram {
				s, err = OpenRAM(opts)
			} else {
				s, err = Open(tempPath(t), opts)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			const n = 2000
			for i := 0; i < n; i += 50 {
				tx, _ := s.Begin()
				for j := i; j < i+50; j++ {
					if err := tx.Put([]byte(key(j*7919%n)), []byte(fmt.Sprint("v", j)), Any); err != nil {
						t.Fatal(err)
					}
				}
				if _, err := tx.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			if got := len(contents(t, s)); got != n {
				t.Fatalf("%d keys, want %d", got, n)
			}
			for i := 0; i < n; i += 40 {
				tx, _ := s.Begin()
				for j := i; j < i+40; j++ {
					if j%10 != 0 {
						tx.Delete([]byte(key(j)), Any)
					}
				}
				if _, err := tx.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			m := contents(t, s)
			if len(m) != n/10 {
				t.Fatalf("%d keys after deletes, want %d", len(m), n/10)
			}
			tx, _ := s.Begin()
			for k := range m {
				tx.Delete([]byte(k), Any)
			}
			if _, err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			if len(contents(t, s)) != 0 {
				t.Fatal("not empty")
			}
		})
	}
}

func TestTx_ExpectedRevisions(t *testing.T) {
	s := mustOpen(t, tempPath(t), &Options{Strict: true})
	defer s.Close()
	r1 := put(t, s, "k", "v1")

	tx, _ := s.Begin()
	if err := tx.Put([]byte("k"), []byte("x"), r1+1); !isConflict(err) {
		t.Fatalf("stale expect: %v", err)
	}
	if err := tx.Put([]byte("k"), []byte("x"), Absent); !isConflict(err) {
		t.Fatalf("Absent on present key: %v", err)
	}
	if err := tx.Put([]byte("new"), []byte("x"), Absent); err != nil {
		t.Fatal(err)
	}
	if err := tx.Put([]byte("k"), []byte("v2"), r1); err != nil {
		t.Fatal(err)
	}
	r2, err := tx.Commit()
	if err != nil || r2 != r1+1 {
		t.Fatalf("commit: rev %d err %v", r2, err)
	}
	if _, err := tx.Commit(); !errors.Is(err, ErrTxDone) {
		t.Fatalf("second commit: %v", err)
	}

	// Stale snapshot: tx1 read k, then another commit changed it.
	tx1, _ := s.Begin()
	tx1.Get([]byte("k"))
	tx1.Put([]byte("k"), []byte("from tx1"), Any)
	put(t, s, "k", "v3")
	if _, err := tx1.Commit(); !isConflict(err) {
		t.Fatalf("stale read: %v", err)
	}
	// Blind writes never conflict.
	tx2, _ := s.Begin()
	tx2.Put([]byte("k"), []byte("blind"), Any)
	put(t, s, "k", "v4")
	if _, err := tx2.Commit(); err != nil {
		t.Fatalf("blind write: %v", err)
	}
	if v, _, _ := get(t, s, "k"); v != "blind" {
		t.Fatalf("k = %q", v)
	}
	// Own writes are visible in the transaction.
	tx3, _ := s.Begin()
	tx3.Put([]byte("own"), []byte("1"), Any)
	if v, rev, ok := tx3.Get([]byte("own")); !ok || string(v) != "1" || rev != 0 {
		t.Fatalf("own write: %q %d %v", v, rev, ok)
	}
	tx3.Delete([]byte("own"), Any)
	if _, _, ok := tx3.Get([]byte("own")); ok {
		t.Fatal("own delete not visible")
	}
	tx3.Rollback()
}

func TestTx_KeyLimits(t *testing.T) {
	s := mustOpen(t, tempPath(t), nil)
	defer s.Close()
	tx, _ := s.Begin()
	defer tx.Rollback()
	if err := tx.Put(nil, []byte("x"), Any); !errors.Is(err, ErrKeyEmpty) {
		t.Fatal(err)
	}
	if err := tx.Put(bytes.Repeat([]byte("k"), MaxKeySize+1), nil, Any); !errors.Is(err, ErrKeyTooLarge) {
		t.Fatal(err)
	}
	if err := tx.Put(bytes.Repeat([]byte("k"), MaxKeySize), nil, Any); err != nil {
		t.Fatal(err)
	}
}

func TestOpen_ForeignAndCorruptFiles(t *testing.T) {
	dir := t.TempDir()
	foreign := dir + "/foreign"
	os.WriteFile(foreign, []byte("this is not a store file, but it is long enough to hold a header.."), 0o644)
	if _, err := Open(foreign, nil); !errors.Is(err, ErrNotStore) {
		t.Fatalf("foreign: %v", err)
	}
	short := dir + "/short"
	os.WriteFile(short, []byte("PURE"), 0o644)
	if _, err := Open(short, nil); !errors.Is(err, ErrNotStore) {
		t.Fatalf("short: %v", err)
	}
	hdr := encodeFileHeader(dataStartV2)
	hdr[8] = 99
	copy(hdr[60:], le.AppendUint32(nil, checksum(hdr[:60])))
	version := dir + "/version"
	os.WriteFile(version, hdr, 0o644)
	if _, err := Open(version, nil); !errors.Is(err, ErrVersion) {
		t.Fatalf("version: %v", err)
	}
	hdr = encodeFileHeader(dataStartV2)
	hdr[20] = 1
	badcrc := dir + "/badcrc"
	os.WriteFile(badcrc, hdr, 0o644)
	if _, err := Open(badcrc, nil); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("bad header crc: %v", err)
	}

	// A damaged commit followed by a valid one is corruption, not a torn
	// tail: found by a plain Open when it follows the last checkpoint (the
	// file as a crash leaves it, before Close checkpoints)...
	for _, mode := range []struct {
		name string
		opts *Options
	}{{"tree", &Options{FoldEntries: -1}}, {"log", nil}} {
		path := dir + "/mid-" + mode.name
		s := mustOpen(t, path, mode.opts)
		put(t, s, "a", "1")
		mid := s.end
		put(t, s, "b", "2")
		put(t, s, "c", "3")
		crashed, _ := os.ReadFile(path)
		s.Close()
		b, _ := os.ReadFile(path)
		crashed[mid+recHdrSize+20] ^= 0xff
		os.WriteFile(path, crashed, 0o644)
		if _, err := Open(path, mode.opts); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("%s: mid-file damage after the checkpoint: %v", mode.name, err)
		}
		// ... and when a checkpoint covers it, by a strict Open and by
		// Check; a plain Open does not re-read the checkpointed prefix, but
		// it does read the log records over the tree (it replays them), so
		// in log mode this damage (a key length) is found by Open itself.
		b[mid+recHdrSize+20] ^= 0xff
		os.WriteFile(path, b, 0o644)
		strict := Options{Strict: true}
		if mode.opts != nil {
			strict.FoldEntries = mode.opts.FoldEntries
		}
		if _, err := Open(path, &strict); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("%s: checkpointed damage, strict open: %v", mode.name, err)
		}
		s, err := Open(path, mode.opts)
		if mode.name == "log" {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("log: damaged log record over the tree, plain open: %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Check(); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("checkpointed damage, Check: %v", err)
		}
		s.Close()
	}
}

func TestOpen_Locked(t *testing.T) {
	path := tempPath(t)
	s := mustOpen(t, path, nil)
	defer s.Close()
	if _, err := Open(path, nil); !errors.Is(err, ErrLocked) {
		t.Fatalf("second open: %v", err)
	}
}

func TestStore_Close(t *testing.T) {
	s := mustOpen(t, tempPath(t), nil)
	put(t, s, "a", "1")
	sn, _ := s.Snapshot()
	tx, _ := s.Begin()
	tx.Put([]byte("b"), nil, Any)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if v, _, ok := sn.Get([]byte("a")); !ok || string(v) != "1" {
		t.Fatal("snapshot unreadable after Close")
	}
	sn.Release()
	if _, err := tx.Commit(); !errors.Is(err, ErrClosed) {
		t.Fatalf("commit after close: %v", err)
	}
	if _, err := s.Snapshot(); !errors.Is(err, ErrClosed) {
		t.Fatalf("snapshot after close: %v", err)
	}
	if err := s.Close(); !errors.Is(err, ErrClosed) {
		t.Fatalf("second close: %v", err)
	}
}

func TestSnapshot_Range(t *testing.T) {
	s, _ := OpenRAM(&Options{nodeSize: 200})
	defer s.Close()
	tx, _ := s.Begin()
	for i := range 500 {
		tx.Put([]byte(key(i)), []byte("v"), Any)
	}
	tx.Commit()
	sn, _ := s.Snapshot()
	defer sn.Release()
	var got []string
	sn.Range([]byte(key(100)), []byte(key(200)), func(k, v []byte, rev uint64) bool {
		got = append(got, string(k))
		return true
	})
	if len(got) != 100 || got[0] != key(100) || got[99] != key(199) {
		t.Fatalf("range got %d keys: %v..", len(got), got[:min(3, len(got))])
	}
	n := 0
	sn.Range([]byte("key-000050x"), nil, func(k, v []byte, rev uint64) bool { n++; return n < 10 })
	if n != 10 {
		t.Fatalf("early stop: %d", n)
	}
	n = 0
	sn.Range(nil, nil, func(k, v []byte, rev uint64) bool { n++; return true })
	if n != 500 {
		t.Fatalf("full range: %d", n)
	}
}

func TestOpen_ReadOnly(t *testing.T) {
	path := tempPath(t)
	s := mustOpen(t, path, nil)
	put(t, s, "a", "1")
	s.Close()
	ro := mustOpen(t, path, &Options{ReadOnly: true, Strict: true})
	defer ro.Close()
	if v, _, ok := get(t, ro, "a"); !ok || v != "1" {
		t.Fatal("read-only store cannot read")
	}
	if _, err := ro.Begin(); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("Begin: %v", err)
	}
	if err := ro.Compact(); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("Compact: %v", err)
	}
	if _, err := Open(path+"-missing", &Options{ReadOnly: true}); err == nil {
		t.Fatal("read-only open created a file")
	}
}

// TestTx_WritesInAnyOrder: a transaction's writes, given in ascending
// order (appended after its last), descending, mixed, or again for a key
// already written (the last one or an earlier one), read back through
// Tx.Get before Commit and through a snapshot after it as a model of the
// last write of each key says.
func TestTx_WritesInAnyOrder(t *testing.T) {
	s, err := OpenRAM(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	model := map[string]string{}
	seq := uint64(7)
	next := func(n int) int { // a small deterministic generator
		seq = seq*6364136223846793005 + 1442695040888963407
		return int(seq>>33) % n
	}
	for round := range 40 {
		tx, err := s.Begin()
		if err != nil {
			t.Fatal(err)
		}
		mine := map[string]string{}
		k := next(50)
		for i := range 30 {
			switch next(4) {
			case 0: // ascending
				k += 1 + next(3)
			case 1: // descending
				k -= 1 + next(3)
			case 2: // anywhere
				k = next(60)
			} // 3: the same key again
			key := fmt.Sprintf("k%03d", max(k, 0))
			if next(5) == 0 {
				if err := tx.Delete([]byte(key), Any); err != nil {
					t.Fatal(err)
				}
				mine[key] = ""
			} else {
				v := fmt.Sprintf("r%d.%d", round, i)
				if err := tx.Put([]byte(key), []byte(v), Any); err != nil {
					t.Fatal(err)
				}
				mine[key] = v
			}
		}
		for key, v := range mine {
			got, _, ok := tx.Get([]byte(key))
			if ok != (v != "") || string(got) != v {
				t.Fatalf("round %d: the transaction reads %s = %q (%v), want %q", round, key, got, ok, v)
			}
		}
		if _, err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		for key, v := range mine {
			if v == "" {
				delete(model, key)
			} else {
				model[key] = v
			}
		}
		sn, err := s.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		sn.Range(nil, nil, func(key, val []byte, _ uint64) bool {
			if model[string(key)] != string(val) {
				t.Errorf("round %d: %s = %q, want %q", round, key, val, model[string(key)])
			}
			n++
			return true
		})
		sn.Release()
		if n != len(model) {
			t.Fatalf("round %d: %d keys, want %d", round, n, len(model))
		}
	}
}
