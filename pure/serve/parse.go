package serve

import (
	"bytes"
	"encoding/binary"
)

// method is a request method the host knows; anything else is methodOther.
type method uint8

const (
	methodOther method = iota
	methodGET
	methodHEAD
	methodPUT
	methodPOST
)

// request is one parsed request. Every slice points into the connection's
// read buffer and is valid until the batch that parsed it has been sent.
type request struct {
	method    method
	methodRaw []byte // the method token as sent
	target    []byte // the request-target as sent
	path      []byte // target up to '?'
	query     []byte // target after '?', without it; nil when there is none
	minor     uint8  // HTTP/1.minor: 0 or 1
	close     bool   // the connection closes after this request's answer

	hasLength   bool
	length      int64  // Content-Length; 0 without one
	ifMatch     []byte // raw If-Match value; nil when absent
	ifNoneMatch []byte // raw If-None-Match value; nil when absent
	expect100   bool   // Expect: 100-continue

	headLen int    // bytes of the request line and headers, with the blank line
	body    []byte // the body, once complete
}

// reset clears r for reuse, keeping nothing from the last request.
func (r *request) reset() { *r = request{} }

// httpError is a refusal found while parsing or routing: the status to
// answer and a text saying what was wrong and what to do.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return statusWord(e.status) + ": " + e.msg }

// Parse errors, each final for its connection: after one of them the
// request's framing is unknown, so the connection is answered and closed.
var (
	errBareLF       = &httpError{400, "bare LF line ending; end every line of the request line and headers with CRLF"}
	errRequestLine  = &httpError{400, "malformed request line; send METHOD SP /path SP HTTP/1.1 CRLF"}
	errMethod       = &httpError{400, "malformed method; a method is a token such as GET"}
	errTarget       = &httpError{400, "malformed request target; send an origin-form path starting with '/', without spaces, control bytes or '#'"}
	errVersion      = &httpError{400, "malformed HTTP version; send HTTP/1.1 or HTTP/1.0"}
	errVersionMajor = &httpError{505, "only HTTP/1.0 and HTTP/1.1 are served"}
	errObsFold      = &httpError{400, "header line starts with whitespace (obsolete line folding); send each header on one line"}
	errHeaderName   = &httpError{400, "malformed header name; a header is NAME: VALUE with a token name and no space before the colon"}
	errHeaderValue  = &httpError{400, "malformed header value; a value may not hold control bytes other than tab"}
	errLength       = &httpError{400, "malformed Content-Length; send one decimal number of at most 18 digits"}
	errLengthTwice  = &httpError{400, "differing Content-Length headers; send one"}
	errLengthAndTE  = &httpError{400, "Content-Length together with Transfer-Encoding; send only Content-Length"}
	errTENotChunked = &httpError{400, "Transfer-Encoding whose last coding is not chunked; the body's end cannot be found"}
	errTE10         = &httpError{400, "Transfer-Encoding in an HTTP/1.0 request"}
	errChunked      = &httpError{411, "chunked request bodies are not supported; send the body with a Content-Length"}
	errHostTwice    = &httpError{400, "more than one Host header; send one"}
	errExpect       = &httpError{417, "only Expect: 100-continue is understood"}
	errHeadTooLarge = &httpError{431, "request line and headers too large; keep them under the header limit"}
)

// parseHead parses the request line and headers at the start of buf into r.
// It returns (0, nil) while the head is incomplete, the head's length once
// the blank line ending it is in buf, or an error for a malformed head.
// maxHead bounds the head: an incomplete head already that long is an error.
// Lines must end with CRLF: a bare LF is refused, since servers that accept
// it and servers that do not disagree on where a request ends (smuggling).
//
// Up to maxBlankLines empty lines before the request line are skipped, as
// RFC 9112 asks (some clients send CRLF after a body).
func parseHead(buf []byte, maxHead int, r *request) (int, error) {
	if n := parseFast(buf, maxHead, r); n > 0 {
		return n, nil // a plain head (parseFast never takes blank lines)
	}
	return parseHeadNotFast(buf, maxHead, r)
}

// parseHeadNotFast is parseHead for a head parseFast did not take (it
// returned 0); the connection calls it after its own parseFast, whose
// result it remembers (headMemo).
func parseHeadNotFast(buf []byte, maxHead int, r *request) (int, error) {
	r.reset() // the fast path may have filled some fields
	skip := 0
	for skip < 2*maxBlankLines && len(buf) >= skip+2 && buf[skip] == '\r' && buf[skip+1] == '\n' {
		skip += 2
	}
	if skip == 0 {
		return parseHeadSlow(buf, maxHead, r)
	}
	n, err := parseHeadAt(buf[skip:], maxHead, r)
	if n > 0 {
		n += skip
		r.headLen = n
	}
	return n, err
}

