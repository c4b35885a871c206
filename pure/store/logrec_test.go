package store

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestLog_SmallCommitAppendsRecord: in log mode a one-key commit appends a
// log record and its head, not a leaf and its path, and the head names the
// record; the fold that passes FoldEntries writes the tree and leaves no
// overlay.
func TestLog_SmallCommitAppendsRecord(t *testing.T) {
	s := mustOpen(t, tempPath(t), &Options{FoldEntries: 100})
	defer s.Close()
	for i := range 2000 {
		put(t, s, key(i), "0123456789abcdef") // a tree of several leaves
	}
	logged := 0
	for i := range 50 {
		before := s.Stats().Size
		put(t, s, key(5000+i), "0123456789abcdef")
		v := s.cur.Load()
		grew := s.Stats().Size - before
		if v.ov == nil {
			continue // this commit folded
		}
		if v.m.data[v.h.root] != kindLog {
			t.Fatalf("commit %d: root at %d is kind %q, want a log record", i, v.h.root, v.m.data[v.h.root])
		}
		// header, base, one entry (16 + key + value), head
		if want := uint64(logHdrSize + leafEntFixed + len(key(5000+i)) + 16 + headSize); grew != want {
			t.Fatalf("commit %d appended %d bytes, want %d (a log record and a head)", i, grew, want)
		}
		logged++
	}
	if logged < 40 {
		t.Fatalf("%d of 50 commits wrote a log record, want all but a fold or so", logged)
	}
	for i := range 200 {
		put(t, s, key(6000+i), "x")
	}
	v := s.cur.Load()
	if v.ov != nil && v.ov.n > 100 {
		t.Fatalf("overlay holds %d keys, FoldEntries is 100", v.ov.n)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestLog_SnapshotsAcrossFolds holds snapshots and borrowed values of many
// versions while later commits fold, compact and reopen, and checks each
// still reads exactly its own version.
func TestLog_SnapshotsAcrossFolds(t *testing.T) {
	for _, ram := range []bool{false, true} {
		t.Run(fmt.Sprint("ram=", ram), func(t *testing.T) {
			opts := &Options{FoldEntries: 5, nodeSize: 256}
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
			model := map[string]modelEntry{}
			type held struct {
				sn    *Snapshot
				model map[string]modelEntry
				b     *Borrowed
				bval  string
			}
			var hs []held
			for i := range 120 {
				tx, _ := s.Begin()
				for j := range 1 + i%4 {
					k := key((i*7 + j*13) % 40)
					if (i+j)%5 == 4 {
						tx.Delete([]byte(k), Any)
					} else {
						tx.Put([]byte(k), []byte(strings.Repeat(fmt.Sprint(i%10), 1+i%1500)), Any)
					}
				}
				rev, err := tx.Commit()
				if err != nil {
					t.Fatal(err)
				}
				for j := range 1 + i%4 {
					k := key((i*7 + j*13) % 40)
					if (i+j)%5 == 4 {
						delete(model, k)
					} else {
						model[k] = modelEntry{strings.Repeat(fmt.Sprint(i%10), 1+i%1500), rev}
					}
				}
				if i%10 == 3 {
					sn, _ := s.Snapshot()
					h := held{sn: sn, model: map[string]modelEntry{}}
					for k, e := range model {
						h.model[k] = e
						if h.b == nil {
							h.b, _ = sn.Borrow([]byte(k))
							h.bval = e.val
						}
					}
					hs = append(hs, h)
				}
				if i%37 == 36 {
					if err := s.Compact(); err != nil {
						t.Fatal(err)
					}
				}
			}
			for n, h := range hs {
				compareSnapshot(t, h.sn, h.model)
				checkRange(t, h.sn, h.model, []byte(key(10)), []byte(key(30)), n)
				if h.b != nil && string(h.b.Bytes()) != h.bval {
					t.Fatalf("snapshot %d: borrowed value changed", n)
				}
				h.sn.Release()
				if h.b != nil {
					h.b.Release()
				}
			}
			compareAll(t, s, model)
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// compareSnapshot is compareAll for a snapshot held by the caller.
func compareSnapshot(t *testing.T, sn *Snapshot, model map[string]modelEntry) {
	t.Helper()
	n := 0
	sn.Range(nil, nil, func(k, v []byte, rev uint64) bool {
		e, ok := model[string(k)]
		if !ok || string(v) != e.val || rev != e.rev {
			t.Fatalf("key %q: %d bytes rev %d; model %v %d bytes rev %d", k, len(v), rev, ok, len(e.val), e.rev)
		}
		n++
		return true
	})
	for k, e := range model {
		v, rev, ok := sn.Get([]byte(k))
		if !ok || string(v) != e.val || rev != e.rev {
			t.Fatalf("Get(%q): %d bytes rev %d %v; model %d bytes rev %d", k, len(v), rev, ok, len(e.val), e.rev)
		}
	}
	if n != len(model) || sn.Len() != n {
		t.Fatalf("snapshot has %d keys (head %d), model %d", n, sn.Len(), len(model))
	}
}

// TestLog_RecoveryReplays: a file left as kill -9 leaves it (every commit
// synced, no checkpoint at Close), with log records over the tree, opens
// to the same keys, values and revisions, by replaying them; so does the
// file after Close, from its checkpoint; and a commit after the reopen
// lays its record over the recovered ones.
func TestLog_RecoveryReplays(t *testing.T) {
	path := tempPath(t)
	s := mustOpen(t, path, &Options{FoldEntries: 50, ckptEvery: 4096})
	model := map[string]modelEntry{}
	for i := range 300 {
		k := key(i * 7 % 90)
		tx, _ := s.Begin()
		if i%9 == 8 {
			tx.Delete([]byte(k), Any)
		} else {
			tx.Put([]byte(k), []byte(fmt.Sprint("v", i)), Any)
		}
		rev, err := tx.Commit()
		if err != nil {
			t.Fatal(err)
		}
		if i%9 == 8 {
			delete(model, k)
		} else {
			model[k] = modelEntry{fmt.Sprint("v", i), rev}
		}
	}
	if s.cur.Load().ov == nil {
		t.Fatal("the last commit folded: the test wants log records over the tree")
	}
	crashed, _ := os.ReadFile(path)
	s.Close()
	for _, name := range []string{"closed", "crashed"} {
		if name == "crashed" {
			os.WriteFile(path, crashed, 0o644)
		}
		s = mustOpen(t, path, &Options{FoldEntries: 50})
		if s.cur.Load().ov == nil {
			t.Fatalf("%s: reopened without the overlay", name)
		}
		compareAll(t, s, model)
		if err := s.Check(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s.Close()
	}
	s = mustOpen(t, path, &Options{FoldEntries: 50, Strict: true})
	defer s.Close()
	rev := put(t, s, "zz", "after")
	model["zz"] = modelEntry{"after", rev}
	compareAll(t, s, model)
}

// TestLog_VersionTwoFilesStayTrees: a version 2 file (written before log
// records) gets tree commits, so a reader that knows no log record can
// still read it; Compact rewrites it as version 3, where commits write log
// records.
func TestLog_VersionTwoFilesStayTrees(t *testing.T) {
	path := tempPath(t)
	if err := os.WriteFile(path, newFileImage(formatV2), 0o644); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, path, nil)
	defer s.Close()
	for i := range 20 {
		put(t, s, key(i), "v")
	}
	if v := s.cur.Load(); v.ov != nil || v.m.data[v.h.root] == kindLog || fileVersion(v.m.data) != formatV2 {
		t.Fatalf("version %d file: root kind %q, overlay %v", fileVersion(v.m.data), v.m.data[v.h.root], v.ov != nil)
	}
	if err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	put(t, s, "after", "v")
	if v := s.cur.Load(); v.ov == nil || fileVersion(v.m.data) != formatVersion {
		t.Fatalf("after Compact: version %d, overlay %v", fileVersion(v.m.data), v.ov != nil)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestLog_HeadCounts: in a version 4 file a head over log records counts
// the keys of its tree alone and Len adds the records' (new keys in,
// deleted tree keys out, overwrites neither); a version 3 file keeps
// heads that count every key, also after a reopen by this package, and
// Compact rewrites it as version 4. Len, Stats and Check agree throughout.
func TestLog_HeadCounts(t *testing.T) {
	for _, version := range []uint32{formatV3, formatVersion} {
		t.Run(fmt.Sprint("version=", version), func(t *testing.T) {
			path := tempPath(t)
			s := mustOpen(t, path, &Options{FoldEntries: -1, version: version})
			for i := range 50 {
				put(t, s, key(i), "tree")
			}
			s.Close()
			s = mustOpen(t, path, nil)
			defer func() { s.Close() }()
			put(t, s, key(3), "overwritten")
			put(t, s, "new-1", "v")
			put(t, s, "new-2", "v")
			for _, k := range []string{key(7), "absent"} {
				tx, _ := s.Begin()
				tx.Delete([]byte(k), Any)
				if _, err := tx.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			const tree, want = 50, 51 // 50 + 2 new - 1 deleted
			verify := func(when string, version uint32, headCount uint64) {
				t.Helper()
				v := s.cur.Load()
				if v.ov == nil || fileVersion(v.m.data) != version {
					t.Fatalf("%s: version %d, overlay %v; want version %d with log records", when, fileVersion(v.m.data), v.ov != nil, version)
				}
				if v.h.count != headCount {
					t.Fatalf("%s: head counts %d keys, want %d", when, v.h.count, headCount)
				}
				if n := len(contents(t, s)); n != want { // contents checks Len against Range
					t.Fatalf("%s: %d keys, want %d", when, n, want)
				}
				if n := s.Stats().Keys; n != want {
					t.Fatalf("%s: Stats counts %d keys, want %d", when, n, want)
				}
				if err := s.Check(); err != nil {
					t.Fatalf("%s: %v", when, err)
				}
			}
			headCount := uint64(want)
			if version == formatVersion {
				headCount = tree
			}
			verify("after commits", version, headCount)
			s.Close()
			s = mustOpen(t, path, nil)
			verify("after reopen", version, headCount)
			if err := s.Compact(); err != nil {
				t.Fatal(err)
			}
			verify("after Compact", formatVersion, tree) // the copy: the same tree, the records as one record over it
		})
	}
}

// Range over a tree of several levels with log records laid over it
// (overwrites, deletes and new keys, scattered and in runs) gives the
// model's keys in order for bounded and open ranges and honours an early
// stop: the merge compares with the overlay only in leaves that reach its
// next entry, so the leaves it skips and the ones it merges both need
// checking.
func TestRange_TreeWithOverlay(t *testing.T) {
	s, err := OpenRAM(&Options{nodeSize: 256, FoldEntries: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	model := map[string]modelEntry{}
	tx, _ := s.Begin()
	for i := 0; i < 3000; i += 2 { // more than FoldEntries: folded into the tree
		tx.Put([]byte(key(i)), []byte(fmt.Sprint("tree", i)), Any)
	}
	rev, err := tx.Commit()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3000; i += 2 {
		model[key(i)] = modelEntry{fmt.Sprint("tree", i), rev}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for c := range 300 {
		tx, _ := s.Begin()
		type op struct {
			k   string
			del bool
		}
		var ops []op
		for range 1 + c%3 {
			k := key(rng.IntN(3000))
			if c%40 < 4 { // now and then a run of neighbours
				k = key(1200 + c%40*3)
			}
			if rng.IntN(4) == 0 {
				tx.Delete([]byte(k), Any)
				ops = append(ops, op{k, true})
			} else {
				tx.Put([]byte(k), []byte(fmt.Sprint("log", c)), Any)
				ops = append(ops, op{k, false})
			}
		}
		rev, err := tx.Commit()
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range ops { // in order: a key may be put and deleted in one transaction
			if o.del {
				delete(model, o.k)
			} else {
				model[o.k] = modelEntry{fmt.Sprint("log", c), rev}
			}
		}
	}
	sn, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer sn.Release()
	if sn.ov == nil || sn.ov.n < 100 || sn.ov.tree == 0 {
		t.Fatalf("want a tree with an overlay of at least 100 entries; overlay %v", sn.ov != nil)
	}
	compareAll(t, s, model)
	bound := func() []byte {
		if rng.IntN(5) == 0 {
			return nil
		}
		return []byte(key(rng.IntN(3100)))
	}
	for step := range 2000 {
		from, to := bound(), bound()
		checkRange(t, sn, model, from, to, step)
	}
}
