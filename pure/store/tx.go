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
// further Commit/Rollback calls, which return ErrTxDone. Slices returned by
// Get are valid until then.
//
// Concurrency: a Tx belongs to one goroutine. Any number of transactions may
// be open and commit concurrently; concurrent commits are grouped.
type Tx struct {
	noCopy noCopy
	s      *Store
	sn     *Snapshot // &snap
	snap   Snapshot  // owned: its Release does nothing, end releases it
	buf    []byte    // copies of keys and values; entries point in by offset
	writes []txWrite // sorted by key, one per key
	checks []txCheck // sorted by key, one per key: the revisions relied on
	done   bool
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

	// Filled in by the commit group.
	wake chan bool // true: lead the next group; false: result is ready
	rev  uint64
	err  error
}

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
func (tx *Tx) value(w *txWrite) []byte {
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
	tx := &Tx{s: s}
	tx.sn = &tx.snap
	tx.snap.owned = true
	tx.snap.pin(v)
	tx.buf, tx.writes, tx.checks = tx.buf0[:0], tx.writes0[:0], tx.checks0[:0]
	return tx, nil
}

// Snapshot returns the snapshot the transaction reads from. Reads through
// it are not recorded for conflict checking. It is valid until the
// transaction ends (Commit or Rollback), which releases it; its Release
// method does nothing, so releasing it by mistake, once or more, harms
// nothing. Reading it after the transaction ended panics like any released
// snapshot.
func (tx *Tx) Snapshot() *Snapshot { return tx.sn }

func (tx *Tx) key(k0, k1 int) []byte { return tx.buf[k0:k1:k1] }

func (tx *Tx) findWrite(key []byte) (int, bool) {
	return slices.BinarySearchFunc(tx.writes, key, func(w txWrite, k []byte) int {
		return bytes.Compare(tx.buf[w.k0:w.k1], k)
	})
}

func (tx *Tx) findCheck(key []byte) (int, bool) {
	return slices.BinarySearchFunc(tx.checks, key, func(c txCheck, k []byte) int {
		return bytes.Compare(tx.buf[c.k0:c.k1], k)
	})
}

// store copies b into the transaction's buffer and returns its bounds.
func (tx *Tx) store(b []byte) (int, int) {
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
func (tx *Tx) takeMem() {
	m := txMemPool.Get().(*txMem)
	tx.mem = m
	tx.buf = append(m.buf[:0], tx.buf...)
	tx.writes = append(m.writes[:0], tx.writes...)
	tx.checks = append(m.checks[:0], tx.checks...)
}

// putMem gives the transaction's pooled memory back.
func (tx *Tx) putMem() {
	m := tx.mem
	tx.mem = nil
	if cap(tx.buf) > maxPooledTx {
		return
	}
	m.buf, m.writes, m.checks = tx.buf[:0], tx.writes[:0], tx.checks[:0]
	txMemPool.Put(m)
}

// addCheck records that the transaction relies on key having revision rev.
func (tx *Tx) addCheck(key []byte, rev uint64) {
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
	if tx.done {
		return nil, 0, false
	}
	if i, found := tx.findWrite(key); found {
		w := tx.writes[i]
		if w.del {
			return nil, 0, false
		}
		return tx.value(&w), 0, true
	}
	val, rev, ok = tx.sn.Get(key)
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
	return tx.write(key, val, expect, false, false)
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
	return tx.write(key, val, expect, false, true)
}

// Delete removes key; expect is as for Put. Deleting an absent key with Any
// is allowed and changes nothing but the revision counter.
func (tx *Tx) Delete(key []byte, expect uint64) error {
	return tx.write(key, nil, expect, true, false)
}

// write records a put (del false) or a delete of key; a put's val is
// copied, or kept as it is with borrow (PutBorrowed).
func (tx *Tx) write(key, val []byte, expect uint64, del, borrow bool) error {
	switch {
	case tx.done:
		return ErrTxDone
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
		_, rev, _ := tx.sn.Get(key)
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
func (tx *Tx) setValue(w *txWrite, val []byte, borrow bool) {
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
	if tx.done {
		return 0, ErrTxDone
	}
	tx.done = true
	defer tx.end()
	if len(tx.writes) == 0 {
		return 0, nil
	}
	return tx.s.commit(tx)
}

// Rollback discards the transaction. It returns ErrTxDone if the
// transaction already ended.
func (tx *Tx) Rollback() error {
	if tx.done {
		return ErrTxDone
	}
	tx.done = true
	tx.end()
	return nil
}

func (tx *Tx) end() {
	tx.sn.release()
	if tx.mem != nil {
		tx.putMem()
	}
	clear(tx.lent) // the caller's values: nothing may keep them alive
	tx.buf, tx.writes, tx.checks, tx.lent = nil, nil, nil, nil
}

// valid reports whether every revision the transaction relies on still
// holds in the working tree.
func (tx *Tx) valid(t *wtree) bool {
	for _, c := range tx.checks {
		if t.rev(tx.key(c.k0, c.k1)) != c.rev {
			return false
		}
	}
	return true
}

// apply writes the transaction into the working tree at revision rev.
func (tx *Tx) apply(t *wtree, rev uint64) {
	for _, w := range tx.writes {
		k := tx.key(w.k0, w.k1)
		if w.del {
			t.del(k)
		} else {
			t.put(k, tx.value(&w), rev)
		}
	}
}
