package serve

import (
	"strconv"
	"sync/atomic"
	"time"
)

// Content types of the host's own answers.
const (
	typeText  = "text/plain; charset=utf-8"
	typeBytes = "application/octet-stream"
)

// statusLine returns the status line of an answer, with its CRLF.
func statusLine(status int) string {
	switch status {
	case 100:
		return "HTTP/1.1 100 Continue\r\n"
	case 200:
		return "HTTP/1.1 200 OK\r\n"
	case 400:
		return "HTTP/1.1 400 Bad Request\r\n"
	case 404:
		return "HTTP/1.1 404 Not Found\r\n"
	case 405:
		return "HTTP/1.1 405 Method Not Allowed\r\n"
	case 408:
		return "HTTP/1.1 408 Request Timeout\r\n"
	case 409:
		return "HTTP/1.1 409 Conflict\r\n"
	case 411:
		return "HTTP/1.1 411 Length Required\r\n"
	case 412:
		return "HTTP/1.1 412 Precondition Failed\r\n"
	case 413:
		return "HTTP/1.1 413 Content Too Large\r\n"
	case 417:
		return "HTTP/1.1 417 Expectation Failed\r\n"
	case 431:
		return "HTTP/1.1 431 Request Header Fields Too Large\r\n"
	case 500:
		return "HTTP/1.1 500 Internal Server Error\r\n"
	case 503:
		return "HTTP/1.1 503 Service Unavailable\r\n"
	case 505:
		return "HTTP/1.1 505 HTTP Version Not Supported\r\n"
	}
	return "HTTP/1.1 " + strconv.Itoa(status) + " Status\r\n"
}

// statusWord is the lower-case reason phrase that starts an error body,
// as in "not found: no document \"x\"".
func statusWord(status int) string {
	switch status {
	case 400:
		return "bad request"
	case 404:
		return "not found"
	case 405:
		return "method not allowed"
	case 408:
		return "request timeout"
	case 409:
		return "conflict"
	case 411:
		return "length required"
	case 412:
		return "precondition failed"
	case 413:
		return "content too large"
	case 417:
		return "expectation failed"
	case 431:
		return "request header fields too large"
	case 500:
		return "internal server error"
	case 503:
		return "service unavailable"
	case 505:
		return "http version not supported"
	}
	return "error " + strconv.Itoa(status)
}

// head describes one answer's head.
type head struct {
	status int
	ctype  string // Content-Type; "" for none
	length int    // Content-Length
	etag   uint64 // ETag revision; 0 for none
	allow  string // Allow header for 405; "" for none
	close  bool   // Connection: close
	keep10 bool   // Connection: keep-alive (an HTTP/1.0 client that asked for it)
	// doc says the head is a document's: status 200, ctype typeBytes, no
	// allow; it is written by appendDocHead.
	doc bool
}

// appendHead appends an answer's status line and headers, with the blank
// line, to b. Numbers are written with strconv's Append functions, never
// through fmt.
func appendHead(b []byte, h *head, date []byte) []byte {
	b = append(b, statusLine(h.status)...)
	b = append(b, date...)
	if h.ctype != "" {
		b = append(b, "Content-Type: "...)
		b = append(b, h.ctype...)
		b = append(b, '\r', '\n')
	}
	b = append(b, "Content-Length: "...)
	b = strconv.AppendUint(b, uint64(h.length), 10)
	b = append(b, '\r', '\n')
	if h.etag != 0 {
		b = append(b, "ETag: \""...)
		b = strconv.AppendUint(b, h.etag, 10)
		b = append(b, '"', '\r', '\n')
	}
	if h.allow != "" {
		b = append(b, "Allow: "...)
		b = append(b, h.allow...)
		b = append(b, '\r', '\n')
	}
	return appendHeadEnd(b, h)
}

