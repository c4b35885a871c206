package kvbench

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/vfs"
)

// pebbleCacheSize is pebble's block cache: large enough (the default is
// 8 MiB) that a loaded store of a million keys is read from memory, as the
// two memory-mapped stores read theirs.
const pebbleCacheSize = 64 << 20

// pebbleLoadBatch is the number of keys per batch when loading pebble.
const pebbleLoadBatch = 100000

// pebbleStore adapts github.com/cockroachdb/pebble with default options
// except the block cache and a quiet logger. Its file system is wrapped to
// count syncs, then given pebble's default disk-health checks as usual.
type pebbleStore struct {
	db *pebble.DB
	fs *syncCountingFS
}

func openPebble(dir string) (Writer, error) {
	fs := &syncCountingFS{FS: vfs.Default}
	cache := pebble.NewCache(pebbleCacheSize)
	defer cache.Unref() // the DB holds its own reference
	opts := &pebble.Options{FS: fs, Cache: cache, Logger: quietLogger{}}
	opts.WithFSDefaults()
	db, err := pebble.Open(filepath.Join(dir, "pebble"), opts)
	if err != nil {
		return nil, err
	}
	return &pebbleStore{db: db, fs: fs}, nil
}

func (p *pebbleStore) Put(key, val []byte) error {
	return p.db.Set(key, val, pebble.Sync)
}

// Syncs counts the Sync and SyncData calls, and the SyncTo calls that were
// full syncs, on every file and directory pebble wrote: WAL, sstables,
// manifest, directories.
func (p *pebbleStore) Syncs() (uint64, bool) { return p.fs.syncs.Load(), true }

func (p *pebbleStore) Get(key, dst []byte) ([]byte, bool, error) {
	v, closer, err := p.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return dst[:0], false, nil
	}
	if err != nil {
		return dst[:0], false, err
	}
	dst = append(dst[:0], v...)
	return dst, true, closer.Close()
}

func (p *pebbleStore) Scan(from []byte, n int, fn func(key, val []byte)) (int, error) {
	if n <= 0 {
		return 0, nil
	}
	it, err := p.db.NewIter(nil)
	if err != nil {
		return 0, err
	}
	c := 0
	for ok := it.SeekGE(from); ok && c < n; ok = it.Next() {
		fn(it.Key(), it.Value())
		c++
	}
	return c, it.Close()
}

// Load writes the keys in order, pebbleLoadBatch per unsynced batch, then
// flushes the memtable and compacts the whole key range, so reads meet a
// settled LSM rather than a memtable.
func (p *pebbleStore) Load(keys int, val []byte) error {
	var k []byte
	for i := 0; i < keys; i += pebbleLoadBatch {
		b := p.db.NewBatch()
		for j := i; j < min(keys, i+pebbleLoadBatch); j++ {
			k = AppendReadKey(k[:0], j)
			if err := b.Set(k, val, nil); err != nil {
				return fmt.Errorf("load key %d: %w", j, err)
			}
		}
		if err := b.Commit(pebble.NoSync); err != nil {
			return fmt.Errorf("load keys %d..: %w", i, err)
		}
	}
	if err := p.db.Flush(); err != nil {
		return err
	}
	if keys > 0 {
		// Compact's end is exclusive: "l" sorts after every "k…" key.
		if err := p.db.Compact(AppendReadKey(nil, 0), []byte("l"), true); err != nil {
			return err
		}
	}
	return nil
}

func (p *pebbleStore) Close() error { return p.db.Close() }

// quietLogger drops pebble's informational messages (flushes, compactions)
// so that they do not interleave with the benchmark's output; fatal
// errors still panic, as pebble's default logger's do not return either.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("pebble: "+format, args...))
}

// syncCountingFS is a vfs.FS whose writable files and directories count
// their syncs. Files opened only for reading are not wrapped.
type syncCountingFS struct {
	vfs.FS
	syncs atomic.Uint64
}

func (fs *syncCountingFS) wrap(f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		return f, err
	}
	return &syncCountingFile{File: f, syncs: &fs.syncs}, nil
}

func (fs *syncCountingFS) Create(name string) (vfs.File, error) {
	return fs.wrap(fs.FS.Create(name))
}

func (fs *syncCountingFS) OpenReadWrite(name string, opts ...vfs.OpenOption) (vfs.File, error) {
	return fs.wrap(fs.FS.OpenReadWrite(name, opts...))
}

func (fs *syncCountingFS) OpenDir(name string) (vfs.File, error) {
	return fs.wrap(fs.FS.OpenDir(name))
}

func (fs *syncCountingFS) ReuseForWrite(oldname, newname string) (vfs.File, error) {
	return fs.wrap(fs.FS.ReuseForWrite(oldname, newname))
}

// syncCountingFile counts each sync it passes to the file it wraps.
type syncCountingFile struct {
	vfs.File
	syncs *atomic.Uint64
}

func (f *syncCountingFile) Sync() error {
	f.syncs.Add(1)
	return f.File.Sync()
}

func (f *syncCountingFile) SyncData() error {
	f.syncs.Add(1)
	return f.File.SyncData()
}

// SyncTo counts only full syncs: a partial one (sync_file_range) queues
// writeback and makes nothing durable.
func (f *syncCountingFile) SyncTo(length int64) (bool, error) {
	full, err := f.File.SyncTo(length)
	if full {
		f.syncs.Add(1)
	}
	return full, err
}
