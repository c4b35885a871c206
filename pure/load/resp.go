package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// answer is what the reader keeps of one HTTP/1.1 response: the status,
// whether the server will close the connection after it, and its ETag
// (copied, so it outlives the read buffer).
type answer struct {
	status  int
	close   bool
	etagLen int
	etag    [maxETag]byte
}

// maxETag is the longest ETag value kept; a longer one is a parse error.
const maxETag = 96

// ETag returns the answer's ETag header value as sent (quotes included).
func (a *answer) ETag() []byte { return a.etag[:a.etagLen] }

// parseError is a response that is not valid HTTP/1.1 as this reader
// understands it.
type parseError struct{ what string }

func (e *parseError) Error() string { return "bad response: " + e.what }

var (
	errHeadTooBig = &parseError{"response head larger than the read buffer"}
	errStatus     = &parseError{`status line is not "HTTP/1.x NNN ..."`}
	errHeaderLine = &parseError{"header line without a colon"}
	errLength     = &parseError{"bad or conflicting Content-Length"}
	errChunk      = &parseError{"bad chunk size line"}
	errChunkEnd   = &parseError{"chunk data not followed by CRLF"}
	errETag       = &parseError{fmt.Sprintf("ETag longer than %d bytes", maxETag)}
)

// respReader reads HTTP/1.1 responses from one connection through one
// large buffer, without allocating: the head is parsed in place, bodies are
// skipped (or appended to a caller's slice), chunked bodies are decoded.
// readAt is the clock reading taken after the last read call returned, so
// an answer completed by that read is dated by it. A respReader belongs to
// one goroutine.
type respReader struct {
	src    io.Reader
	buf    []byte
	r, w   int
	clock  func() int64
	readAt int64
}

// compactBelow is the free tail below which fill moves the unread bytes to
// the front of the buffer before reading.
const compactBelow = 4096

func newRespReader(size int, clock func() int64) *respReader {
	return &respReader{buf: make([]byte, size), clock: clock}
}

// reset attaches the reader to a new connection, dropping buffered bytes.
func (rd *respReader) reset(src io.Reader) {
	rd.src, rd.r, rd.w = src, 0, 0
}

