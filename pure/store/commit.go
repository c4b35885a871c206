package store

import (
	"errors"
	"fmt"
	"runtime"
	"time"
)

// written is a group a leader wrote: its members and, when something was
// written, the version to publish once it is synced, with its head (and
// checkpoint slot) for whoever writes them: the leader itself on the
// inline path, the syncer once the sync in flight returned when the group
// is queued (ready).
type written struct {
	batch  []*txn
	v      *version // holds its own reference on v.m; nil: nothing to sync
	f      File
	queued bool // left ready for the syncer, which writes its head and syncs it
	hb     [headSize]byte
	hoff   uint64
	slot   int // checkpoint slot to write with the head, or -1
	sb     [slotSize]byte
}

// writeGroup takes a group, applies it in arrival order and writes its
// records, during the previous group's sync if one is in flight; it writes
// the head itself only if no sync is in flight (else it leaves the group
// ready for the syncer). It sets the rev and err of every member refused
// or failed here; the others get theirs once the group is synced. Only the
// leader calls it, holding wmu.
func (s *Store) writeGroup() written {
	g := &s.g
	g.mu.Lock()
	batch := g.take(nil)
	g.mu.Unlock()

	// 1. Refuse the whole group if the store cannot write: closed, or an
	//    earlier write or sync failed.
	if err := s.writableLocked(); err != nil {
		failAll(batch, err)
		return written{batch: batch}
	}
	if h := s.testHookBeforeApply; h != nil {
		h()
	}

	// 2. Validate each transaction against the tree as last written plus
	//    the transactions before it, in arrival order, taking in what
	//    queues while the previous group syncs, until the group closes
	//    (gatherMore). One whose revisions are stale is refused alone;
	//    each valid one gets the next revision and, in log mode, its
	//    writes go into the group's log record (logrec.go).
	sc := &s.scratch
	sc.reset()
	defer sc.reset()
	d := s.m.data
	lv := &s.lv
	lv.reset(d, s.tip.root, s.ov, s.end)
	defer lv.reset(nil, 0, nil, 0)
	logging := s.logOK
	buf, recStart := s.buf[:0], 0
	if logging {
		buf = startLogRecord(buf, s.tip.root)
	}
	// count is the new head's: in a version 3 file with log records, the
	// version's keys, kept by looking up each key written (countAll); else
	// the tree's, set below (headCountsTree).
	count, rev := s.tip.count, s.tip.rev
	applied := 0
	var gs gathering
	for done, more := 0, true; more; {
		for _, tx := range batch[done:] {
			if !tx.validLog(lv) {
				tx.err = ErrConflict
				continue
			}
			rev++
			for _, w := range tx.writes {
				k := tx.key(w.k0, w.k1)
				var val []byte
				if !w.del {
					val = tx.value(&w)
				}
				if s.countAll {
					switch had := lv.rev(k) != 0; {
					case w.del && had:
						count--
					case !w.del && !had:
						count++
					}
				}
				if logging {
					if n := leafEntFixed + len(k) + len(val); len(buf)-recStart+n > maxLogRecord && len(buf)-recStart > logHdrSize {
						endLogRecord(buf, recStart)
						prev := s.end + uint64(recStart)
						recStart = len(buf)
						buf = startLogRecord(buf, prev)
					}
				}
				lv.note(pending{key: k, off: s.end + uint64(len(buf)), rev: rev, del: w.del})
				if logging {
					buf = appendLogEntry(buf, k, val, rev, w.del)
				}
			}
			tx.rev = rev
			applied++
		}
		done = len(batch)
		batch, more = s.gatherMore(batch, &gs)
	}
	g.mu.Lock()
	g.recent = len(batch)
	g.mu.Unlock()

	// 3. If an earlier sync (or the syncer's head write) failed, so does
	//    this group, unwritten.
	s.foldSyncErrLocked()
	if s.failed != nil {
		failAll(batch, s.failed)
		return written{batch: batch}
	}
	if applied == 0 {
		return written{batch: batch}
	}

	// 4. Log mode: the group's log record over the tip's root, with the
	//    overlay of the new version. Unless the overlay would pass the
	//    fold bounds (or log records are off): then fold, applying the
	//    overlay and the group to a working copy of the tree and spilling
	//    the edited nodes, children before parents and values before their
	//    leaves, into the commit buffer that will be appended at the end
	//    of the file.
	var root uint64
	var nov *overlay
	nv := new(version)
	fold := !logging
	if logging {
		var ovBytes uint64
		if s.ov != nil {
			ovBytes = s.ov.bytes
		}
		fold = lv.gather() > s.foldAt || ovBytes+uint64(len(buf)) > foldBytes
		if !fold {
			nv.ovs = overlay{tree: treeRoot(s.tip.root, s.ov), treeCount: s.treeCountLocked(), bytes: ovBytes + uint64(len(buf))}
			lv.merged(&nv.ovs, s.foldAt)
			endLogRecord(buf, recStart)
			root = s.end + uint64(recStart)
			nov = &nv.ovs
			if s.countAll {
				nov.keys.Store(count + 1)
			} else {
				count = nov.treeCount // the head counts the tree's keys (headCountsTree)
			}
		}
	}
	if fold {
		t := &sc.t
		*t = wtree{d: d, rootOff: treeRoot(s.tip.root, s.ov), count: s.treeCountLocked(), nodes: &sc.nodes}
		s.ov.all(func(e uint64) {
			if k := logKey(d, e); logDeleted(d, e) {
				t.del(k)
			} else {
				t.put(k, leafVal(d, e), leafRev(d, e))
			}
		})
		for _, tx := range batch {
			if tx.err == nil {
				tx.apply(t, tx.rev)
			}
		}
		if s.countAll && t.count != count {
			// The tree and the log view disagree: a bug, not damage on
			// disk. Write nothing and refuse further writes.
			s.failed = errorf(ErrCorrupt, "fold counts %d keys, the log records' view %d (a bug in the store: please report it)", t.count, count)
			failAll(batch, s.failed)
			return written{batch: batch}
		}
		count = t.count // exact: the fold knows which puts insert and which deletes remove
		sp := spiller{t: t, buf: buf[:0], base: s.end, nodeSize: s.nodeSize, sc: sc}
		root = sp.spillRoot()
		buf = sp.buf
	}

	// 5. Build the head: it names the new root and the previous head, and
	//    its data checksum covers every record appended since that head.
	h := head{
		off:     s.end + uint64(len(buf)),
		seq:     s.tip.seq + 1,
		rev:     rev,
		root:    root,
		prev:    s.tip.off,
		count:   count,
		dataCRC: checksum(buf),
	}
	w := written{batch: batch, f: s.f, slot: -1, hoff: h.off}
	hb, sb := &sc.head, &s.ckptBuf // the leader's; a ready group gets copies
	h.encode(hb[:])
	end := h.off + headSize

	// 6. Write the records: grow the mapping if the new end is beyond it,
	//    preallocate zeros if it is beyond them, append the records. They
	//    may go out while the previous group's sync is in flight: without
	//    their head they are a torn tail. Every ckptEvery bytes, the head
	//    goes out with a checkpoint slot naming the previous head
	//    (checkpoint.go), which is synced by the time the slot is written.
	//    Any failure fails every transaction of the group and makes the
	//    store refuse further writes: what reached the file is unknown.
	err := s.growMapLocked(end)
	if err == nil {
		err = s.preallocLocked(end)
	}
	if err == nil {
		err = s.writeAt(buf, s.end)
	}
	s.buf, s.bufPeak = keepBuf(buf, s.bufPeak), nextPeak(s.bufPeak, len(buf))
	if err == nil && s.checkpointDueLocked() {
		w.slot = s.nextSlotLocked()
		encodeSlot(sb, s.tip)
	}

	// 7. Inline or pipelined: with no sync in flight the leader owns the
	//    next sync and writes the head now; with one in flight the group is
	//    left ready, in the same critical section that saw the sync in
	//    flight (so its owner, checking for a ready group when the sync
	//    returns, cannot miss it), and the goroutine that sees that sync
	//    return writes its head and syncs it (the syncer).
	if err == nil {
		s.m.acquire() // the version's own reference
		nv.m, nv.h, nv.ov = s.m, h, nov
		w.v = nv
		g.mu.Lock()
		switch {
		case g.syncErr != nil:
			err = g.syncErr // failed after step 3: this group's base is lost
		case g.syncing && g.kick != nil:
			w.queued = true
			q := new(written)
			*q = w
			q.hb, q.sb = *hb, *sb
			g.ready = q
		case g.syncing:
			// No syncer (RAM mode): gatherMore closes a group only once
			// no sync is in flight, and only this leader starts one.
			panic("store: a group closed while a sync is in flight, with no syncer")
		default:
			g.syncing = true
		}
		g.mu.Unlock()
		if err == nil && !w.queued {
			if err = writeHead(w.f, hb[:], w.hoff, w.slot, sb[:]); err != nil {
				g.mu.Lock()
				g.syncing = false
				g.mu.Unlock()
				g.poke()
			}
		}
		if err != nil {
			w.v.m.release()
			w.v = nil
		}
	}
	if err != nil {
		if !errors.Is(err, ErrWriteFailed) {
			err = fmt.Errorf("%w: %w", ErrWriteFailed, err)
		}
		s.failed = err
		failAll(batch, s.failed)
		return written{batch: batch}
	}

	// 8. The group is written (or will be by the syncer, in order): the
	//    next group applies on top of it. A ready group's syncer may
	//    already be at work: it reads only the group's own copies.
	if w.slot >= 0 {
		s.ckpt = checkpoint{slot: w.slot, h: s.tip}
	}
	s.end, s.tip, s.ov = end, h, nov
	s.noteGrowthLocked()
	s.releaseColdLocked()
	return w
}

