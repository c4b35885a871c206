package store

import (
	"bytes"
	"slices"
	"sync"
)

// Revision expectations for Tx.Put and Tx.Delete.
const (
	// Any writes whatever the key's current revision (a blind write).
	Any uint64 = 0
	// Absent requires the key not to exist (If-None-Match: *).
	Absent uint64 = ^uint64(0)
)

// Tx is a write transaction: a set of puts and deletes, validated and
// applied atomically by Commit. It reads from the snapshot it began on plus
// its own writes.
//
// Revisions: every committed transaction gets the next revision number, and
// every key it writes carries that revision. A write may name the revision
// it expects; keys read with Tx.Get are recorded too. Commit refuses the
// transaction with ErrConflict if any of those keys has a different revision
// by the time it is applied (optimistic concurrency, first committer wins).
// Blind writes (Any, no Get) never conflict.
//
// Lifetime: after Commit or Rollback the Tx must not be used except for
// further Commit/Rollback calls, which return ErrTxDone (Put, PutBorrowed
// and Delete return it too, and Get finds nothing). Slices returned by Get
// are valid until then.
//
// Concurrency: a Tx belongs to one goroutine. Any number of transactions may
// be open and commit concurrently; concurrent commits are grouped.
//
// A Tx is a small handle: the transaction's state (its snapshot, buffers
// and place in the commit group) is recycled from one transaction to the
// next, and the handle lets go of it when the transaction ends, so a
// stale handle finds nothing to act on and a recycled state is never
// reached through it.
type Tx struct {
	noCopy noCopy
	t      *txn      // the state; nil once the transaction ended
	sn     *Snapshot // Snapshot's, allocated at its first call
}

// txn is a transaction's state, recycled through txnPool: only its Tx
// handle (until the transaction ends) and the commit group (until the
// transaction's Commit returns) refer to it.
type txn struct {
	s      *Store
	snap   Snapshot  // owned: end releases it
	ext    *Snapshot // the one Tx.Snapshot lent, released by end; nil if none
	buf    []byte    // copies of keys and values; entries point in by offset
	writes []txWrite // sorted by key, one per key
	checks []txCheck // sorted by key, one per key: the revisions relied on
	// unordered is set by the first write that did not sort after every
	// write before it: until then a write is appended after one
	// comparison (writes in key order), from then on searched for.
	unordered bool

	// Room for the usual small transaction (one key and value), so that
	// Put does not allocate.
	buf0    [64]byte
	writes0 [1]txWrite
	checks0 [1]txCheck
	// lent holds the values PutBorrowed kept (a write's v0 < 0 names
	// one), with room for one.
	lent  [][]byte
	lent0 [1][]byte
	// mem holds the lists of a transaction that outgrew that room, taken
	// from txMemPool and given back when it ends.
	mem *txMem

	// wake carries one message per message-wait of a commit (lead the
	// next group: true; the result is ready: false), each received before
	// Commit returns, so it is empty whenever the state is recycled.
	wake chan bool
	// Filled in by the commit group.
	rev uint64
	err error
}

// txnPool recycles transactions' states. A state goes back once its
// transaction ended and, if it committed, its Commit returned: by then
// the group that wrote it is done with it (commit.go, group.go).
var txnPool = sync.Pool{New: func() any { return &txn{wake: make(chan bool, 1)} }}

// txWrite is one key's write: its key at buf[k0:k1], its value at
// buf[v0:v1], or, when v0 < 0, lent[-1-v0] (PutBorrowed). The lent
// values are in a list of their own rather than a slice here so that a
// write stays 40 bytes: with a slice (64 bytes) store-tx100-commit's
// inserts and sorts counted 7 % more instructions.
type txWrite struct {
	k0, k1, v0, v1 int
	del            bool
}

// value returns w's value: the one lent to PutBorrowed, or the copy in
// the transaction's buffer.
func (tx *txn) value(w *txWrite) []byte {
	if w.v0 < 0 {
		return tx.lent[-1-w.v0]
	}
	return tx.buf[w.v0:w.v1:w.v1]
}

type txCheck struct {
	k0, k1 int
	rev    uint64 // 0: the key must be absent
}

// Begin starts a write transaction on the current version. It returns
// ErrClosed after Close and ErrReadOnly on a read-only store.
func (s *Store) Begin() (*Tx, error) {
	if s.opts.ReadOnly {
		return nil, ErrReadOnly
	}
	v := s.acquireCurrent()
	if v == nil {
		return nil, ErrClosed
	}
	t := txnPool.Get().(*txn)
	t.s = s
	t.snap.owned = true
	t.snap.pin(v)
	t.buf, t.writes, t.checks = t.buf0[:0], t.writes0[:0], t.checks0[:0]
	return &Tx{t: t}, nil
}

