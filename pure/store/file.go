package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// File is the store's access to its backing file. The store writes only by
// appending with WriteAt, makes writes durable with Sync, and reads only
// through the memory returned by Map. Open uses an implementation over an
// *os.File; Options.WrapFile may wrap it, for example to inject faults.
//
// The store never calls a File's methods concurrently: a commit leader
// writes, the leader of the group just written syncs (the next leader
// writes only after that sync returned), a compaction runs alone. Map and
// Unmap results are shared by readers.
type File interface {
	// WriteAt writes p at off. A short write must return an error.
	WriteAt(p []byte, off int64) (n int, err error)
	// Sync makes every completed write durable (fdatasync). After it fails
	// the store never calls it again.
	Sync() error
	// Truncate sets the file's length.
	Truncate(size int64) error
	// Size returns the file's length.
	Size() (int64, error)
	// Map returns a read-only view of the first size bytes of the file;
	// size may exceed the file's length, and later writes below size must
	// become visible through it (a shared mapping does this).
	Map(size int64) ([]byte, error)
	// Unmap releases a view returned by Map. No one touches it afterwards.
	// It may be called after Close (the last borrower can outlive the
	// file), and Map may be called again with a larger size while older
	// views are still in use.
	Unmap(b []byte) error
	// Close closes the file and releases its lock, even while views from
	// Map are in use. Views from Map stay valid until unmapped.
	Close() error
}

// osFile is a File over an *os.File, mapped with mmap and synced with
// fdatasync.
//
// The advisory lock lives on a descriptor of its own (lock), never mapped:
// a flock belongs to the open file description, and a mapping keeps the
// description of the descriptor it was made from alive until it is
// unmapped. With the lock on the mapped descriptor, a snapshot or borrowed
// value still held after Close would keep the file locked; with its own
// descriptor, Close releases the lock at once and the mappings stay
// readable.
type osFile struct {
	f    *os.File
	lock *os.File
}

// openOSFile opens path and takes an exclusive (or, read-only, shared)
// advisory lock on it.
func openOSFile(path string, readOnly bool) (*osFile, error) {
	flag, how := os.O_RDWR, unix.LOCK_EX
	if readOnly {
		flag, how = os.O_RDONLY, unix.LOCK_SH
	}
	lock, err := lockPath(path, how)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, flag, 0)
	if err == nil && !sameFile(lock, f) {
		f.Close()
		err = fmt.Errorf("store: %s was replaced while it was being opened; open it again", path)
	}
	if err != nil {
		lock.Close()
		return nil, err
	}
	return &osFile{f: f, lock: lock}, nil
}

// lockPath opens path for its lock alone and locks it. A file renamed over
// path between the open and the lock (a compaction by the holder of the
// lock) would leave the lock on the old file, so the lock is taken again
// on the new one until the locked file is the one at path.
func lockPath(path string, how int) (*os.File, error) {
	for range 8 {
		l, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		if err := unix.Flock(int(l.Fd()), how|unix.LOCK_NB); err != nil {
			l.Close()
			if errors.Is(err, unix.EWOULDBLOCK) {
				return nil, fmt.Errorf("%w: %s", ErrLocked, path)
			}
			return nil, fmt.Errorf("store: lock %s: %w", path, err)
		}
		st, err := os.Stat(path)
		if err == nil && sameInode(l, st) {
			return l, nil
		}
		l.Close()
	}
	return nil, fmt.Errorf("store: lock %s: the file keeps being replaced; open it again", path)
}

// sameFile reports whether a and b are open on the same inode.
func sameFile(a, b *os.File) bool {
	st, err := b.Stat()
	return err == nil && sameInode(a, st)
}

func sameInode(f *os.File, st os.FileInfo) bool {
	fst, err := f.Stat()
	return err == nil && os.SameFile(fst, st)
}

func (o *osFile) WriteAt(p []byte, off int64) (int, error) { return o.f.WriteAt(p, off) }

func (o *osFile) Sync() error {
	for {
		// probe 1026: fdatasync without entering the scheduler's syscall state
		_, _, errno := unix.RawSyscall(unix.SYS_FDATASYNC, o.f.Fd(), 0, 0)
		if errno != unix.EINTR {
			if errno != 0 {
				return errno
			}
			return nil
		}
	}
}

func (o *osFile) Truncate(size int64) error { return o.f.Truncate(size) }

func (o *osFile) Size() (int64, error) {
	st, err := o.f.Stat()
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

func (o *osFile) Map(size int64) ([]byte, error) {
	if size <= 0 || int64(int(size)) != size {
		return nil, fmt.Errorf("store: cannot map %d bytes", size)
	}
	return unix.Mmap(int(o.f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
}

func (o *osFile) Unmap(b []byte) error { return unix.Munmap(b) }

// Close closes the mapped descriptor, then the lock's: the lock is released
// even while mappings of the file are still in use.
func (o *osFile) Close() error {
	err := o.f.Close()
	if lerr := o.lock.Close(); err == nil {
		err = lerr
	}
	return err
}

// syncDir makes a directory entry change (create, rename) durable.
func syncDir(path string) error {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// createFile creates a new store file at path holding only the file header
// and empty checkpoint slots,
// atomically: it is written to a temporary name, synced and renamed.
func createFile(path string, version uint32) error {
	tmp := path + ".new"
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(newFileImage(version))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(path)
}

// mapSize returns how much to map for a file of size n: room to grow
// without remapping on every commit.
func mapSize(n int64) int64 {
	const min, step = 64 << 20, 1 << 30
	size := int64(min)
	for size < n && size < step {
		size *= 2
	}
	for size < n {
		size += step
	}
	return size
}
