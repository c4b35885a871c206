package serve

import (
	"bytes"
	"encoding/binary"
	"strconv"

	"workbench/pure/app"
)

// batch answers every complete request in rbuf[r0:r1], in order, into
// c.ans and c.wbuf, and returns true when it stopped at the payload budget
// with complete requests left for another batch.
//
// Lifecycle: parse a request, dispatch it (a document read is answered at
// once from the batch's pinned snapshot; a document write commits; an app
// call is submitted and left pending), and go on while complete requests
// remain; then wait for the pending app calls in order and write their
// heads. So all the app calls of a batch are submitted before the first is
// waited for, and many inputs share one save. The caller sends the batch
// with flush.
func (c *conn) batch() (more bool) {
	c.acquire()
	defer c.release()
	c.payload = 0
	for !c.closeAfter && c.r0 < c.r1 {
		r := &c.req
		r.reset()
		buf := c.rbuf[c.r0:c.r1]
		n, docGet, err := c.parse(buf, r)
		if err != nil {
			c.errorAnswer(r, err, true)
			break
		}
		c.need, c.expect100 = 0, false
		if n == 0 {
			break // the head is incomplete
		}
		if r.length > c.s.budget {
			c.errorAnswer(r, &httpError{413, "request body of " + strconv.FormatInt(r.length, 10) +
				" bytes is over the payload budget of " + strconv.FormatInt(c.s.budget, 10) +
				" bytes; send less, or raise --payload-budget"}, true)
			break
		}
		if total := int64(n) + r.length; int64(len(buf)) < total {
			c.need, c.expect100 = int(total), r.expect100
			break // the body is incomplete
		}
		if len(c.ans) > 0 && c.payload+r.length > c.s.budget {
			more = true
			break
		}
		r.body = buf[n : n+int(r.length)]
		c.r0 += n + int(r.length)
		c.sent100 = false
		c.payload += r.length
		if docGet {
			// What dispatch and doc do for it: the key is plain (parseDocGet).
			k := r.path[len(docsPrefix):]
			c.key = append(c.key[:len(c.s.prefix)], k...)
			c.getDoc(r, k)
		} else {
			c.dispatch(r)
		}
		if r.close {
			c.closeAfter = true
		}
	}
	if c.r0 < c.r1 {
		c.headStart = c.s.clock.now.Load()
	}
	c.finish()
	return more && !c.closeAfter
}

// parse parses the head at the start of buf into r, as parseHead does.
// A head that repeats the last plain head's tail is taken by the memo path
// (headMemo); docGet then says it is a GET of a plain document key. Any
// other plain head is parseFast's, and its tail is remembered.
func (c *conn) parse(buf []byte, r *request) (n int, docGet bool, err error) {
	if n = c.memo.parseDocGet(buf, c.s.maxHead, r); n > 0 {
		return n, true, nil
	}
	if n = parseFast(buf, c.s.maxHead, r); n > 0 {
		c.memo.remember(buf, n, r)
		return n, false, nil
	}
	n, err = parseHeadNotFast(buf, c.s.maxHead, r)
	return n, false, err
}

// acquire and release hold the connection's worker slot while it computes.
func (c *conn) acquire() {
	if !c.working {
		c.s.acquireWorker()
		c.working = true
	}
}

func (c *conn) release() {
	if c.working {
		c.working = false
		c.s.releaseWorker()
	}
}

// Route prefixes.
const (
	docsPrefix   = "/docs/"
	viewsPrefix  = "/views/"
	inputsPrefix = "/inputs/"
)

// docsWord is docsPrefix's first four bytes as a little-endian word.
var docsWord = binary.LittleEndian.Uint32([]byte(docsPrefix))

// dispatch routes one complete request.
func (c *conn) dispatch(r *request) {
	p := r.path
	switch {
	case len(p) >= len(docsPrefix) && binary.LittleEndian.Uint32(p) == docsWord && p[4] == 's' && p[5] == '/':
		// bytes.HasPrefix(p, docsPrefix), without memequal's call
		c.doc(r, p[len(docsPrefix):])
	case bytes.HasPrefix(p, []byte(viewsPrefix)):
		c.appCall(r, app.View, p[len(viewsPrefix):])
	case bytes.HasPrefix(p, []byte(inputsPrefix)):
		c.appCall(r, app.Input, p[len(inputsPrefix):])
	default:
		c.errorAnswer(r, &httpError{404, "no route for " + quote(p, 200) +
			"; routes: GET or PUT /docs/<key>, POST /inputs/<name>, GET /views/<name>"}, false)
	}
}

