package serve

import (
	"bytes"
	"strconv"
	"testing"
)

// FuzzParseRequest: the request parser never panics, and whatever it
// accepts is a well-formed request whose re-serialisation parses to the
// same fields. The seed corpus (testdata/fuzz/FuzzParseRequest) holds
// smuggling attempts: CL+TE, duplicate Content-Length, obs-fold, bare LF.
func FuzzParseRequest(f *testing.F) {
	f.Add([]byte("GET /docs/d00 HTTP/1.1\r\nHost: a\r\n\r\n"))
	f.Add([]byte("PUT /docs/w1 HTTP/1.1\r\nContent-Length: 3\r\nIf-Match: \"7\"\r\n\r\nabc"))
	f.Add([]byte("POST /inputs/score?points=3 HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: 5\r\n\r\nalice"))
	f.Fuzz(func(t *testing.T, in []byte) {
		checkFastAsSlow(t, in, DefaultMaxHeaderBytes)
		// The memo path, with in's tail remembered, on a document GET of
		// each of a few keys followed by that tail; and on in itself
		// after pure-load's GET.
		var fr request
		if n := parseFast(in, DefaultMaxHeaderBytes, &fr); n > 0 {
			tail := in[len(fr.methodRaw)+1+len(fr.target):]
			for _, k := range []string{"d07", "a/b", "x%41", ".", "k?q"} {
				checkMemoAsFast(t, in, append([]byte("GET /docs/"+k), tail...), DefaultMaxHeaderBytes)
			}
		}
		checkMemoAsFast(t, []byte("GET /docs/d00 HTTP/1.1\r\nHost: a\r\n\r\n"), in, DefaultMaxHeaderBytes)
		var r request
		n, err := parseHead(in, DefaultMaxHeaderBytes, &r)
		if err != nil || n == 0 {
			return
		}
		if n > len(in) || n != r.headLen {
			t.Fatalf("head length %d of %d bytes (headLen %d)", n, len(in), r.headLen)
		}
		if r.length < 0 || int64(len(in)-n) < r.length {
			return // the body is incomplete: the parser waits for it
		}
		r.body = in[n : n+int(r.length)]
		out := serialise(&r)
		var r2 request
		n2, err := parseHead(out, DefaultMaxHeaderBytes, &r2)
		if err != nil || n2 == 0 {
			t.Fatalf("re-serialised request %q does not parse: %v", out, err)
		}
		r2.body = out[n2:]
		if d := diff(&r, &r2); d != "" {
			t.Fatalf("%s differs after re-serialisation\n in: %q\nout: %q", d, in, out)
		}
	})
}

// checkFastAsSlow fails t when parseFast accepts in (a head length > 0)
// and the slow parser does not return the same length and fields.
func checkFastAsSlow(t *testing.T, in []byte, maxHead int) {
	t.Helper()
	var fast, slow request
	n := parseFast(in, maxHead, &fast)
	if n == 0 {
		return
	}
	m, err := parseHeadSlow(in, maxHead, &slow)
	if err != nil || m != n || fast.headLen != slow.headLen {
		t.Fatalf("parseFast: %d bytes; parseHeadSlow: %d, %v\n in: %q", n, m, err, in)
	}
	if d := diff(&fast, &slow); d != "" {
		t.Fatalf("parseFast and parseHeadSlow differ in %s\n in: %q", d, in)
	}
}

// serialise writes a parsed request back in canonical form: the request
// line and the headers the host uses.
func serialise(r *request) []byte {
	var b []byte
	b = append(b, r.methodRaw...)
	b = append(b, ' ')
	b = append(b, r.target...)
	b = append(b, " HTTP/1."...)
	b = append(b, '0'+r.minor)
	b = append(b, "\r\n"...)
	if r.hasLength {
		b = append(b, "Content-Length: "...)
		b = strconv.AppendInt(b, r.length, 10)
		b = append(b, "\r\n"...)
	}
	switch {
	case r.close && r.minor == 1:
		b = append(b, "Connection: close\r\n"...)
	case !r.close && r.minor == 0:
		b = append(b, "Connection: keep-alive\r\n"...)
	}
	if r.ifMatch != nil {
		b = append(append(append(b, "If-Match: "...), r.ifMatch...), "\r\n"...)
	}
	if r.ifNoneMatch != nil {
		b = append(append(append(b, "If-None-Match: "...), r.ifNoneMatch...), "\r\n"...)
	}
	if r.expect100 {
		b = append(b, "Expect: 100-continue\r\n"...)
	}
	b = append(b, "\r\n"...)
	return append(b, r.body...)
}

// diff names the first field in which two parsed requests differ.
func diff(a, b *request) string {
	switch {
	case !bytes.Equal(a.methodRaw, b.methodRaw) || a.method != b.method:
		return "method"
	case !bytes.Equal(a.target, b.target) || !bytes.Equal(a.path, b.path) || !bytes.Equal(a.query, b.query):
		return "target"
	case (a.query == nil) != (b.query == nil):
		return "query presence"
	case a.minor != b.minor:
		return "version"
	case a.close != b.close:
		return "connection close"
	case a.hasLength != b.hasLength || a.length != b.length:
		return "Content-Length"
	case !bytes.Equal(a.ifMatch, b.ifMatch) || (a.ifMatch == nil) != (b.ifMatch == nil):
		return "If-Match"
	case !bytes.Equal(a.ifNoneMatch, b.ifNoneMatch) || (a.ifNoneMatch == nil) != (b.ifNoneMatch == nil):
		return "If-None-Match"
	case a.expect100 != b.expect100:
		return "Expect"
	case !bytes.Equal(a.body, b.body):
		return "body"
	}
	return ""
}

// TestParse_Smuggling: each smuggling attempt in the seed corpus is refused,
// and never read as two requests.
func TestParse_Smuggling(t *testing.T) {
	for _, in := range []string{
		"POST /inputs/x HTTP/1.1\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nG",
		"POST /inputs/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 6\r\n\r\n0\r\n\r\nG",
		"POST /inputs/x HTTP/1.1\r\nContent-Length: 0\r\nContent-Length: 44\r\n\r\nGET /docs/a HTTP/1.1\r\n\r\n",
		"POST /inputs/x HTTP/1.1\r\nContent-Length: 0\r\nTransfer-Encoding:\r\n chunked\r\n\r\n",
		"POST /inputs/x HTTP/1.1\r\nContent-Length: 0\r\n Content-Length: 5\r\n\r\n",
		"POST /inputs/x HTTP/1.1\nContent-Length: 5\r\n\r\nGET /",
		"POST /inputs/x HTTP/1.1\r\nContent-Length: 5\nX: y\r\n\r\nabcde",
		"POST /inputs/x HTTP/1.1\r\nTransfer-Encoding: chunked, identity\r\n\r\n",
		"POST /inputs/x HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
		"POST /inputs/x HTTP/1.1\r\nContent-Length: 5\rX: y\r\n\r\nabcde",
		"POST /inputs/x HTTP/1.1\r\nContent-Length : 5\r\n\r\nabcde",
		"POST /inputs/x HTTP/1.1\r\nContent-Length: 0x5\r\n\r\nabcde",
	} {
		var r request
		if n, err := parseHead([]byte(in), DefaultMaxHeaderBytes, &r); err == nil {
			t.Errorf("accepted (head %d bytes, length %d): %q", n, r.length, in)
		}
	}
}