// treeCountLocked returns the number of keys in the tip's tree, below
// its log records.
func (s *Store) treeCountLocked() uint64 {
	if s.ov != nil {
		return s.ov.treeCount
	}
	return s.tip.count
}

// writeHead writes a group's head hb at hoff and, if slot >= 0, the
// checkpoint slot sb with it. The previous group's sync has returned.
func writeHead(f File, hb []byte, hoff uint64, slot int, sb []byte) error {
	if err := writeFull(f, hb, hoff); err != nil {
		return err
	}
	if slot >= 0 {
		if err := writeFull(f, sb, slotOffset(slot)); err != nil {
			return fmt.Errorf("checkpoint slot %d: %w", slot, err)
		}
	}
	return nil
}

// writeHead writes the ready group's head (and slot), from its own copy.
func (w *written) writeHead() error { return writeHead(w.f, w.hb[:], w.hoff, w.slot, w.sb[:]) }

// syncInline syncs the group its leader wrote with no sync in flight,
// publishes it and wakes its members; if a group became ready meanwhile,
// it hands the syncing on to the syncer. The leader calls it without wmu,
// so the next group gathers, applies and writes its records meanwhile.
func (s *Store) syncInline(w written) {
	err := s.syncPublish(&w)
	g := &s.g
	g.mu.Lock()
	g.lastSynced = len(w.batch)
	if err != nil && g.syncErr == nil {
		g.syncErr = err
	}
	handoff := g.ready != nil
	if !handoff {
		g.syncing = false
	}
	g.mu.Unlock()

	// Kick the syncer (or poke the gathering leader) first, so that the
	// next head and sync do not wait for a wake-up per member; then yield
	// to it. The goroutine kicked is readied into this P's runnext, and
	// the first member woken after it would move it to the run queue: it
	// would run only after this goroutine parked (once it has woken its
	// members and committed again) and after the last member woken, now
	// in runnext, unless the other P took it first (at 64 writers a gap
	// of 11 µs p50 from a sync's return to the syncer's next sync, 4 µs
	// with the yield: probe in experiment 104). Yielding runs it at once;
	// this goroutine goes to the global queue, from which the other P
	// takes it while the sync is in flight.
	if handoff {
		g.kick <- struct{}{} // the syncer is idle: only the owner of the sync kicks it
	} else {
		g.poke()
	}
	if len(w.batch) > 1 {
		runtime.Gosched()
	}
	for _, tx := range w.batch[1:] {
		tx.wake <- false
	}
}

