package store

import (
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// Compact rewrites the live tree of the current version into a new file
// and swaps it in: the file shrinks to the reachable nodes and values plus
// one head. Running readers are not disturbed: snapshots and borrowed
// values keep the old mapping (and with it the old file's data) alive, and
// it is unmapped when the last of them is released.
//
// Commits go on while the tree is copied; they wait only for the last
// step, which copies what they committed during the copy, syncs it and
// swaps the files (doc.go, Compaction). Stats.CompactPause reports the
// longest such wait. One compaction runs at a time: Compact waits for an
// automatic one in progress, then compacts.
//
// The new file is written beside the old one (path + ".compact"), synced,
// then renamed over it, and the directory synced. If anything fails before
// the rename, the store goes on with the old file unchanged (and a later
// Open removes a leftover path.compact); if syncing the directory after
// the rename fails, the store refuses further writes (ErrWriteFailed). In
// RAM mode Compact copies the live tree into fresh memory, with commits
// waiting.
func (s *Store) Compact() error {
	s.cmu.Lock()
	defer s.cmu.Unlock()
	if s.ram {
		s.wmu.Lock()
		defer s.wmu.Unlock()
		s.drainLocked()
		return s.compactLocked()
	}
	return s.compactOnline()
}

// autoCompact starts a compaction if Options.AutoCompact says the file has
// grown enough since the last one. The commit leader calls it after its
// group has its results. A file is compacted in the background, one
// compaction at a time; a leader that finds the file grown by twice the
// trigger while one runs waits for it, so writers cannot outrun it without
// bound. RAM mode compacts in the leader, with commits waiting.
func (s *Store) autoCompact() {
	if !s.compactDue.Load() {
		return // checked without wmu: the next leader may hold it
	}
	if s.ram {
		s.wmu.Lock()
		defer s.wmu.Unlock()
		s.drainLocked()
		if s.compactDueLocked() && s.writableLocked() == nil {
			s.compactLocked() // on failure the store keeps the old image
		}
		return
	}
	// Take cmu here and hand it to the compaction's goroutine, so that a
	// committer that finds the file behind waits for this compaction even
	// if its goroutine has not run yet. Held already: a compaction (or
	// Close) is running.
	if s.cmu.TryLock() {
		go s.compactBackground()
		return
	}
	if s.compactBehind.Load() {
		s.cmu.Lock() // wait for the running compaction
		//lint:ignore SA2001 the lock is taken only to wait for the running compaction to end
		s.cmu.Unlock()
	}
}

// compactBackground runs one automatic compaction of a file. The caller
// locked cmu for it; it unlocks cmu when done.
func (s *Store) compactBackground() {
	defer s.cmu.Unlock()
	s.wmu.Lock()
	due := s.compactDueLocked() && s.writableLocked() == nil
	s.wmu.Unlock()
	if !due {
		return
	}
	if err := s.compactOnline(); err != nil {
		// The old file stays (or writes are refused, if the failure came
		// after the rename). Try again once the file has grown as much
		// again, not at every commit.
		s.wmu.Lock()
		s.autoCompactAt += int64(s.end) - s.compactedSize
		s.compactDue.Store(false)
		s.compactBehind.Store(false)
		s.wmu.Unlock()
	}
}

// compactDueLocked reports whether the file has grown past the automatic
// compaction's trigger.
func (s *Store) compactDueLocked() bool {
	return s.autoCompactAt > 0 && int64(s.end) > s.compactedSize+s.autoCompactAt
}

// noteGrowthLocked updates the flags autoCompact reads without wmu after
// a group moved the end of the file.
func (s *Store) noteGrowthLocked() {
	s.compactDue.Store(s.compactDueLocked())
	s.compactBehind.Store(s.autoCompactAt > 0 && int64(s.end) > s.compactedSize+2*s.autoCompactAt)
}

// compactTrigger is the growth past a compacted size that starts the next
// automatic compaction: Options.AutoCompact, or in RAM mode by default
// twice the compacted size, between ramAutoCompactMin and ramAutoCompact.
func (s *Store) compactTrigger(compacted int64) int64 {
	if !s.ramAdaptive {
		return s.opts.AutoCompact
	}
	return min(max(2*compacted, ramAutoCompactMin), ramAutoCompact)
}

// setCompacted records the size of a freshly compacted (or opened) file.
func (s *Store) setCompacted(size uint64) {
	s.compactedSize = int64(size)
	if s.opts.AutoCompact > 0 {
		s.autoCompactAt = s.compactTrigger(int64(size)) + int64(size)
	}
	s.compactDue.Store(false)
	s.compactBehind.Store(false)
}

// compactOnline compacts a file while commits go on, in three steps: copy
// the tree of a pinned version; copy, in up to compactRounds more rounds,
// the nodes committed meanwhile, and sync the new file; then, holding wmu,
// copy the last commits, write the head and its checkpoint, sync and swap.
// The caller holds cmu.
func (s *Store) compactOnline() error {
	s.wmu.Lock()
	err := s.writableLocked()
	s.wmu.Unlock()
	if err != nil {
		return err
	}
	v := s.acquireCurrent()
	if v == nil {
		return ErrClosed
	}
	defer func() { v.m.release() }()

	// 1. Create the new file, locked, holding only the file header.
	tmp := s.path + ".compact"
	of, err := createOSFile(tmp)
	if err != nil {
		return fmt.Errorf("store: compact: %w", err)
	}
	var f File = of
	if s.opts.WrapFile != nil {
		f = s.opts.WrapFile(f)
	}
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("store: compact: %w", err)
	}

	// 2. Copy the pinned version's tree, then the nodes of newer versions,
	//    round by round, until a round copies little or none is newer.
	//    Readers and writers go on meanwhile.
	c := copier{d: v.m.data, f: f, buf: newCopyBuf(s.newVersion()), version: s.newVersion(),
		regionFrom: dataStartV2, moved: make(map[uint64]uint64), stop: &s.cstop}
	s.compactHook("start")
	if r := treeRoot(v.h.root, v.ov); r != 0 {
		c.node(r)
	}
	s.compactHook("copied")
	for range compactRounds {
		nv := s.acquireCurrent()
		if nv == nil {
			return fail(ErrClosed)
		}
		if nv.h.off == v.h.off {
			nv.m.release()
			break
		}
		v.m.release()
		v = nv
		from := c.off()
		c.d = v.m.data
		if r := treeRoot(v.h.root, v.ov); r != 0 {
			c.node(r)
		}
		if c.off()-from < compactRoundMin {
			break
		}
	}
	c.flush()
	if c.err == nil {
		c.err = f.Sync() // so the last step syncs only what it adds
	}
	if c.err != nil {
		return fail(c.err)
	}
	s.compactHook("synced")

	// 3. With commits waiting: copy the last ones, write the head, sync,
	//    rename and swap.
	start := time.Now()
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.drainLocked()
	if err := s.writableLocked(); err != nil {
		return fail(err)
	}
	c.d = s.m.data
	err = s.finishCompactLocked(&c, f, tmp)
	if err != nil && c.err != nil {
		return fail(err)
	}
	if d := time.Since(start); d > time.Duration(s.compactPause.Load()) {
		s.compactPause.Store(int64(d))
	}
	return err
}

