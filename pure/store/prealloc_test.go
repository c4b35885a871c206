package store

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestPrealloc_ZeroTailRecovers grows a store past preallocFrom, so zeros
// follow its last head, and opens copies of the file as a power cut could
// leave it: the zeros whole, or a commit torn inside them. Each recovers
// the acknowledged state, cuts the tail and goes on committing; commits
// written over the zeros survive a reopen.
func TestPrealloc_ZeroTailRecovers(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/db"
	s := mustOpen(t, path, &Options{Strict: true})
	model := map[string]string{}
	big := bytes.Repeat([]byte("p"), 64<<10)
	for i := 0; s.end < preallocFrom+(256<<10); i++ {
		k := fmt.Sprintf("big%03d", i)
		put(t, s, k, string(big))
		model[k] = string(big)
	}
	for i := range 50 { // small commits, written over the zeros
		put(t, s, key(i), "small")
		model[key(i)] = "small"
	}
	end := s.end
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if uint64(fi.Size()) <= end {
		t.Fatalf("file is %d bytes, records end at %d: nothing preallocated", fi.Size(), end)
	}
	cut, _ := os.ReadFile(path) // every commit is synced: a power cut now

	// A torn commit inside the zeros: the records of an unsynced commit,
	// half written, after the last head.
	tx, _ := s.Begin()
	tx.Put([]byte("torn"), big, Any)
	if _, err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	torn := bytes.Clone(cut)
	half := end + (s.end-end)/2
	copy(torn[end:half], after[end:half])

	for name, b := range map[string][]byte{"zeros": cut, "torn": torn} {
		p := dir + "/" + name
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		c := mustOpen(t, p, &Options{Strict: true})
		if got := contents(t, c); !sameModel(got, model) {
			t.Fatalf("%s: %d keys recovered, want %d", name, len(got), len(model))
		}
		if c.end != end {
			t.Fatalf("%s: recovered end %d, want %d", name, c.end, end)
		}
		put(t, c, "after", "recovery")
		c.Close()
		c = mustOpen(t, p, &Options{Strict: true})
		if v, _, _ := get(t, c, "after"); v != "recovery" {
			t.Fatalf("%s: commit after recovery lost", name)
		}
		c.Close()
	}

	model["torn"] = string(big)
	s.Close()
	s = mustOpen(t, path, &Options{Strict: true})
	defer s.Close()
	if got := contents(t, s); !sameModel(got, model) {
		t.Fatalf("reopen: %d keys, want %d", len(got), len(model))
	}
}

// TestCrash_KillDuringCommitsPreallocated is TestCrash_KillDuringCommits
// on a store holding more than preallocFrom bytes of live data, so the
// child commits over preallocated zeros and is killed among them.
func TestCrash_KillDuringCommitsPreallocated(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 7))
	path := tempPath(t)
	s := mustOpen(t, path, nil)
	fill := bytes.Repeat([]byte("f"), 16<<10)
	for i := range 100 {
		put(t, s, fmt.Sprint("fill", i), string(fill))
	}
	s.Close()
	var acked int
	for c := range 10 {
		acks := runCrashChild(t, path, 50+rng.IntN(400), 64<<10)
		acked += len(acks)
		s, err := Open(path, &Options{Strict: c%2 == 0}) // from the checkpoint in odd cycles
		if err != nil {
			t.Fatalf("cycle %d: reopen after kill: %v", c, err)
		}
		if s.end < preallocFrom {
			t.Fatalf("cycle %d: store of %d bytes is not preallocated", c, s.end)
		}
		sn, _ := s.Snapshot()
		for _, a := range acks {
			if _, rev, ok := sn.Get([]byte(a.key)); !ok || rev < a.rev {
				t.Errorf("cycle %d: acknowledged %s at rev %d, found rev %d (present %v)", c, a.key, a.rev, rev, ok)
			}
		}
		sn.Release()
		if len(contents(t, s)) < 100 {
			t.Errorf("cycle %d: fill keys lost", c)
		}
		s.Close()
	}
	t.Logf("10 cycles, %d acknowledged", acked)
}

