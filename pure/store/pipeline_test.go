package store

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// gateFile wraps a File: once armed (with the number of syncs to hold),
// each of the next Syncs announces itself on entered, blocks until
// released (one value on gate, or gate closed) and then fails with fail
// (if set) instead of syncing. It counts writes, syncs and heads, the
// heads written while a sync was in flight (which the pipeline must never
// do), heads written out of order (seq not one more than the last head's;
// an opened file's first head counts as in order only if its seq is 1),
// and the highest revision whose head was written before a Sync that then
// succeeded: with heads in order, every revision up to it is durable.
type gateFile struct {
	File
	armed     atomic.Int32
	entered   chan struct{}
	gate      chan struct{}
	fail      error
	writes    atomic.Int64
	syncs     atomic.Int64
	heads     atomic.Int64
	inSync    atomic.Int64  // Sync calls in progress
	overlap   atomic.Int64  // heads written while a Sync was in progress
	headRev   atomic.Uint64 // highest revision of a head written
	syncedRev atomic.Uint64 // highest revision of a head written before a successful Sync began
	headSeq   atomic.Uint64 // seq of the last head written
	disorder  atomic.Int64  // heads whose seq is not one more than the head written before
}

func newGateFile(f File) *gateFile {
	return &gateFile{File: f, entered: make(chan struct{}, 1), gate: make(chan struct{})}
}

// isHead reports whether p is a whole head record.
func isHead(p []byte) bool {
	return len(p) == headSize && p[0] == kindHead && string(p[8:16]) == headMagic
}

func (f *gateFile) WriteAt(p []byte, off int64) (int, error) {
	f.writes.Add(1)
	if isHead(p) {
		f.heads.Add(1)
		if f.inSync.Load() > 0 {
			f.overlap.Add(1)
		}
		if seq := le.Uint64(p[16:]); f.headSeq.Swap(seq)+1 != seq && seq != 1 {
			f.disorder.Add(1)
		}
		defer storeMax(&f.headRev, le.Uint64(p[24:]))
	}
	return f.File.WriteAt(p, off)
}

func (f *gateFile) Sync() error {
	f.syncs.Add(1)
	f.inSync.Add(1)
	defer f.inSync.Add(-1)
	covered := f.headRev.Load()
	if n := f.armed.Load(); n > 0 && f.armed.CompareAndSwap(n, n-1) {
		f.entered <- struct{}{}
		<-f.gate
		if f.fail != nil {
			return f.fail
		}
	}
	err := f.File.Sync()
	if err == nil {
		storeMax(&f.syncedRev, covered)
	}
	return err
}

