package serve

import (
	"errors"
	"io"
	"net"
	"os"
	"strconv"
	"syscall"
	"time"

	"workbench/pure/app"
	"workbench/pure/store"
)

// Buffer sizes of a connection.
const (
	readSize  = 4 << 10  // a connection's read buffer between big requests
	keepLimit = 64 << 10 // answer buffers larger than this are dropped when a connection is pooled
	copyMax   = 1 << 10  // bodies up to this size are copied into the answer buffer, larger ones lent
)

// conn is one connection's state. It is owned by the connection's
// goroutine from getConn to putConn, then pooled for the next connection.
//
// Buffer ownership: rbuf[r0:r1] holds received bytes not yet answered;
// parsed requests, app calls' Name/Query/Body point into it until the
// batch has been sent. wbuf holds the batch's answer heads and small
// bodies (it starts empty and grows to the largest batch's need: a few
// hundred bytes for one small GET, not a 4 KiB buffer per connection);
// iov points into wbuf, into borrowed store values and into app
// calls' Out until the vectored write returns. Only then are borrowed
// values released, calls reset and rbuf compacted.
type conn struct {
	s     *Server
	nc    net.Conn
	raw   rawIO // nc's socket through raw system calls (rawio.go)
	rawOK bool  // nc has a socket: read and write through raw

	rbuf      []byte
	small     *[readSize]byte // rbuf between big requests; nil while idle (rest)
	r0, r1    int
	need      int   // bytes the request at r0 needs in all, once its head is parsed; 0 before
	expect100 bool  // the request at r0 asked for 100 Continue
	sent100   bool  // and it was sent
	headStart int64 // coarse time the bytes at r0 began to arrive
	rdl, wdl  int64 // read and write deadlines set on nc, unix nanoseconds
	held      int64 // bytes of rbuf above readSize, reserved in Server.held

	req        request
	memo       headMemo // the last plain head's tail (parse_memo.go)
	ans        []answer
	wbuf       []byte
	iov        net.Buffers
	send       net.Buffers       // iov, consumed by WriteTo
	borrowed   []*store.Borrowed // lent values, filled by BorrowInto and kept for reuse
	nborrowed  int               // how many of borrowed are live in this batch
	calls      []*app.Call       // reusable calls; the batch uses calls[:ncalls]
	ncalls     int
	snap       *store.Snapshot // the batch's pinned snapshot (&snapBuf), taken at its first read
	snapBuf    store.Snapshot  // filled by SnapshotInto, so pinning allocates nothing
	key        []byte          // the store key of the request at hand; key[:len(s.prefix)] is always s.prefix
	names      map[string]string
	payload    int64                 // body bytes held by the batch
	closeAfter bool                  // close the connection once the batch is sent
	fatal      bool                  // because of a refused request: the client may still be sending
	lingers    bool                  // drain what the client still sends before closing (linger)
	stop       error                 // what ended step's loop; nil when a batch did
	stepFn     func(fd uintptr) bool // c.step, made once so the loop allocates nothing
	working    bool                  // holds a worker slot
}

// answer is one request's answer in a batch: its head (and small body) in
// wbuf[h0:h1], then body, sent as it is; or a pending app call whose head
// is built once it is answered.
type answer struct {
	h0, h1 int
	body   []byte
	call   *app.Call
	close  bool // Connection: close
	keep10 bool // Connection: keep-alive for an HTTP/1.0 client
	noBody bool // a HEAD request: the head only
	// file says body is sent from the store's file with sendfile(2): its
	// len(body) bytes at offset off of descriptor fd (Borrowed.Location),
	// held open by the batch's borrowed value.
	file bool
	fd   int
	off  int64
}