// TestPrealloc_LargeGroupsAppendNoZeros: once groups are large on average
// (preallocGroupMax), commits stop appending zeros, so the file ends where
// its records do; when groups are small again, zeros come back.
func TestPrealloc_LargeGroupsAppendNoZeros(t *testing.T) {
	path := t.TempDir() + "/db"
	s := mustOpen(t, path, &Options{Strict: true})
	defer s.Close()
	size := func() uint64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return uint64(fi.Size())
	}
	big := bytes.Repeat([]byte("L"), 512<<10)
	for i := range 24 {
		put(t, s, fmt.Sprintf("large%02d", i), string(big))
	}
	if s.groupAvg < preallocGroupMax {
		t.Fatalf("groupAvg %d after 512 KiB groups, want at least %d", s.groupAvg, preallocGroupMax)
	}
	if got := size(); got != s.end {
		t.Fatalf("file is %d bytes, records end at %d: zeros appended after large groups", got, s.end)
	}
	for i := 0; s.groupAvg >= preallocGroupMax || size() == s.end; i++ {
		if i == 200 {
			t.Fatalf("after %d small commits: groupAvg %d, file %d, end %d: no zeros again", i, s.groupAvg, size(), s.end)
		}
		put(t, s, key(i), "small")
	}
	s.Close()
	c := mustOpen(t, path, &Options{Strict: true})
	defer c.Close()
	if v, _, _ := get(t, c, "large23"); v != string(big) {
		t.Fatalf("large23: %d bytes after reopen", len(v))
	}
}

// countFile counts the writes of a File that are zeros (4 KiB or more,
// all zero: a chunk of preallocation; no record is) and its syncs, and
// opens its second descriptor (zeros ahead) through ahead, when set,
// wrapping it in a countFile of its own.
type countFile struct {
	File
	mu         sync.Mutex
	zeroWrites int
	syncs      int
	ahead      func(inner File) File // wraps the second descriptor; nil: counted only
	opener     aheadOpener           // opens the second descriptor; nil: File's own
	aheadFiles []*countFile
}

func (c *countFile) WriteAt(p []byte, off int64) (int, error) {
	if len(p) >= 4096 && allZero(p) {
		c.mu.Lock()
		c.zeroWrites++
		c.mu.Unlock()
	}
	return c.File.WriteAt(p, off)
}

func (c *countFile) Sync() error {
	c.mu.Lock()
	c.syncs++
	c.mu.Unlock()
	return c.File.Sync()
}

func (c *countFile) openAhead() (File, error) {
	o := c.opener
	if o == nil {
		o = c.File.(aheadOpener)
	}
	f, err := o.openAhead()
	if err != nil {
		return nil, err
	}
	if c.ahead != nil {
		f = c.ahead(f)
	}
	a := &countFile{File: f}
	c.mu.Lock()
	c.aheadFiles = append(c.aheadFiles, a)
	c.mu.Unlock()
	return a, nil
}

// counts returns the zero writes and syncs of c and of its ahead files.
func (c *countFile) counts() (zeroWrites, syncs, aheadZeroWrites, aheadSyncs int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, a := range c.aheadFiles {
		a.mu.Lock()
		aheadZeroWrites += a.zeroWrites
		aheadSyncs += a.syncs
		a.mu.Unlock()
	}
	return c.zeroWrites, c.syncs, aheadZeroWrites, aheadSyncs
}

func allZero(p []byte) bool {
	for _, b := range p {
		if b != 0 {
			return false
		}
	}
	return true
}