// quote quotes b for an error message, cut to at most max bytes.
func quote(b []byte, max int) string {
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "..."
	}
	return strconv.Quote(string(b))
}

// newAnswer appends an answer for r, its head starting at the end of wbuf.
func (c *conn) newAnswer(r *request) *answer {
	c.ans = append(c.ans, answer{h0: len(c.wbuf), h1: len(c.wbuf)})
	a := &c.ans[len(c.ans)-1]
	if r != nil {
		a.close = r.close
		a.keep10 = r.minor == 0 && !r.close
		a.noBody = r.method == methodHEAD
	}
	return a
}

// answerBody writes an answer's head and body: a small body is copied
// after the head, a larger one is sent from where it is (lend says the
// bytes stay valid until the batch is sent).
func (c *conn) answerBody(a *answer, h *head, body []byte) {
	h.close, h.keep10 = a.close, a.keep10
	h.length = len(body)
	a.h0 = len(c.wbuf)
	if h.doc {
		c.wbuf = appendDocHead(c.wbuf, c.s.clock.docHead(), h.length, h.etag, h.close, h.keep10)
	} else {
		c.wbuf = appendHead(c.wbuf, h, c.s.clock.date())
	}
	if !a.noBody && len(body) <= copyMax {
		c.wbuf = append(c.wbuf, body...)
	} else if !a.noBody {
		a.body = body
	}
	a.h1 = len(c.wbuf)
	c.payload += int64(len(body))
}

// answerDoc answers a GET or HEAD of a document of at most copyMax bytes
// at revision rev, as newAnswer and answerBody would: its head and body go
// to wbuf. When the last answer is a range of wbuf that ends where this
// one starts (a small answer before it), that answer's range grows to take
// this one: flush sends adjacent ranges as one anyway, so a batch of small
// GETs is one answer, not one 72-byte answer appended, walked and cleared
// per request.
func (c *conn) answerDoc(r *request, val []byte, rev uint64) {
	h0 := len(c.wbuf)
	c.wbuf = appendDocHead(c.wbuf, c.s.clock.docHead(), len(val), rev, r.close, r.minor == 0 && !r.close)
	if r.method != methodHEAD {
		c.wbuf = append(c.wbuf, val...)
	}
	c.payload += int64(len(val))
	if n := len(c.ans); n > 0 {
		if a := &c.ans[n-1]; a.h1 == h0 && a.body == nil && a.call == nil && !a.file {
			a.h1 = len(c.wbuf)
			return
		}
	}
	c.ans = append(c.ans, answer{h0: h0, h1: len(c.wbuf)})
}

// errorAnswer answers r (nil when no request was parsed) with an error
// text; fatal closes the connection after it, as the request's framing is
// lost.
func (c *conn) errorAnswer(r *request, err error, fatal bool) {
	e, ok := err.(*httpError)
	if !ok {
		e = &httpError{500, err.Error()}
	}
	a := c.newAnswer(r)
	if fatal {
		a.close, a.keep10 = true, false
		c.closeAfter, c.fatal = true, true
	}
	a.noBody = false
	h := head{status: e.status, ctype: typeText}
	if e.status == 405 {
		h.allow = allowFor(r)
	}
	msg := append(append(append(make([]byte, 0, 64+len(e.msg)), statusWord(e.status)...), ": "...), e.msg...)
	c.answerBody(a, &h, append(msg, '\n'))
}

// allowFor is the Allow header of a 405 answer to r.
func allowFor(r *request) string {
	switch {
	case r == nil:
		return ""
	case bytes.HasPrefix(r.path, []byte(docsPrefix)):
		return "GET, HEAD, PUT"
	case bytes.HasPrefix(r.path, []byte(inputsPrefix)):
		return "POST"
	}
	return "GET, HEAD"
}

// finish waits for the batch's app calls in order and writes their heads,
// then unpins the batch's snapshot.
func (c *conn) finish() {
	if c.ncalls > 0 {
		c.release() // waiting is not work
		for i := range c.ans {
			if call := c.ans[i].call; call != nil {
				call.Wait()
			}
		}
		c.acquire()
		for i := range c.ans {
			a := &c.ans[i]
			if call := a.call; call != nil {
				h := head{status: call.Status, ctype: call.Type}
				c.answerBody(a, &h, call.Out)
			}
		}
	}
	c.unpin()
}

// unpin releases the batch's snapshot, if it took one.
func (c *conn) unpin() {
	if c.snap != nil {
		c.snap.Release()
		c.snap = nil
	}
}