// storeMax raises a to v if v is higher.
func storeMax(a *atomic.Uint64, v uint64) {
	for {
		old := a.Load()
		if v <= old || a.CompareAndSwap(old, v) {
			return
		}
	}
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
// next group is taken, applied and may have its records written
// meanwhile, but its head is not written, nobody is acknowledged and
// readers see neither group until its own sync returned.
func TestPipeline_NextGroupWaitsForSync(t *testing.T) {
	s, gf := openGated(t)
	defer s.Close()
	put(t, s, "a", "0")

	gf.armed.Store(1)
	var wg sync.WaitGroup
	var r1, r2 result
	startCommit(s, "k1", &wg, &r1)
	<-gf.entered // the first group is written and its sync is in flight
	heads := gf.heads.Load()

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
		close(gf.gate)
		t.Fatal("the next group did not start while a sync was in flight")
	}
	time.Sleep(20 * time.Millisecond)
	if done2.Load() {
		t.Error("a commit returned while the sync before it was in flight")
	}
	if n := gf.heads.Load(); n != heads {
		t.Errorf("%d heads written while the previous group's sync was in flight", n-heads)
	}
	for _, k := range []string{"k1", "k2"} {
		if _, _, ok := get(t, s, k); ok {
			t.Errorf("%s visible before its sync returned", k)
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
	if n := gf.overlap.Load(); n != 0 {
		t.Fatalf("%d heads written while a sync was in flight", n)
	}
}

// TestPipeline_HeadsNeverOverlapSyncs commits from many writers, so that
// groups are written during syncs and handed to the syncer: no head is
// ever written while a sync is in flight (so the file never holds two
// unsynced heads), no commit is acknowledged before a sync that began
// after its head (and so every earlier head) was written returned, every
// commit is acknowledged with its own revision, and a reopen finds them
// all.
func TestPipeline_HeadsNeverOverlapSyncs(t *testing.T) {
	path := tempPath(t)
	var gf *gateFile
	s := mustOpen(t, path, &Options{WrapFile: func(f File) File {
		gf = newGateFile(f)
		return gf
	}})
	const writers, each = 16, 40
	revs := make([][]uint64, writers)
	commitConcurrently(t, s, writers, each, func(w int, rev uint64) {
		if synced := gf.syncedRev.Load(); rev > synced {
			t.Errorf("revision %d acknowledged with revisions up to %d synced", rev, synced)
		}
		revs[w] = append(revs[w], rev)
	})
	if n := gf.overlap.Load(); n != 0 {
		t.Errorf("%d of %d heads written while a sync was in flight", n, gf.heads.Load())
	}
	if n := gf.disorder.Load(); n != 0 {
		t.Errorf("%d of %d heads written out of order", n, gf.heads.Load())
	}
	seen := map[uint64]bool{}
	for _, rs := range revs {
		for _, r := range rs {
			if seen[r] {
				t.Fatalf("revision %d acknowledged twice", r)
			}
			seen[r] = true
		}
	}
	st := s.Stats()
	t.Logf("%d commits in %d publications", writers*each, st.Publications)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, path, &Options{Strict: true})
	defer s.Close()
	for w := range writers {
		for i := range each {
			if _, _, ok := get(t, s, fmt.Sprintf("w%02d-%03d", w, i)); !ok {
				t.Fatalf("acknowledged key w%02d-%03d lost", w, i)
			}
		}
	}
}

// TestPipeline_FailedSyncFailsNextGroup fails the first group's sync while
// the next group waits, applied (its records perhaps written): both fail,
// the second never gets a head or a sync, the store refuses writes and a reopen finds no trace of the
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
	gf.armed.Store(1)
	var wg sync.WaitGroup
	var r1, r2 result
	startCommit(s, "k1", &wg, &r1)
	<-gf.entered
	heads, syncs := gf.heads.Load(), gf.syncs.Load()
	startCommit(s, "k2", &wg, &r2)
	waitQueuedOrTaken(s)
	close(gf.gate)
	wg.Wait()

	for i, r := range []result{r1, r2} {
		if !errors.Is(r.err, ErrWriteFailed) || !errors.Is(r.err, errInjected) {
			t.Fatalf("commit %d: %v, want ErrWriteFailed wrapping the cause", i+1, r.err)
		}
	}
	if gf.heads.Load() != heads || gf.syncs.Load() != syncs {
		t.Fatal("the group after a failed sync got a head or a sync")
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

// waitQueuedOrTaken waits until a commit is queued, a leader holds wmu
// (it took the queue and waits for the sync in flight) or a group is
// ready for the syncer.
func waitQueuedOrTaken(s *Store) {
	for {
		s.g.mu.Lock()
		ready := s.g.ready != nil
		s.g.mu.Unlock()
		if ready {
			return
		}
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

// waitReady waits until a group is ready for the syncer (records written,
// head not), or fails the test after 10 s.
func waitReady(t *testing.T, s *Store, gf *gateFile) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.g.mu.Lock()
		ready := s.g.ready != nil
		s.g.mu.Unlock()
		if ready {
			return
		}
		if time.Now().After(deadline) {
			close(gf.gate)
			t.Fatal("no group became ready while a sync was in flight")
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// TestPipeline_SyncerHoldsAnswers holds two syncs in turn: the first
// group's (inline) and the second's, which the syncer writes the head of
// and syncs once the first returned. The second group is ready (records
// written, head not) during the first sync; the first group's commit
// returns when its sync does, the second's only when its own sync does,
// while a third group is ready behind it; readers see each group only
// after its sync, and a reopen finds all three.
func TestPipeline_SyncerHoldsAnswers(t *testing.T) {
	path := tempPath(t)
	var gf *gateFile
	s := mustOpen(t, path, &Options{Strict: true, WrapFile: func(f File) File {
		gf = newGateFile(f)
		return gf
	}})
	put(t, s, "a", "0")

	gf.armed.Store(2)
	var wg1, wg2, wg3 sync.WaitGroup
	var r1, r2, r3 result
	startCommit(s, "k1", &wg1, &r1)
	<-gf.entered // group 1's sync is in flight
	heads := gf.heads.Load()
	var done2, done3 atomic.Bool
	startCommitFlag(s, "k2", &wg2, &r2, &done2)
	waitReady(t, s, gf)
	if n := gf.heads.Load(); n != heads {
		t.Fatalf("%d heads written during the first sync", n-heads)
	}
	visible := func(k string) bool { _, _, ok := get(t, s, k); return ok }
	if visible("k1") || visible("k2") {
		t.Fatal("a group visible before its sync returned")
	}

	gf.gate <- struct{}{} // group 1's sync returns; the syncer takes group 2
	wg1.Wait()
	if r1.err != nil {
		t.Fatal(r1.err)
	}
	<-gf.entered // group 2's sync is in flight, from the syncer
	if !visible("k1") || visible("k2") {
		t.Fatal("after the first sync: want k1 visible and k2 not")
	}
	startCommitFlag(s, "k3", &wg3, &r3, &done3)
	waitReady(t, s, gf)
	time.Sleep(20 * time.Millisecond)
	if done2.Load() || done3.Load() {
		close(gf.gate)
		t.Fatal("a commit returned while its group's sync was held")
	}

	close(gf.gate)
	wg2.Wait()
	wg3.Wait()
	if r2.err != nil || r3.err != nil {
		t.Fatal(r2.err, r3.err)
	}
	if r2.rev != r1.rev+1 || r3.rev != r2.rev+1 {
		t.Fatalf("revisions %d, %d, %d", r1.rev, r2.rev, r3.rev)
	}
	if n := gf.overlap.Load(); n != 0 {
		t.Fatalf("%d heads written while a sync was in flight", n)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, path, &Options{Strict: true})
	defer s.Close()
	for _, k := range []string{"a", "k1", "k2", "k3"} {
		if _, _, ok := get(t, s, k); !ok {
			t.Fatalf("%s lost after reopen", k)
		}
	}
}

// TestPipeline_FailedSyncerSyncFailsReadyGroup fails the syncer's sync of
// the second group while a third is ready: the first group stays
// acknowledged and durable, the second and third fail with the cause, the
// third never gets a head, and a reopen finds the first group only.
func TestPipeline_FailedSyncerSyncFailsReadyGroup(t *testing.T) {
	path := tempPath(t)
	var gf *gateFile
	s := mustOpen(t, path, &Options{Strict: true, WrapFile: func(f File) File {
		gf = newGateFile(f)
		return gf
	}})
	gf.armed.Store(2)
	var wg1, wg23 sync.WaitGroup
	var r1, r2, r3 result
	startCommit(s, "k1", &wg1, &r1)
	<-gf.entered
	startCommit(s, "k2", &wg23, &r2)
	waitReady(t, s, gf)
	gf.gate <- struct{}{}
	wg1.Wait()
	<-gf.entered // the syncer syncs group 2
	startCommit(s, "k3", &wg23, &r3)
	waitReady(t, s, gf)
	heads := gf.heads.Load()
	gf.fail = errInjected // read by the held Sync after the gate: ordered by the channel
	close(gf.gate)
	wg23.Wait()

	if r1.err != nil {
		t.Fatal(r1.err)
	}
	for i, r := range []result{r2, r3} {
		if !errors.Is(r.err, ErrWriteFailed) || !errors.Is(r.err, errInjected) {
			t.Fatalf("commit %d: %v, want ErrWriteFailed wrapping the cause", i+2, r.err)
		}
	}
	if n := gf.heads.Load(); n != heads {
		t.Fatal("the group ready behind a failed sync got a head")
	}
	tx, _ := s.Begin()
	tx.Put([]byte("later"), []byte("x"), Any)
	if _, err := tx.Commit(); !errors.Is(err, ErrWriteFailed) {
		t.Fatalf("commit after a failed sync: %v", err)
	}
	s.Close()

	s = mustOpen(t, path, &Options{Strict: true})
	defer s.Close()
	if _, _, ok := get(t, s, "k1"); !ok {
		t.Fatal("lost the acknowledged commit")
	}
	if _, _, ok := get(t, s, "k3"); ok {
		t.Fatal("the group behind a failed sync reached the file")
	}
}

// startCommitFlag is startCommit that also sets done once Commit returned.
func startCommitFlag(s *Store, key string, wg *sync.WaitGroup, out *result, done *atomic.Bool) {
	tx, _ := s.Begin()
	tx.Put([]byte(key), []byte("v"), Any)
	wg.Add(1)
	go func() {
		defer wg.Done()
		out.rev, out.err = tx.Commit()
		done.Store(true)
	}()
}
