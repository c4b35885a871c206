package store

import "testing"

// TestCommit_Allocs: a RAM-mode transaction putting one small value
// allocates only the Tx and the version its group publishes; the leader's
// working tree, edited nodes and lists are reused from group to group, and
// the Tx holds a small key and value inline.
func TestCommit_Allocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	s, err := OpenRAM(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 5000 {
		put(t, s, key(i), "0123456789abcdef")
	}
	k, v := []byte(key(77)), []byte("0123456789abcdef")
	n := testing.AllocsPerRun(1000, func() {
		tx, _ := s.Begin()
		tx.Put(k, v, Any)
		if _, err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	})
	if n > 2 {
		t.Fatalf("%v allocations per put+commit, want at most 2 (the Tx and the version)", n)
	}
}
