package load

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func fakeClock() int64 { return 0 }

// answers is a stream of responses in every framing the reader handles.
const answers = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nETag: \"7\"\r\n\r\nhello" +
	"HTTP/1.1 100 Continue\r\n\r\n" +
	"HTTP/1.1 412 Precondition Failed\r\ncontent-length: 3\r\n\r\nno\n" +
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\netag: \"8\"\r\n\r\n" +
	"3;ext=1\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\nTrailer: x\r\n\r\n" +
	"HTTP/1.1 204 No Content\r\n\r\n" +
	"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n" +
	"HTTP/1.0 200 OK\r\n\r\nto the end"

type want struct {
	status int
	etag   string
	body   string
	close  bool
}

var wantAnswers = []want{
	{200, `"7"`, "hello", false},
	{412, "", "no\n", false},
	{200, `"8"`, "abc0123456789abcdef", false},
	{204, "", "", false},
	{404, "", "", true},
	{200, "", "to the end", true},
}

func TestRespReader_Framings(t *testing.T) {
	for name, src := range map[string]func() io.Reader{
		"whole":    func() io.Reader { return strings.NewReader(answers) },
		"one-byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(answers)) },
		"half":     func() io.Reader { return iotest.HalfReader(strings.NewReader(answers)) },
	} {
		t.Run(name, func(t *testing.T) {
			rd := newRespReader(256, fakeClock)
			rd.reset(src())
			for i, w := range wantAnswers {
				var a answer
				var body []byte
				if err := rd.read(&a, &body); err != nil {
					t.Fatalf("answer %d: %v", i, err)
				}
				got := want{a.status, string(a.ETag()), string(body), a.close}
				if got != w {
					t.Fatalf("answer %d: got %+v, want %+v", i, got, w)
				}
			}
			var a answer
			if err := rd.read(&a, nil); !errors.Is(err, io.EOF) {
				t.Fatalf("after the last answer: %v, want EOF", err)
			}
		})
	}
}

func TestRespReader_BigBody_SmallBuffer(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	stream := "HTTP/1.1 200 OK\r\nContent-Length: 1048576\r\n\r\n" + string(body) +
		"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
	rd := newRespReader(4096, fakeClock)
	rd.reset(strings.NewReader(stream))
	var a answer
	var got []byte
	if err := rd.read(&a, &got); err != nil || !bytes.Equal(got, body) {
		t.Fatalf("big body: err %v, %d bytes equal %v", err, len(got), bytes.Equal(got, body))
	}
	if err := rd.read(&a, nil); err != nil || a.status != 200 {
		t.Fatalf("the answer after the big one: %v, status %d", err, a.status)
	}
}

func TestRespReader_Malformed_ParseErrors(t *testing.T) {
	for name, s := range map[string]string{
		"status":      "HTTP/2 200 OK\r\n\r\n",
		"code":        "HTTP/1.1 2x0 OK\r\n\r\n",
		"header":      "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
		"length":      "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
		"two lengths": "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
		"chunk size":  "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
		"chunk end":   "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc\r\n0\r\n\r\n",
		"etag":        "HTTP/1.1 200 OK\r\nETag: \"" + strings.Repeat("e", maxETag) + "\"\r\n\r\n",
		"huge head":   "HTTP/1.1 200 OK\r\nX: " + strings.Repeat("h", 300) + "\r\n\r\n",
	} {
		rd := newRespReader(256, fakeClock)
		rd.reset(strings.NewReader(s))
		var a answer
		var pe *parseError
		if err := rd.read(&a, nil); !errors.As(err, &pe) {
			t.Errorf("%s: got %v, want a parse error", name, err)
		}
	}
	rd := newRespReader(256, fakeClock)
	rd.reset(strings.NewReader("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort"))
	var a answer
	if err := rd.read(&a, nil); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("truncated body: got %v, want unexpected EOF", err)
	}
}

// repeatReader hands out the same bytes forever.
type repeatReader struct {
	b   []byte
	off int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := copy(p, r.b[r.off:])
	r.off = (r.off + n) % len(r.b)
	return n, nil
}

func TestRespReader_Read_NoAllocs(t *testing.T) {
	one := "HTTP/1.1 200 OK\r\nServer: x\r\nContent-Length: 64\r\nETag: \"12345\"\r\nContent-Type: text/plain\r\n\r\n" +
		strings.Repeat("b", 64)
	chunked := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n" + strings.Repeat("c", 64) + "\r\n0\r\n\r\n"
	rd := newRespReader(64<<10, fakeClock)
	rd.reset(&repeatReader{b: []byte(strings.Repeat(one, 15) + chunked)})
	var a answer
	allocs := testing.AllocsPerRun(10000, func() {
		if err := rd.read(&a, nil); err != nil || a.status != 200 {
			t.Fatalf("read: %v, status %d", err, a.status)
		}
	})
	if allocs != 0 {
		t.Fatalf("reading an answer allocates %.2f times", allocs)
	}
}

// TestCutLine_AsIndexCRLF: cutLine splits where bytes.Index finds the
// first CRLF, bare CRs and LFs before it included.
func TestCutLine_AsIndexCRLF(t *testing.T) {
	forAllStrings([]byte("a\r\n:"), 7, func(b []byte) {
		line, rest, ok := cutLine(b)
		wantLine, wantRest, wantOK := b, []byte(nil), false
		if i := bytes.Index(b, []byte("\r\n")); i >= 0 {
			wantLine, wantRest, wantOK = b[:i], b[i+2:], true
		}
		if !bytes.Equal(line, wantLine) || !bytes.Equal(rest, wantRest) || ok != wantOK {
			t.Fatalf("cutLine(%q) = %q, %q, %v; want %q, %q, %v", b, line, rest, ok, wantLine, wantRest, wantOK)
		}
	})
}