// newConn makes a connection's state, holding no read buffer: the first
// read takes one (makeRoom), and a pooled state gives its buffer back
// (recycle). The answer lists start small, sized for keep-alive clients
// that send one request at a time, and grow once to a pipelining
// client's batch (they are kept while the state is pooled).
//
// Why: 64 connections opened at once each took a 4 KiB read buffer here,
// before any of them had read, and kept it while pooled: 256 KiB of the
// server's peak under 64 keep-alive GET connections, with 2 KiB more per
// connection in answer lists sized for 16 pipelined requests (issue 11's
// peak RSS target).
func newConn(s *Server) *conn {
	c := &conn{
		s:     s,
		ans:   make([]answer, 0, 4),
		iov:   make(net.Buffers, 0, 8),
		key:   append(make([]byte, 0, 64), s.prefix...),
		names: make(map[string]string),
	}
	c.stepFn = c.step
	c.raw.init()
	return c
}

// recycle readies c for another connection: it keeps the answer buffer
// (up to keepLimit) and the answer lists, and gives the read buffer back.
func (c *conn) recycle() {
	c.nc, c.rawOK = nil, false
	c.raw.detach()
	c.r0, c.r1, c.need, c.expect100, c.sent100, c.headStart = 0, 0, 0, false, false, 0
	c.rdl, c.wdl, c.closeAfter, c.fatal, c.lingers, c.stop = 0, 0, false, false, false, nil
	c.req.reset()
	if len(c.rbuf) > readSize {
		c.resize(readSize)
	}
	if c.small != nil {
		smallBufs.Put(c.small) // a pooled state holds no read buffer
	}
	c.small, c.rbuf = nil, nil
	if cap(c.wbuf) > keepLimit {
		c.wbuf = nil
	}
}

// serve is the connection's goroutine: read what arrived, answer every
// complete request in it as one batch, send the batch in one vectored
// write, and again, until the client closes, a request asks to close, a
// timeout or an error ends it, or the server shuts down.
func (c *conn) serve() {
	defer c.s.putConn(c)
	var err error
	if c.rawOK {
		err = c.serveRaw()
	} else {
		for err == nil {
			if err = c.read(); err == nil && c.answer() {
				break
			}
		}
	}
	switch {
	case c.lingers:
		c.linger() // the client may still be sending
	case err != nil:
		c.readFailed(err)
	}
}

// serveRaw is serve's loop on a raw socket, run inside one RawConn.Read
// (see step): it returns what ended the connection, nil when a batch did.
func (c *conn) serveRaw() error {
	c.stop = nil
	err := c.raw.loop(c.stepFn)
	if c.stop != nil {
		return c.stop
	}
	return err
}

// step is the callback of the connection's one RawConn.Read: it reads,
// answers and sends, again and again, and returns false to wait for the
// socket to become readable, true once the connection ends (c.stop says
// why, nil when a batch ended it).
//
// Why inside one RawConn.Read: each RawConn.Read starts by clearing the
// socket's readiness (the poller's pollReset), so it must try a read before
// it may wait, and the read after a batch was answered nearly always finds
// nothing: the client has not had the answers yet. That empty read was a
// third of a pipelined batch's system calls. Within one RawConn.Read the
// readiness is never cleared again: each wait consumes the poller's
// notification of bytes that arrived since the last wait, or parks until
// bytes arrive. So after a read that left room in rbuf (the socket was
// drained then), step waits without reading again: bytes that arrive
// later, even during the batch, bring a new notification. After a read
// that filled rbuf it reads again at once, since more may be waiting.
//
// A connection takes its worker slot before it reads, not once it has read
// (batch takes it otherwise): one waiting for a slot then holds no read
// buffer. Taken after the read, 64 keep-alive GET connections queued for
// the two slots held 41 read buffers (164 KiB) at the peak, by hand.
func (c *conn) step(fd uintptr) bool {
	for {
		c.acquire() // batch gives it back before the answers are sent
		if err := c.readyToRead(); err != nil {
			c.release()
			c.stop = err
			return true
		}
		space := len(c.rbuf) - c.r1
		if space == 0 {
			c.release()
			c.stop = errors.New("serve: no room to read") // makeRoom leaves room: not reached
			return true
		}
		n, errno := c.raw.readFd(fd, c.rbuf[c.r1:])
		if errno == syscall.EAGAIN {
			c.rest()
			c.release()
			return false // nothing yet: wait for the poller
		}
		var rerr error
		switch {
		case errno != 0:
			rerr = errno
		case n == 0:
			rerr = io.EOF
		}
		if err := c.received(n, rerr); err != nil {
			c.release()
			c.stop = err
			return true
		}
		if c.answer() {
			return true
		}
		if n < space {
			// Drained at the read: later bytes notify the poller. Ready
			// the buffer and the deadline for what is pending first.
			if err := c.readyToRead(); err != nil {
				c.stop = err
				return true
			}
			c.rest()
			return false
		}
	}
}

