package store

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// A borrowed value can also be lent by where it lies: the file's
// descriptor and the value's offset in it, so that a server can hand the
// bytes from the page cache to a socket (sendfile) without reading them
// through the mapping. Each mapping of an on-disk file holds a descriptor
// of its own, a duplicate of the file's made with the mapping and closed
// when the mapping's last reference is released. So the descriptor lives
// exactly as long as the mapping does: a compaction that replaces the
// file (and closes the store's descriptor), a change of the key, or Close
// changes nothing for a value still borrowed, since the old file stays
// open through the mapping's descriptor and the store never writes over
// bytes a version can read.

// descFile is a File whose bytes can be read through a descriptor. osFile
// is one; RAM mode's memory is not, and neither is a File wrapped by
// Options.WrapFile unless the wrapper says so.
type descFile interface {
	// descriptor returns the open descriptor of the file.
	descriptor() uintptr
}

func (o *osFile) descriptor() uintptr { return o.f.Fd() }

// dupDescriptor returns a close-on-exec duplicate of f's descriptor for a
// new mapping of f, or -1 when f has none (or the duplicate failed: then
// values of that mapping are lent by their bytes alone).
func dupDescriptor(f File) int {
	d, ok := f.(descFile)
	if !ok {
		return -1
	}
	fd, err := unix.FcntlInt(d.descriptor(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	return fd
}

// closeDescriptor closes a mapping's duplicate descriptor, if it has one.
func closeDescriptor(fd int) {
	if fd >= 0 {
		unix.Close(fd) // nothing can be done about a failed close of a read-only duplicate
	}
}

// Location returns where the borrowed value lies: a descriptor of the file
// it was read from and its offset there, so that its len(Bytes()) bytes can be sent
// with sendfile(2) or read with pread(2) instead of through Bytes. It
// reports false in RAM mode, for a store whose File was wrapped
// (Options.WrapFile), for an empty value and after Release.
//
// Lifetime: the descriptor stays open, and the bytes at off unchanged,
// until Release, whatever happens to the key or the file meanwhile
// (compaction, Close). It belongs to the store: never close it, and never
// use its file position (read and send with an explicit offset), since
// every borrower of the same mapping shares it.
func (b *Borrowed) Location() (fd int, off int64, ok bool) {
	m := b.m
	if m == nil || m.fd < 0 || len(b.val) == 0 {
		return -1, 0, false
	}
	off = int64(uintptr(unsafe.Pointer(unsafe.SliceData(b.val))) - uintptr(unsafe.Pointer(unsafe.SliceData(m.data))))
	return m.fd, off, true
}
