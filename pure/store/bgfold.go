package store

import "hash/crc32"

// Background folds. On a file, the group whose log records take the
// overlay past its bound (Options.FoldEntries keys or foldBytes) does not
// fold inline: it writes its log record as any group, and the leader
// starts a fold of that version (its tree and overlay, which never change
// once written) in a goroutine of its own. Groups go on writing log records
// over the old tree meanwhile. A later leader, finding the fold done,
// installs it in its own group: it writes the fold's nodes at the end of
// the file, then a log record over the new tree that re-emits the entries
// written since the folded version (their newest values), then its own
// records over that; its head names them as any head names a chain of log
// records over a tree, and its data checksum covers them all. The format
// is unchanged: recovery, torn tails and checkpoints see a fold's nodes
// and log records as they always did.
//
// An inline fold held the leader for about 0.4 ms at 64 writers (a
// thousand keys applied to the tree and about 180 KB of nodes spilled),
// while a sync took about 0.13 ms: the syncer waited for the fold's group
// (probes 983 and 985). The fold's CPU is the same in the background, but
// off the path from one sync to the next.
//
// The fold writes its nodes into a buffer as if at base, the end of the
// file when it started (every node and value it reads lies below it); the
// installer moves them to the end of the file by adding the distance to
// each offset the buffer holds into itself (relocate). The overlay is
// allowed to grow past its bound while the fold runs; if it grows past
// foldHard times the bound, the leader gives the fold up and folds inline.
//
// A fold in progress belongs to the writer (Store.fold, under wmu):
// compaction's swap and Close wait for it and drop it.

// foldHard is how many times the fold bound the overlay may reach while
// a background fold runs before a leader folds inline.
const foldHard = 2

// foldJob is a background fold of one version's overlay into its tree.
type foldJob struct {
	done chan struct{} // closed when the fold ended
	m    *mapping      // a reference on the mapping it reads, held until dropped
	ov   *overlay      // the folded version's overlay
	// end is the end of the folded version's head: entries of later
	// overlays at or past it were written after the folded version.
	end uint64
	// keys, when nonzero, is the folded version's key count plus one,
	// which the new tree must hold (a version 3 head counts them).
	keys     uint64
	nodeSize int
	sc       scratch

	// Results, read once done is closed.
	buf   []byte // the new tree's nodes, as written at base
	base  uint64
	root  uint64 // the new tree's root (an offset at or past base when written by the fold)
	count uint64 // keys in the new tree
	err   error
}

// run folds j.ov into its tree and closes j.done.
func (j *foldJob) run() {
	defer close(j.done)
	d := j.m.data
	sc := &j.sc
	t := &sc.t
	*t = wtree{d: d, rootOff: j.ov.tree, count: j.ov.treeCount, nodes: &sc.nodes}
	j.ov.all(func(e uint64) {
		if k := logKey(d, e); logDeleted(d, e) {
			t.del(k)
		} else {
			t.put(k, leafVal(d, e), leafRev(d, e))
		}
	})
	if j.keys != 0 && t.count != j.keys-1 {
		j.err = errorf(ErrCorrupt, "background fold counts %d keys, the head %d (a bug in the store: please report it)", t.count, j.keys-1)
		sc.reset()
		return
	}
	sp := spiller{t: t, buf: j.buf[:0], base: j.base, nodeSize: j.nodeSize, sc: sc}
	j.root = sp.spillRoot()
	j.buf, j.count = sp.buf, t.count
	sc.reset()
}

// startFoldLocked starts a background fold of the tip's overlay. The
// caller holds wmu; the tip's records are written (not necessarily
// synced: the fold reads them through the writer's mapping, and its
// result is installed only in a later group, which is synced after).
func (s *Store) startFoldLocked() {
	j := s.foldFree
	if j == nil {
		j = &foldJob{}
	}
	s.foldFree = nil
	s.m.acquire()
	j.done, j.m, j.ov, j.end, j.base, j.nodeSize = make(chan struct{}), s.m, s.ov, s.end, s.end, s.nodeSize
	j.keys, j.root, j.count, j.err = 0, 0, 0, nil
	if s.countAll {
		j.keys = s.tip.count + 1
	}
	s.fold = j
	s.foldsStarted.Add(1)
	go j.run()
}

