package store

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// wbFile wraps a File and is a writebackStarter: it records each
// startWriteback call and checks it against the heads written before it.
// A call must cover exactly one group, the one whose head was written
// last: from the end of the head before it to the end of that head. No
// call may come while a Sync is in progress (the store never calls a
// File's methods concurrently), and each must be followed by a Sync
// before the next head is written (the sync that makes the group durable).
type wbFile struct {
	File
	mu       sync.Mutex
	inSync   bool
	prevEnd  uint64 // end of the head before the last one written (0: unknown, the first after Open)
	lastEnd  uint64 // end of the last head written
	pending  bool   // a startWriteback not yet followed by a Sync
	calls    int
	bad      []string
	syncs    atomic.Int64
	forwards bool // pass the calls on to the wrapped file (an osFile)
}

func (f *wbFile) WriteAt(p []byte, off int64) (int, error) {
	f.mu.Lock()
	if isHead(p) {
		if f.pending {
			f.bad = append(f.bad, fmt.Sprintf("head at %d written before the sync of the group started at %d", off, f.prevEnd))
		}
		f.prevEnd, f.lastEnd = f.lastEnd, uint64(off)+headSize
	}
	f.mu.Unlock()
	return f.File.WriteAt(p, off)
}

func (f *wbFile) Sync() error {
	f.mu.Lock()
	f.inSync, f.pending = true, false
	f.mu.Unlock()
	f.syncs.Add(1)
	err := f.File.Sync()
	f.mu.Lock()
	f.inSync = false
	f.mu.Unlock()
	return err
}

func (f *wbFile) startWriteback(off, end uint64) error {
	f.mu.Lock()
	f.calls++
	switch {
	case f.inSync:
		f.bad = append(f.bad, fmt.Sprintf("startWriteback(%d, %d) during a Sync", off, end))
	case end != f.lastEnd:
		f.bad = append(f.bad, fmt.Sprintf("startWriteback(%d, %d) does not end at the last head's end %d", off, end, f.lastEnd))
	case f.prevEnd != 0 && off != f.prevEnd:
		f.bad = append(f.bad, fmt.Sprintf("startWriteback(%d, %d) does not start at the previous head's end %d", off, end, f.prevEnd))
	}
	f.pending = true
	f.mu.Unlock()
	if ws, ok := f.File.(writebackStarter); ok && f.forwards {
		return ws.startWriteback(off, end)
	}
	return nil
}

// TestWriteback_SyncerStartsEachReadyGroup commits from many writers, so
// groups are handed to the syncer: it starts the writeback of each ready
// group it takes, exactly over that group's records and head, between the
// previous sync's return and the group's own sync (never during a sync,
// never leaving a group without its sync); every commit is acknowledged
// and a reopen (strict) finds them all. The calls reach the real file's
// sync_file_range, whose errors would be ignored; the durability comes
// from the syncs the gateFile tests count.
func TestWriteback_SyncerStartsEachReadyGroup(t *testing.T) {
	path := tempPath(t)
	var wf *wbFile
	s := mustOpen(t, path, &Options{WrapFile: func(f File) File {
		wf = &wbFile{File: f, forwards: true}
		return wf
	}})
	if _, ok := wf.File.(writebackStarter); !ok {
		t.Fatal("the on-disk File does not start writebacks")
	}
	const writers, each = 16, 60
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				tx, _ := s.Begin()
				tx.Put(fmt.Appendf(nil, "w%02d-%03d", w, i), []byte("v"), Any)
				if _, err := tx.Commit(); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	wf.mu.Lock()
	calls, bad, pending := wf.calls, wf.bad, wf.pending
	wf.mu.Unlock()
	for _, b := range bad {
		t.Error(b)
	}
	if pending {
		t.Error("the last group's writeback was started and never synced")
	}
	if calls == 0 {
		t.Fatalf("no writeback started in %d syncs: no group reached the syncer", wf.syncs.Load())
	}
	t.Logf("%d writebacks started, %d syncs", calls, wf.syncs.Load())
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

// TestWriteback_WrappedFileWithout checks that a File without the method
// (a wrapper, RAM mode) is simply not asked: startWriteback on it does
// nothing, and an osFile has it.
func TestWriteback_WrappedFileWithout(t *testing.T) {
	var f File = &faultFile{}
	if _, ok := f.(writebackStarter); ok {
		t.Fatal("a wrapper starts writebacks without saying so")
	}
	startWriteback(f, 0, 100) // must not reach the nil File inside
	if _, ok := any(&osFile{}).(writebackStarter); !ok {
		t.Fatal("osFile does not start writebacks")
	}
}
