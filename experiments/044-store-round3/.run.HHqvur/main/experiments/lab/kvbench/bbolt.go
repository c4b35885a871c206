package kvbench

import (
	"fmt"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// bboltBucket is the one bucket every key lives in.
var bboltBucket = []byte("kv")

// bboltLoadBatch is the number of keys per transaction when loading bbolt.
const bboltLoadBatch = 100000

// bboltStore adapts go.etcd.io/bbolt with its default options. A commit
// calls fdatasync twice (the dirty pages, then the meta page: tx.write and
// tx.writeMeta in bbolt's tx.go); Syncs cannot see them and reports none.
type bboltStore struct {
	db    *bolt.DB
	batch bool // commit with DB.Batch instead of DB.Update
}

func openBbolt(dir string, batch bool) (Writer, error) {
	db, err := bolt.Open(filepath.Join(dir, "bbolt.db"), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return nil, err
	}
	err = db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bboltBucket)
		return err
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	return &bboltStore{db: db, batch: batch}, nil
}

func (b *bboltStore) Put(key, val []byte) error {
	fn := func(tx *bolt.Tx) error { return tx.Bucket(bboltBucket).Put(key, val) }
	if b.batch {
		return b.db.Batch(fn)
	}
	return b.db.Update(fn)
}

func (b *bboltStore) Syncs() (uint64, bool) { return 0, false }

// Get reads in a read-only transaction of its own and copies the value out
// of the mapping before the transaction ends.
func (b *bboltStore) Get(key, dst []byte) ([]byte, bool, error) {
	tx, err := b.db.Begin(false)
	if err != nil {
		return dst[:0], false, err
	}
	v := tx.Bucket(bboltBucket).Get(key)
	dst = append(dst[:0], v...)
	err = tx.Rollback()
	return dst, v != nil, err
}

func (b *bboltStore) Scan(from []byte, n int, fn func(key, val []byte)) (int, error) {
	if n <= 0 {
		return 0, nil
	}
	tx, err := b.db.Begin(false)
	if err != nil {
		return 0, err
	}
	c := 0
	cur := tx.Bucket(bboltBucket).Cursor()
	for k, v := cur.Seek(from); k != nil && c < n; k, v = cur.Next() {
		fn(k, v)
		c++
	}
	return c, tx.Rollback()
}

// Load writes the keys in order, bboltLoadBatch per transaction, with the
// bucket's FillPercent at 1.0 (bbolt's advice for appending sorted keys).
func (b *bboltStore) Load(keys int, val []byte) error {
	for i := 0; i < keys; i += bboltLoadBatch {
		err := b.db.Update(func(tx *bolt.Tx) error {
			bk := tx.Bucket(bboltBucket)
			bk.FillPercent = 1.0
			for j := i; j < min(keys, i+bboltLoadBatch); j++ {
				if err := bk.Put(AppendReadKey(nil, j), val); err != nil {
					return fmt.Errorf("load key %d: %w", j, err)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (b *bboltStore) Close() error { return b.db.Close() }