// Snapshot returns the snapshot the transaction reads from. Reads through
// it are not recorded for conflict checking. It is valid until the
// transaction ends (Commit or Rollback), which releases it; its Release
// method does nothing, so releasing it by mistake, once or more, harms
// nothing. Reading it after the transaction ended panics like any released
// snapshot. The first call allocates it (it is never recycled, so a stale
// pointer to it stays released); later calls return the same one.
func (tx *Tx) Snapshot() *Snapshot {
	if tx.sn == nil {
		tx.sn = &Snapshot{owned: true}
		if t := tx.t; t != nil {
			t.snap.m.acquire() // held by the transaction: cannot fail
			tx.sn.m, tx.sn.d, tx.sn.h, tx.sn.ov = t.snap.m, t.snap.d, t.snap.h, t.snap.ov
			tx.sn.live.Store(true)
			t.ext = tx.sn
		}
	}
	return tx.sn
}

func (tx *txn) key(k0, k1 int) []byte { return tx.buf[k0:k1:k1] }

func (tx *txn) findWrite(key []byte) (int, bool) {
	return slices.BinarySearchFunc(tx.writes, key, func(w txWrite, k []byte) int {
		return bytes.Compare(tx.buf[w.k0:w.k1], k)
	})
}

func (tx *txn) findCheck(key []byte) (int, bool) {
	return slices.BinarySearchFunc(tx.checks, key, func(c txCheck, k []byte) int {
		return bytes.Compare(tx.buf[c.k0:c.k1], k)
	})
}

// store copies b into the transaction's buffer and returns its bounds.
func (tx *txn) store(b []byte) (int, int) {
	start := len(tx.buf)
	if start+len(b) > cap(tx.buf) && tx.mem == nil {
		tx.takeMem()
	}
	tx.buf = append(tx.buf, b...)
	return start, len(tx.buf)
}

// txMem is the memory of a transaction larger than a Tx's own room: its
// buffer and lists, recycled through txMemPool. A transaction of the app
// runtime writes a few KiB (a TPC-C New-Order about 5), and growing its
// buffer by appending from 64 bytes made about 10 KB of garbage per
// transaction.
type txMem struct {
	buf    []byte
	writes []txWrite
	checks []txCheck
}

// txMemPool recycles txMem. Nothing refers to a transaction's buffer once
// it ended: the group that committed it copied what it wrote (log
// records, nodes), and slices Get returned are valid only until then.
var txMemPool = sync.Pool{New: func() any { return new(txMem) }}

// maxPooledTx is the largest buffer given back to txMemPool: a rare huge
// transaction's memory is left to the collector.
const maxPooledTx = 1 << 20

// takeMem moves the transaction's buffer and lists into pooled memory.
func (tx *txn) takeMem() {
	m := txMemPool.Get().(*txMem)
	tx.mem = m
	tx.buf = append(m.buf[:0], tx.buf...)
	tx.writes = append(m.writes[:0], tx.writes...)
	tx.checks = append(m.checks[:0], tx.checks...)
}

// putMem gives the transaction's pooled memory back.
func (tx *txn) putMem() {
	m := tx.mem
	tx.mem = nil
	if cap(tx.buf) > maxPooledTx {
		return
	}
	m.buf, m.writes, m.checks = tx.buf[:0], tx.writes[:0], tx.checks[:0]
	txMemPool.Put(m)
}

// addCheck records that the transaction relies on key having revision rev.
func (tx *txn) addCheck(key []byte, rev uint64) {
	i, ok := tx.findCheck(key)
	if ok {
		return // the snapshot is fixed: the first record is the same
	}
	k0, k1 := tx.store(key)
	tx.checks = slices.Insert(tx.checks, i, txCheck{k0: k0, k1: k1, rev: rev})
}

// Get returns key's value in the transaction: its own pending write, or the
// snapshot's value. A pending write reports revision 0 (it has none yet).
// Keys read from the snapshot are recorded: if one changes before Commit,
// Commit returns ErrConflict.
func (tx *Tx) Get(key []byte) (val []byte, rev uint64, ok bool) {
	if tx.t == nil {
		return nil, 0, false
	}
	return tx.t.get(key)
}

func (tx *txn) get(key []byte) (val []byte, rev uint64, ok bool) {
	if i, found := tx.findWrite(key); found {
		w := tx.writes[i]
		if w.del {
			return nil, 0, false
		}
		return tx.value(&w), 0, true
	}
	val, rev, ok = tx.snap.Get(key)
	tx.addCheck(key, rev)
	return val, rev, ok
}

// Put sets key to val. expect is Any, Absent, or the revision the key must
// have in the transaction's snapshot (before the transaction's own writes);
// when it does not, Put returns ErrConflict and records nothing. Commit
// checks expectations again against the latest version. Put copies key and
// val; the caller may reuse them.
func (tx *Tx) Put(key, val []byte, expect uint64) error {
	if len(val) > MaxValueSize {
		return ErrValueTooLarge
	}
	if tx.t == nil {
		return ErrTxDone
	}
	return tx.t.write(key, val, expect, false, false)
}

