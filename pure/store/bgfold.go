package store

// Background folds. A fold's cost on a file store is mostly applying the
// overlay to the working tree (a put per key, experiment 112: two thirds
// of the fold's CPU at 64 writers), and the leader spent it between a sync
// returning and the next group's records being ready, with the other core
// mostly idle. So once the tip's overlay reaches the fold bound, the
// leader hands its overlay to a goroutine that applies it to a working
// tree of its own, and commits go on laying log records over the old tree
// meanwhile (the overlay grows past the bound; at one and a half times
// it the leader waits for the background fold, and a group that would
// take it past twice the bound folds inline as before). The first leader that finds the
// background work done integrates it at the start of its group:
//
//  1. spill the working tree into its buffer (nodes at their final
//     offsets, since the buffer goes at the end of the file);
//  2. start the group's log record over the new tree's root;
//  3. lay into it again the tip's overlay entries newer than the fold
//     (written after the overlay was handed over), so that the version
//     this group makes holds them over the new tree;
//  4. then note its own transactions' writes as usual.
//
// Its head names that record, over the new tree: the file holds the same
// kinds of records as ever (the tree's nodes, then a log record based on
// their root, as a fold followed by a commit would write them), so
// recovery, checkpoints, compaction and Check are unchanged. The entries
// laid again keep their revisions (a log record may hold entries of any
// revision up to its head's, as compaction's does).
//
// Only files with version 4 heads fold in the background: their heads
// count the tree's keys, which the working tree knows; RAM mode, whose
// workloads are counted in one goroutine, and version 3 files fold
// inline. A compaction's swap, an inline fold and Close drop a background
// fold (waiting for its goroutine, which holds its own reference to the
// mapping it reads).

// bgFold is a fold of an overlay applied by its own goroutine.
type bgFold struct {
	done chan struct{} // closed when sc.t holds the overlay applied
	m    *mapping      // a reference of its own: sc.t reads m.data
	tree uint64        // the tree root the overlay was applied to
	end  uint64        // the file's end when handed over: entries below are in sc.t
	sc   *scratch      // its working tree and nodes, and the spill's lists
}

// bgFoldOK reports whether the store folds in the background.
func (s *Store) bgFoldOK() bool {
	return s.logOK && !s.countAll && !s.ram && !s.opts.noBgFold
}

// startBgFoldLocked hands the tip's overlay to a goroutine that applies
// it to a working tree over the tip's tree. The caller holds wmu, and no
// background fold is in flight.
func (s *Store) startBgFoldLocked() {
	ov, m := s.ov, s.m
	m.acquire()
	if s.bgScratch == nil {
		s.bgScratch = new(scratch)
	}
	b := &bgFold{done: make(chan struct{}), m: m, tree: ov.tree, end: s.end, sc: s.bgScratch}
	d, count := m.data, ov.treeCount
	s.bg = b
	s.bgFolds.Add(1)
	hook := s.testHookBgFold
	go func() {
		defer close(b.done)
		if hook != nil {
			hook()
		}
		t := &b.sc.t
		*t = wtree{d: d, rootOff: b.tree, count: count, nodes: &b.sc.nodes}
		ov.all(func(e uint64) {
			if k := logKey(d, e); logDeleted(d, e) {
				t.del(k)
			} else {
				t.put(k, leafVal(d, e), leafRev(d, e))
			}
		})
	}()
}

// bgFoldDue reports whether the leader should take the background fold
// now: it is done, or the overlay has grown half the bound past it (or
// to half foldBytes), where the leader waits for it, so that a group
// rarely passes twice the bound and folds inline.
func (s *Store) bgFoldDue() bool {
	b := s.bg
	if b == nil {
		return false
	}
	select {
	case <-b.done:
		return true
	default:
	}
	return s.ov != nil && (2*s.ov.n >= 3*s.foldAt || s.ov.bytes >= foldBytes/2)
}

// integrated is what integrateBgFoldLocked laid into a group's buffer.
type integrated struct {
	ok       bool
	root     uint64 // the new tree's root
	count    uint64 // its keys
	recStart int    // where the group's log records start in the buffer
}

// integrateBgFoldLocked waits for the background fold, spills its tree
// into buf (to be written at s.end), starts a log record over its root
// and lays into it the entries of the tip's overlay newer than the fold,
// noting each in lv. It returns the buffer, the start of its last log
// record, and what it laid. The caller holds wmu, at the start of a
// group, with lv reset over the tip.
func (s *Store) integrateBgFoldLocked(buf []byte, lv *logView) ([]byte, int, integrated) {
	b := s.bg
	s.bg = nil
	<-b.done
	defer s.releaseBgFold(b)
	if b.tree != treeRoot(s.tip.root, s.ov) || s.ov == nil {
		// The tree changed under it (a bug: an inline fold or a swap
		// drops it first); fold inline instead.
		return buf, 0, integrated{}
	}
	t := &b.sc.t
	sp := spiller{t: t, buf: buf[:0], base: s.end, nodeSize: s.nodeSize, sc: b.sc}
	root := sp.spillRoot()
	buf = sp.buf
	in := integrated{ok: true, root: root, count: t.count, recStart: len(buf)}
	buf = startLogRecord(buf, root)
	d := s.m.data
	recStart := in.recStart
	s.ov.all(func(e uint64) {
		if e < b.end {
			return // in the new tree
		}
		k, del := logKey(d, e), logDeleted(d, e)
		var val []byte
		if !del {
			val = leafVal(d, e)
		}
		if n := leafEntFixed + len(k) + len(val); len(buf)-recStart+n > maxLogRecord && len(buf)-recStart > logHdrSize {
			endLogRecord(buf, recStart)
			prev := s.end + uint64(recStart)
			recStart = len(buf)
			buf = startLogRecord(buf, prev)
		}
		rev := leafRev(d, e)
		lv.note(pending{key: k, off: s.end + uint64(len(buf)), rev: rev, del: del})
		buf = appendLogEntry(buf, k, val, rev, del)
		s.bgRelaid.Add(1)
	})
	s.bgIntegrated.Add(1)
	return buf, recStart, in
}

// releaseBgFold gives back a finished background fold's memory and
// mapping reference.
func (s *Store) releaseBgFold(b *bgFold) {
	b.sc.t = wtree{}
	b.sc.reset()
	b.m.release()
}

// dropBgFoldLocked abandons the background fold, if any, waiting for its
// goroutine. The caller holds wmu.
func (s *Store) dropBgFoldLocked() {
	if b := s.bg; b != nil {
		s.bg = nil
		<-b.done
		s.releaseBgFold(b)
	}
}