// maxBlankLines is how many empty lines parseHead skips before a request.
const maxBlankLines = 4

// parseHeadAt is parseHead for a head starting at buf[0]: the fast path
// for a complete, plain head (parseFast), else the general parser.
func parseHeadAt(buf []byte, maxHead int, r *request) (int, error) {
	if n := parseFast(buf, maxHead, r); n > 0 {
		return n, nil
	}
	r.reset() // the fast path may have filled some fields
	return parseHeadSlow(buf, maxHead, r)
}

// parseHeadSlow is the general parser behind parseHeadAt: each line is
// found first (its LF), then checked, so an incomplete head waits for
// more bytes and a malformed one gets the error of its first bad line.
func parseHeadSlow(buf []byte, maxHead int, r *request) (int, error) {
	if len(buf) > maxHead {
		buf = buf[:maxHead]
	}
	eol := bytes.IndexByte(buf, '\n')
	if eol < 0 {
		return 0, incomplete(buf, maxHead)
	}
	if eol == 0 || buf[eol-1] != '\r' {
		return 0, errBareLF
	}
	if err := parseRequestLine(buf[:eol-1], r); err != nil {
		return 0, err
	}
	pos := eol + 1
	var h headerState
	for {
		rest := buf[pos:]
		eol = bytes.IndexByte(rest, '\n')
		if eol < 0 {
			return 0, incomplete(buf, maxHead)
		}
		if eol == 0 || rest[eol-1] != '\r' {
			return 0, errBareLF
		}
		line := rest[:eol-1]
		pos += eol + 1
		if len(line) == 0 {
			break
		}
		if err := h.header(line, r); err != nil {
			return 0, err
		}
	}
	if err := h.finish(r); err != nil {
		return 0, err
	}
	r.headLen = pos
	return pos, nil
}

// incomplete is parseHead's answer for a head without its end yet: wait
// for more bytes, unless the limit is already reached.
func incomplete(buf []byte, maxHead int) error {
	if len(buf) >= maxHead {
		return errHeadTooLarge
	}
	return nil
}

// parseRequestLine parses METHOD SP target SP HTTP/1.x (without CRLF).
func parseRequestLine(line []byte, r *request) error {
	sp := bytes.IndexByte(line, ' ')
	if sp <= 0 {
		return errRequestLine
	}
	m := line[:sp]
	for _, b := range m {
		if !isToken(b) {
			return errMethod
		}
	}
	r.methodRaw = m
	r.method = methodOf(m)
	rest := line[sp+1:]
	sp = bytes.IndexByte(rest, ' ')
	if sp <= 0 {
		return errRequestLine
	}
	t := rest[:sp]
	if t[0] != '/' {
		return errTarget
	}
	q := -1
	for i, b := range t {
		if c := targetClass[b]; c != targetPlain {
			if c == targetRefused {
				return errTarget
			}
			if q < 0 {
				q = i
			}
		}
	}
	r.target = t
	if q >= 0 {
		r.path, r.query = t[:q], t[q+1:]
	} else {
		r.path = t
	}
	v := rest[sp+1:]
	if len(v) != 8 || string(v[:5]) != "HTTP/" || v[6] != '.' || !isDigit(v[5]) || !isDigit(v[7]) {
		return errVersion
	}
	if v[5] != '1' || v[7] > '1' {
		return errVersionMajor
	}
	r.minor = v[7] - '0'
	r.close = r.minor == 0 // HTTP/1.0 closes unless it asks for keep-alive
	return nil
}

// methodOf maps a method token to the methods the host routes.
func methodOf(m []byte) method {
	switch string(m) { // no allocation: the compiler compares in place
	case "GET":
		return methodGET
	case "HEAD":
		return methodHEAD
	case "PUT":
		return methodPUT
	case "POST":
		return methodPOST
	}
	return methodOther
}

// headerState is what parseHead remembers across header lines.
type headerState struct {
	te, chunked bool
	hosts       int
}

// header parses one header line (without CRLF) and records what the host
// uses; other headers are checked for form and skipped.
func (h *headerState) header(line []byte, r *request) error {
	if line[0] == ' ' || line[0] == '\t' {
		return errObsFold
	}
	colon := bytes.IndexByte(line, ':')
	if colon <= 0 {
		return errHeaderName
	}
	name := line[:colon]
	for _, b := range name {
		if !isToken(b) {
			return errHeaderName
		}
	}
	v := line[colon+1:]
	if !validValue(v) {
		return errHeaderValue
	}
	return h.known(name, trimOWS(v), r)
}