// dropFoldLocked waits for the background fold in progress, if any, and
// drops it (Close, compaction's swap, an inline fold).
func (s *Store) dropFoldLocked() {
	j := s.fold
	if j == nil {
		return
	}
	<-j.done
	s.fold = nil
	s.freeFoldLocked(j)
}

// freeFoldLocked releases a finished fold's mapping and keeps the job (its
// buffer and scratch) for the next fold.
func (s *Store) freeFoldLocked(j *foldJob) {
	j.m.release()
	j.m, j.ov = nil, nil
	j.buf = keepBuf(j.buf, len(j.buf))
	s.foldFree = j
}

// foldDone returns the background fold in progress if it has ended.
func (s *Store) foldDone() *foldJob {
	j := s.fold
	if j == nil {
		return nil
	}
	select {
	case <-j.done:
		return j
	default:
		return nil
	}
}

// installed is what a leader installing a background fold wrote ahead of
// its group's records: they begin at at, over root with overlay ov (whose
// tree holds treeCount keys); crc is the checksum of the bytes from the
// tip's end to at.
type installed struct {
	at        uint64
	root      uint64
	ov        *overlay
	treeCount uint64
	crc       uint32
	job       *foldJob // the fold installed, if any
}

// installFoldLocked writes the finished fold j at the end of the file:
// its nodes, moved there, and a log record over the new tree holding the
// newest entry of each key written since the folded version. It returns
// where the group's own records go and what they lie over. The bytes are
// written without a head: until the group's head names them they are a
// torn tail, and a group that writes no head leaves them to be written
// over (the fold stays, moved, for the next group). The caller holds wmu.
func (s *Store) installFoldLocked(j *foldJob) (installed, error) {
	if j.err != nil {
		return installed{}, j.err
	}
	at := s.end
	relocate(j.buf, j.base, at)
	root := j.root
	if root >= j.base {
		root = root - j.base + at
	}
	j.root, j.base = root, at // a group that writes no head leaves them for the next
	pre := j.buf
	in := installed{root: root, treeCount: j.count, job: j}
	// The entries written since the folded version, over the new tree.
	d := s.m.data
	rec := -1
	s.ov.all(func(e uint64) {
		if e < j.end {
			return
		}
		if rec < 0 {
			rec = len(pre)
			pre = startLogRecord(pre, root)
		}
		pre = appendLogEntry(pre, logKey(d, e), leafVal(d, e), leafRev(d, e), logDeleted(d, e))
	})
	if rec >= 0 {
		endLogRecord(pre, rec)
		in.root = at + uint64(rec)
	}
	j.buf = pre[:len(j.buf)] // the nodes stay for a retry; the record is rebuilt
	in.at = at + uint64(len(pre))
	if err := s.growMapLocked(in.at); err != nil {
		return installed{}, err
	}
	if err := s.writeAt(pre, at); err != nil {
		return installed{}, err
	}
	in.crc = checksum(pre)
	if rec >= 0 {
		count := in.treeCount
		if s.countAll {
			count = s.tip.count // a version 3 overlay is built from its version's count
		}
		ov, err := buildOverlay(s.m.data, in.root, count)
		if err != nil {
			return installed{}, err
		}
		in.ov = ov
	}
	return in, nil
}

// extendCRC is crc (of the bytes before) extended by b.
func extendCRC(crc uint32, b []byte) uint32 { return crc32.Update(crc, castagnoli, b) }

// relocate moves the records in buf, written as if at file offset from, to
// offset to: every offset they hold at or past from (a branch's child, a
// leaf's out-of-line value) points into buf itself and moves by the same
// distance; offsets below from point into the file and stay.
func relocate(buf []byte, from, to uint64) {
	if from == to {
		return
	}
	for p := uint64(0); p < uint64(len(buf)); {
		kind, n, size := buf[p], uint64(le.Uint16(buf[p+2:])), uint64(le.Uint32(buf[p+4:]))
		for i := range n {
			e := p + uint64(le.Uint32(buf[p+recHdrSize+4*i:]))
			var at uint64
			switch {
			case kind == kindBranch:
				at = e
			case kind == kindLeaf && buf[e+14]&leafFlagOutline != 0:
				at = e + leafEntFixed
			default:
				continue
			}
			if off := le.Uint64(buf[at:]); off >= from {
				le.PutUint64(buf[at:], off-from+to)
			}
		}
		p += size
	}
}
