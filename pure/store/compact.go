package store

import (
	"fmt"
	"hash/crc32"
	"os"

	"golang.org/x/sys/unix"
)

// Compact rewrites the live tree of the current version into a new file
// and swaps it in: the file shrinks to the reachable nodes and values plus
// one head. Running readers are not disturbed: snapshots and borrowed
// values keep the old mapping (and with it the old file's data) alive, and
// it is unmapped when the last of them is released. Commits wait while
// Compact runs.
//
// The new file is written beside the old one (path + ".compact"), synced,
// then renamed over it, and the directory synced. If anything fails before
// the rename, the store goes on with the old file unchanged; if syncing the
// directory after the rename fails, the store refuses further writes
// (ErrWriteFailed). In RAM mode Compact copies the live tree into fresh
// memory.
func (s *Store) Compact() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.drainLocked()
	return s.compactLocked()
}

// autoCompact compacts if Options.AutoCompact says the file has grown
// enough since the last compaction. The commit leader calls it after its
// group has its results.
func (s *Store) autoCompact() {
	if !s.compactDue.Load() {
		return // checked without wmu: the next leader may hold it
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.drainLocked()
	if s.autoCompactAt > 0 && s.end > uint64(s.compactedSize)+uint64(s.autoCompactAt) && s.writableLocked() == nil {
		s.compactLocked() // on failure the store keeps the old file, or refuses writes
	}
}

// setCompacted records the size of a freshly compacted (or opened) file.
func (s *Store) setCompacted(size uint64) {
	s.compactedSize = int64(size)
	if s.opts.AutoCompact > 0 {
		s.autoCompactAt = s.opts.AutoCompact + int64(size)
	}
	s.compactDue.Store(false)
}

func (s *Store) compactLocked() error {
	if err := s.writableLocked(); err != nil {
		return err
	}
	cur := s.cur.Load() // the last head written: no sync is in flight

	// 1. Create the new file, locked, holding only the file header.
	var f File
	var tmp string
	if s.ram {
		mf := newMemFile(s.spare)
		f = mf
	} else {
		tmp = s.path + ".compact"
		of, err := createOSFile(tmp)
		if err != nil {
			return fmt.Errorf("store: compact: %w", err)
		}
		f = of
	}
	if s.opts.WrapFile != nil {
		f = s.opts.WrapFile(f)
	}
	fail := func(err error) error {
		f.Close()
		if tmp != "" {
			os.Remove(tmp)
		}
		return fmt.Errorf("store: compact: %w", err)
	}
	if s.ram {
		// Room for the copy and for the growth until the next automatic
		// compaction, so the image is not copied again on the way.
		size := int64(cur.h.off+headSize) + max(s.opts.AutoCompact, 0)
		if _, err := f.Map(s.mapSize(size)); err != nil {
			return fail(err)
		}
	}

	// 2. Copy the live tree, children before parents, then its head.
	c := copier{d: s.m.data, f: f, pos: 0, buf: append(make([]byte, 0, 1<<20), newFileImage(formatVersion)...)}
	c.crc = 0
	c.regionFrom = dataStartV2
	root := uint64(0)
	if cur.h.root != 0 {
		root = c.node(cur.h.root)
	}
	h := head{
		off:   c.off(),
		seq:   cur.h.seq + 1,
		rev:   cur.h.rev,
		root:  root,
		count: cur.h.count,
	}
	c.flush()
	h.dataCRC = c.crc
	var hb [headSize]byte
	h.encode(hb[:])
	c.buf = append(c.buf, hb[:]...)
	c.flush()
	if c.err != nil {
		return fail(c.err)
	}
	end := h.off + headSize
	ckpt := noCheckpoint()
	if !s.ram {
		// Checkpoint the one head, so opening the new file does not read it
		// all; the file is not the store's until it is synced and renamed.
		var sb [slotSize]byte
		encodeSlot(&sb, h)
		if _, err := f.WriteAt(sb[:], int64(slotOffset(0))); err != nil {
			return fail(err)
		}
		ckpt = checkpoint{slot: 0, h: h}
	}

	// 3. Make the new file durable before it replaces the old one.
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	data, err := f.Map(s.mapSize(int64(end)))
	if err != nil {
		return fail(err)
	}
	m := newMapping(f, data)
	if err := checkVersion(data, h); err != nil {
		m.release()
		return fail(err)
	}

	// 4. Rename it over the old file and sync the directory.
	if !s.ram {
		if err := os.Rename(tmp, s.path); err != nil {
			m.release()
			return fail(err)
		}
		if err := syncDir(s.path); err != nil {
			s.failed = fmt.Errorf("%w: sync directory after compaction: %w", ErrWriteFailed, err)
		}
	}

	// 5. Swap: publish the new version (which releases the old mapping's
	//    store reference) and close the old file.
	old, oldM := s.f, s.m
	s.f, s.m, s.end, s.tip, s.filled = f, m, end, h, end
	s.setCheckpoints(dataStartV2, ckpt)
	m.acquire() // the version's own reference
	s.publish(&version{m: m, h: h})
	oldM.release() // the writer's reference on the old mapping
	s.setCompacted(end)
	old.Close()
	return s.failed
}

// copier streams the records of a compaction into a new file.
type copier struct {
	d          []byte // the old mapping
	f          File
	buf        []byte
	pos        uint64 // file offset of buf[0]
	crc        uint32 // of the records flushed so far from regionFrom
	regionFrom uint64
	err        error
}

func (c *copier) off() uint64 { return c.pos + uint64(len(c.buf)) }

func (c *copier) flush() {
	if c.err != nil || len(c.buf) == 0 {
		c.buf = c.buf[:0]
		return
	}
	n, err := c.f.WriteAt(c.buf, int64(c.pos))
	if err == nil && n != len(c.buf) {
		err = fmt.Errorf("short write: %d of %d bytes", n, len(c.buf))
	}
	c.err = err
	b := c.buf
	if c.pos < c.regionFrom {
		b = b[c.regionFrom-c.pos:]
	}
	c.crc = crc32.Update(c.crc, castagnoli, b)
	c.pos += uint64(len(c.buf))
	c.buf = c.buf[:0]
}

func (c *copier) maybeFlush() {
	if len(c.buf) >= 1<<20 {
		c.flush()
	}
}

// node copies the subtree at off and returns its new offset.
func (c *copier) node(off uint64) uint64 {
	w := decodeNode(c.d, off)
	for i := range w.ents {
		e := &w.ents[i]
		switch {
		case !w.leaf:
			e.child = c.node(e.child)
		case e.valOff != 0:
			v := c.d[e.valOff+recHdrSize : e.valOff+recHdrSize+uint64(e.valLen)]
			e.valOff = c.off()
			c.buf = appendValue(c.buf, v)
			c.maybeFlush()
		}
	}
	at := c.off()
	c.buf = appendNode(c.buf, w.leaf, w.ents)
	c.maybeFlush()
	return at
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
