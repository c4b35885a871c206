package store

import (
	"bytes"
	"sync/atomic"
)

// noCopy makes go vet's copylocks check report copies of the types that
// embed it.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// Snapshot is a pinned, read-only version of the store: every read through
// it sees the tree as of one commit, however many commits or compactions
// follow. Get it from Store.Snapshot or Tx.Snapshot, or fill one you own
// and reuse with Store.SnapshotInto (no allocation).
//
// Lifetime: a Snapshot and every byte slice it returns are valid until
// Release; after Release the slices must not be read, and Get, Range and
// Borrow panic ("store: Snapshot used after Release") instead of reading
// memory that may be unmapped. To keep a value longer, Borrow it. A
// Snapshot is never recycled, so a stale pointer to a released one can
// never reach another reader's snapshot.
//
// Concurrency: a Snapshot may be read from several goroutines at once, but
// Release must happen after all of them are done. Readers never block the
// writer and the writer never blocks them.
type Snapshot struct {
	noCopy noCopy
	m      *mapping
	d      []byte // nil once released
	h      head
	ov     *overlay // the version's log records over its tree, or nil
	live   atomic.Bool
	owned  bool // a transaction's snapshot: released when the transaction ends
}

// errUseAfterRelease is the panic of a read through a released snapshot.
const errUseAfterRelease = "store: Snapshot used after Release (Get, Range, Borrow and Len need a live snapshot; take a new one with Store.Snapshot)"

// Snapshot pins the current version of the store. Release it when done.
// It returns ErrClosed after Close.
//
// Each call allocates its Snapshot (about 100 bytes): it is not taken from
// a pool, so that a second Release of a released Snapshot can never
// release another reader's snapshot that a pool had handed the same
// object to.
func (s *Store) Snapshot() (*Snapshot, error) {
	v := s.acquireCurrent()
	if v == nil {
		return nil, ErrClosed
	}
	sn := new(Snapshot)
	sn.pin(v)
	return sn, nil
}

// errFillLive is the panic of SnapshotInto on a snapshot still pinned.
const errFillLive = "store: SnapshotInto on a Snapshot that is still live (Release it before filling it again)"

// errFillOwned is the panic of SnapshotInto on a transaction's snapshot.
const errFillOwned = "store: SnapshotInto on a transaction's Snapshot (Tx.Snapshot belongs to the transaction; fill a Snapshot of your own)"

// errLendLive is the panic of BorrowInto on a Borrowed still held.
const errLendLive = "store: BorrowInto on a Borrowed that is still live (Release it before filling it again)"

// SnapshotInto pins the current version of the store into sn, a Snapshot
// the caller owns and reuses (for example one embedded in a connection's
// state), so taking a snapshot allocates nothing. It returns ErrClosed
// after Close, leaving sn released.
//
// Lifetime: the caller owns sn. It must not be copied (go vet reports
// copies), and it must be released before it is filled again: SnapshotInto
// on a live snapshot panics ("store: SnapshotInto on a Snapshot that is
// still live") rather than leak or silently drop the version it pins. A
// zero Snapshot, or one released by Release, may be filled. Release marks
// it released and a second Release does nothing, as for Store.Snapshot;
// but once sn is filled again, a Release meant for its previous filling
// releases the new one, so whoever fills it must be the only one to
// release it. A transaction's snapshot (Tx.Snapshot) cannot be filled.
func (s *Store) SnapshotInto(sn *Snapshot) error {
	if sn.owned {
		panic(errFillOwned)
	}
	if sn.live.Load() {
		panic(errFillLive)
	}
	v := s.acquireCurrent()
	if v == nil {
		return ErrClosed
	}
	sn.pin(v)
	return nil
}

// pin makes sn read v, taking over v's reference on its mapping.
func (sn *Snapshot) pin(v *version) {
	sn.m, sn.d, sn.h, sn.ov = v.m, v.m.data, v.h, v.ov
	sn.live.Store(true)
}

// Release unpins the snapshot. Values read through it must not be used
// afterwards; borrowed values stay valid until their own Release.
//
// Release is idempotent: a second (or concurrent) Release of the same
// Snapshot does nothing. Release of a transaction's snapshot (Tx.Snapshot)
// does nothing either: the transaction releases it when it ends.
func (sn *Snapshot) Release() {
	if sn.owned {
		return
	}
	sn.release()
}

