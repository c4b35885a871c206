package store

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// leaderCounts returns how many written keys' existence tree hints
// answered and how many the leader looked up in the tree itself.
func leaderCounts(s *Store) (hinted, looked uint64) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.lv.hinted, s.lv.looked
}

// TestTreeHint_LoneWriterLeadsWithoutHints: a lone writer finds no
// leader and leads its own group, so it looks nothing up beforehand: the
// leader looks each key up, as before the hints.
func TestTreeHint_LoneWriterLeadsWithoutHints(t *testing.T) {
	s := mustOpen(t, tempPath(t), &Options{Strict: true, FoldEntries: 8, nodeSize: 256})
	defer s.Close()
	for i := range 40 {
		put(t, s, fmt.Sprintf("k%03d", i%30), "v")
	}
	if hinted, looked := leaderCounts(s); hinted != 0 || looked == 0 {
		t.Fatalf("hinted %d, looked up by the leader %d: want no hints", hinted, looked)
	}
	if n := s.Stats().Keys; n != 30 {
		t.Fatalf("Keys = %d, want 30", n)
	}
}

// TestTreeHint_MembersHintTheLeader: committers that queue while another
// goroutine leads look their keys up themselves, fresh keys and keys
// already folded into the tree alike, and the leader descends the tree
// for none of them; the count stays exact.
func TestTreeHint_MembersHintTheLeader(t *testing.T) {
	s := mustOpen(t, tempPath(t), &Options{Strict: true, FoldEntries: 8, nodeSize: 256})
	defer s.Close()
	for i := range 20 {
		put(t, s, fmt.Sprintf("k%03d", i), "v") // folded: most are in the tree
	}
	h0, l0 := leaderCounts(s)
	entered, release := pauseLeader(s)
	var wg sync.WaitGroup
	res := make([]result, 9)
	tx, _ := s.Begin()
	tx.Put([]byte("lead"), []byte("v"), Any)
	commitAsync(tx, &wg, &res[0])
	<-entered // a leader is at work: the others hint
	for i := 1; i < len(res); i++ {
		tx, _ := s.Begin()
		tx.Put(fmt.Appendf(nil, "k%03d", 2*i), []byte("w"), Any)   // in the tree
		tx.Put(fmt.Appendf(nil, "k%03d", 100+i), []byte("w"), Any) // fresh
		commitAsync(tx, &wg, &res[i])
	}
	waitQueued(s, len(res)-1)
	s.testHookBeforeApply = nil // the next group is not paused
	release()
	wg.Wait()
	for i, r := range res {
		if r.err != nil {
			t.Fatalf("commit %d: %v", i, r.err)
		}
	}
	h, l := leaderCounts(s)
	if h-h0 != 2*uint64(len(res)-1) || l-l0 > 1 {
		t.Fatalf("hinted %d, looked up by the leader %d: want the members' %d keys hinted, at most the leader's own key looked up", h-h0, l-l0, 2*(len(res)-1))
	}
	if n, want := s.Stats().Keys, uint64(20+1+len(res)-1); n != want {
		t.Fatalf("Keys = %d, want %d", n, want)
	}
}

// TestTreeHint_WithCheck: a write whose key the transaction relied on is
// counted from the check, with no hint and no lookup.
func TestTreeHint_WithCheck(t *testing.T) {
	s := mustOpen(t, tempPath(t), &Options{Strict: true, FoldEntries: 1})
	defer s.Close()
	put(t, s, "a", "1")
	put(t, s, "b", "1") // folds "a" into the tree
	h0, l0 := leaderCounts(s)
	tx, _ := s.Begin()
	_, rev, _ := tx.Get([]byte("a"))
	tx.Put([]byte("a"), []byte("2"), rev)
	tx.Put([]byte("c"), []byte("2"), Absent)
	if _, err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if h, l := leaderCounts(s); h != h0 || l != l0 {
		t.Fatalf("hinted %d, looked %d more: want both writes counted from their checks", h-h0, l-l0)
	}
	if n := s.Stats().Keys; n != 3 {
		t.Fatalf("Keys = %d, want 3", n)
	}
}

// TestTreeHint_Stale commits transactions begun at random earlier
// versions, so that folds and compactions often happened between a
// transaction's snapshot and its group: its hints name another tree (or
// file) and the leader must look keys up itself. Blind puts and deletes
// on a small key space, several transactions in flight, strict mode (which
// checks each head's count against tree and log records); the key count
// is compared with a model after every commit. It prints its seed.
func TestTreeHint_Stale(t *testing.T) {
	seed := testSeed(t)
	for _, ram := range []bool{false, true} {
		t.Run(fmt.Sprint("ram=", ram), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			opts := &Options{Strict: true, nodeSize: 256, FoldEntries: []int{1, 4, 16}[rng.IntN(3)]}
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
			s.testHintAlways = true // sequential commits: no leader to find
			model := map[string]bool{}
			type open struct {
				tx   *Tx
				puts map[string]bool // key -> put (true) or delete
			}
			var live []open
			for step := range 1500 {
				switch r := rng.IntN(10); {
				case r < 5 || len(live) == 0:
					tx, err := s.Begin()
					if err != nil {
						t.Fatal(err)
					}
					o := open{tx: tx, puts: map[string]bool{}}
					for range 1 + rng.IntN(4) {
						k := fmt.Sprintf("k%02d", rng.IntN(60))
						if rng.IntN(4) == 0 {
							tx.Delete([]byte(k), Any)
							o.puts[k] = false
						} else {
							tx.Put([]byte(k), []byte("v"), Any)
							o.puts[k] = true
						}
					}
					live = append(live, o)
				case r < 9:
					i := rng.IntN(len(live))
					o := live[i]
					live = append(live[:i], live[i+1:]...)
					if _, err := o.tx.Commit(); err != nil {
						t.Fatalf("step %d: %v", step, err)
					}
					for k, p := range o.puts {
						if p {
							model[k] = true
						} else {
							delete(model, k)
						}
					}
					if n := s.Stats().Keys; n != uint64(len(model)) {
						t.Fatalf("step %d: Keys = %d, model has %d", step, n, len(model))
					}
				default:
					if err := s.Compact(); err != nil {
						t.Fatalf("step %d: compact: %v", step, err)
					}
				}
			}
			for _, o := range live {
				o.tx.Rollback()
			}
			hinted, looked := leaderCounts(s)
			t.Logf("hinted %d, looked up by the leader %d", hinted, looked)
			if hinted == 0 || looked == 0 {
				t.Fatalf("hinted %d, looked %d: want both paths taken", hinted, looked)
			}
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
