package store

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// TestOpen_RandomDamageNeverPanics flips random bytes anywhere in a valid
// file, one with a checkpoint after every commit. A strict Open (which
// verifies everything) must either return a sentinel error or a store
// whose contents are one of the committed versions and that passes Check,
// never panic. A plain Open starts from the checkpoint and does not re-read
// what it covers: it must do the same unless some flipped byte lies in the
// checkpointed prefix, and then Check must find the damage.
func TestOpen_RandomDamageNeverPanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 4))
	dir := t.TempDir()
	path := dir + "/base"
	s := mustOpen(t, path, &Options{nodeSize: 256, ckptEvery: 1})
	var versions []map[string]string
	model := map[string]string{}
	versions = append(versions, cloneModel(model))
	for c := range 8 {
		tx, _ := s.Begin()
		for i := range 40 {
			k, v := key(rng.IntN(300)), fmt.Sprint(c, "-", i, bytes.Repeat([]byte("z"), rng.IntN(1500)))
			tx.Put([]byte(k), []byte(v), Any)
			model[k] = v
		}
		tx.Commit()
		versions = append(versions, cloneModel(model))
	}
	base, _ := os.ReadFile(path) // as a crash would leave it: the last checkpoint names the 7th head
	s.Close()
	ckptEnd := newestCheckpoint(base, dataStartV2).end(dataStartV2)
	if ckptEnd == dataStartV2 {
		t.Fatal("no checkpoint in the base file")
	}
	isVersion := func(got map[string]string) bool {
		for _, v := range versions {
			if sameModel(got, v) {
				return true
			}
		}
		return false
	}
	for i := range 300 {
		b := bytes.Clone(base)
		inPrefix := false
		for range 1 + rng.IntN(3) {
			p := rng.IntN(len(b))
			b[p] ^= byte(1 + rng.IntN(255))
			inPrefix = inPrefix || (p >= dataStartV2 && uint64(p) < ckptEnd)
		}
		p := fmt.Sprintf("%s/damaged%d", dir, i%4)
		for _, strict := range []bool{true, false} {
			os.WriteFile(p, b, 0o644)
			s, err := Open(p, &Options{Strict: strict})
			if err != nil {
				if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNotStore) && !errors.Is(err, ErrVersion) {
					t.Fatalf("trial %d strict=%v: error %v is not a documented sentinel", i, strict, err)
				}
				continue
			}
			if err := s.Check(); err != nil {
				if strict || !inPrefix || !errors.Is(err, ErrCorrupt) {
					t.Fatalf("trial %d strict=%v (damage in the checkpointed prefix: %v): %v", i, strict, inPrefix, err)
				}
				s.Close()
				continue
			}
			if !isVersion(contents(t, s)) {
				t.Fatalf("trial %d strict=%v: opened a state that was never committed", i, strict)
			}
			s.Close()
		}
	}
}

// TestOpen_DamagedTreeUnderCheckpoint damages the tree below log records,
// inside the checkpointed prefix that a plain Open does not re-read: its
// root claims 65,535 entries. In a version 3 file Open still looks the
// records' keys up in that tree (to count its keys), and must refuse with
// ErrCorrupt rather than read outside the node. In a version 4 file the
// head counts the tree's keys, so a plain Open reads nothing of the tree
// and opens; Check and a strict Open must then refuse it.
func TestOpen_DamagedTreeUnderCheckpoint(t *testing.T) {
	for _, version := range []uint32{formatV3, formatVersion} {
		t.Run(fmt.Sprint("version=", version), func(t *testing.T) {
			path := tempPath(t)
			s := mustOpen(t, path, &Options{nodeSize: 256, ckptEvery: 1, FoldEntries: -1, version: version})
			tx, _ := s.Begin()
			for i := range 300 {
				tx.Put([]byte(key(i)), []byte("tree"), Any)
			}
			if _, err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			s.Close()
			s = mustOpen(t, path, &Options{nodeSize: 256, ckptEvery: 1})
			put(t, s, key(7), "record")
			put(t, s, "new", "record")
			v := s.cur.Load()
			recs, tree, err := logChain(v.m.data, v.h.root)
			if err != nil || len(recs) == 0 || tree == 0 || nodeKind(v.m.data, tree) != kindBranch || fileVersion(v.m.data) != version {
				t.Fatalf("want log records over a branch in a version %d file: %d records, tree at %d, version %d, %v", version, len(recs), tree, fileVersion(v.m.data), err)
			}
			s.Close()
			b, _ := os.ReadFile(path)
			le.PutUint16(b[tree+2:], 0xffff)
			os.WriteFile(path, b, 0o644)
			for _, strict := range []bool{false, true} {
				s, err := Open(path, &Options{Strict: strict})
				if err == nil && !strict && version == formatVersion {
					if err := s.Check(); !errors.Is(err, ErrCorrupt) {
						t.Fatalf("plain open of version %d: Check says %v, want ErrCorrupt", version, err)
					}
					s.Close()
					continue
				}
				if !errors.Is(err, ErrCorrupt) {
					if err == nil {
						s.Close()
					}
					t.Fatalf("strict=%v: open of a file whose tree root claims 65,535 entries: %v, want ErrCorrupt", strict, err)
				}
				t.Logf("strict=%v: %v", strict, err)
			}
		})
	}
}