// syncLoop is the syncer: each time it is kicked, it writes the head of
// the ready group and syncs it, publishes it and wakes the group's leader
// (which wakes the members), and goes on with the next ready group until
// none is ready when a sync returns. It ends when Close closes the kick
// channel.
func (s *Store) syncLoop() {
	g := &s.g
	for range g.kick {
		for {
			g.mu.Lock()
			w := g.ready
			if w == nil {
				g.syncing = false
				g.mu.Unlock()
				g.poke()
				break
			}
			err := g.syncErr
			g.mu.Unlock()

			// 1. The sync before it returned: write the head (and slot).
			//    Only then is the slot free for the next group's records.
			if err == nil {
				if err = w.writeHead(); err != nil {
					err = fmt.Errorf("%w: %w", ErrWriteFailed, err)
				}
			}
			g.mu.Lock()
			g.ready = nil
			g.mu.Unlock()
			g.poke()

			// 2. Sync and publish, or fail the group.
			if err == nil {
				err = s.syncPublish(w)
			} else {
				w.v.m.release()
				failAll(w.batch, err)
			}
			g.mu.Lock()
			g.lastSynced = len(w.batch)
			if err != nil && g.syncErr == nil {
				g.syncErr = err
			}
			g.mu.Unlock()

			// 3. Wake the group's leader, which wakes its members: one
			//    send here, so the next ready group's head and sync follow
			//    at once instead of after a wake-up per member.
			w.batch[0].wake <- false
		}
	}
}

