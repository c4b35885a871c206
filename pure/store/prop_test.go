package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// modelEntry is a key's state in the reference model.
type modelEntry struct {
	val string
	rev uint64
}

// TestProperty_RandomTransactions runs random transactions against a map
// model, with random reopens and compactions and strict mode on, and
// compares every read. It prints its seed; replay with -store.seed=N.
func TestProperty_RandomTransactions(t *testing.T) {
	seed := testSeed(t)
	for _, ram := range []bool{false, true} {
		t.Run(fmt.Sprint("ram=", ram), func(t *testing.T) {
			runProperty(t, rand.New(rand.NewPCG(seed, 1)), ram, 1500)
		})
	}
}

func runProperty(t *testing.T, rng *rand.Rand, ram bool, steps int) {
	nodeSize := []int{128, 512, defaultNodeSize}[rng.IntN(3)]
	opts := &Options{Strict: true, nodeSize: nodeSize}
	if rng.IntN(2) == 0 {
		opts.AutoCompact = 1 << (16 + rng.IntN(4))
	}
	if rng.IntN(2) == 0 {
		opts.ckptEvery = 1 << (10 + rng.IntN(8)) // 1 KiB to 128 KiB
	}
	// Log records over the tree: off (tree commits), folded at every
	// group, every few groups, or the default.
	opts.FoldEntries = []int{-1, 1, 8, 64, 0}[rng.IntN(5)]
	// New files of version 3 (heads counting every key) or 4 (heads over
	// log records counting their tree's keys).
	opts.version = []uint32{formatV3, formatVersion}[rng.IntN(2)]
	t.Logf("node size %d, auto-compact %d, checkpoint every %d, fold entries %d, version %d", nodeSize, opts.AutoCompact, opts.ckptEvery, opts.FoldEntries, opts.version)
	path := tempPath(t)
	open := func() *Store {
		var s *Store
		var err error
		if ram {
			s, err = OpenRAM(opts)
		} else {
			s, err = Open(path, opts)
		}
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := open()
	defer func() { s.Close() }()
	model := map[string]modelEntry{}
	var rev uint64
	keys := make([]string, 300)
	for i := range keys {
		keys[i] = fmt.Sprintf("k%0*d", 1+rng.IntN(12), rng.IntN(100000))
	}
	value := func() string {
		switch r := rng.IntN(100); {
		case r == 0 && rng.IntN(4) == 0:
			return strings.Repeat(string(rune('a'+rng.IntN(26))), 1<<20+rng.IntN(1000))
		case r < 10:
			return strings.Repeat("v", maxInline-5+rng.IntN(3000))
		default:
			return strings.Repeat("w", rng.IntN(100))
		}
	}
	// expectFor picks an expectation for k and says whether it should hold.
	expectFor := func(k string) (uint64, bool) {
		e, present := model[k]
		switch rng.IntN(5) {
		case 0:
			return Absent, !present
		case 1:
			if present {
				return e.rev, true
			}
			return 1 + rng.Uint64N(rev+1), false
		case 2:
			return e.rev + 1 + rng.Uint64N(3), false
		default:
			return Any, true
		}
	}

	for step := 0; step < steps; step++ {
		switch r := rng.IntN(100); {
		case r < 3 && !ram:
			// Half the time as a kill -9 would leave the file (every
			// commit synced, Close's checkpoint not written), reopened
			// from its checkpoint without Strict and compared in full.
			var crashed []byte
			if rng.IntN(2) == 0 {
				crashed, _ = os.ReadFile(path)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if crashed != nil {
				os.WriteFile(path, crashed, 0o644)
				plain := *opts
				plain.Strict = false
				s = mustOpen(t, path, &plain)
				compareAll(t, s, model)
				if err := s.Check(); err != nil {
					t.Fatalf("step %d: after a plain open: %v", step, err)
				}
				s.Close()
			}
			s = open()
		case r < 5:
			if err := s.Compact(); err != nil {
				t.Fatalf("step %d: compact: %v", step, err)
			}
		case r < 15:
			// Two overlapping transactions: the second read a key the first
			// writes, so it must conflict; a disjoint one must not.
			k := keys[rng.IntN(len(keys))]
			tx1, _ := s.Begin()
			tx2, _ := s.Begin()
			tx2.Get([]byte(k))
			other := keys[rng.IntN(len(keys))]
			if other == k {
				other += "x"
			}
			tx2.Put([]byte(other), []byte("tx2"), Any)
			v := value()
			tx1.Put([]byte(k), []byte(v), Any)
			r1, err := tx1.Commit()
			if err != nil || r1 != rev+1 {
				t.Fatalf("step %d: tx1 rev %d err %v", step, r1, err)
			}
			rev = r1
			model[k] = modelEntry{v, rev}
			if _, err := tx2.Commit(); !isConflict(err) {
				t.Fatalf("step %d: tx2 after tx1 changed %q: %v", step, k, err)
			}
		default:
			tx, err := s.Begin()
			if err != nil {
				t.Fatal(err)
			}
			pending := map[string]*modelEntry{}
			nops := 1 + rng.IntN(8)
			if rng.IntN(20) == 0 {
				nops = 100
			}
			for range nops {
				k := keys[rng.IntN(len(keys))]
				exp, ok := expectFor(k)
				var err error
				del := rng.IntN(4) == 0
				var v string
				if del {
					err = tx.Delete([]byte(k), exp)
				} else {
					v = value()
					err = tx.Put([]byte(k), []byte(v), exp)
				}
				if ok != (err == nil) || (err != nil && !isConflict(err)) {
					t.Fatalf("step %d: put %q expect %d (model %+v): err %v, want ok=%v", step, k, exp, model[k], err, ok)
				}
				if err == nil {
					if del {
						pending[k] = nil
					} else {
						pending[k] = &modelEntry{val: v}
					}
				}
				if rng.IntN(4) == 0 {
					got, _, present := tx.Get([]byte(k))
					p, inTx := pending[k]
					want, wantPresent := model[k].val, false
					_, wantPresent = model[k]
					if inTx {
						wantPresent = p != nil
						if p != nil {
							want = p.val
						}
					}
					if present != wantPresent || (present && string(got) != want) {
						t.Fatalf("step %d: tx.Get(%q) = %d bytes %v, want %d bytes %v", step, k, len(got), present, len(want), wantPresent)
					}
				}
			}
			if len(pending) == 0 {
				tx.Rollback()
				continue
			}
			got, err := tx.Commit()
			if err != nil || got != rev+1 {
				t.Fatalf("step %d: commit rev %d err %v, want %d", step, got, err, rev+1)
			}
			rev = got
			for k, p := range pending {
				if p == nil {
					delete(model, k)
				} else {
					model[k] = modelEntry{p.val, rev}
				}
			}
		}
		// Point reads of random keys.
		sn, err := s.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			k := keys[rng.IntN(len(keys))]
			v, r, ok := sn.Get([]byte(k))
			e, want := model[k]
			if ok != want || (ok && (string(v) != e.val || r != e.rev)) {
				t.Fatalf("step %d: Get(%q) = %d bytes rev %d %v, want %d bytes rev %d %v", step, k, len(v), r, ok, len(e.val), e.rev, want)
			}
		}
		// A range scan between two random keys (either end may be open).
		var from, to []byte
		if rng.IntN(4) != 0 {
			from = []byte(keys[rng.IntN(len(keys))])
		}
		if rng.IntN(4) != 0 {
			to = []byte(keys[rng.IntN(len(keys))])
		}
		checkRange(t, sn, model, from, to, step)
		if sn.Rev() != rev && rev != 0 {
			t.Fatalf("step %d: snapshot rev %d, want %d", step, sn.Rev(), rev)
		}
		sn.Release()
		if step%100 == 0 || step == steps-1 {
			compareAll(t, s, model)
		}
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

func compareAll(t *testing.T, s *Store, model map[string]modelEntry) {
	t.Helper()
	sn, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer sn.Release()
	n := 0
	sn.Range(nil, nil, func(k, v []byte, rev uint64) bool {
		e, ok := model[string(k)]
		if !ok || !bytes.Equal(v, []byte(e.val)) || rev != e.rev {
			t.Fatalf("key %q: %d bytes rev %d; model %v %d bytes rev %d", k, len(v), rev, ok, len(e.val), e.rev)
		}
		n++
		return true
	})
	if n != len(model) || sn.Len() != n {
		t.Fatalf("store has %d keys (head %d), model %d", n, sn.Len(), len(model))
	}
}

// checkRange compares sn.Range(from, to) with the model's keys in [from,
// to), in order, stopping early half the time to check that a stop is
// honoured.
func checkRange(t *testing.T, sn *Snapshot, model map[string]modelEntry, from, to []byte, step int) {
	t.Helper()
	var want []string
	for k := range model {
		if (from == nil || k >= string(from)) && (to == nil || k < string(to)) {
			want = append(want, k)
		}
	}
	slices.Sort(want)
	limit := len(want)
	if step%2 == 1 && limit > 0 {
		limit = 1 + step%limit
	}
	var got []string
	sn.Range(from, to, func(k, v []byte, rev uint64) bool {
		e := model[string(k)]
		if string(v) != e.val || rev != e.rev {
			t.Fatalf("step %d: range [%q, %q): key %q has %d bytes rev %d, model %d bytes rev %d", step, from, to, k, len(v), rev, len(e.val), e.rev)
		}
		got = append(got, string(k))
		return len(got) < limit
	})
	if !slices.Equal(got, want[:limit]) {
		t.Fatalf("step %d: range [%q, %q) gave %d keys %q..., want %d", step, from, to, len(got), got[:min(len(got), 5)], limit)
	}
}
