package store

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestLogView_PendingTable notes groups of 1 to 3,000 writes, a third of
// them to keys the group already wrote, and checks that find returns each
// key's newest write, and nothing for keys not written: across the
// scan of small groups, the table taking over at pendScan+1 writes, the
// table growing, and groups after a reset (a table cleared, or dropped
// after a group of more than keepEntries).
func TestLogView_PendingTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 112))
	var lv logView
	for g, n := range []int{1, pendScan, pendScan + 1, 40, 3000, 17, 5000, 200, 2} {
		lv.reset(nil, 0, nil, 0)
		want := map[string]uint64{}
		var keys []string
		for i := range n {
			k := fmt.Sprintf("k%06d", rng.IntN(1_000_000))
			if len(keys) > 0 && rng.IntN(3) == 0 {
				k = keys[rng.IntN(len(keys))]
			} else {
				keys = append(keys, k)
			}
			rev := uint64(g*10_000 + i + 1)
			lv.note(pending{key: []byte(k), rev: rev})
			want[k] = rev
		}
		if len(lv.news) != len(want) {
			t.Fatalf("group %d of %d writes: %d pending, want %d (one per key)", g, n, len(lv.news), len(want))
		}
		for k, rev := range want {
			i, ok := lv.find([]byte(k))
			if !ok || lv.news[i].rev != rev {
				t.Fatalf("group %d of %d writes: find(%q) = %v, %v, want the write of rev %d", g, n, k, i, ok, rev)
			}
		}
		for range 100 {
			k := fmt.Sprintf("x%06d", rng.IntN(1_000_000))
			if i, ok := lv.find([]byte(k)); ok {
				t.Fatalf("group %d: find(%q) = %d, want none", g, k, i)
			}
		}
	}
}

// TestLogView_PendingWrites: a group's pending writes are found by key
// through the scan and, past pendScan keys, through the table, also
// after a key is written again (which replaces its entry in place and
// must keep its hash) and across reset.
func TestLogView_PendingWrites(t *testing.T) {
	var lv logView
	for round := range 3 {
		lv.reset(nil, 0, nil, 0)
		n := 5 + round*100 // under pendScan, then well over it
		for i := range n {
			lv.note(pending{key: []byte(fmt.Sprintf("k%04d", i)), rev: uint64(i + 1)})
		}
		for i := 0; i < n; i += 3 { // written again
			lv.note(pending{key: []byte(fmt.Sprintf("k%04d", i)), rev: uint64(1000 + i)})
		}
		if len(lv.news) != n {
			t.Fatalf("round %d: %d pending writes for %d keys", round, len(lv.news), n)
		}
		for i := range n {
			want := uint64(i + 1)
			if i%3 == 0 {
				want = uint64(1000 + i)
			}
			j, ok := lv.find([]byte(fmt.Sprintf("k%04d", i)))
			if !ok || lv.news[j].rev != want {
				t.Fatalf("round %d: key %d: found %v, rev %d, want %d", round, i, ok, lv.news[j].rev, want)
			}
		}
		if _, ok := lv.find([]byte("absent")); ok {
			t.Fatalf("round %d: an absent key found", round)
		}
	}
}
