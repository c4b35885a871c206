package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Options configures a Store. The zero value (or a nil *Options) is a
// durable read-write store with default group commit. Open copies the
// Options; changing them afterwards has no effect.
type Options struct {
	// ReadOnly opens the file without writing: no lock upgrade, no torn-tail
	// truncation; Begin and Compact return ErrReadOnly.
	ReadOnly bool

	// Strict runs Check after opening and after every commit, and fails the
	// commit (and further writes) with ErrCorrupt if it finds a problem.
	// At open it verifies every commit from the first record rather than
	// starting from the last checkpoint. It makes commits O(file size); use
	// it in tests.
	Strict bool

	// GroupWait is the longest a commit leader waits for the recent group
	// size to gather while writers have been committing together. Zero
	// means the default, 2 ms; a negative value disables the wait.
	GroupWait time.Duration

	// AutoCompact bounds the file's space: once the file has grown by
	// AutoCompact bytes plus its own size since it was made (created or
	// compacted), a commit starts a compaction; so, when the live tree has
	// not grown, about half of it or more is dead. The file's header
	// records the size it was made at, so a reopened store goes on
	// counting from it (files written before it was recorded count from
	// their size at open). Zero means the default, DefaultAutoCompact
	// (64 MiB) for files; in RAM mode, twice the
	// image's size after the last compaction, at least 16 MiB and at most
	// 128 MiB, so a small store under rewrites stays small; negative means
	// off (Compact still works when called).
	//
	// A file is compacted in the background while commits go on (see
	// Compact); commits wait only for its last step. If commits outrun it
	// until the file has grown by twice the trigger, the committer that
	// sees it waits for the compaction to end, so the file stays under
	// about 3 times its size after the last compaction plus 2 x
	// AutoCompact. RAM mode compacts in the committing leader, with
	// commits waiting.
	AutoCompact int64

	// FoldEntries is how many keys log records may hold over the tree
	// before a commit folds them into it (logrec.go). Zero means
	// DefaultFoldEntries, or DefaultFoldEntriesRAM in RAM mode; negative
	// means no log records: every commit
	// rewrites the leaves and paths it changes, as files of format
	// version 2 and older always do. Larger values make small commits
	// cheaper (a changed leaf is copied once per fold) and reads of the
	// latest version a little slower (they look in the log's keys first).
	FoldEntries int

	// WrapFile, when set, wraps the store's file, for example to inject
	// write or sync failures in tests. It is also applied to the new file
	// written by Compact.
	WrapFile func(File) File

	// nodeSize overrides the node split size (tests).
	nodeSize int
	// ckptEvery overrides defaultCheckpointEvery (tests); negative: never.
	ckptEvery int64
	// mapMin overrides the smallest mapping of a file (tests of remapping).
	mapMin int64
	// version is the format version of new files and compacted copies
	// (tests of version 3 files); 0: formatVersion.
	version uint32
	// noPrealloc turns preallocation off (tests that count a commit's file
	// operations).
	noPrealloc bool
}