// Online compaction rounds: at most compactRounds after the first copy,
// stopping once a round copies less than compactRoundMin bytes.
const (
	compactRounds   = 4
	compactRoundMin = 256 << 10
)

// finishCompactLocked is compactOnline's last step, under wmu after the
// last sync ended: it copies the tip's tree (what the earlier rounds did
// not copy), writes the one head and a checkpoint naming it, syncs,
// renames the file over the old one, syncs the directory and swaps. A
// failure before the rename is left in c.err (the caller removes the new
// file); after it, the store refuses writes and the error is returned
// with c.err nil.
func (s *Store) finishCompactLocked(c *copier, f File, tmp string) error {
	tip := s.tip
	h, end := c.finish(tip, s.ov)
	if c.err == nil {
		// The header records the new file's length, from which the next
		// automatic compaction's trigger counts, also after a reopen.
		if _, err := f.WriteAt(encodeFileHeaderV(c.version, end), 0); err != nil {
			c.err = err
		}
	}
	if c.err == nil {
		var sb [slotSize]byte
		encodeSlot(&sb, h)
		if _, err := f.WriteAt(sb[:], int64(slotOffset(0))); err != nil {
			c.err = err
		}
	}
	if c.err == nil {
		c.err = f.Sync()
	}
	var m *mapping
	if c.err == nil {
		data, err := f.Map(s.mapSize(int64(end)))
		if err != nil {
			c.err = err
		} else {
			m = newMapping(f, data)
		}
	}
	var ov *overlay
	if c.err == nil {
		ov, c.err = buildOverlay(m.data, h.root, h.count)
	}
	if c.err == nil && s.opts.Strict {
		c.err = checkVersion(m.data, h)
	}
	if c.err == nil {
		c.err = os.Rename(tmp, s.path)
	}
	if c.err != nil {
		if m != nil {
			m.release()
		}
		return c.err
	}
	s.compactHook("renamed")
	if err := syncDir(s.path); err != nil {
		s.failed = fmt.Errorf("%w: sync directory after compaction: %w", ErrWriteFailed, err)
	}
	s.swapLocked(f, m, h, end, checkpoint{slot: 0, h: h}, ov)
	return s.failed
}