// forAllStrings calls f with every string of up to n bytes over alphabet
// (the empty one included), in one reused buffer.
func forAllStrings(alphabet []byte, n int, f func(b []byte)) {
	var b []byte
	var walk func(n int)
	walk = func(n int) {
		f(b)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			b = append(b, c)
			walk(n - 1)
			b = b[:len(b)-1]
		}
	}
	walk(n)
}

// TestParseHead_HeaderNames: the headers the generator uses are found in
// any case and with any spaces around their values; others of the same
// length are not taken for them.
func TestParseHead_HeaderNames(t *testing.T) {
	head := "HTTP/1.1 200 OK\r\ncONTENT-lENGTH:  12 \r\nContent-Lengtx: 99\r\netag:\t\"42\" \r\nEtah: \"1\"\r\n" +
		"CONNECTION: Keep-Alive, Close\r\nConnectiox: keep-alive\r\n\r\n"
	var a answer
	n, length, chunked, err := parseHead([]byte(head+"body"), &a)
	if err != nil || n != len(head) || length != 12 || chunked || string(a.ETag()) != `"42"` || !a.close || a.status != 200 {
		t.Fatalf("parseHead: length %d chunked %v err %v etag %q close %v status %d", length, chunked, err, a.ETag(), a.close, a.status)
	}
	_, _, chunked, err = parseHead([]byte("HTTP/1.1 200 OK\r\ntransfer-encoding: gzip, Chunked\r\n\r\n"), &a)
	if err != nil || !chunked {
		t.Fatalf("Transfer-Encoding: chunked %v, err %v", chunked, err)
	}
	if _, _, _, err = parseHead([]byte("HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n"), &a); err == nil {
		t.Fatal("a bad Content-Length was accepted")
	}
}

// TestParseHead_EndsWhereIndexFindsBlankLine: the one-pass parser ends a
// head exactly where the first CRLFCRLF ends, bare CRs and LFs inside
// header values included, and reports every shorter prefix as not whole
// yet (0), so a head split over reads is parsed once it is whole.
func TestParseHead_EndsWhereIndexFindsBlankLine(t *testing.T) {
	for _, head := range []string{
		"HTTP/1.1 200 OK\r\n\r\n",
		"HTTP/1.1 200 OK\r\nDate: Mon\r\nContent-Length: 2\r\nETag: \"1\"\r\n\r\n",
		"HTTP/1.1 200 OK\r\nX: a\nb\r\nY: \r\r\nZ: \n\r\n\r\n",
		"HTTP/1.1 404 Not Found\r\nX: \r\nY:\r\r\n\r\n",
	} {
		b := []byte(head + "\r\n\r\nxy")
		want := bytes.Index(b, []byte("\r\n\r\n")) + 4
		var a answer
		for k := 0; k <= len(b); k++ {
			n, _, _, err := parseHead(b[:k], &a)
			if err != nil {
				t.Fatalf("%q: prefix %d: %v", head, k, err)
			}
			if k < want && n != 0 || k >= want && n != want {
				t.Fatalf("%q: prefix %d: n = %d, want %d", head, k, n, map[bool]int{true: 0, false: want}[k < want])
			}
		}
	}
}

// TestTrimSpace_AsBytesTrimSpace: the inline case gives what
// bytes.TrimSpace gives, for every string of up to 4 bytes over an
// alphabet of spaces, printable ASCII and a byte of a UTF-8 space.
func TestTrimSpace_AsBytesTrimSpace(t *testing.T) {
	forAllStrings([]byte{' ', '\t', '\v', 'a', '"', 0x7f, 0xc2, 0x85, 0xa0}, 4, func(b []byte) {
		if got, want := trimSpace(b), bytes.TrimSpace(b); !bytes.Equal(got, want) {
			t.Fatalf("trimSpace(%q) = %q, want %q", b, got, want)
		}
	})
}

// TestParseHead_UsualSpellingsAsOthers: a head whose headers are spelled
// as servers usually send them (recognised by prefix) parses to what the
// same head in other spellings and spacing parses to, and a usual name
// without its colon is still a bad header line.
func TestParseHead_UsualSpellingsAsOthers(t *testing.T) {
	usual := "HTTP/1.1 200 OK\r\nDate: Mon\r\nContent-Type: text/plain\r\nContent-Length: 64\r\nETag: \"62\"\r\n\r\n"
	other := "HTTP/1.1 200 OK\r\ndate: Mon\r\ncontent-type: text/plain\r\ncontent-length:64 \r\netag:  \"62\"\r\n\r\n"
	var a, b answer
	n1, l1, c1, err1 := parseHead([]byte(usual), &a)
	n2, l2, c2, err2 := parseHead([]byte(other), &b)
	if err1 != nil || err2 != nil || n1 != len(usual) || n2 != len(other) || l1 != 64 || l2 != 64 || c1 || c2 ||
		a.status != b.status || string(a.ETag()) != `"62"` || string(b.ETag()) != `"62"` || a.close != b.close {
		t.Fatalf("usual: %d %d %v %v %+v; other: %d %d %v %v %+v", n1, l1, c1, err1, a, n2, l2, c2, err2, b)
	}
	for _, h := range []string{"Date", "Content-Type", "ETag \"1\"", "Content-Length 5"} {
		if _, _, _, err := parseHead([]byte("HTTP/1.1 200 OK\r\n"+h+"\r\n\r\n"), &a); err != errHeaderLine {
			t.Errorf("%q: %v, want %v", h, err, errHeaderLine)
		}
	}
}