// release unpins the snapshot once; later calls do nothing.
func (sn *Snapshot) release() {
	if !sn.live.CompareAndSwap(true, false) {
		return
	}
	m := sn.m
	sn.m, sn.d, sn.ov = nil, nil, nil
	m.release()
}

// Rev returns the highest revision committed in this version: the revision
// of its last transaction, 0 for an empty store that never committed.
func (sn *Snapshot) Rev() uint64 { return sn.h.rev }

// Seq returns the commit sequence number of this version (one per head).
func (sn *Snapshot) Seq() uint64 { return sn.h.seq }

// Len returns the number of keys in this version. With log records over
// the tree, the first call on a version looks their keys up in the tree
// (at most Options.FoldEntries lookups); later calls reuse the answer.
func (sn *Snapshot) Len() int {
	if sn.d == nil {
		panic(errUseAfterRelease)
	}
	return int(versionKeys(sn.d, &sn.h, sn.ov))
}

// Get returns the value and revision of key. The value is read in place from
// the mapping, without copying: it is valid until the snapshot is released
// and must not be modified. ok is false when the key is absent.
func (sn *Snapshot) Get(key []byte) (val []byte, rev uint64, ok bool) {
	if sn.d == nil {
		panic(errUseAfterRelease)
	}
	e, ok := lookupVersion(sn.d, sn.h.root, sn.ov, key)
	if !ok {
		return nil, 0, false
	}
	return leafVal(sn.d, e), leafRev(sn.d, e), true
}

// Range calls fn for every key in [from, to) in key order, with its value
// and revision, until fn returns false. A nil from starts at the first key, a
// nil to runs to the last. key and val are valid until the snapshot is
// released and must not be modified.
func (sn *Snapshot) Range(from, to []byte, fn func(key, val []byte, rev uint64) bool) {
	if sn.d == nil {
		panic(errUseAfterRelease)
	}
	rangeVersion(sn.d, sn.h.root, sn.ov, from, to, fn)
}

// rangeNode visits the subtree at off; it returns false once fn stopped or
// the end of the range was passed.
func rangeNode(d []byte, off uint64, from, to []byte, fn func(key, val []byte, rev uint64) bool) bool {
	n := nodeCount(d, off)
	if nodeKind(d, off) == kindBranch {
		i := 0
		if from != nil {
			i = branchSearch(d, off, from)
		}
		for ; i < n; i++ {
			e := entAt(d, off, i)
			if to != nil && i > 0 && bytes.Compare(branchKey(d, e), to) >= 0 {
				return false
			}
			if !rangeNode(d, branchChild(d, e), from, to, fn) {
				return false
			}
		}
		return true
	}
	i := 0
	if from != nil {
		i, _ = leafSearch(d, off, from)
	}
	return scanLeaf(d, off, i, n, to, fn) == scanOn
}

// scanLeaf's results: the scan goes on to the next leaf, it reached the
// end of the range, or fn stopped it.
const (
	scanOn = iota
	scanAtEnd
	scanStopped
)

// scanLeaf sends the entries i to n-1 of the leaf at off to fn, up to the
// first key at or past to (nil: no end).
func scanLeaf(d []byte, off uint64, i, n int, to []byte, fn func(key, val []byte, rev uint64) bool) int {
	for ; i < n; i++ {
		e := entAt(d, off, i)
		k := leafKey(d, e)
		if to != nil && bytes.Compare(k, to) >= 0 {
			return scanAtEnd
		}
		if !fn(k, leafVal(d, e), leafRev(d, e)) {
			return scanStopped
		}
	}
	return scanOn
}

// Borrowed is a value lent straight from the mapping, with its own
// reference on the mapping: it stays readable after the snapshot it came
// from is released, after the key is changed or deleted, after compaction
// swaps in a new file and after the Store is closed.
//
// Lifetime: Bytes is valid until Release; after Release, Bytes returns nil
// and Rev 0, and slices obtained before must not be read. The mapping is
// unmapped when its last borrower and snapshot have released it. Release is
// idempotent: a second Release does nothing. A Borrowed is never recycled
// (each Borrow allocates one, 48 bytes), so a stale pointer can never
// release someone else's value. To lend without allocating, fill a
// Borrowed you own and reuse with Snapshot.BorrowInto or Store.BorrowInto.
//
// Concurrency: Bytes may be read from several goroutines; Release must come
// after all of them.
type Borrowed struct {
	noCopy noCopy
	m      *mapping
	val    []byte
	rev    uint64
	live   atomic.Bool
}