// Store is an open tree store: one file holding a copy-on-write B+tree of
// ordered byte keys, each with a value and a revision. Read through
// Snapshot or Borrow, write through Begin and Tx.Commit.
//
// Concurrency: all methods are safe for concurrent use. Readers never block
// the writer or each other; commits are grouped (see doc.go). Compact and
// Close wait for the commit in progress.
//
// Lifetime: Close makes the handle unusable and releases the file's lock;
// snapshots and borrowed values taken before stay valid until released.
type Store struct {
	path     string
	opts     Options
	ram      bool
	nodeSize int

	cur atomic.Pointer[version] // nil once closed

	g group

	// Writer state, guarded by wmu.
	wmu   sync.Mutex
	f     File
	m     *mapping // the writer's mapping (it holds a reference of its own)
	tip   head     // the last head written: the current version's or newer
	ov    *overlay // tip's log records over its tree, or nil
	logOK bool     // commits may write log records: a version 3 or 4 file and FoldEntries >= 0
	// countAll: commits write log records to a version 3 file, whose heads
	// count every key of their version, so the leader looks up each key it
	// writes to keep the count (headCountsTree).
	countAll bool
	foldAt   int     // fold once the overlay would hold more keys than this
	lv       logView // the leader's, reused
	end      uint64  // where the next record goes: the end of the last head
	filled   uint64  // the file holds records or zeros up to here (prealloc.go)
	groupAvg int64   // the bytes a group appends, on average, decaying by an eighth per group (prealloc.go)
	cold     uint64  // where the next release of written pages starts (cold.go)
	swept    uint64  // the end at the last release of the whole mapping below the window (cold.go)
	buf      []byte  // commit buffer, reused
	bufPeak  int     // the groups' commit buffer lengths, their peak decaying by an eighth per group
	scratch  scratch // the leader's other reusable memory
	failed   error   // set when a write or sync failed: refuse writes
	closed   bool

	base      uint64     // where records begin: dataStartV2, or headerSize in version 1 files
	ckpt      checkpoint // the newest checkpoint written (synced, or syncing with the last group)
	ckptEvery uint64     // record bytes between checkpoints; 0: none (version 1, RAM, read-only)
	ckptBuf   [slotSize]byte

	compactedSize int64       // file size after open or the last compaction
	autoCompactAt int64       // growth that triggers compaction; 0: never
	ramAdaptive   bool        // RAM mode's default trigger: compactTrigger
	compactDue    atomic.Bool // the file grew past the trigger
	compactBehind atomic.Bool // ... and past twice the trigger: committers wait for the compaction

	// Compaction: cmu serialises compactions and is held for a whole one
	// (taken before wmu); cstop tells a running one that Close waits.
	cmu          sync.Mutex
	cstop        atomic.Bool
	compactions  atomic.Uint64
	compactPause atomic.Int64 // the longest a compaction held wmu, in ns

	publications atomic.Uint64 // heads written by commits
	coldReleased atomic.Uint64 // bytes of the mapping whose pages the writer gave back (cold.go)
	spare        *spareBuf     // RAM mode: a released image to reuse

	// testHookBeforeApply, when set, runs in the commit leader after it
	// took its group and before it applies it (tests pause publishing).
	testHookBeforeApply func()
	// testHookCompact, when set, runs as an online compaction passes each
	// of its steps (compactHook).
	testHookCompact func(step string)
}

// DefaultAutoCompact is the growth that triggers compaction of a file
// when Options.AutoCompact is zero.
const DefaultAutoCompact = 64 << 20

// ramAutoCompact is the most a RAM-mode store grows between automatic
// compactions when Options.AutoCompact is zero. A RAM compaction copies
// the whole live tree with commits waiting, so the trigger sets how often
// a commit pays for that copy: with 32 MiB, TPC-C at W=1 (about 100 MB
// live, 26 KB appended per transaction, most of it folds) compacted every
// 5,000 transactions and spent a sixth of its time there. At 128 MiB it
// compacts about 1.7 times less often; the image then holds up to twice
// the live tree plus 128 MiB, all of it touched memory, before it is
// copied.
const ramAutoCompact = 128 << 20

// ramAutoCompactMin is the least a RAM-mode store grows between automatic
// compactions when Options.AutoCompact is zero: the trigger is twice the
// image's size after the last compaction (its live tree), between this and
// ramAutoCompact. A fixed 128 MiB let a small store under rewrites (64
// documents of a few KiB rewritten 34,000 times a second by pure-serve
// --ram) hold images of 256 MiB and reach 0.84-1.04 GB of peak RSS with
// the old images and the collector's headroom (experiments 061, 066); the
// copy of a small live tree is cheap, so it can come more often. TPC-C's
// live tree (about 100 MB) keeps the 128 MiB trigger.
const ramAutoCompactMin = 16 << 20

func newStore(path string, opts *Options, ram bool) *Store {
	s := &Store{path: path, ram: ram}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.AutoCompact == 0 && !ram {
		s.opts.AutoCompact = DefaultAutoCompact
	}
	s.nodeSize = defaultNodeSize
	if s.opts.nodeSize > 0 {
		s.nodeSize = s.opts.nodeSize
	}
	s.g.wait = s.opts.GroupWait
	if s.g.wait == 0 {
		s.g.wait = 2 * time.Millisecond
	}
	s.g.arrive = make(chan struct{}, 1)
	return s
}

