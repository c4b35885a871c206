package store

import (
	"errors"
	"fmt"
	"hash/crc32"
	"sync/atomic"
)

// errCompactStopped ends a compaction that Close interrupted.
var errCompactStopped = errors.New("stopped: the store is closing")

// copier streams the records of a compaction into a new file.
//
// An online compaction copies the tree in rounds: first a pinned version,
// then, each round, a newer one. moved maps the old offset of every node
// already copied to its new offset; since a record is never modified once
// written (copy-on-write), a node at an old offset is the same node in
// every later version, so a later round copies only the nodes written
// since the round before (plus the out-of-line values their leaves name,
// copied again: values are not mapped, to keep the map at one entry per
// node).
type copier struct {
	d          []byte // the old mapping
	f          File
	buf        []byte
	pos        uint64 // file offset of buf[0]
	crc        uint32 // of the records flushed so far from regionFrom
	regionFrom uint64
	err        error

	version uint32 // the new file's format version

	moved map[uint64]uint64 // old node offset -> new; nil: not kept
	stop  *atomic.Bool      // when set, the copy gives up with errCompactStopped
}

func (c *copier) off() uint64 { return c.pos + uint64(len(c.buf)) }

func (c *copier) flush() {
	if c.err != nil || len(c.buf) == 0 {
		c.buf = c.buf[:0]
		return
	}
	n, err := c.f.WriteAt(c.buf, int64(c.pos))
	if err == nil && n != len(c.buf) {
		err = fmt.Errorf("short write: %d of %d bytes", n, len(c.buf))
	}
	c.err = err
	b := c.buf
	if c.pos < c.regionFrom {
		b = b[c.regionFrom-c.pos:]
	}
	c.crc = crc32.Update(c.crc, castagnoli, b)
	c.pos += uint64(len(c.buf))
	c.buf = c.buf[:0]
}

// copyBuf is the capacity of a compaction's buffer; it is flushed once it
// holds half of that, so a record of up to the other half is appended
// without growing it. It was 1 MiB, flushed at 1 MiB: the first record
// that crossed the mark grew it to 2 MiB and more, and the new file's log
// record of the overlay's entries was built whole (2.2 MB for 64 documents
// of 34 KB), while pure-serve under durable PUTs compacted several times a
// second (probe 958).
const copyBuf = 512 << 10

// newCopyBuf is a compaction's buffer, holding the new file's image.
func newCopyBuf(version uint32) []byte {
	return append(make([]byte, 0, copyBuf), newFileImage(version)...)
}

func (c *copier) maybeFlush() {
	if len(c.buf) >= copyBuf/2 {
		c.flush()
		if c.err == nil && c.stop != nil && c.stop.Load() {
			c.err = errCompactStopped
		}
	}
}

// node copies the subtree at off and returns its new offset. Once the copy
// failed it copies nothing more.
func (c *copier) node(off uint64) uint64 {
	if at, ok := c.moved[off]; ok {
		return at
	}
	if c.err != nil {
		return 0
	}
	if nodeKind(c.d, off) == kindLeaf && !hasOutline(c.d, off) {
		// A leaf that names no value record refers to nothing by offset:
		// its record is copied as it is, without decoding it into entries
		// and encoding them again (most of a compaction's time, and an
		// allocation per leaf).
		at := c.off()
		c.buf = append(c.buf, c.d[off:off+nodeLen(c.d, off)]...)
		if c.moved != nil {
			c.moved[off] = at
		}
		c.maybeFlush()
		return at
	}
	w := decodeNode(c.d, off)
	for i := range w.ents {
		e := &w.ents[i]
		switch {
		case !w.leaf:
			e.child = c.node(e.child)
		case e.valOff != 0:
			v := c.d[e.valOff+recHdrSize : e.valOff+recHdrSize+uint64(e.valLen)]
			e.valOff = c.off()
			c.buf = appendValue(c.buf, v)
			c.maybeFlush()
		}
	}
	if c.err != nil {
		return 0 // a child was not copied
	}
	at := c.off()
	c.buf = appendNode(c.buf, w.leaf, w.ents)
	if c.moved != nil {
		c.moved[off] = at
	}
	c.maybeFlush()
	return at
}

// hasOutline reports whether the leaf at off has a value out of line.
func hasOutline(d []byte, off uint64) bool {
	for i := range nodeCount(d, off) {
		if d[entAt(d, off, i)+14]&leafFlagOutline != 0 {
			return true
		}
	}
	return false
}
