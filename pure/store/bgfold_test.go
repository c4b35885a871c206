package store

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"sync"
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

// TestBgFold_ConcurrentCommits runs writers that commit together (each
// its own keys: new ones, ones written again, deletes; values inline and
// out of line, so that relocated spills hold both kinds of offset) on a
// file with FoldEntries 64 in strict mode, with background folds held
// back 0 to 3 ms each, so that groups keep laying log records over the
// old tree while a fold applies and spills in its goroutine, and the
// integrating leader relocates a spill made while others committed. A
// compaction runs while the writers commit; then, writers stopped, a
// compaction and a close each happen while a fold is held in its
// goroutine. The file reopens to the model and Check passes.
func TestBgFold_ConcurrentCommits(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 119))
	path := tempPath(t)
	opts := &Options{FoldEntries: 64, Strict: true, AutoCompact: -1}
	var holdMu sync.Mutex
	holdRng := rand.New(rand.NewPCG(rng.Uint64(), 1))
	var held chan struct{} // set: the next fold signals it and waits for release
	var release chan struct{}
	open := func() *Store {
		s := mustOpen(t, path, opts)
		s.testHookBgFold = func() {
			holdMu.Lock()
			h, r := held, release
			held = nil
			d := time.Duration(holdRng.IntN(4)) * time.Millisecond
			holdMu.Unlock()
			if h != nil {
				close(h)
				<-r
				return
			}
			time.Sleep(d)
		}
		return s
	}
	s := open()
	defer func() { s.Close() }()

	const writers = 8
	models := make([]map[string]string, writers)
	commit := func(s *Store, w, c int, wr *rand.Rand, keys *[]string) error {
		for {
			tx, err := s.Begin()
			if err != nil {
				return err
			}
			type op struct {
				k, v string
				del  bool
			}
			var ops []op
			for range 1 + wr.IntN(5) {
				var k string
				if len(*keys) > 0 && wr.IntN(3) == 0 {
					k = (*keys)[wr.IntN(len(*keys))]
				} else {
					k = fmt.Sprintf("w%02d-%06d", w, wr.IntN(1_000_000))
					*keys = append(*keys, k)
				}
				v := fmt.Sprintf("v%d-%d-", w, c)
				if wr.IntN(4) == 0 {
					v += strings.Repeat("x", 1000+wr.IntN(300)) // out of line
				}
				o := op{k: k, v: v, del: wr.IntN(6) == 0}
				if o.del {
					err = tx.Delete([]byte(k), Any)
				} else {
					err = tx.Put([]byte(k), []byte(v), Any)
				}
				if err != nil {
					return err
				}
				ops = append(ops, o)
			}
			if _, err := tx.Commit(); isConflict(err) {
				continue
			} else if err != nil {
				return err
			}
			for _, o := range ops {
				if o.del {
					delete(models[w], o.k)
				} else {
					models[w][o.k] = o.v
				}
			}
			return nil
		}
	}
	keys := make([][]string, writers)
	rngs := make([]*rand.Rand, writers)
	for w := range writers {
		models[w] = map[string]string{}
		rngs[w] = rand.New(rand.NewPCG(rng.Uint64(), uint64(w)))
	}
	run := func(from, to int, during func()) {
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for c := from; c < to; c++ {
					if err := commit(s, w, c, rngs[w], &keys[w]); err != nil {
						errs <- fmt.Errorf("writer %d commit %d: %w", w, c, err)
						return
					}
				}
			}()
		}
		if during != nil {
			during()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
	model := func() map[string]string {
		all := map[string]string{}
		for _, m := range models {
			maps.Copy(all, m)
		}
		return all
	}
	// holdNext commits alone until a background fold is held in its
	// goroutine, and returns the function that lets it go.
	holdNext := func() func() {
		h, r := make(chan struct{}), make(chan struct{})
		holdMu.Lock()
		held, release = h, r
		holdMu.Unlock()
		for c := 0; ; c++ {
			select {
			case <-h:
				return func() { close(r) }
			default:
			}
			if err := commit(s, 0, 100_000+c, rngs[0], &keys[0]); err != nil {
				t.Fatal(err)
			}
			if c > 10_000 {
				t.Fatal("no background fold started in 10,000 commits")
			}
		}
	}

	run(0, 150, func() {
		time.Sleep(5 * time.Millisecond)
		if err := s.Compact(); err != nil {
			t.Error(err)
		}
	})
	started, integrated := s.bgFolds.Load(), s.bgIntegrated.Load()
	let := holdNext()
	go func() { time.Sleep(2 * time.Millisecond); let() }()
	if err := s.Compact(); err != nil { // waits for the held fold, drops it
		t.Fatal(err)
	}
	run(150, 250, nil)
	let = holdNext()
	go func() { time.Sleep(2 * time.Millisecond); let() }()
	started, integrated = started+s.bgFolds.Load(), integrated+s.bgIntegrated.Load()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open()
	sn, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	checkSnapshotModel(t, rng, "reopened after a close with a fold held", sn, model())
	sn.Release()
	run(250, 350, nil)
	started, integrated = started+s.bgFolds.Load(), integrated+s.bgIntegrated.Load()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	sn, err = s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	checkSnapshotModel(t, rng, "reopened", sn, model())
	sn.Release()
	t.Logf("%d background folds started, %d integrated", started, integrated)
	if integrated < 10 {
		t.Errorf("%d background folds integrated: want a test of many", integrated)
	}
}
