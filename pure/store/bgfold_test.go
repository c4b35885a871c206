package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// TestRelocate_SameAsSpilledThere: a fold's nodes spilled as if at one
// offset and moved to another (relocate) are byte for byte the nodes the
// same fold spills at the other offset: with splits, new levels, deletions
// and out-of-line values among them.
func TestRelocate_SameAsSpilledThere(t *testing.T) {
	s, err := OpenRAM(&Options{nodeSize: 256, FoldEntries: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	big := strings.Repeat("V", maxInline+100)
	for i := range 400 {
		val := "0123456789abcdef"
		if i%7 == 0 {
			val = big
		}
		put(t, s, key(3*i), val)
	}
	v := s.acquireCurrent()
	defer v.m.release()
	d := v.m.data
	rng := rand.New(rand.NewPCG(testSeed(t), 3))
	type op struct {
		k, v string
		del  bool
	}
	var ops []op
	for range 300 {
		i := rng.IntN(1500)
		switch rng.IntN(4) {
		case 0:
			ops = append(ops, op{k: key(i), del: true})
		case 1:
			ops = append(ops, op{k: key(i), v: big})
		default:
			ops = append(ops, op{k: key(i), v: fmt.Sprint("v", i)})
		}
	}
	spillAt := func(base uint64) ([]byte, uint64) {
		var sc scratch
		tr := &wtree{d: d, rootOff: v.h.root, count: v.h.count, nodes: &sc.nodes}
		for _, o := range ops {
			if o.del {
				tr.del([]byte(o.k))
			} else {
				tr.put([]byte(o.k), []byte(o.v), 9)
			}
		}
		sp := spiller{t: tr, base: base, nodeSize: 256, sc: &sc}
		root := sp.spillRoot()
		return sp.buf, root
	}
	from, to := uint64(len(d)), uint64(len(d))+12345
	a, ra := spillAt(from)
	b, rb := spillAt(to)
	if len(a) == 0 || ra < from {
		t.Fatalf("the fold wrote %d bytes, root %d: want new nodes", len(a), ra)
	}
	relocate(a, from, to)
	if ra = ra - from + to; ra != rb || !bytes.Equal(a, b) {
		t.Fatalf("relocated from %d to %d: root %d, want %d; bytes equal: %v", from, to, ra, rb, bytes.Equal(a, b))
	}
}

// TestBackgroundFold_ConcurrentStrict: writers on a file commit puts and
// deletes with a small fold bound, so that background folds start, run
// beside their groups and are installed over entries written meanwhile;
// strict mode checks every version (its tree and its overlay against the
// one Open builds). Every key reads back as the model says, before and
// after a reopen, and after a compaction and Close with a fold in flight.
func TestBackgroundFold_ConcurrentStrict(t *testing.T) {
	for _, version := range []uint32{formatV3, formatVersion} {
		t.Run(fmt.Sprint("version=", version), func(t *testing.T) {
			path := tempPath(t)
			opts := &Options{Strict: true, nodeSize: 512, FoldEntries: 40, version: version, AutoCompact: -1}
			s := mustOpen(t, path, opts)
			models := make([]map[string]string, 8) // each writer's keys are its own
			var wg sync.WaitGroup
			for w := range models {
				models[w] = map[string]string{}
				wg.Add(1)
				go func() {
					defer wg.Done()
					rng := rand.New(rand.NewPCG(testSeed(t), uint64(w)))
					for n := range 150 {
						tx, _ := s.Begin()
						k := fmt.Sprintf("w%d-%04d", w, rng.IntN(300))
						del := n%5 == 4
						if del {
							tx.Delete([]byte(k), Any)
						} else {
							tx.Put([]byte(k), []byte(fmt.Sprint(n)), Any)
						}
						if _, err := tx.Commit(); err != nil {
							t.Error(err)
							return
						}
						if del {
							delete(models[w], k)
						} else {
							models[w][k] = fmt.Sprint(n)
						}
					}
				}()
			}
			wg.Wait()
			model := map[string]string{}
			for _, m := range models {
				for k, v := range m {
					model[k] = v
				}
			}
			if s.foldsStarted.Load() == 0 {
				t.Fatal("no background fold started")
			}
			if got := contents(t, s); !sameModel(got, model) {
				t.Fatalf("contents: %d keys, want %d", len(got), len(model))
			}
			if got := s.Stats().Keys; got != uint64(len(model)) {
				t.Fatalf("Stats.Keys %d, want %d", got, len(model))
			}
			if err := s.Compact(); err != nil {
				t.Fatal(err)
			}
			if got := contents(t, s); !sameModel(got, model) {
				t.Fatal("contents differ after compaction")
			}
			s.Close()
			s = mustOpen(t, path, &Options{Strict: true})
			defer s.Close()
			if got := contents(t, s); !sameModel(got, model) {
				t.Fatal("contents differ after reopen")
			}
		})
	}
}

// TestBackgroundFold_InstallRetried: a group that installs a finished
// fold but commits nothing (its one transaction conflicts) writes no head;
// the fold stays, and the next group installs it again at the same place,
// over the entries written meanwhile. Contents, Check and a reopen agree.
func TestBackgroundFold_InstallRetried(t *testing.T) {
	path := tempPath(t)
	s := mustOpen(t, path, &Options{Strict: true, FoldEntries: 10, AutoCompact: -1})
	model := map[string]string{}
	for i := range 10 {
		put(t, s, key(i), fmt.Sprint("a", i))
		model[key(i)] = fmt.Sprint("a", i)
	}
	_, rev3, _ := get(t, s, key(3))
	stale, _ := s.Begin()
	stale.Put([]byte(key(3)), []byte("stale"), rev3) // valid now, not once key 3 is written again
	tx, _ := s.Begin()
	tx.Put([]byte(key(3)), []byte("b3"), Any)
	tx.Put([]byte(key(10)), []byte("b10"), Any) // the eleventh key: the overlay passes 10, a fold starts
	if _, err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	model[key(3)], model[key(10)] = "b3", "b10"
	j := s.fold
	if j == nil {
		t.Fatal("no background fold after the overlay passed its bound")
	}
	<-j.done
	before := s.Stats()
	if _, err := stale.Commit(); !isConflict(err) {
		t.Fatalf("commit with a stale revision: %v, want a conflict", err)
	}
	if s.fold != j || s.Stats().Size != before.Size || s.Stats().Seq != before.Seq {
		t.Fatal("a group that committed nothing consumed the fold or wrote a head")
	}
	put(t, s, key(20), "b")
	model[key(20)] = "b"
	if s.fold != nil {
		t.Fatal("the next group did not install the fold")
	}
	v := s.acquireCurrent()
	tree := v.ov.tree
	v.m.release()
	if tree == 0 || tree < before.Size {
		t.Fatalf("the version's tree is at %d, want the fold's, written after %d", tree, before.Size)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if got := contents(t, s); !sameModel(got, model) {
		t.Fatalf("contents: %d keys, want %d", len(got), len(model))
	}
	s.Close()
	s = mustOpen(t, path, &Options{Strict: true})
	defer s.Close()
	if got := contents(t, s); !sameModel(got, model) {
		t.Fatal("contents differ after reopen")
	}
}
