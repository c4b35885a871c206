package store

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// gateFile wraps a File: once armed, the next Sync blocks until released
// and then fails with fail (if set) instead of syncing. It counts writes
// and syncs.
type gateFile struct {
	File
	armed   atomic.Bool
	entered chan struct{}
	gate    chan struct{}
	fail    error
	writes  atomic.Int64
	syncs   atomic.Int64
}

func newGateFile(f File) *gateFile {
	return &gateFile{File: f, entered: make(chan struct{}, 1), gate: make(chan struct{})}
}

func (f *gateFile) WriteAt(p []byte, off int64) (int, error) {
	f.writes.Add(1)
	return f.File.WriteAt(p, off)
}

func (f *gateFile) Sync() error {
	f.syncs.Add(1)
	if f.armed.CompareAndSwap(true, false) {
		f.entered <- struct{}{}
		<-f.gate
		if f.fail != nil {
			return f.fail
		}
	}
	return f.File.Sync()
}

// openGated opens a store whose file is a gateFile.
func openGated(t *testing.T) (*Store, *gateFile) {
	var gf *gateFile
	s := mustOpen(t, tempPath(t), &Options{Strict: true, WrapFile: func(f File) File {
		gf = newGateFile(f)
		return gf
	}})
	return s, gf
}

// startCommit begins a transaction putting key and commits it in a
// goroutine.
func startCommit(s *Store, key string, wg *sync.WaitGroup, out *result) {
	tx, _ := s.Begin()
	tx.Put([]byte(key), []byte("v"), Any)
	commitAsync(tx, wg, out)
}

// TestPipeline_NextGroupWaitsForSync holds the first group's sync: the
// next group is taken and applied meanwhile but not written, nobody is
// acknowledged and readers see neither group until its own sync returned.
func TestPipeline_NextGroupWaitsForSync(t *testing.T) {
	s, gf := openGated(t)
	defer s.Close()
	put(t, s, "a", "0")

	gf.armed.Store(true)
	var wg sync.WaitGroup
	var r1, r2 result
	startCommit(s, "k1", &wg, &r1)
	<-gf.entered // the first group is written and its sync is in flight
	writes := gf.writes.Load()

	applying := make(chan struct{}, 1)
	s.wmu.Lock() // the first group's leader released wmu before syncing
	s.testHookBeforeApply = func() { applying <- struct{}{} }
	s.wmu.Unlock()
	var done2 atomic.Bool
	wg.Add(1)
	go func() {
		defer wg.Done()
		tx, _ := s.Begin()
		tx.Put([]byte("k2"), []byte("v"), Any)
		r2.rev, r2.err = tx.Commit()
		done2.Store(true)
	}()
	select {
	case <-applying: // the second group is taken while the first syncs
	case <-time.After(10 * time.Second):
		t.Fatal("the next group did not start while a sync was in flight")
	}
	time.Sleep(20 * time.Millisecond)
	if done2.Load() {
		t.Fatal("a commit returned while the sync before it was in flight")
	}
	if n := gf.writes.Load(); n != writes {
		t.Fatalf("%d writes while the previous group's sync was in flight", n-writes)
	}
	for _, k := range []string{"k1", "k2"} {
		if _, _, ok := get(t, s, k); ok {
			t.Fatalf("%s visible before its sync returned", k)
		}
	}

	close(gf.gate)
	wg.Wait()
	if r1.err != nil || r2.err != nil {
		t.Fatal(r1.err, r2.err)
	}
	if r2.rev != r1.rev+1 {
		t.Fatalf("revisions %d then %d", r1.rev, r2.rev)
	}
	for _, k := range []string{"k1", "k2"} {
		if _, _, ok := get(t, s, k); !ok {
			t.Fatalf("%s missing after its commit", k)
		}
	}
}

// TestPipeline_FailedSyncFailsNextGroup fails the first group's sync while
// the next group waits, applied: both fail, the second is never written
// or synced, the store refuses writes and a reopen finds no trace of the
// second.
func TestPipeline_FailedSyncFailsNextGroup(t *testing.T) {
	path := tempPath(t)
	var gf *gateFile
	s := mustOpen(t, path, &Options{Strict: true, WrapFile: func(f File) File {
		gf = newGateFile(f)
		return gf
	}})
	put(t, s, "a", "0")

	gf.fail = errInjected
	gf.armed.Store(true)
	var wg sync.WaitGroup
	var r1, r2 result
	startCommit(s, "k1", &wg, &r1)
	<-gf.entered
	writes, syncs := gf.writes.Load(), gf.syncs.Load()
	startCommit(s, "k2", &wg, &r2)
	waitQueuedOrTaken(s)
	close(gf.gate)
	wg.Wait()

	for i, r := range []result{r1, r2} {
		if !errors.Is(r.err, ErrWriteFailed) || !errors.Is(r.err, errInjected) {
			t.Fatalf("commit %d: %v, want ErrWriteFailed wrapping the cause", i+1, r.err)
		}
	}
	if gf.writes.Load() != writes || gf.syncs.Load() != syncs {
		t.Fatal("the group after a failed sync was written or synced")
	}
	tx, _ := s.Begin()
	tx.Put([]byte("later"), []byte("x"), Any)
	if _, err := tx.Commit(); !errors.Is(err, ErrWriteFailed) {
		t.Fatalf("commit after a failed sync: %v", err)
	}
	if _, _, ok := get(t, s, "k1"); ok {
		t.Fatal("readers see a group whose sync failed")
	}
	s.Close()

	s = mustOpen(t, path, &Options{Strict: true})
	defer s.Close()
	if _, _, ok := get(t, s, "k2"); ok {
		t.Fatal("the group after a failed sync reached the file")
	}
	if v, _, _ := get(t, s, "a"); v != "0" {
		t.Fatal("lost the acknowledged commit")
	}
}

// waitQueuedOrTaken waits until a commit is queued or a leader holds wmu
// (it took the queue and waits for the sync in flight).
func waitQueuedOrTaken(s *Store) {
	for {
		if s.queued() > 0 {
			time.Sleep(5 * time.Millisecond) // let a leader take it
			return
		}
		if !s.wmu.TryLock() {
			return
		}
		s.wmu.Unlock()
		time.Sleep(50 * time.Microsecond)
	}
}
