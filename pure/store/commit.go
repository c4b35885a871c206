package store

import "fmt"

// commitGroup applies a group of transactions in arrival order and
// publishes the result as one head with one sync. It sets each
// transaction's rev and err. Only the leader calls it.
func (s *Store) commitGroup(batch []*Tx) {
	s.wmu.Lock()
	defer s.wmu.Unlock()

	// 1. Refuse the whole group if the store cannot write: closed, or an
	//    earlier write or sync failed.
	if err := s.writableLocked(); err != nil {
		for _, tx := range batch {
			tx.err = err
		}
		return
	}
	if h := s.testHookBeforeApply; h != nil {
		h()
	}

	// 2. Apply each transaction to a working copy of the current tree, in
	//    arrival order. One whose revisions are stale (against the latest
	//    version plus the transactions before it in this group) is refused
	//    alone; each applied one gets the next revision.
	cur := s.cur.Load()
	t := &wtree{d: s.m.data, rootOff: cur.h.root, count: cur.h.count}
	rev := cur.h.rev
	applied := 0
	for _, tx := range batch {
		if !tx.valid(t) {
			tx.err = ErrConflict
			continue
		}
		rev++
		tx.apply(t, rev)
		tx.rev = rev
		applied++
	}
	if applied == 0 {
		return
	}

	// 3. Spill the edited nodes, children before parents and values before
	//    their leaves, into the commit buffer that will be appended at the
	//    end of the file.
	sp := spiller{t: t, buf: s.buf[:0], base: s.end, nodeSize: s.nodeSize}
	root := sp.spillRoot()
	buf := sp.buf

	// 4. Build the head: it names the new root and the previous head, and
	//    its data checksum covers every record appended since that head.
	h := head{
		off:     s.end + uint64(len(buf)),
		seq:     cur.h.seq + 1,
		rev:     rev,
		root:    root,
		prev:    cur.h.off,
		count:   t.count,
		dataCRC: checksum(buf),
	}
	var hb [headSize]byte
	h.encode(hb[:])
	end := h.off + headSize

	// 5. Write: grow the mapping if the new end is beyond it, append the
	//    records, append the head, then sync once. Any failure fails every
	//    transaction of the group and makes the store refuse further
	//    writes: what reached the file is unknown, and a failed sync is
	//    never retried.
	err := s.growMapLocked(end)
	if err == nil {
		err = s.writeAt(buf, s.end)
	}
	if err == nil {
		err = s.writeAt(hb[:], h.off)
	}
	if err == nil {
		err = s.f.Sync()
	}
	if cap(buf) <= 16<<20 {
		s.buf = buf[:0]
	}
	if err != nil {
		s.failed = fmt.Errorf("%w: %w", ErrWriteFailed, err)
		for _, tx := range batch {
			if tx.err == nil {
				tx.err, tx.rev = s.failed, 0
			}
		}
		return
	}

	// 6. Publish: readers that pin a snapshot from now on see the group.
	s.end = end
	s.publish(&version{m: s.m, h: h})
	s.publications.Add(1)

	// 7. Strict mode: verify the whole tree after every commit.
	if s.opts.Strict {
		if err := checkVersion(s.m.data, h); err != nil {
			s.failed = err
			for _, tx := range batch {
				if tx.err == nil {
					tx.err = err
				}
			}
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
	if cur := s.cur.Load(); cur == nil || cur.m != old {
		old.release() // an unpublished mapping from a failed commit
	}
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