// appendDocHead appends what appendHead appends for a document's answer
// (status 200, Content-Type typeBytes, no Allow) of length bytes at
// revision etag (0 for none), given docHead, the status line, Date and
// Content-Type lines and "Content-Length: " as one string
// (dateClock.docHead): one copy instead of four appends and a status
// lookup, and no head to fill in.
func appendDocHead(b []byte, docHead []byte, length int, etag uint64, close, keep10 bool) []byte {
	b = append(b, docHead...)
	b = appendDec(b, uint64(length))
	if etag != 0 {
		b = append(b, "\r\nETag: \""...)
		b = appendDec(b, etag)
		b = append(b, '"')
	}
	switch {
	case close:
		return append(b, "\r\nConnection: close\r\n\r\n"...)
	case keep10:
		return append(b, "\r\nConnection: keep-alive\r\n\r\n"...)
	}
	return append(b, '\r', '\n', '\r', '\n')
}

// appendHeadEnd appends a head's Connection line, if any, and the blank
// line that ends it.
func appendHeadEnd(b []byte, h *head) []byte {
	if h.close {
		b = append(b, "Connection: close\r\n"...)
	} else if h.keep10 {
		b = append(b, "Connection: keep-alive\r\n"...)
	}
	return append(b, '\r', '\n')
}

// appendDec appends n in decimal: numbers under 10,000 by pairs of digits
// from decPairs, larger ones with strconv.
func appendDec(b []byte, n uint64) []byte {
	switch {
	case n < 10:
		return append(b, byte('0'+n))
	case n < 100:
		return append(b, decPairs[2*n], decPairs[2*n+1])
	case n < 1000:
		hi, lo := n/100, n%100
		return append(b, byte('0'+hi), decPairs[2*lo], decPairs[2*lo+1])
	case n < 10000:
		hi, lo := n/100, n%100
		return append(b, decPairs[2*hi], decPairs[2*hi+1], decPairs[2*lo], decPairs[2*lo+1])
	}
	return strconv.AppendUint(b, n, 10)
}

// decPairs holds the two digits of each number under 100.
const decPairs = "00010203040506070809" + "10111213141516171819" + "20212223242526272829" + "30313233343536373839" +
	"40414243444546474849" + "50515253545556575859" + "60616263646566676869" + "70717273747576777879" +
	"80818283848586878889" + "90919293949596979899"

// dateClock keeps the Date header line, "Date: <IMF-fixdate>\r\n", with
// the start of a document answer's head built around it, and a coarse
// clock for deadlines, all refreshed once a second by one goroutine and
// read by every connection with one atomic load.
type dateClock struct {
	lines atomic.Pointer[dateLines]
	now   atomic.Int64 // unix nanoseconds at the last refresh
	stop  chan struct{}
	done  chan struct{}
}

// dateLines are the clock's texts for one second.
type dateLines struct {
	date []byte // "Date: <IMF-fixdate>\r\n"
	doc  []byte // a document answer's head up to its length: see appendDocHead
}

// newDateClock returns a clock set to now; start refreshes it.
func newDateClock() *dateClock {
	d := &dateClock{stop: make(chan struct{}), done: make(chan struct{})}
	d.set(time.Now())
	return d
}

func (d *dateClock) set(t time.Time) {
	b := make([]byte, 0, 128)
	b = append(b, statusLine(200)...)
	at := len(b)
	b = append(b, "Date: "...)
	b = t.UTC().AppendFormat(b, "Mon, 02 Jan 2006 15:04:05 GMT")
	b = append(b, '\r', '\n')
	end := len(b)
	b = append(b, "Content-Type: "+typeBytes+"\r\nContent-Length: "...)
	d.lines.Store(&dateLines{date: b[at:end:end], doc: b})
	d.now.Store(t.UnixNano())
}

// run refreshes the clock every second until stopped.
func (d *dateClock) run() {
	defer close(d.done)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case now := <-t.C:
			d.set(now)
		case <-d.stop:
			return
		}
	}
}

// date returns the current Date header line.
func (d *dateClock) date() []byte { return d.lines.Load().date }

// docHead returns the start of a document answer's head for this second:
// its status line, Date and Content-Type lines and "Content-Length: ".
func (d *dateClock) docHead() []byte { return d.lines.Load().doc }