// Open opens the store file at path, creating it if it does not exist, and
// recovers the last version whose head verifies; bytes after it (a torn
// tail left by a crash) are cut off. It starts from the file's last
// checkpoint and verifies only the commits written after it (doc.go,
// Recovery), so it takes time proportional to them, not to the file. Only
// one Store may have a file open; another gets ErrLocked. A file that is
// not a store gets ErrNotStore, a damaged one ErrCorrupt.
func Open(path string, opts *Options) (*Store, error) {
	s := newStore(path, opts, false)
	if !s.opts.ReadOnly {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			if err := createFile(path, s.newVersion()); err != nil {
				return nil, fmt.Errorf("store: create %s: %w", path, err)
			}
		}
	}
	of, err := openOSFile(path, s.opts.ReadOnly)
	if err != nil {
		return nil, err
	}
	var f File = of
	if !s.opts.ReadOnly {
		removeLeftoverCompaction(path) // we hold the lock: no compaction runs
	}
	if s.opts.WrapFile != nil {
		f = s.opts.WrapFile(f)
	}
	if err := s.load(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if !s.opts.ReadOnly {
		s.g.kick = make(chan struct{}, 1)
		go s.syncLoop()
	}
	return s, nil
}

// OpenRAM returns an empty store kept in memory: the same API and file
// format, with no file and no sync. Its contents are lost at Close.
// Options.ReadOnly is ignored.
func OpenRAM(opts *Options) (*Store, error) {
	s := newStore("", opts, true)
	s.opts.ReadOnly = false
	if s.opts.AutoCompact == 0 {
		s.opts.AutoCompact = ramAutoCompact
	}
	s.ramAdaptive = opts == nil || opts.AutoCompact == 0
	s.spare = new(spareBuf)
	mf := newMemFile(s.spare)
	img := newFileImage(s.newVersion())
	if _, err := mf.Map(ramMapSize(int64(len(img)))); err != nil {
		return nil, err
	}
	if _, err := mf.WriteAt(img, 0); err != nil {
		return nil, err
	}
	var f File = mf
	if s.opts.WrapFile != nil {
		f = s.opts.WrapFile(f)
	}
	if err := s.load(f); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Store) mapSize(n int64) int64 {
	if s.ram {
		return ramMapSize(n)
	}
	if s.opts.mapMin > 0 {
		size := s.opts.mapMin
		for size < n {
			size *= 2
		}
		return size
	}
	return mapSize(n)
}

// load maps f, verifies its header, recovers the last valid head and cuts
// off anything after it.
func (s *Store) load(f File) error {
	size, err := f.Size()
	if err != nil {
		return err
	}
	if size == 0 && !s.opts.ReadOnly {
		// An empty file (for example made by touch) becomes an empty store.
		img := newFileImage(s.newVersion())
		if _, err := f.WriteAt(img, 0); err != nil {
			return err
		}
		if err := f.Sync(); err != nil {
			return err
		}
		size = int64(len(img))
	}
	if size < headerSize {
		return ErrNotStore
	}
	data, err := f.Map(s.mapSize(size))
	if err != nil {
		return fmt.Errorf("map: %w", err)
	}
	m := newMapping(f, data)
	rec, err := recoverHead(data[:size], s.opts.Strict)
	if err != nil {
		m.release()
		return err
	}
	h, end := rec.h, rec.end
	if end < uint64(size) && !s.opts.ReadOnly {
		// 1. Cut the torn tail, so the next commit appends right after the
		//    last valid head and no stale bytes follow it.
		// 2. Sync the cut before anything is appended after it.
		err := f.Truncate(int64(end))
		if err == nil {
			err = f.Sync()
		}
		if err != nil {
			m.release()
			return fmt.Errorf("cut torn tail at %d: %w", end, err)
		}
	}
	if s.opts.Strict {
		if err := checkVersion(m.data, h); err != nil {
			m.release()
			return err
		}
	}
	s.f, s.m, s.end, s.tip, s.filled, s.cold, s.swept = f, m, end, h, end, end, end
	s.setCheckpoints(rec.base, rec.ckpt)
	s.setLog(m.data, rec.ov)
	// Growth counts from the file's length when it was made (its header
	// says), not from its length now: a store reopened before it had grown
	// enough would otherwise never compact (experiment 176: 6.3 GB after
	// 200 kill -9 cycles of TPC-C). Files whose header does not say count
	// from now, as before.
	made := fileMade(m.data)
	if made == 0 || made > end {
		made = end
	}
	s.setCompacted(made)
	m.acquire() // the version's own reference
	s.cur.Store(&version{m: m, h: h, ov: rec.ov})
	return nil
}

