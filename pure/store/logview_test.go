package store

import (
	"fmt"
	"testing"
)

// TestLogView_PendingWrites: a group's pending writes are found by key
// through the scan and, past pendScan keys, through the hash map, also
// after a key is written again (which replaces its entry in place and
// must keep the map's chain) and across reset.
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