// answer answers the complete requests in rbuf, batch by batch, and
// sends each; it returns true when the connection must end: a send failed,
// a request asked to close (c.lingers says whether to drain the client
// first), or the server is shutting down.
func (c *conn) answer() (end bool) {
	for {
		more := c.batch()
		if err := c.flush(); err != nil || c.closeAfter {
			c.lingers = err == nil && (c.fatal || c.r0 < c.r1)
			return true
		}
		if c.s.closing.Load() {
			return true // in-flight answers are out; the rest is not acknowledged
		}
		if !more {
			break
		}
	}
	c.compact()
	return false
}

// read reads more bytes into rbuf through nc (when the socket has no raw
// access; see step for the raw loop).
func (c *conn) read() error {
	if err := c.readyToRead(); err != nil {
		return err
	}
	n, err := c.nc.Read(c.rbuf[c.r1:])
	return c.received(n, err)
}

// readyToRead prepares the next read: it makes room in rbuf for the
// request at r0 (growing rbuf for a big head or body) and sends 100
// Continue if that request asked for it. It sets the read deadline: the
// idle timeout with nothing pending or a body pending, the header timeout
// (from the request's first byte) for a pending head.
func (c *conn) readyToRead() error {
	if c.r0 == c.r1 {
		c.headStart = 0
	}
	if !c.makeRoom() {
		c.release() // the send may wait for the client: hold no worker slot meanwhile
		c.errorAnswer(nil, &httpError{503, "the request bodies the server holds would exceed its payload budget of " +
			strconv.FormatInt(c.s.budget, 10) + " bytes; retry later, or raise --payload-budget"}, true)
		c.lingers = c.flush() == nil
		return errBusy
	}
	if c.expect100 && !c.sent100 {
		c.sent100 = true
		c.release() // as above
		if err := c.write100(); err != nil {
			return err
		}
	}
	dl := c.s.clock.now.Load() + c.s.idle
	if c.r1 > c.r0 && c.need == 0 {
		dl = c.headStart + c.s.header
	}
	// Move the deadline only when it must come sooner or would be more
	// than a second late: this keeps timer updates off most batches.
	if dl < c.rdl || dl > c.rdl+int64(time.Second) {
		if err := c.nc.SetReadDeadline(time.Unix(0, dl)); err != nil {
			return err
		}
		c.rdl = dl
	}
	if c.s.closing.Load() {
		return errShutdown
	}
	return nil
}

// received accounts for a read of n bytes into rbuf[r1:], or returns its
// error. The header timeout of a request counts from the read that brought
// its first bytes (the clock read then, not before a wait for them).
func (c *conn) received(n int, err error) error {
	if n > 0 {
		if c.r1 == c.r0 {
			c.headStart = c.s.clock.now.Load()
		}
		c.r1 += n
		return nil
	}
	if err == nil {
		err = errors.New("serve: empty read")
	}
	return err
}

var (
	errShutdown = errors.New("serve: shutting down")
	errBusy     = errors.New("serve: payload budget spent")
)

