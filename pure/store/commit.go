package store

import "fmt"

// written is a group a leader wrote: its members and, when something was
// written, the version to publish once it is synced.
type written struct {
	batch []*Tx
	v     *version // holds its own reference on v.m; nil: nothing to sync
	f     File
}

// writeGroup takes a group, applies it in arrival order and writes it as
// one head after the previous group's sync has ended. It sets the rev and
// err of every member refused or failed here; the others get theirs from
// syncGroup. Only the leader calls it, holding wmu.
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

	// 2. Apply each transaction to a working copy of the tree as last
	//    written, in arrival order, taking in what queues while the
	//    previous group syncs. One whose revisions are stale (against the
	//    last written version plus the transactions before it) is refused
	//    alone; each applied one gets the next revision.
	sc := &s.scratch
	sc.reset()
	defer sc.reset()
	t := &sc.t
	*t = wtree{d: s.m.data, rootOff: s.tip.root, count: s.tip.count, nodes: &sc.nodes}
	rev := s.tip.rev
	applied := 0
	var gs gathering
	for done, more := 0, true; more; {
		for _, tx := range batch[done:] {
			if !tx.valid(t) {
				tx.err = ErrConflict
				continue
			}
			rev++
			tx.apply(t, rev)
			tx.rev = rev
			applied++
		}
		done = len(batch)
		batch, more = s.gatherMore(batch, &gs)
	}
	g.mu.Lock()
	g.recent = len(batch)
	g.mu.Unlock()

	// 3. The previous group's sync has ended; if it failed, so does this
	//    group, unwritten.
	s.drainLocked()
	if s.failed != nil {
		failAll(batch, s.failed)
		return written{batch: batch}
	}
	if applied == 0 {
		return written{batch: batch}
	}

	// 4. Spill the edited nodes, children before parents and values before
	//    their leaves, into the commit buffer that will be appended at the
	//    end of the file.
	sp := spiller{t: t, buf: s.buf[:0], base: s.end, nodeSize: s.nodeSize, sc: sc}
	root := sp.spillRoot()
	buf := sp.buf

	// 5. Build the head: it names the new root and the previous head, and
	//    its data checksum covers every record appended since that head.
	h := head{
		off:     s.end + uint64(len(buf)),
		seq:     s.tip.seq + 1,
		rev:     rev,
		root:    root,
		prev:    s.tip.off,
		count:   t.count,
		dataCRC: checksum(buf),
	}
	hb := &sc.head
	h.encode(hb[:])
	end := h.off + headSize

	// 6. Write: grow the mapping if the new end is beyond it, preallocate
	//    zeros if it is beyond them, append the records, then the head,
	//    then, every ckptEvery bytes, a checkpoint slot naming the previous
	//    head (checkpoint.go). Any failure fails every transaction of the
	//    group and makes the store refuse further writes: what reached the
	//    file is unknown.
	err := s.growMapLocked(end)
	if err == nil {
		err = s.preallocLocked(end)
	}
	if err == nil {
		err = s.writeAt(buf, s.end)
	}
	if err == nil {
		err = s.writeAt(hb[:], h.off)
	}
	if err == nil && s.checkpointDueLocked() {
		// The last head written before this group was synced (step 3):
		// checkpoint it; this group's sync makes the slot durable.
		err = s.writeCheckpointLocked(s.tip)
	}
	if cap(buf) <= 16<<20 {
		s.buf = buf[:0]
	}
	if err != nil {
		s.failed = fmt.Errorf("%w: %w", ErrWriteFailed, err)
		failAll(batch, s.failed)
		return written{batch: batch}
	}

	// 7. The group is written: the next group applies on top of it, and
	//    is written after this group's sync (syncGroup) has ended.
	s.end, s.tip = end, h
	s.noteGrowthLocked()
	g.mu.Lock()
	g.syncing = true
	g.mu.Unlock()
	s.m.acquire() // the version's own reference
	return written{batch: batch, v: &version{m: s.m, h: h}, f: s.f}
}

// syncGroup syncs a written group once, publishes it and sets its
// members' results; then the next group may be written. A failed sync is
// never retried: it fails the group, and (through drainLocked) every later
// commit. The leader calls it without wmu, so the next group gathers and
// applies meanwhile.
func (s *Store) syncGroup(w written) {
	// 1. Sync: the group's records and head, and everything before them,
	//    are durable when it returns.
	err := w.f.Sync()
	if err != nil {
		err = fmt.Errorf("%w: %w", ErrWriteFailed, err)
		w.v.m.release()
	} else {
		// 2. Publish: readers that pin a snapshot from now on see the
		//    group. Groups are synced one at a time, in the order they were
		//    written, so versions are published in order.
		s.publish(w.v)
		s.publications.Add(1)
		// 3. Strict mode: verify the whole tree after every commit.
		if s.opts.Strict {
			err = checkVersion(w.v.m.data, w.v.h)
		}
	}
	if err != nil {
		failAll(w.batch, err)
	}

	// 4. Wake the members, then let the next group be written: its leader
	//    is woken last, so the scheduler runs it next rather than behind
	//    every member.
	for _, tx := range w.batch[1:] {
		tx.wake <- false
	}
	g := &s.g
	g.mu.Lock()
	g.syncing = false
	if err != nil && g.syncErr == nil {
		g.syncErr = err
	}
	g.mu.Unlock()
	g.poke()
}

// failAll fails every member of batch that has no result yet.
func failAll(batch []*Tx, err error) {
	for _, tx := range batch {
		if tx.err == nil {
			tx.err, tx.rev = err, 0
		}
	}
}

// writeAt writes all of p at off.
func (s *Store) writeAt(p []byte, off uint64) error {
	if len(p) == 0 {
		return nil
	}
	n, err := s.f.WriteAt(p, int64(off))
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
