package kvbench

import (
	"fmt"
	"path/filepath"
	"sync"

	"workbench/pure/store"
)

// pureLoadBatch is the number of keys per transaction when loading the
// pure store.
const pureLoadBatch = 10000

// pureStore adapts workbench/pure/store. Every Put is a transaction of one
// blind write (store.Any), so concurrent writers never conflict and share
// syncs only through the store's group commit.
type pureStore struct {
	s *store.Store
}

func openPure(dir string) (Writer, error) { return openPureWith(dir, nil) }

// openPureNoAuto opens the store with automatic compaction off.
func openPureNoAuto(dir string) (Writer, error) {
	return openPureWith(dir, &store.Options{AutoCompact: -1})
}

// openPureTree opens the store without log records.
func openPureTree(dir string) (Writer, error) {
	return openPureWith(dir, &store.Options{FoldEntries: -1})
}

// openPureNoWait opens the store with the group commit's gathering wait
// off.
func openPureNoWait(dir string) (Writer, error) {
	return openPureWith(dir, &store.Options{GroupWait: -1})
}

func openPureWith(dir string, opts *store.Options) (Writer, error) {
	s, err := store.Open(filepath.Join(dir, "pure.store"), opts)
	if err != nil {
		return nil, err
	}
	return &pureStore{s: s}, nil
}

func (p *pureStore) Put(key, val []byte) error {
	tx, err := p.s.Begin()
	if err != nil {
		return err
	}
	if err := tx.Put(key, val, store.Any); err != nil {
		tx.Rollback()
		return err
	}
	_, err = tx.Commit()
	return err
}

// Syncs counts the heads the store has published: by the store's design
// each is written by one group commit followed by exactly one fdatasync.
func (p *pureStore) Syncs() (uint64, bool) {
	return p.s.Stats().Publications, true
}

// Get borrows the value from the current version's mapping into a
// Borrowed of the reader's own (from a pool, as a server's connection
// would keep one) and copies it into dst: no snapshot to pin, no
// allocation.
func (p *pureStore) Get(key, dst []byte) ([]byte, bool, error) {
	b := borrowedPool.Get().(*store.Borrowed)
	defer borrowedPool.Put(b)
	ok, err := p.s.BorrowInto(b, key)
	if err != nil || !ok {
		return dst[:0], false, err
	}
	dst = append(dst[:0], b.Bytes()...)
	b.Release()
	return dst, true, nil
}

// borrowedPool holds released Borrowed values for Get to fill.
var borrowedPool = sync.Pool{New: func() any { return new(store.Borrowed) }}

func (p *pureStore) Scan(from []byte, n int, fn func(key, val []byte)) (int, error) {
	if n <= 0 {
		return 0, nil
	}
	sn, err := p.s.Snapshot()
	if err != nil {
		return 0, err
	}
	c := 0
	sn.Range(from, nil, func(k, v []byte, _ uint64) bool {
		fn(k, v)
		c++
		return c < n
	})
	sn.Release()
	return c, nil
}

// Load commits the keys in order, pureLoadBatch per transaction.
func (p *pureStore) Load(keys int, val []byte) error {
	var k []byte
	for i := 0; i < keys; i += pureLoadBatch {
		tx, err := p.s.Begin()
		if err != nil {
			return err
		}
		for j := i; j < min(keys, i+pureLoadBatch); j++ {
			k = AppendReadKey(k[:0], j)
			if err := tx.Put(k, val, store.Any); err != nil {
				tx.Rollback()
				return fmt.Errorf("load key %d: %w", j, err)
			}
		}
		if _, err := tx.Commit(); err != nil {
			return fmt.Errorf("load keys %d..: %w", i, err)
		}
	}
	return nil
}

func (p *pureStore) Close() error { return p.s.Close() }