// lend makes b hold val and rev, taking over a reference on m.
func (b *Borrowed) lend(m *mapping, val []byte, rev uint64) {
	b.m, b.val, b.rev = m, val, rev
	b.live.Store(true)
}

// Borrow lends the value of key beyond the snapshot's lifetime. It returns
// false when the key is absent.
func (sn *Snapshot) Borrow(key []byte) (*Borrowed, bool) {
	if sn.d == nil {
		panic(errUseAfterRelease)
	}
	e, ok := lookupVersion(sn.d, sn.h.root, sn.ov, key)
	if !ok {
		return nil, false
	}
	if !sn.m.acquire() {
		panic(errUseAfterRelease) // the snapshot's own reference keeps the count above zero
	}
	b := new(Borrowed)
	b.lend(sn.m, leafVal(sn.d, e), leafRev(sn.d, e))
	return b, true
}

// BorrowInto lends the value of key into b, a Borrowed the caller owns
// and reuses, so lending allocates nothing; otherwise it is Borrow. It
// returns false, leaving b released, when the key is absent.
//
// Lifetime: the caller owns b. It must not be copied, and it must be
// released before it is filled again: BorrowInto on a live Borrowed panics
// ("store: BorrowInto on a Borrowed that is still live"). A zero Borrowed,
// or one released by Release, may be filled. A second Release does
// nothing, but once b is filled again a Release meant for its previous
// filling releases the new one, so whoever fills it must be the only one
// to release it.
func (sn *Snapshot) BorrowInto(b *Borrowed, key []byte) bool {
	if sn.d == nil {
		panic(errUseAfterRelease)
	}
	if b.live.Load() {
		panic(errLendLive)
	}
	e, ok := lookupVersion(sn.d, sn.h.root, sn.ov, key)
	if !ok {
		return false
	}
	if !sn.m.acquire() {
		panic(errUseAfterRelease) // the snapshot's own reference keeps the count above zero
	}
	b.lend(sn.m, leafVal(sn.d, e), leafRev(sn.d, e))
	return true
}

// BorrowInto lends the value of key from the current version into b, a
// Borrowed the caller owns and reuses; it is Store.Borrow without the
// allocation, with the lifetime contract of Snapshot.BorrowInto (b must be
// released before it is filled again, else BorrowInto panics). It returns
// false when the key is absent and ErrClosed after Close, leaving b
// released.
func (s *Store) BorrowInto(b *Borrowed, key []byte) (bool, error) {
	if b.live.Load() {
		panic(errLendLive)
	}
	v := s.acquireCurrent()
	if v == nil {
		return false, ErrClosed
	}
	e, ok := lookupVersion(v.m.data, v.h.root, v.ov, key)
	if !ok {
		v.m.release()
		return false, nil
	}
	b.lend(v.m, leafVal(v.m.data, e), leafRev(v.m.data, e))
	return true, nil
}

// Borrow lends the value of key from the current version; it is
// Snapshot+Borrow+Release in one step. It returns false when the key is
// absent and ErrClosed after Close.
func (s *Store) Borrow(key []byte) (*Borrowed, bool, error) {
	v := s.acquireCurrent()
	if v == nil {
		return nil, false, ErrClosed
	}
	e, ok := lookupVersion(v.m.data, v.h.root, v.ov, key)
	if !ok {
		v.m.release()
		return nil, false, nil
	}
	b := new(Borrowed)
	b.lend(v.m, leafVal(v.m.data, e), leafRev(v.m.data, e))
	return b, true, nil
}

// Bytes returns the borrowed value. It must not be modified.
func (b *Borrowed) Bytes() []byte { return b.val }

// Rev returns the revision of the borrowed value.
func (b *Borrowed) Rev() uint64 { return b.rev }

// Release returns the borrowed value; its bytes must not be used
// afterwards. A second (or concurrent) Release does nothing.
func (b *Borrowed) Release() {
	if !b.live.CompareAndSwap(true, false) {
		return
	}
	m := b.m
	b.m, b.val, b.rev = nil, nil, 0
	m.release()
}
