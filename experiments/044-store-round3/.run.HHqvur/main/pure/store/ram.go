package store

import (
	"fmt"
	"sync"
)

// memFile is the File of a RAM-mode store: a byte slice that Map hands out
// directly. Sync does nothing. Growing the mapping copies the data into a
// larger slice; older slices stay valid for the readers that hold them and
// are reclaimed by the garbage collector.
type memFile struct {
	buf   []byte // len is the mapped size
	size  int64  // bytes written
	spare *spareBuf
}

// spareBuf keeps the largest RAM image whose mapping was released, for the
// next growth or compaction to reuse: its pages are already in memory, so
// reusing it saves zeroing and page faults. Only an unreferenced image
// (its mapping's count reached zero) is kept.
type spareBuf struct {
	mu  sync.Mutex
	buf []byte
}

func (sb *spareBuf) put(b []byte) {
	sb.mu.Lock()
	if cap(b) > cap(sb.buf) {
		sb.buf = b[:cap(b)]
	}
	sb.mu.Unlock()
}

// get returns the spare image if it holds at least size bytes.
func (sb *spareBuf) get(size int64) []byte {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if int64(len(sb.buf)) < size {
		return nil
	}
	b := sb.buf
	sb.buf = nil
	return b
}

func newMemFile(spare *spareBuf) *memFile { return &memFile{spare: spare} }

func (m *memFile) WriteAt(p []byte, off int64) (int, error) {
	end := off + int64(len(p))
	if off < 0 || end > int64(len(m.buf)) {
		return 0, fmt.Errorf("store: RAM write at %d+%d beyond mapped size %d", off, len(p), len(m.buf))
	}
	copy(m.buf[off:], p)
	if end > m.size {
		m.size = end
	}
	return len(p), nil
}

func (m *memFile) Sync() error { return nil }

func (m *memFile) Truncate(size int64) error {
	if size > int64(len(m.buf)) {
		return fmt.Errorf("store: RAM truncate to %d beyond mapped size %d", size, len(m.buf))
	}
	clear(m.buf[size:])
	m.size = size
	return nil
}

func (m *memFile) Size() (int64, error) { return m.size, nil }

func (m *memFile) Map(size int64) ([]byte, error) {
	if size <= int64(len(m.buf)) {
		return m.buf, nil
	}
	nb := m.spare.get(size)
	if nb == nil {
		nb = make([]byte, size)
	}
	copy(nb, m.buf[:m.size])
	m.buf = nb
	return nb, nil
}

// Unmap offers the released image for reuse. The current image is never
// released while the file is in use: the published version holds it.
func (m *memFile) Unmap(b []byte) error {
	m.spare.put(b)
	return nil
}

func (m *memFile) Close() error { return nil }

// ramMapSize is mapSize for RAM mode: start small, since every growth is a
// copy and the memory is real.
func ramMapSize(n int64) int64 {
	size := int64(1 << 20)
	for size < n {
		size *= 2
	}
	return size
}