// linger half-closes the connection after a refusal and reads and drops
// what the client still sends (a refused body, pipelined requests), for at
// most a second or 1 MiB, so that the close does not find unread bytes and
// reset the connection before the client has read the refusal.
func (c *conn) linger() {
	hc, ok := c.nc.(interface{ CloseWrite() error })
	if !ok || hc.CloseWrite() != nil {
		return
	}
	if c.nc.SetReadDeadline(time.Now().Add(time.Second)) != nil {
		return
	}
	if c.rbuf == nil {
		c.wake()
	}
	buf := c.rbuf[:readSize]
	for n := 0; n < 1<<20; {
		m, err := c.nc.Read(buf)
		if err != nil {
			return
		}
		n += m
	}
}

// readFailed ends a connection whose read failed: a timeout in the middle
// of a request is answered 408, anything else just closes.
func (c *conn) readFailed(err error) {
	if c.r1 > c.r0 && errors.Is(err, os.ErrDeadlineExceeded) && !c.s.closing.Load() {
		c.errorAnswer(nil, &httpError{408, "the request did not arrive in time; send the whole head within the header timeout"}, true)
		c.flush()
	}
}

// write100 sends the interim answer to Expect: 100-continue.
func (c *conn) write100() error {
	if err := c.writeDeadline(); err != nil {
		return err
	}
	_, err := c.nc.Write([]byte("HTTP/1.1 100 Continue\r\n\r\n"))
	return err
}

// writeDeadline sets the idle timeout as the write deadline, coarsely.
func (c *conn) writeDeadline() error {
	dl := c.s.clock.now.Load() + c.s.idle
	if dl > c.wdl+int64(time.Second) {
		if err := c.nc.SetWriteDeadline(time.Unix(0, dl)); err != nil {
			return err
		}
		c.wdl = dl
	}
	return nil
}

// flush sends the batch's answers in one vectored write, then releases
// what they lent: borrowed values, app calls, the answer buffer. A body
// sent from the store's file splits the write: what comes before it (its
// own head included) goes first, then the body by sendfile, then the rest.
func (c *conn) flush() error {
	c.iov = c.iov[:0]
	// wbuf[run:end] is a range of heads and small bodies not yet in iov,
	// which the next answer's head extends when it starts at end: a batch
	// of small answers is one range, added to iov once.
	run, end := 0, 0
	var err error
	for i := range c.ans {
		a := &c.ans[i]
		if a.h1 > a.h0 {
			if a.h0 != end {
				if end > run {
					c.iov = append(c.iov, c.wbuf[run:end])
				}
				run = a.h0
			}
			end = a.h1
		}
		if !a.file && len(a.body) == 0 {
			continue
		}
		if end > run {
			c.iov = append(c.iov, c.wbuf[run:end])
		}
		run, end = 0, 0
		if a.file {
			if err = c.writeIov(true); err != nil {
				break
			}
			if err = c.writeDeadline(); err != nil {
				break
			}
			if err = c.raw.Sendfile(a.fd, a.off, len(a.body)); err != nil {
				break
			}
		} else {
			c.iov = append(c.iov, a.body)
		}
	}
	if err == nil {
		if end > run {
			c.iov = append(c.iov, c.wbuf[run:end])
		}
		err = c.writeIov(false)
	}
	clear(c.iov)
	c.iov = c.iov[:0]
	for _, b := range c.borrowed[:c.nborrowed] {
		b.Release()
	}
	c.nborrowed = 0
	for _, call := range c.calls[:c.ncalls] {
		call.Reset()
	}
	c.ncalls = 0
	clear(c.ans)
	c.ans = c.ans[:0]
	c.wbuf = c.wbuf[:0]
	return err
}

// writeIov sends what iov holds in one vectored write and empties it;
// more says a sendfile follows (raw sockets only).
func (c *conn) writeIov(more bool) error {
	if len(c.iov) == 0 {
		return nil
	}
	err := c.writeDeadline()
	if err == nil {
		if c.rawOK {
			err = c.raw.Writev(c.iov, more)
		} else {
			c.send = c.iov
			_, err = c.send.WriteTo(c.nc)
		}
	}
	clear(c.iov)
	c.iov = c.iov[:0]
	return err
}
