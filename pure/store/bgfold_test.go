package store

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// TestBgFold_FollowsCommits commits groups of 1 to 20 writes (new keys,
// keys written again, deletes, some of them of keys a background fold is
// applying) to a file with FoldEntries 64, in strict mode, so that each
// commit's overlay is checked against the one Open rebuilds from its
// records and the whole tree is checked after every commit. The
// background folds are held back for 0 to 4 ms each, so that some are
// integrated with the entries written meanwhile laid again over the new
// tree, and some make the overlay reach twice the bound, where the leader
// waits for them. A compaction and a close, each while a fold is held
// back, drop it; snapshots read their model along the way, and the file
// reopens to the model.
func TestBgFold_FollowsCommits(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 112))
	path := tempPath(t)
	opts := &Options{FoldEntries: 64, Strict: true, AutoCompact: -1}
	hold := make(chan time.Duration, 1)
	open := func() *Store {
		s := mustOpen(t, path, opts)
		s.testHookBgFold = func() {
			select {
			case d := <-hold:
				time.Sleep(d)
			default:
			}
		}
		return s
	}
	s := open()
	defer func() { s.Close() }()
	model := map[string]string{}
	var keys [][]byte
	var started, integrated, relaid int64
	maxOverlay := 0
	count := func() {
		started += s.bgFolds.Load()
		integrated += s.bgIntegrated.Load()
		relaid += s.bgRelaid.Load()
	}
	for c := range 600 {
		select {
		case hold <- time.Duration(rng.IntN(5)) * time.Millisecond:
		default:
		}
		tx, err := s.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for range 1 + rng.IntN(20) {
			var k []byte
			if len(keys) > 0 && rng.IntN(3) == 0 {
				k = keys[rng.IntN(len(keys))]
			} else {
				k = []byte(key(rng.IntN(20_000)))
				keys = append(keys, k)
			}
			writeModel(t, tx, model, k, fmt.Sprintf("v%d", c), rng.IntN(5) == 0)
		}
		if _, err := tx.Commit(); err != nil {
			t.Fatalf("commit %d: %v", c, err)
		}
		if v := s.cur.Load(); v.ov != nil {
			maxOverlay = max(maxOverlay, v.ov.n)
		}
		if c%20 == 0 {
			sn, err := s.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			checkSnapshotModel(t, rng, fmt.Sprintf("commit %d", c), sn, model)
			sn.Release()
		}
		switch c {
		case 250:
			if err := s.Compact(); err != nil {
				t.Fatal(err)
			}
		case 400:
			count()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s = open()
		}
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	count()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open()
	sn, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	checkSnapshotModel(t, rng, "reopened", sn, model)
	sn.Release()
	t.Logf("%d background folds, %d integrated, %d entries laid again; overlays of at most %d keys", started, integrated, relaid, maxOverlay)
	if integrated < 5 || relaid == 0 {
		t.Errorf("%d background folds integrated, %d entries laid again: want a test of several, with entries laid again", integrated, relaid)
	}
	if maxOverlay > 2*64+20 {
		t.Errorf("an overlay held %d keys, want at most twice FoldEntries plus a group", maxOverlay)
	}
}
