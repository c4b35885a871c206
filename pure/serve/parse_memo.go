package serve

// The memo path of the request parser: a GET of a plain document key whose
// head, from the space after the target on, repeats the last head parseFast
// took on the connection.

import "encoding/binary"

// headMemo remembers the tail of the last head parseFast accepted on a
// connection, from the space after its target to the blank line that ends
// it (" HTTP/1.1\r\nHost: ...\r\n\r\n"), and what that tail made of the
// request.
//
// Why: a client sends the same headers with every request on a
// connection, and a pipelining one sends little else; only the target
// changes. What parseFast makes of the tail depends on the tail's bytes
// alone (the version, then each header line; nothing refers back to the
// method or the target), so a head that is a plain request line followed
// by the same bytes parses to the same fields. Comparing the tail is one
// memequal, where parseFast looks at each byte of every header line, and a
// key known to be plain (docKeyPlain) needs no decoding either. On
// pure-load's pipelined GETs this took the parse and the key from about
// 570 instructions per request to under 100.
//
// Only tails whose fields are values are remembered: not If-Match or
// If-None-Match, which are slices into the read buffer.
type headMemo struct {
	tail      []byte // empty when nothing is remembered; at most memoMax bytes
	minor     uint8
	close     bool
	hasLength bool
	expect100 bool
	length    int64
}

// memoMax is the longest tail a connection remembers: a browser's headers
// fit, and a pooled connection holds no more than this for it.
const memoMax = 512

// getDocsWord is "GET /doc" as a little-endian word; a memo hit starts
// with it and "s/".
var getDocsWord = binary.LittleEndian.Uint64([]byte("GET /doc"))

// docKeyPlain says which bytes a key may hold on the memo path: those a
// target allows plainly, less '%' (which appendKey decodes) and '.' (which
// may make a dot segment). A key of them is its own decoding and
// appendKey accepts it as it is, up to MaxKeyBytes.
var docKeyPlain = func() (t [256]bool) {
	for b := range t {
		t[b] = targetClass[b] == targetPlain && keyMark[b] == 0
	}
	return t
}()

// remember records the tail of the GET head buf[:n] that parseFast
// accepted into r, or forgets the last one when this tail cannot be
// remembered. Another method's head leaves the memo as it was: only a GET
// can take the memo path, and a PUT's or POST's tail (with its
// Content-Length) would not match the next GET's anyway, so copying it
// would only make a GET after it miss where the tail of the GET before
// would still match.
func (m *headMemo) remember(buf []byte, n int, r *request) {
	if r.method != methodGET {
		return
	}
	j := len(r.methodRaw) + 1 + len(r.target) // parseFast's method starts at buf[0]
	if r.ifMatch != nil || r.ifNoneMatch != nil || n-j > memoMax {
		m.tail = m.tail[:0]
		return
	}
	m.tail = append(m.tail[:0], buf[j:n]...)
	m.minor, m.close, m.hasLength, m.expect100, m.length = r.minor, r.close, r.hasLength, r.expect100, r.length
}

// parseDocGet parses a head of the form "GET /docs/<key>" and the
// remembered tail, within maxHead, into r (reset), where key is 1 to
// MaxKeyBytes bytes of docKeyPlain. It returns the head's length, or 0 for
// any other head; where it returns a length, parseFast returns the same
// length and fields (TestHeadMemo_AsParseFast, FuzzParseRequest).
func (m *headMemo) parseDocGet(buf []byte, maxHead int, r *request) int {
	const start = len("GET " + docsPrefix)
	if len(m.tail) == 0 || len(buf) <= start || binary.LittleEndian.Uint64(buf) != getDocsWord || buf[8] != 's' || buf[9] != '/' {
		return 0
	}
	j := start
	for j < len(buf) && docKeyPlain[buf[j]] {
		j++
	}
	n := j + len(m.tail)
	if j == start || j-start > MaxKeyBytes || n > len(buf) || n > maxHead || string(buf[j:n]) != string(m.tail) {
		return 0
	}
	r.methodRaw, r.method = buf[:3], methodGET
	r.target = buf[4:j]
	r.path = r.target
	r.minor, r.close, r.hasLength, r.expect100, r.length = m.minor, m.close, m.hasLength, m.expect100, m.length
	r.headLen = n
	return n
}