// finish copies what the copier has not yet copied of tip's tree and,
// when tip has log records over its tree (ov), one log record holding
// the newest entry of each of their keys; then it writes the head of the
// new file. It returns the head and where it ends.
func (c *copier) finish(tip head, ov *overlay) (head, uint64) {
	root := uint64(0)
	if r := treeRoot(tip.root, ov); r != 0 {
		root = c.node(r)
	}
	if ov != nil && ov.n > 0 && c.err == nil {
		// The record's length goes in its header, which may be flushed
		// before its last entries are appended: count it first.
		n := uint64(logHdrSize)
		ov.all(func(e uint64) { n += logEntLen(c.d, e) })
		if n > maxLogRecord {
			c.err = fmt.Errorf("the log records' newest entries take %d bytes, more than a record holds (%d)", n, maxLogRecord)
			return head{}, 0
		}
		at := c.off()
		start := len(c.buf)
		c.buf = startLogRecord(c.buf, root)
		le.PutUint32(c.buf[start+4:], uint32(n)) // what endLogRecord would set
		ov.all(func(e uint64) {
			c.buf = append(c.buf, c.d[e:e+logEntLen(c.d, e)]...)
			c.maybeFlush()
		})
		if c.err == nil && c.off() != at+n { // (after a failed flush off stops moving: keep that error)
			c.err = fmt.Errorf("the overlay's log record took %d bytes, %d counted (a bug in the store: please report it)", c.off()-at, n)
			return head{}, 0
		}
		root = at
	}
	count := tip.count
	if ov != nil {
		// The new file's head counts as its version says: the tree's keys
		// (version 4) or every key (version 3, tests).
		if headCountsTree(c.version) {
			count = ov.treeCount
		} else {
			count = ov.keyCount(c.d)
		}
	}
	h := head{off: c.off(), seq: tip.seq + 1, rev: tip.rev, root: root, count: count}
	c.flush()
	h.dataCRC = c.crc
	var hb [headSize]byte
	h.encode(hb[:])
	c.buf = append(c.buf, hb[:]...)
	c.flush()
	return h, h.off + headSize
}

// swapLocked makes the compacted file the store's: publish its version
// (which releases the old mapping's version reference), drop the writer's
// reference on the old mapping and close the old file.
func (s *Store) swapLocked(f File, m *mapping, h head, end uint64, ckpt checkpoint, ov *overlay) {
	old, oldM := s.f, s.m
	s.f, s.m, s.end, s.tip, s.filled, s.cold, s.swept = f, m, end, h, end, end, end
	s.setCheckpoints(dataStartV2, ckpt)
	s.setLog(m.data, ov)
	m.acquire() // the version's own reference
	s.publish(&version{m: m, h: h, ov: ov})
	oldM.release() // the writer's reference on the old mapping
	s.setCompacted(end)
	s.compactions.Add(1)
	old.Close()
}

// compactLocked compacts RAM mode's image with commits waiting: copy the
// live tree into fresh memory and swap it in.
func (s *Store) compactLocked() error {
	if err := s.writableLocked(); err != nil {
		return err
	}
	f := newMemFile(s.spare)
	// Room for the copy (at most the image's size now) and for the growth
	// until the next automatic compaction as the last one's size predicts
	// it (the image is compacted again once it passes twice its compacted
	// size plus the trigger), so the image is usually not copied again on
	// the way. Adding the trigger to the image's size now, as before,
	// doubled a small store's image for nothing: its size now already
	// holds the trigger's growth.
	size := max(int64(s.tip.off+headSize), 2*s.compactedSize+max(s.compactTrigger(s.compactedSize), 0))
	if _, err := f.Map(s.mapSize(size)); err != nil {
		return fmt.Errorf("store: compact: %w", err)
	}
	var wf File = f
	if s.opts.WrapFile != nil {
		wf = s.opts.WrapFile(f)
	}
	c := copier{d: s.m.data, f: wf, buf: newCopyBuf(s.newVersion()), version: s.newVersion(), regionFrom: dataStartV2}
	h, end := c.finish(s.tip, s.ov)
	if c.err != nil {
		return fmt.Errorf("store: compact: %w", c.err)
	}
	data, err := wf.Map(s.mapSize(int64(end)))
	if err != nil {
		return fmt.Errorf("store: compact: %w", err)
	}
	m := newMapping(wf, data)
	ov, err := buildOverlay(data, h.root, h.count)
	if err == nil && s.opts.Strict {
		// As for a file: the copy is verified in strict mode only. It
		// read every byte of the new image (the data checksum and the
		// tree), a third of a RAM compaction's time.
		err = checkVersion(data, h)
	}
	if err != nil {
		m.release()
		return fmt.Errorf("store: compact: %w", err)
	}
	s.swapLocked(wf, m, h, end, noCheckpoint(), ov)
	return nil
}

// removeLeftoverCompaction removes path.compact, left by a compaction that
// a crash interrupted before its rename: the old file is authoritative.
// The caller holds the file's lock, so no compaction of it is running.
func removeLeftoverCompaction(path string) {
	os.Remove(path + ".compact") // absent, the usual case, or overwritten by the next compaction
}

// compactHook runs testHookCompact, if set, as an online compaction
// passes step: "start", "copied" (the pinned version's tree), "synced"
// (the rounds, before commits wait), "renamed".
func (s *Store) compactHook(step string) {
	if h := s.testHookCompact; h != nil {
		h(step)
	}
}

// createOSFile creates (or empties) path and locks it exclusively.
func createOSFile(path string) (*osFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	lock, err := os.Open(path) // the lock's own descriptor (see osFile)
	if err == nil {
		if err = unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			lock.Close()
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return &osFile{f: f, lock: lock}, nil
}