// Close closes the store after the commit in progress (and the sync in
// flight). Queued and later commits fail with ErrClosed. Snapshots and
// borrowed values stay valid until released, and they do not keep the
// file: Close releases its lock at once, so the file can be opened again,
// in this process or another, while they are still being read (they read
// the versions they pinned, whatever the new handle writes). Close returns
// ErrClosed if already closed. A compaction in progress is abandoned (its
// new file removed) and Close waits for that.
//
// Close checkpoints the last commit if commits followed the last
// checkpoint (one write and one sync), so the next Open verifies nothing
// but that head; a failure there is returned, and the store is closed all
// the same (the next Open scans from the previous checkpoint).
func (s *Store) Close() error {
	s.cstop.Store(true) // a running compaction gives up at its next flush
	s.cmu.Lock()
	defer s.cmu.Unlock()
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.drainLocked()
	var err error
	if s.failed == nil && s.ckptEvery > 0 && s.tip.off != 0 && s.ckpt.end(s.base) < s.tip.off+headSize {
		err = s.writeCheckpointLocked(s.tip)
		if err == nil {
			err = s.f.Sync()
		}
		if err != nil {
			err = fmt.Errorf("store: close: %w", err)
		}
	}
	s.closed = true
	if s.g.kick != nil {
		close(s.g.kick) // the syncer is idle (drained): it ends
	}
	s.cur.Swap(nil).m.release()
	s.m.release()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// setCheckpoints records where records begin and the newest checkpoint of
// the file just opened or compacted, and whether commits write
// checkpoints: only to version 2 files, not in RAM or read-only mode.
func (s *Store) setCheckpoints(base uint64, c checkpoint) {
	s.base, s.ckpt, s.ckptEvery = base, c, 0
	if base == dataStartV2 && !s.ram && !s.opts.ReadOnly && s.opts.ckptEvery >= 0 {
		s.ckptEvery = defaultCheckpointEvery
		if s.opts.ckptEvery > 0 {
			s.ckptEvery = uint64(s.opts.ckptEvery)
		}
	}
}

// setLog records the overlay of the tip of the file just opened or
// compacted, and whether commits may write log records to it.
func (s *Store) setLog(d []byte, ov *overlay) {
	s.ov = ov
	s.foldAt = s.opts.FoldEntries
	switch {
	case s.foldAt != 0:
	case s.ram:
		s.foldAt = DefaultFoldEntriesRAM
	default:
		s.foldAt = DefaultFoldEntries
	}
	s.logOK = s.foldAt > 0 && fileVersion(d) >= formatV3 && !s.opts.ReadOnly
	s.countAll = s.logOK && !headCountsTree(fileVersion(d))
}

// newVersion returns the format version of the files the store creates.
func (s *Store) newVersion() uint32 {
	if s.opts.version != 0 {
		return s.opts.version
	}
	return formatVersion
}

// Path returns the file's path ("" in RAM mode).
func (s *Store) Path() string { return s.path }

// Stats are counters of a Store since it was opened.
type Stats struct {
	// Publications is the number of heads written by commits: one per
	// group of transactions that committed together.
	Publications uint64
	// Size is where the current version's records end in the file (or RAM
	// image), in bytes: its length without preallocated zeros.
	Size uint64
	// Seq and Rev are the current version's commit sequence number and
	// highest revision.
	Seq, Rev uint64
	// Keys is the number of keys in the current version.
	Keys uint64
	// Compactions is the number of compactions completed, automatic or
	// asked for.
	Compactions uint64
	// CompactPause is the longest time a compaction of a file held
	// commits back (its last step: copying what was committed during the
	// copy, one sync, the rename).
	CompactPause time.Duration
	// ReleasedPages is how many bytes of written file pages the writer
	// has given back to the kernel so far, a window behind the end of the
	// file, so that pages read once and then dead do not stay in the
	// process's RSS (a file in this process; zero in RAM mode). A range
	// released again by a sweep (cold.go) counts again.
	ReleasedPages uint64
}

// Stats returns the store's counters.
func (s *Store) Stats() Stats {
	st := Stats{Publications: s.publications.Load(), Compactions: s.compactions.Load(),
		CompactPause: time.Duration(s.compactPause.Load()), ReleasedPages: s.coldReleased.Load()}
	if v := s.acquireCurrent(); v != nil {
		st.Seq, st.Rev, st.Keys = v.h.seq, v.h.rev, versionKeys(v.m.data, &v.h, v.ov)
		st.Size = v.h.off + headSize
		if v.h.off == 0 {
			st.Size = dataStart(v.m.data)
		}
		v.m.release()
	}
	return st
}