// PutBorrowed is Put without the copy of val: the transaction keeps val
// itself until it ends, so the caller must not change val's bytes before
// Commit or Rollback returns (the key is copied as by Put). A server
// whose request body stays in its read buffer until the answer can save
// the copy this way: under durable PUTs every connection's body was held
// twice until its group was synced (experiment 111).
func (tx *Tx) PutBorrowed(key, val []byte, expect uint64) error {
	if len(val) > MaxValueSize {
		return ErrValueTooLarge
	}
	if tx.t == nil {
		return ErrTxDone
	}
	return tx.t.write(key, val, expect, false, true)
}

// Delete removes key; expect is as for Put. Deleting an absent key with Any
// is allowed and changes nothing but the revision counter.
func (tx *Tx) Delete(key []byte, expect uint64) error {
	if tx.t == nil {
		return ErrTxDone
	}
	return tx.t.write(key, nil, expect, true, false)
}

// write records a put (del false) or a delete of key; a put's val is
// copied, or kept as it is with borrow (PutBorrowed).
func (tx *txn) write(key, val []byte, expect uint64, del, borrow bool) error {
	switch {
	case len(key) == 0:
		return ErrKeyEmpty
	case len(key) > MaxKeySize:
		return ErrKeyTooLarge
	}
	if expect != Any {
		want := expect
		if expect == Absent {
			want = 0
		}
		_, rev, _ := tx.snap.Get(key)
		if rev != want {
			return ErrConflict
		}
		tx.addCheck(key, rev)
	}
	w := txWrite{del: del}
	if n := len(tx.writes); n == 0 || !tx.unordered && bytes.Compare(tx.key(tx.writes[n-1].k0, tx.writes[n-1].k1), key) < 0 {
		// After every key written so far (writes in key order, as the
		// app runtime stages them): append, no search.
		w.k0, w.k1 = tx.store(key)
		tx.setValue(&w, val, borrow)
		if n == 0 {
			tx.s.g.open.Add(1) // a writer on its way to the queue
		}
		tx.writes = append(tx.writes, w)
		return nil
	}
	tx.unordered = true // from now on, search without trying the end first
	i, found := tx.findWrite(key)
	if found {
		w.k0, w.k1 = tx.writes[i].k0, tx.writes[i].k1
	} else {
		w.k0, w.k1 = tx.store(key)
	}
	tx.setValue(&w, val, borrow)
	if found {
		tx.writes[i] = w
	} else {
		tx.writes = slices.Insert(tx.writes, i, w)
	}
	return nil
}

// setValue sets w's value to val: kept as it is with borrow (an empty
// one needs no room either way), else copied into the buffer.
func (tx *txn) setValue(w *txWrite, val []byte, borrow bool) {
	if borrow && len(val) > 0 {
		if tx.lent == nil {
			tx.lent = tx.lent0[:0]
		}
		tx.lent = append(tx.lent, val[:len(val):len(val)])
		w.v0, w.v1 = -len(tx.lent), 0
		return
	}
	w.v0, w.v1 = tx.store(val)
}

// Commit validates the transaction against the latest version and, if no
// revision it relies on changed, writes it durably (one sync, shared with
// concurrent commits) and returns its revision. It returns ErrConflict if a
// revision changed (nothing is written) and ErrWriteFailed if the file could
// not be written or synced. A transaction without writes commits nothing and
// returns 0.
func (tx *Tx) Commit() (uint64, error) {
	t := tx.t
	if t == nil {
		return 0, ErrTxDone
	}
	tx.t = nil
	if len(t.writes) > 0 {
		t.s.g.open.Add(-1)
	}
	defer t.end()
	if len(t.writes) == 0 {
		return 0, nil
	}
	return t.s.commit(t)
}

// Rollback discards the transaction. It returns ErrTxDone if the
// transaction already ended.
func (tx *Tx) Rollback() error {
	t := tx.t
	if t == nil {
		return ErrTxDone
	}
	tx.t = nil
	if len(t.writes) > 0 {
		t.s.g.open.Add(-1)
	}
	t.end()
	return nil
}

// end releases the transaction's snapshots and memory and recycles its
// state; its handle has already let go of it.
func (tx *txn) end() {
	tx.snap.release()
	if tx.ext != nil {
		tx.ext.release()
		tx.ext = nil
	}
	if tx.mem != nil {
		tx.putMem()
	}
	clear(tx.lent) // the caller's values: nothing may keep them alive
	tx.buf, tx.writes, tx.checks, tx.lent = nil, nil, nil, nil
	tx.s, tx.unordered, tx.rev, tx.err = nil, false, 0, nil
	tx.snap = Snapshot{}
	txnPool.Put(tx)
}

// apply writes the transaction into the working tree at revision rev.
func (tx *txn) apply(t *wtree, rev uint64) {
	for _, w := range tx.writes {
		k := tx.key(w.k0, w.k1)
		if w.del {
			t.del(k)
		} else {
			t.put(k, tx.value(&w), rev)
		}
	}
}
