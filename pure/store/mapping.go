package store

import "sync/atomic"

// mapping is one read-only view of the file (or of RAM-mode memory),
// shared by every version, snapshot and borrowed value that reads it. It is
// reference counted: the writer holds one reference on its mapping, each
// version (published, or written and waiting for its sync) one, each
// snapshot and each borrowed value one more. When the count reaches zero it
// is unmapped; after that it can never be acquired again.
type mapping struct {
	data []byte
	f    File
	fd   int // a duplicate of f's descriptor, closed with the mapping; -1 for none (lend.go)
	refs atomic.Int64
}

func newMapping(f File, data []byte) *mapping {
	m := &mapping{data: data, f: f, fd: dupDescriptor(f)}
	m.refs.Store(1)
	return m
}

// acquire adds a reference unless the mapping is already released.
func (m *mapping) acquire() bool {
	for {
		r := m.refs.Load()
		if r <= 0 {
			return false
		}
		if m.refs.CompareAndSwap(r, r+1) {
			return true
		}
	}
}

// release drops a reference and unmaps the view when it was the last.
func (m *mapping) release() {
	switch r := m.refs.Add(-1); {
	case r == 0:
		data := m.data
		m.data = nil
		m.f.Unmap(data) // nothing can be done about a failed munmap but leak it
		closeDescriptor(m.fd)
		m.fd = -1
	case r < 0:
		panic("store: mapping released more often than acquired")
	}
}

// version is a published state of the tree: a verified head and the
// mapping it is read through. Versions are immutable; the store swaps its
// current version atomically after each durable commit.
type version struct {
	m  *mapping
	h  head
	ov *overlay // the log records over the tree when h.root is one (logrec.go); nil: h.root is the tree
	// ovs is room for ov, so a commit's version and overlay are one
	// allocation.
	ovs overlay
}

// acquireCurrent pins the store's current version: it returns the version
// with one more reference on its mapping, or nil when the store is closed.
func (s *Store) acquireCurrent() *version {
	for {
		v := s.cur.Load()
		if v == nil {
			return nil
		}
		if v.m.acquire() {
			return v
		}
		// The mapping was replaced and released between the load and the
		// acquire; the next load sees its successor.
	}
}

// publish makes v, which holds a reference of its own on its mapping, the
// current version and drops the previous version's reference.
func (s *Store) publish(v *version) {
	if old := s.cur.Swap(v); old != nil {
		old.m.release()
	}
}
