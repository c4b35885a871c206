package store

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// pread reads n bytes at off through fd, as a sendfile(2) of the location
// would send them.
func pread(t *testing.T, fd int, off int64, n int) []byte {
	t.Helper()
	buf := make([]byte, n)
	got := 0
	for got < n {
		m, err := unix.Pread(fd, buf[got:], off+int64(got))
		if err != nil {
			t.Fatalf("pread fd %d at %d: %v", fd, off+int64(got), err)
		}
		if m == 0 {
			t.Fatalf("pread fd %d at %d: end of file after %d of %d bytes", fd, off, got, n)
		}
		got += m
	}
	return buf
}

// TestLocation_OutlivesChangesAndCompaction borrows values (inline and out
// of line), reads them through their location, then changes the keys,
// compacts, closes the store and reads them through the same descriptor
// again: the old file stays open until the last release, which closes it.
func TestLocation_OutlivesChangesAndCompaction(t *testing.T) {
	s := mustOpen(t, tempPath(t), &Options{Strict: true})
	small, big := "small value", strings.Repeat("big", 400000)
	put(t, s, "small", small)
	put(t, s, "big", big)
	for i := range 200 {
		put(t, s, key(i), strings.Repeat("x", i))
	}
	b1, _, _ := s.Borrow([]byte("big"))
	b2, _, _ := s.Borrow([]byte("small"))
	fd1, off1, ok1 := b1.Location()
	fd2, off2, ok2 := b2.Location()
	if !ok1 || !ok2 {
		t.Fatalf("Location of on-disk values: %v %v, want both true", ok1, ok2)
	}
	if fd1 != fd2 {
		t.Fatalf("values of one mapping lent with descriptors %d and %d, want one", fd1, fd2)
	}
	var before unix.Stat_t
	if err := unix.Fstat(fd1, &before); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		if got := pread(t, fd1, off1, len(big)); string(got) != big {
			t.Fatalf("%s: big value through its location differs", when)
		}
		if got := pread(t, fd2, off2, len(small)); string(got) != small {
			t.Fatalf("%s: small value through its location is %q", when, got)
		}
	}
	check("borrowed")

	put(t, s, "big", "changed")
	put(t, s, "small", "changed too")
	if err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	b3, _, _ := s.Borrow([]byte("big"))
	fd3, off3, ok3 := b3.Location()
	var after unix.Stat_t
	if !ok3 || unix.Fstat(fd3, &after) != nil || after.Ino == before.Ino {
		t.Fatalf("after compaction the current value's location is fd %d (ok %v), inode %d; want another file than inode %d", fd3, ok3, after.Ino, before.Ino)
	}
	if got := pread(t, fd3, off3, len("changed")); string(got) != "changed" {
		t.Fatalf("the new value through its location: %q", got)
	}
	b3.Release()
	check("changed and compacted")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	check("store closed")

	b1.Release()
	if _, _, ok := b1.Location(); ok {
		t.Fatal("Location after Release reports true")
	}
	check("one of two borrowers released") // b2 still holds the mapping
	b2.Release()
	var st unix.Stat_t
	if err := unix.Fstat(fd1, &st); err == nil && st.Dev == before.Dev && st.Ino == before.Ino {
		t.Fatalf("descriptor %d still open on the old file after the last release", fd1)
	}
}

// TestLocation_AcrossRemap: a value borrowed before the file grows past
// its mapping keeps its location, and the new mapping has one of its own.
func TestLocation_AcrossRemap(t *testing.T) {
	s := mustOpen(t, tempPath(t), &Options{Strict: true, mapMin: 1 << 16})
	defer s.Close()
	put(t, s, "a", "first")
	b, _, _ := s.Borrow([]byte("a"))
	defer b.Release()
	first := s.cur.Load().m
	for i := range 50 {
		put(t, s, key(i), strings.Repeat("y", 3000))
	}
	put(t, s, "a", "second")
	if s.cur.Load().m == first {
		t.Fatal("no remap happened")
	}
	fd, off, ok := b.Location()
	if !ok || string(pread(t, fd, off, 5)) != "first" {
		t.Fatalf("location of the value borrowed before the remap: ok %v", ok)
	}
	b2, _, _ := s.Borrow([]byte("a"))
	defer b2.Release()
	fd2, off2, ok := b2.Location()
	if !ok || fd2 == fd || string(pread(t, fd2, off2, 6)) != "second" {
		t.Fatalf("location after the remap: fd %d (the old mapping's %d), ok %v", fd2, fd, ok)
	}
}

// TestLocation_None: RAM mode, a wrapped file and an empty value have no
// location; their bytes are lent through Bytes alone.
func TestLocation_None(t *testing.T) {
	ram, err := OpenRAM(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ram.Close()
	wrapped := mustOpen(t, tempPath(t), &Options{WrapFile: func(f File) File { return struct{ File }{f} }})
	defer wrapped.Close()
	plain := mustOpen(t, tempPath(t), nil)
	defer plain.Close()
	for name, s := range map[string]*Store{"ram": ram, "wrapped": wrapped} {
		put(t, s, "k", "value")
		b, _, _ := s.Borrow([]byte("k"))
		if _, _, ok := b.Location(); ok {
			t.Errorf("%s: Location reports true", name)
		}
		if !bytes.Equal(b.Bytes(), []byte("value")) {
			t.Errorf("%s: Bytes %q", name, b.Bytes())
		}
		b.Release()
	}
	put(t, plain, "empty", "")
	b, _, _ := plain.Borrow([]byte("empty"))
	if _, _, ok := b.Location(); ok {
		t.Error("empty value: Location reports true")
	}
	b.Release()
}