// known records a header the host uses, by its name (any case) and its
// value without surrounding whitespace; it skips any other.
func (h *headerState) known(name, v []byte, r *request) error {
	switch len(name) {
	case 4:
		if equalFold(name, "host") {
			h.hosts++
			if h.hosts > 1 {
				return errHostTwice
			}
		}
	case 6:
		if equalFold(name, "expect") {
			if !equalFold(v, "100-continue") {
				return errExpect
			}
			r.expect100 = true
		}
	case 8:
		if equalFold(name, "if-match") {
			r.ifMatch = v[:len(v):len(v)]
		}
	case 10:
		if equalFold(name, "connection") {
			connectionTokens(v, r)
		}
	case 13:
		if equalFold(name, "if-none-match") {
			r.ifNoneMatch = v[:len(v):len(v)]
		}
	case 14:
		if equalFold(name, "content-length") {
			return contentLength(v, r)
		}
	case 17:
		if equalFold(name, "transfer-encoding") {
			h.te = true
			h.chunked = lastCodingChunked(v)
		}
	}
	return nil
}

// validValue reports whether a header value holds no control byte other
// than tab and no DEL. It tests eight bytes at a time (the last word
// overlapping the one before it) and looks at single bytes only from the
// first word that may hold one: a tab, or a refusal.
func validValue(v []byte) bool {
	for len(v) >= 8 {
		if !plainWord(v) {
			break
		}
		if len(v) < 16 {
			if plainWord(v[len(v)-8:]) {
				return true
			}
			break
		}
		v = v[8:]
	}
	for _, b := range v {
		if (b < ' ' && b != '\t') || b == 0x7f {
			return false
		}
	}
	return true
}

// plainWord reports whether none of the first eight bytes of v is under
// 0x20 or 0x7f. (Each test is exact as a yes or no: a borrow reaches a
// byte only from a lower byte that is itself under the limit.)
func plainWord(v []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	x := binary.LittleEndian.Uint64(v)
	below := (x - 0x20*ones) &^ x & highs
	y := x ^ 0x7f*ones
	del := (y - ones) &^ y & highs
	return below|del == 0
}

// finish checks the framing once all headers are in.
func (h *headerState) finish(r *request) error {
	if !h.te {
		return nil
	}
	switch {
	case r.hasLength:
		return errLengthAndTE
	case r.minor == 0:
		return errTE10
	case !h.chunked:
		return errTENotChunked
	}
	return errChunked
}

// contentLength records a Content-Length value: digits only, and equal to
// any Content-Length before it.
func contentLength(v []byte, r *request) error {
	if len(v) == 0 || len(v) > 18 {
		return errLength
	}
	var n int64
	for _, b := range v {
		if !isDigit(b) {
			return errLength
		}
		n = n*10 + int64(b-'0')
	}
	if r.hasLength && r.length != n {
		return errLengthTwice
	}
	r.hasLength, r.length = true, n
	return nil
}

// connectionTokens reads the comma-separated Connection options.
func connectionTokens(v []byte, r *request) {
	for len(v) > 0 {
		var tok []byte
		if i := bytes.IndexByte(v, ','); i >= 0 {
			tok, v = trimOWS(v[:i]), v[i+1:]
		} else {
			tok, v = trimOWS(v), nil
		}
		switch {
		case equalFold(tok, "close"):
			r.close = true
		case equalFold(tok, "keep-alive") && r.minor == 0:
			r.close = false
		}
	}
}

// lastCodingChunked reports whether the last transfer coding listed is chunked.
func lastCodingChunked(v []byte) bool {
	if i := bytes.LastIndexByte(v, ','); i >= 0 {
		v = v[i+1:]
	}
	return equalFold(trimOWS(v), "chunked")
}

// trimOWS removes spaces and tabs at both ends.
func trimOWS(v []byte) []byte {
	for len(v) > 0 && (v[0] == ' ' || v[0] == '\t') {
		v = v[1:]
	}
	for len(v) > 0 && (v[len(v)-1] == ' ' || v[len(v)-1] == '\t') {
		v = v[:len(v)-1]
	}
	return v
}

// equalFold reports whether b equals the lower-case ASCII string s,
// ignoring the case of b.
func equalFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// Classes of request-target bytes (targetClass).
const (
	targetPlain   = iota // allowed
	targetQuery          // '?', which may start the query
	targetRefused        // controls, space, DEL, '#' and bytes from 0x80
)

// targetClass classifies every byte for parseRequestLine's one pass over
// the target.
var targetClass = func() (t [256]uint8) {
	for b := range t {
		switch {
		case b <= ' ' || b >= 0x7f || b == '#':
			t[b] = targetRefused
		case b == '?':
			t[b] = targetQuery
		}
	}
	return t
}()

// isToken reports whether b is a tchar of RFC 9110.
func isToken(b byte) bool { return tokenTable[b] }

var tokenTable = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return t
}()
