package store

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

var errInjected = errors.New("injected fault")

// faultFile wraps a File and fails one chosen WriteAt, Sync or Truncate
// call once it is armed. A failing WriteAt first writes half its bytes, as a
// short write would.
type faultFile struct {
	File
	mu     sync.Mutex
	failAt int // fail the failAt-th operation after arming; 0: disarmed
	ops    int
	failed []string // operations that failed
	syncs  int      // Sync calls, failed or not
}

func (f *faultFile) arm(n int) {
	f.mu.Lock()
	f.failAt, f.ops, f.failed = n, 0, nil
	f.mu.Unlock()
}

// fail counts an operation and reports whether it must fail.
func (f *faultFile) fail(op string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failAt == 0 {
		return false
	}
	f.ops++
	if f.ops == f.failAt {
		f.failed = append(f.failed, op)
		return true
	}
	return false
}

func (f *faultFile) WriteAt(p []byte, off int64) (int, error) {
	if f.fail("write") {
		n, _ := f.File.WriteAt(p[:len(p)/2], off)
		return n, errInjected
	}
	return f.File.WriteAt(p, off)
}

func (f *faultFile) Sync() error {
	f.mu.Lock()
	f.syncs++
	f.mu.Unlock()
	if f.fail("sync") {
		return errInjected
	}
	return f.File.Sync()
}

func (f *faultFile) Truncate(size int64) error {
	if f.fail("truncate") {
		return errInjected
	}
	return f.File.Truncate(size)
}

// TestFault_CommitPath fails each write and sync of a commit in turn. The
// commit must fail, the store must refuse further writes without syncing
// again, readers must keep the last version, and a reopen must find every
// earlier acknowledged commit intact and the failed one all or nothing.
//
// With a checkpoint written by every commit, the checkpoint slot's write is
// one more failure point; the reopen then finds the torn slot's checksum
// wrong and starts from the other one.
//
// Each runs with tree commits (fold -1), with log records folded every
// few commits (2) and with the default fold (no fold in the test's
// commits).
func TestFault_CommitPath(t *testing.T) {
	for _, every := range []int64{-1, 1} {
		for _, fold := range []int{-1, 2, 0} {
			t.Run(fmt.Sprint("checkpoint-every=", every, "/fold=", fold), func(t *testing.T) {
				points := faultCommitPath(t, every, fold)
				if want := 3 + btoi(every > 0); points != want {
					t.Fatalf("commit path has %d failure points, want %d (records, head, [checkpoint,] sync)", points, want)
				}
			})
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// faultCommitPath fails each file operation of a commit in turn and
// returns how many there were.
func faultCommitPath(t *testing.T, every int64, fold int) int {
	for n := 1; ; n++ {
		path := tempPath(t)
		var ff *faultFile
		// No preallocation: the big commit below passes preallocFrom, and
		// the zeros it would write are not part of the path counted here.
		opts := &Options{Strict: true, nodeSize: 256, ckptEvery: every, FoldEntries: fold, noPrealloc: true, WrapFile: func(f File) File {
			ff = &faultFile{File: f}
			return ff
		}}
		s := mustOpen(t, path, opts)
		acked := map[string]string{}
		for i := range 30 {
			k, v := key(i), fmt.Sprint("v", i)
			put(t, s, k, v)
			acked[k] = v
		}
		big := strings.Repeat("B", 5000)
		ff.arm(n)
		tx, _ := s.Begin()
		for i := 25; i < 60; i++ {
			tx.Put([]byte(key(i)), []byte(big), Any)
		}
		_, err := tx.Commit()
		if err == nil {
			if n < 4 {
				t.Fatalf("a commit took only %d file operations; want write, write, sync", n-1)
			}
			s.Close()
			t.Logf("commit path has %d failure points", n-1)
			return n - 1
		}
		t.Run(fmt.Sprintf("fail-%s-%d", ff.failed[0], n), func(t *testing.T) {
			if !errors.Is(err, ErrWriteFailed) || !errors.Is(err, errInjected) {
				t.Fatalf("commit error %v, want ErrWriteFailed wrapping the cause", err)
			}
			syncs := ff.syncs
			tx2, _ := s.Begin()
			tx2.Put([]byte("later"), []byte("x"), Any)
			if _, err := tx2.Commit(); !errors.Is(err, ErrWriteFailed) {
				t.Fatalf("commit after failure: %v", err)
			}
			if err := s.Compact(); !errors.Is(err, ErrWriteFailed) {
				t.Fatalf("compact after failure: %v", err)
			}
			if ff.syncs != syncs {
				t.Fatal("store synced again after a failure")
			}
			if got := contents(t, s); !sameModel(got, acked) {
				t.Fatal("readers lost the last version")
			}
			s.Close()

			s = mustOpen(t, path, nil) // from the checkpoint, if any
			defer s.Close()
			got := contents(t, s)
			_, applied := got[key(59)]
			want := cloneModel(acked)
			if applied { // the sync failed after the data reached the file
				for i := 25; i < 60; i++ {
					want[key(i)] = big
				}
			}
			if !sameModel(got, want) {
				t.Fatalf("after reopen: %d keys, want %d (failed commit applied: %v)", len(got), len(want), applied)
			}
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
			put(t, s, "later", "x")
		})
	}
}

// TestFault_Compact fails each write and sync of a compaction in turn: the
// store must go on with the old file, and everything must survive a
// reopen.
func TestFault_Compact(t *testing.T) {
	for n := 1; ; n++ {
		path := tempPath(t)
		var ff *faultFile
		opts := &Options{Strict: true, WrapFile: func(f File) File {
			ff = &faultFile{File: f, failAt: n} // armed for the compaction's file
			return ff
		}}
		s, err := Open(path, &Options{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 20 {
			put(t, s, key(i), strings.Repeat("v", 100*i))
		}
		s.opts = *opts
		err = s.Compact()
		if err == nil {
			s.Close()
			if n < 3 {
				t.Fatalf("a compaction took only %d file operations", n-1)
			}
			return
		}
		if errors.Is(err, ErrWriteFailed) || !errors.Is(err, errInjected) {
			t.Fatalf("fail %d: compact error %v, want the injected cause only", n, err)
		}
		put(t, s, "after", "compact")
		s.Close()
		s = mustOpen(t, path, &Options{Strict: true})
		if len(contents(t, s)) != 21 {
			t.Fatalf("fail %d: keys lost", n)
		}
		s.Close()
	}
}

// TestFault_TruncateTornTail fails cutting a torn tail at open: Open fails
// and a later open still recovers.
func TestFault_TruncateTornTail(t *testing.T) {
	path := tempPath(t)
	s := mustOpen(t, path, nil)
	put(t, s, "a", "1")
	s.Close()
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.Write([]byte("torn tail bytes"))
	f.Close()
	for n := 1; n <= 2; n++ { // the truncate, then the sync after it
		_, err := Open(path, &Options{WrapFile: func(f File) File { return &faultFile{File: f, failAt: n} }})
		if !errors.Is(err, errInjected) {
			t.Fatalf("fault %d: open returned %v", n, err)
		}
	}
	s = mustOpen(t, path, &Options{Strict: true})
	defer s.Close()
	if v, _, _ := get(t, s, "a"); v != "1" {
		t.Fatal("lost the acknowledged commit")
	}
}
