package serve

// A connection's read buffer: how it grows for a big request, the pools
// of buffers it is taken from and given back to, and the payload budget
// its bytes above readSize are reserved against.

import "sync"

// makeRoom grows rbuf when the pending request needs more than it holds:
// to its whole size once its head is parsed, or twice over (up to the head
// limit) while a long head fills it. The pending bytes start at rbuf[0]
// (compact put them there). It returns false when the server's payload
// budget cannot cover the bigger buffer.
func (c *conn) makeRoom() bool {
	if c.rbuf == nil {
		c.wake()
	}
	want := c.need
	if want == 0 && c.r1 == len(c.rbuf) {
		want = min(2*len(c.rbuf), c.s.maxHead+readSize)
	}
	if want <= len(c.rbuf) {
		return true
	}
	if want > bufClasses[len(bufClasses)-1] {
		want = (want + readSize - 1) / readSize * readSize // not pooled: whole pages
	}
	return c.resize(want)
}

// resize replaces rbuf with a buffer of size bytes holding the pending
// bytes. The bytes above readSize are reserved against the server's payload
// budget, which bounds the memory all connections hold for request bodies;
// it returns false, changing nothing, when the budget is spent.
func (c *conn) resize(size int) bool {
	if n := classSize(size); size > readSize && n > size && c.reserve(n) {
		size = n // a pooled size: the buffer goes back to the pool for the next big body
	} else if !c.reserve(size) {
		return false
	}
	c.req.reset() // its slices point into the old buffer and would keep it alive
	var buf []byte
	if size == readSize {
		if c.small == nil {
			c.small = smallBufs.Get().(*[readSize]byte)
		}
		buf = c.small[:]
	} else {
		buf = getBuf(size)
	}
	c.r1 = copy(buf, c.rbuf[c.r0:c.r1])
	outsized := len(c.rbuf) > readSize && bufClass(len(c.rbuf)) < 0
	if len(c.rbuf) > readSize {
		putBuf(c.rbuf)
	}
	if size > readSize && c.small != nil {
		// The small buffer is not used while the grown one is: give it
		// back rather than hold both while the request's commit waits.
		smallBufs.Put(c.small)
		c.small = nil
	}
	c.r0, c.rbuf = 0, buf
	if outsized {
		// Not pooled: return its memory (trim.go). Only now, once rbuf no
		// longer refers to it: the trimmer's collection may run at once
		// on another P, and one that still found the buffer referenced
		// left it resident until the next trim, a second later.
		c.s.trim.want()
	}
	return true
}

// reserve sets the bytes of a size-byte read buffer above readSize
// against the server's payload budget; it returns false, changing nothing,
// when the budget cannot cover them.
func (c *conn) reserve(size int) bool {
	extra := int64(max(size-readSize, 0))
	if delta := extra - c.held; delta > 0 {
		if c.s.held.Add(delta) > c.s.budget {
			c.s.held.Add(-delta)
			return false
		}
	} else {
		c.s.held.Add(delta)
	}
	c.held = extra
	return true
}

// Grown read buffers are pooled by size class, so that a connection whose
// every request has a body over 4 KiB (PUT writers whose documents grow)
// does not allocate and zero a buffer per request: that was 12 % of the
// server's CPU on such PUTs. sync.Pool drops what is not reused within two
// garbage collections, so the pools hold no memory for good. Larger
// buffers are allocated to size.
//
// The classes up to 16 KiB are the Go allocator's own size classes, so a
// request a little over 4 KiB holds a 4,864- or 5,376-byte buffer rather
// than 8 KiB (64 writers of 4.6 KB documents held 64 x 8 KiB at the peak
// of put-64c-same, probe 990); above 16 KiB they double up to 1 MiB.
var bufClasses = [...]int{4864, 5376, 6144, 6912, 8 << 10, 10 << 10, 12 << 10, 14 << 10, 16 << 10,
	32 << 10, 64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20}

var bigBufs [len(bufClasses)]sync.Pool // bigBufs[i] holds *[]byte of bufClasses[i] bytes

// classSize is the pooled size for a buffer of at least size bytes, or
// size when none is.
func classSize(size int) int {
	for _, n := range bufClasses {
		if size <= n {
			return n
		}
	}
	return size
}

// bufClass is the index of size in bufClasses, or -1.
func bufClass(size int) int {
	for i, n := range bufClasses {
		if size == n {
			return i
		}
	}
	return -1
}

func getBuf(size int) []byte {
	if i := bufClass(size); i >= 0 {
		if p, _ := bigBufs[i].Get().(*[]byte); p != nil {
			return *p
		}
	}
	return make([]byte, size)
}

func putBuf(b []byte) {
	if i := bufClass(len(b)); i >= 0 {
		bigBufs[i].Put(&b)
	}
}

// smallBufs pools the connections' readSize read buffers: a connection
// waiting for its next request holds none (rest), so idle keep-alive
// connections cost no read buffer, and under load only those being served
// hold one. 64 connections held 256 KiB of them for a few kept busy by
// two workers (issue 11's peak RSS target).
var smallBufs = sync.Pool{New: func() any { return new([readSize]byte) }}

// rest gives the read buffer back to smallBufs when nothing of a request
// is pending and the buffer is the connection's small one; makeRoom takes
// one again before the next read.
func (c *conn) rest() {
	if c.r0 != c.r1 || c.small == nil || len(c.rbuf) != readSize {
		return
	}
	c.req.reset() // its slices point into the buffer
	smallBufs.Put(c.small)
	c.small, c.rbuf, c.r0, c.r1 = nil, nil, 0, 0
}

// wake takes a read buffer from smallBufs for a connection at rest.
func (c *conn) wake() {
	c.small = smallBufs.Get().(*[readSize]byte)
	c.rbuf, c.r0, c.r1 = c.small[:], 0, 0
}

// compact moves a partial request to the front of rbuf once a batch was
// sent, and gives a grown buffer back once nothing big is pending.
func (c *conn) compact() {
	if len(c.rbuf) > readSize && c.r1-c.r0 <= readSize && c.need <= readSize {
		c.resize(readSize)
		return
	}
	if c.r0 > 0 {
		c.r1 = copy(c.rbuf, c.rbuf[c.r0:c.r1])
		c.r0 = 0
	}
}