// syncPublish syncs a written group once and publishes it, or fails its
// members. A failed sync is never retried: it fails the group, and
// (through syncErr) every later commit.
func (s *Store) syncPublish(w *written) error {
	// 1. Sync: the group's records and head, and everything before them,
	//    are durable when it returns.
	//    A file's syncs are timed for the gathering wait (group.go, Whole
	//    groups); RAM mode's do nothing and are not.
	timed := s.g.kick != nil
	var t0 time.Time
	if timed {
		t0 = time.Now()
	}
	err := w.f.Sync()
	if timed {
		s.g.noteSync(time.Since(t0))
	}
	if err != nil {
		err = fmt.Errorf("%w: %w", ErrWriteFailed, err)
		w.v.m.release()
	} else {
		// 2. Publish: readers that pin a snapshot from now on see the
		//    group. Groups are synced one at a time, in the order they were
		//    written, so versions are published in order.
		s.publish(w.v)
		s.publications.Add(1)
		// 3. Strict mode: verify the whole tree after every commit, and
		//    the overlay the leader merged against the one Open would
		//    build from the records.
		if s.opts.Strict {
			err = checkVersion(w.v.m.data, w.v.h)
			if err == nil {
				err = checkOverlay(w.v.m.data, w.v.h, w.v.ov)
			}
		}
	}
	if err != nil {
		failAll(w.batch, err)
	}
	return err
}

// failAll fails every member of batch that has no result yet.
func failAll(batch []*txn, err error) {
	for _, tx := range batch {
		if tx.err == nil {
			tx.err, tx.rev = err, 0
		}
	}
}

// writeAt writes all of p at off.
func (s *Store) writeAt(p []byte, off uint64) error { return writeFull(s.f, p, off) }

// writeFull writes all of p at off in f.
func writeFull(f File, p []byte, off uint64) error {
	if len(p) == 0 {
		return nil
	}
	n, err := f.WriteAt(p, int64(off))
	if err == nil && n != len(p) {
		err = fmt.Errorf("short write: %d of %d bytes", n, len(p))
	}
	return err
}

// growMapLocked makes the writer's mapping cover end bytes. The new
// mapping is published with the next version; the old one stays with the
// versions, snapshots and borrowers that hold it.
func (s *Store) growMapLocked(end uint64) error {
	if end <= uint64(len(s.m.data)) {
		return nil
	}
	data, err := s.f.Map(s.mapSize(int64(end)))
	if err != nil {
		return fmt.Errorf("map: %w", err)
	}
	old := s.m
	s.m = newMapping(s.f, data)
	old.release() // the writer's reference; versions hold their own
	return nil
}

// writableLocked returns why the store cannot write, or nil.
func (s *Store) writableLocked() error {
	switch {
	case s.closed:
		return ErrClosed
	case s.opts.ReadOnly:
		return ErrReadOnly
	case s.failed != nil:
		return s.failed
	}
	return nil
}