// fill reads more bytes after the buffered ones, moving them to the front
// first when the buffer's tail is full.
func (rd *respReader) fill() error {
	if rd.r > 0 && len(rd.buf)-rd.w < compactBelow {
		rd.w = copy(rd.buf, rd.buf[rd.r:rd.w])
		rd.r = 0
	} else if rd.r == rd.w {
		rd.r, rd.w = 0, 0
	}
	if rd.w == len(rd.buf) {
		return errHeadTooBig
	}
	n, err := rd.src.Read(rd.buf[rd.w:])
	rd.readAt = rd.clock()
	rd.w += n
	if n > 0 {
		return nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return err
}

// read parses the next response into a. The body is appended to *body
// when body is not nil and skipped otherwise.
func (rd *respReader) read(a *answer, body *[]byte) error {
	for {
		if err := rd.readOne(a, body); err != nil {
			return err
		}
		if a.status >= 200 || a.status == 101 {
			return nil
		}
		// 1xx interim answers (100 Continue) precede the real one.
	}
}

func (rd *respReader) readOne(a *answer, body *[]byte) error {
	var length int64
	var chunked bool
	for {
		n, l, c, err := parseHead(rd.buf[rd.r:rd.w], a)
		if err != nil {
			return err
		}
		if n > 0 {
			rd.r += n
			length, chunked = l, c
			break
		}
		if err := rd.fill(); err != nil {
			return err
		}
	}
	switch {
	case a.status < 200 || a.status == 204 || a.status == 304:
		return nil
	case chunked:
		return rd.chunked(body)
	case length >= 0:
		return rd.skip(length, body)
	default:
		// No length: the body runs to the end of the connection.
		a.close = true
		for {
			rd.take(rd.w-rd.r, body)
			if err := rd.fill(); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
		}
	}
}

// parseHead parses the response head at the start of b, in one pass: the
// status line and the headers the load generator needs, line by line up
// to the empty line that ends the head. n is the head's length with that
// line, or 0 when b does not hold a whole head yet (nothing else is
// meaningful then; the caller reads more and parses b again from its
// start). length is -1 when there is no Content-Length. A malformed
// status or header line is an error as soon as the line is whole.
//
// Why one pass: searching for the blank line first and then cutting the
// head into lines read every head twice; the search, the cutting and the
// header comparisons were a fifth of the generator's CPU on pipelined small
// GETs (probe 995's perf profile).
func parseHead(b []byte, a *answer) (n int, length int64, chunked bool, err error) {
	a.status, a.close, a.etagLen = 0, false, 0
	length = -1
	line, rest, ok := cutLine(b)
	if !ok {
		return 0, 0, false, nil
	}
	// "HTTP/1.1 200 OK"
	if len(line) < 12 || string(line[:7]) != "HTTP/1." || line[8] != ' ' ||
		(len(line) > 12 && line[12] != ' ') {
		return 0, 0, false, errStatus
	}
	for _, c := range line[9:12] {
		if c < '0' || c > '9' {
			return 0, 0, false, errStatus
		}
		a.status = a.status*10 + int(c-'0')
	}
	if line[7] == '0' {
		a.close = true // HTTP/1.0 closes unless told otherwise
	}
	for {
		if line, rest, ok = cutLine(rest); !ok {
			return 0, 0, false, nil
		}
		if len(line) == 0 {
			return len(b) - len(rest), length, chunked, nil
		}
		// Headers named as servers usually spell them are recognised by
		// their prefix (a few word compares, no search for the colon):
		// the ones the generator skips end here, the ones it uses go on
		// with their name and value. Any other spelling takes the general
		// path: the colon found, the name compared ignoring case.
		// The first letter picks the prefix to compare, and each compare
		// is of at most 8 bytes, done inline.
		var name, value []byte
		switch line[0] {
		case 'D':
			if hasPrefix(line, "Date:") {
				continue
			}
		case 'C':
			if hasPrefix(line, "Content-") {
				if after := line[len("Content-"):]; hasPrefix(after, "Type:") {
					continue
				} else if hasPrefix(after, "Length:") {
					name, value = line[:len("Content-Length")], line[len("Content-Length:"):]
				}
			}
		case 'E':
			if hasPrefix(line, "ETag:") {
				name, value = line[:len("ETag")], line[len("ETag:"):]
			}
		}
		if name == nil {
			colon := bytes.IndexByte(line, ':')
			if colon <= 0 {
				return 0, 0, false, errHeaderLine
			}
			name, value = line[:colon], line[colon+1:]
		}
		// The name's length picks the one name it can be, so most other
		// headers are skipped after one comparison, Date (as long as
		// ETag) after a look at its first letter, and only a header the
		// generator uses has its value trimmed.
		switch len(name) {
		case len("Content-Length"):
			if string(name) == "Content-Length" || bytes.EqualFold(name, []byte("Content-Length")) {
				v, ok := parseDecimal(trimSpace(value))
				if !ok || (length >= 0 && v != length) {
					return 0, 0, false, errLength
				}
				length = v
			}
		case len("Transfer-Encoding"):
			if bytes.EqualFold(name, []byte("Transfer-Encoding")) {
				chunked = hasToken(value, "chunked")
			}
		case len("Connection"):
			if bytes.EqualFold(name, []byte("Connection")) {
				if hasToken(value, "close") {
					a.close = true
				} else if hasToken(value, "keep-alive") {
					a.close = false
				}
			}
		case len("ETag"):
			if string(name) == "ETag" || name[0]|0x20 == 'e' && bytes.EqualFold(name, []byte("ETag")) {
				value = trimSpace(value)
				if len(value) > maxETag {
					return 0, 0, false, errETag
				}
				a.etagLen = copy(a.etag[:], value)
			}
		}
	}
}

// hasPrefix reports whether line starts with p, exactly.
func hasPrefix(line []byte, p string) bool {
	return len(line) >= len(p) && string(line[:len(p)]) == p
}

// trimSpace is bytes.TrimSpace, with the usual header value (one space,
// then printable ASCII) done without the call.
func trimSpace(v []byte) []byte {
	if len(v) > 1 && v[0] == ' ' && v[1] > ' ' && v[1] < 0x7f && v[len(v)-1] > ' ' && v[len(v)-1] < 0x7f {
		return v[1:]
	}
	return bytes.TrimSpace(v)
}

// cutLine splits b at its first CRLF; ok is false when b has none. It
// looks for the LF (one IndexByte, faster than searching for two bytes)
// and checks the CR before it, going on past a bare LF.
func cutLine(b []byte) (line, rest []byte, ok bool) {
	from := 0
	for {
		i := bytes.IndexByte(b[from:], '\n')
		if i < 0 {
			return b, nil, false
		}
		i += from
		if i > 0 && b[i-1] == '\r' {
			return b[:i-1], b[i+1:], true
		}
		from = i + 1
	}
}

// hasToken reports whether the comma-separated list v holds tok, ignoring
// case.
func hasToken(v []byte, tok string) bool {
	for len(v) > 0 {
		var item []byte
		if i := bytes.IndexByte(v, ','); i >= 0 {
			item, v = v[:i], v[i+1:]
		} else {
			item, v = v, nil
		}
		if bytes.EqualFold(bytes.TrimSpace(item), []byte(tok)) {
			return true
		}
	}
	return false
}

func parseDecimal(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// take consumes n buffered bytes, appending them to *body if body is not
// nil.
func (rd *respReader) take(n int, body *[]byte) {
	if body != nil {
		*body = append(*body, rd.buf[rd.r:rd.r+n]...)
	}
	rd.r += n
}

// skip consumes n body bytes, reading as needed.
func (rd *respReader) skip(n int64, body *[]byte) error {
	for n > 0 {
		if rd.r == rd.w {
			if err := rd.fill(); err != nil {
				return unexpectedEOF(err)
			}
		}
		k := int64(rd.w - rd.r)
		if k > n {
			k = n
		}
		rd.take(int(k), body)
		n -= k
	}
	return nil
}

// line returns the next CRLF-terminated line (without the CRLF), reading
// as needed; the line stays valid until the next read.
func (rd *respReader) line() ([]byte, error) {
	for {
		if i := bytes.Index(rd.buf[rd.r:rd.w], []byte("\r\n")); i >= 0 {
			l := rd.buf[rd.r : rd.r+i]
			rd.r += i + 2
			return l, nil
		}
		if err := rd.fill(); err != nil {
			return nil, unexpectedEOF(err)
		}
	}
}

// chunked decodes a chunked body and its trailer.
func (rd *respReader) chunked(body *[]byte) error {
	for {
		l, err := rd.line()
		if err != nil {
			return err
		}
		if i := bytes.IndexByte(l, ';'); i >= 0 {
			l = l[:i]
		}
		l = bytes.TrimSpace(l)
		if len(l) == 0 || len(l) > 15 {
			return errChunk
		}
		var size int64
		for _, c := range l {
			switch {
			case c >= '0' && c <= '9':
				size = size<<4 | int64(c-'0')
			case c >= 'a' && c <= 'f':
				size = size<<4 | int64(c-'a'+10)
			case c >= 'A' && c <= 'F':
				size = size<<4 | int64(c-'A'+10)
			default:
				return errChunk
			}
		}
		if size == 0 {
			for { // trailer fields up to an empty line
				l, err := rd.line()
				if err != nil {
					return err
				}
				if len(l) == 0 {
					return nil
				}
			}
		}
		if err := rd.skip(size, body); err != nil {
			return err
		}
		l, err = rd.line()
		if err != nil {
			return err
		}
		if len(l) != 0 {
			return errChunkEnd
		}
	}
}

func unexpectedEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
