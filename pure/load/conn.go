package load

import (
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"
)

// readBufSize is each connection's read buffer: large, so that a batch of
// pipelined answers (or a big body) takes few read calls.
const readBufSize = 64 << 10

// worker is one connection's goroutine and everything it owns: its
// counters and histogram are written by it alone and read by Run after it
// ends.
type worker struct {
	r    *runner
	id   int
	src  source
	rd   *respReader
	wbuf []byte
	body []byte // the answer body when the source keeps it
	ans  answer

	mu   sync.Mutex // guards conn against halt
	conn *sock      // sk while a connection is open, else nil
	sk   *sock      // the worker's socket, reused for each connection

	addr  sockAddr // the worker's own copy of the target's address
	fresh bool     // no batch written on conn yet: a write error is the connect's

	deadlineAt int64 // clock reading when the deadline was last set
	seq        int64 // the connection's own request counter
	nextAt     int64 // with a rate: clock reading at which the next batch may leave

	requests, ok, non2xx, connects int64
	errs                           Errors
	hist                           Histogram
}

func newWorker(r *runner, id int, src source) *worker {
	w := &worker{r: r, id: id, src: src, seq: int64(id), sk: newSock(), addr: r.addr}
	w.rd = newRespReader(readBufSize, r.clock)
	return w
}

// loop sends batches until the run ends.
func (w *worker) loop() {
	defer w.closeConn()
	d := w.r.cfg.Pipeline
	for !w.r.stop.Load() {
		n, seq := d, w.seq
		if w.r.end == 0 {
			if n, seq = w.r.claim(d); n == 0 {
				return
			}
		} else if w.r.clock() >= w.r.end {
			return
		}
		w.seq += int64(n)
		if !w.pace() {
			return
		}
		if !w.batch(n, seq) {
			return
		}
	}
}

// pace waits, with a rate, until the worker's next batch may leave, and
// moves its schedule on by one interval (from now when it is behind: no
// catching up). It returns false when the run ends while it waits.
func (w *worker) pace() bool {
	if w.r.interval == 0 {
		return true
	}
	now := w.r.clock()
	if w.nextAt == 0 {
		w.nextAt = now + w.r.interval*int64(w.id)/int64(w.r.cfg.Connections)
	}
	if wait := w.nextAt - now; wait > 0 {
		if w.r.end > 0 && w.nextAt >= w.r.end {
			return false
		}
		t := time.NewTimer(time.Duration(wait))
		select {
		case <-t.C:
		case <-w.r.quit:
			t.Stop()
			return false
		}
		now = w.nextAt
	}
	w.nextAt = max(w.nextAt, now) + w.r.interval
	return true
}

// batch sends n requests numbered from seq and reads their answers,
// counting each request's outcome. It returns false when the run was
// stopped under it (nothing more is counted then).
func (w *worker) batch(n int, seq int64) bool {
	if w.conn == nil {
		if err := w.dial(); err != nil {
			if w.r.stop.Load() {
				return false
			}
			w.fail(&w.errs.Connect, n)
			if isTimeout(err) {
				w.errs.Connect -= int64(n)
				w.errs.Timeout += int64(n)
			}
			time.Sleep(10 * time.Millisecond) // do not spin on a dead server
			return true
		}
	}
	b := w.wbuf[:0]
	for i := range n {
		b = w.src.next(b, seq+int64(i))
	}
	w.wbuf = b
	t0 := w.r.clock()
	w.setDeadline(t0)
	fresh := w.fresh
	w.fresh = false
	if _, err := w.conn.Write(b); err != nil {
		if w.r.stop.Load() {
			return false
		}
		if fresh && isConnectErrno(err) {
			w.fail(&w.errs.Connect, n)
			time.Sleep(10 * time.Millisecond) // do not spin on a dead server
		} else if isTimeout(err) {
			w.fail(&w.errs.Timeout, n)
		} else {
			w.fail(&w.errs.Write, n)
		}
		return true
	}
	for i := range n {
		var body *[]byte
		if w.src.keepBody() {
			w.body = w.body[:0]
			body = &w.body
		}
		if err := w.rd.read(&w.ans, body); err != nil {
			if w.r.stop.Load() {
				return false
			}
			w.fail(w.kind(err), n-i)
			return true
		}
		w.hist.Record(time.Duration(max(w.rd.readAt-t0, 0)))
		w.requests++
		if s := w.ans.status; s >= 200 && s < 300 {
			w.ok++
		} else {
			w.non2xx++
		}
		w.src.answered(&w.ans, w.body)
		if w.ans.close && i < n-1 {
			w.fail(&w.errs.Closed, n-i-1)
			return true
		}
	}
	if w.ans.close || w.r.cfg.Close {
		w.closeConn()
	}
	return true
}

// fail counts n unanswered requests as errors of one kind, tells the
// source and drops the connection.
func (w *worker) fail(kind *int64, n int) {
	*kind += int64(n)
	w.requests += int64(n)
	w.src.failed()
	w.closeConn()
}

// kind returns the error counter a read error belongs to.
func (w *worker) kind(err error) *int64 {
	var pe *parseError
	switch {
	case errors.As(err, &pe):
		return &w.errs.Parse
	case isTimeout(err):
		return &w.errs.Timeout
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return &w.errs.Closed
	}
	return &w.errs.Read
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// dial opens a connection (rawDial); if the run was stopped meanwhile it closes it
// again and reports that.
func (w *worker) dial() error {
	fd, err := rawDial(&w.addr)
	if err != nil {
		return err
	}
	w.connects++
	w.sk.open(fd)
	w.mu.Lock()
	w.conn = w.sk
	w.mu.Unlock()
	if w.r.stop.Load() {
		w.closeConn()
		return errStopped
	}
	w.rd.reset(w.conn)
	w.fresh = true
	w.deadlineAt = -1 << 62
	return nil
}

var errStopped = errors.New("run stopped")

func (w *worker) closeConn() {
	w.mu.Lock()
	if w.conn != nil {
		w.conn.Close()
		w.conn = nil
	}
	w.mu.Unlock()
}

// setDeadline moves the connection's deadline to now+timeout, but only
// when the last move is older than 1/64 of the timeout: a batch then gets
// between 63/64 of the timeout and the whole of it, and most batches make
// no deadline call.
func (w *worker) setDeadline(now int64) {
	to := int64(w.r.cfg.Timeout)
	if to == 0 || now-w.deadlineAt < to/64 {
		return
	}
	w.deadlineAt = now
	w.conn.SetDeadline(w.r.base.Add(time.Duration(now + to)))
	if w.r.stop.Load() {
		// halt may have passed this connection just before: do its work.
		w.conn.SetDeadline(time.Unix(1, 0))
	}
}