// TestPrealloc_ZerosAhead: once the background writes zeros ahead, no
// commit writes zeros in its own path after the first chunk: the store's
// descriptor gets records only, the second descriptor every later chunk
// and a sync of its own for each. The file reopens to every commit, with
// the zeros cut off.
func TestPrealloc_ZerosAhead(t *testing.T) {
	path := tempPath(t)
	var cf *countFile
	// Folds of at most 64 keys of 1000 bytes (values inline): every
	// group appends much less than half a chunk.
	s := mustOpen(t, path, &Options{Strict: true, AutoCompact: -1, FoldEntries: 64, WrapFile: func(f File) File { cf = &countFile{File: f}; return cf }})
	val := string(bytes.Repeat([]byte("z"), 1000))
	model := map[string]string{}
	i := 0
	for ; s.end < preallocFrom; i++ {
		put(t, s, key(i), val)
		model[key(i)] = val
	}
	for n := 0; n < 1500; n, i = n+1, i+1 {
		put(t, s, key(i), val)
		model[key(i)] = val
	}
	zw, _, azw, asyncs := cf.counts()
	if zw != 1 || s.zerosInPath.Load() != 1 {
		t.Errorf("commits wrote zeros in their path %d times (%d chunks), want once: the first chunk", zw, s.zerosInPath.Load())
	}
	chunks := s.zerosAhead.Load()
	if chunks < 5 || azw < int(chunks) || asyncs != int(chunks) {
		t.Errorf("ahead: %d chunks, %d zero writes, %d syncs on the second descriptor; want several chunks, a sync each", chunks, azw, asyncs)
	}
	if s.za.err != nil {
		t.Errorf("zeros ahead failed: %v", s.za.err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s.za.f != nil || s.za.busy() {
		t.Error("Close left the background's descriptor open or its chunk in flight")
	}
	s = mustOpen(t, path, &Options{Strict: true})
	defer s.Close()
	if got := contents(t, s); !sameModel(got, model) {
		t.Fatalf("reopen: %d keys, want %d", len(got), len(model))
	}
}

// failAheadFile fails every WriteAt (write) or Sync (sync) of the
// background's descriptor.
type failAheadFile struct {
	File
	op string
}

func (f failAheadFile) WriteAt(p []byte, off int64) (int, error) {
	if f.op == "write" {
		n, _ := f.File.WriteAt(p[:len(p)/2], off)
		return n, errInjected
	}
	return f.File.WriteAt(p, off)
}

func (f failAheadFile) Sync() error {
	if f.op == "sync" {
		return errInjected
	}
	return f.File.Sync()
}

// TestPrealloc_ZerosAheadFail: a background chunk whose write or sync
// fails is not counted as written: the commit that reaches it writes the
// zeros in its own path, as without the background, and so do the commits
// after it for this file; commits go on, the error is kept, and the file
// reopens to every commit. A compaction's new file starts with the
// background on again.
func TestPrealloc_ZerosAheadFail(t *testing.T) {
	for _, op := range []string{"write", "sync"} {
		t.Run(op, func(t *testing.T) {
			path := tempPath(t)
			var cf *countFile
			s := mustOpen(t, path, &Options{Strict: true, AutoCompact: -1, WrapFile: func(f File) File {
				cf = &countFile{File: f, ahead: func(f File) File { return failAheadFile{File: f, op: op} }}
				return cf
			}})
			val := string(bytes.Repeat([]byte("f"), 2000))
			model := map[string]string{}
			for i := range 800 {
				put(t, s, key(i), val)
				model[key(i)] = val
			}
			if !errors.Is(s.za.err, errInjected) || !s.za.off {
				t.Fatalf("background error %v (off %v), want the injected one, and off", s.za.err, s.za.off)
			}
			zw, _, azw, _ := cf.counts()
			if s.zerosAhead.Load() != 0 || azw == 0 {
				t.Errorf("%d chunks ahead counted, %d zero writes tried on the second descriptor", s.zerosAhead.Load(), azw)
			}
			if zw < 3 || int(s.zerosInPath.Load()) != zw {
				t.Errorf("%d zero writes in the commits' path (%d chunks), want the first chunk and the fallback's", zw, s.zerosInPath.Load())
			}
			if err := s.Compact(); err != nil {
				t.Fatal(err)
			}
			if s.za.off || s.za.err != nil {
				t.Error("the compacted file's background is still off")
			}
			s.Close()
			s = mustOpen(t, path, &Options{Strict: true})
			defer s.Close()
			if got := contents(t, s); !sameModel(got, model) {
				t.Fatalf("reopen: %d keys, want %d", len(got), len(model))
			}
		})
	}
}

// TestPrealloc_ZerosAheadFailInPathToo: when the background failed and the
// commit's own write of the zeros fails as well, the commit fails, with
// both errors, and the store refuses further writes, as a failed write
// always makes it.
func TestPrealloc_ZerosAheadFailInPathToo(t *testing.T) {
	path := tempPath(t)
	failZeros := &zeroFailFile{}
	s := mustOpen(t, path, &Options{AutoCompact: -1, WrapFile: func(f File) File {
		failZeros.File = f
		return &countFile{File: failZeros, opener: f.(aheadOpener), ahead: func(f File) File { return failAheadFile{File: f, op: "write"} }}
	}})
	defer s.Close()
	val := string(bytes.Repeat([]byte("f"), 2000))
	var err error
	for i := 0; err == nil && i < 4000; i++ {
		if s.za.err != nil {
			failZeros.on.Store(true) // the background failed: now the commits' own zeros fail
		}
		tx, _ := s.Begin()
		tx.Put([]byte(key(i)), []byte(val), Any)
		_, err = tx.Commit()
	}
	if !errors.Is(err, ErrWriteFailed) || !errors.Is(err, errInjected) || !strings.Contains(err.Error(), "zeros ahead") {
		t.Fatalf("commit error %v, want ErrWriteFailed with the in-path write's error and the background's", err)
	}
	tx, _ := s.Begin()
	tx.Put([]byte("after"), []byte(val), Any)
	if _, err := tx.Commit(); !errors.Is(err, ErrWriteFailed) {
		t.Fatalf("commit after the failure: %v, want ErrWriteFailed", err)
	}
}

// zeroFailFile fails the writes of zeros (preallocation) once on.
type zeroFailFile struct {
	File
	on atomic.Bool
}

func (f *zeroFailFile) WriteAt(p []byte, off int64) (int, error) {
	if f.on.Load() && len(p) >= 4096 && allZero(p) {
		return 0, errInjected
	}
	return f.File.WriteAt(p, off)
}
