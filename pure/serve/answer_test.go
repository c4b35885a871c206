package serve

import (
	"testing"
	"time"
)

func TestDateClock_Line(t *testing.T) {
	d := newDateClock()
	d.set(time.Date(2026, 12, 3, 8, 5, 9, 0, time.FixedZone("x", 3600)))
	if got := string(d.date()); got != "Date: Thu, 03 Dec 2026 07:05:09 GMT\r\n" {
		t.Fatalf("%q", got)
	}
	if d.now.Load() != time.Date(2026, 12, 3, 7, 5, 9, 0, time.UTC).UnixNano() {
		t.Fatal("coarse clock not set with the Date line")
	}
}

func TestAppendHead(t *testing.T) {
	h := head{status: 412, ctype: typeText, length: 12, etag: 1234567890123, close: true}
	got := string(appendHead(nil, &h, []byte("Date: D\r\n")))
	want := "HTTP/1.1 412 Precondition Failed\r\nDate: D\r\nContent-Type: text/plain; charset=utf-8\r\n" +
		"Content-Length: 12\r\nETag: \"1234567890123\"\r\nConnection: close\r\n\r\n"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

// TestAppendDocHead_AsAppendHead: the document answer's shortcut writes
// exactly the head appendHead writes, for lengths and revisions of every
// digit count and each Connection header.
func TestAppendDocHead_AsAppendHead(t *testing.T) {
	d := newDateClock()
	for _, n := range []int{0, 7, 9, 10, 64, 99, 100, 999, 1000, 1024, 9999, 10000, 1 << 20, 123456789} {
		for _, rev := range []uint64{0, 1, 9, 10, 65, 99, 100, 999, 1000, 9999, 10000, 99999, 1 << 40} {
			for _, conn := range []struct{ close, keep10 bool }{{false, false}, {true, false}, {false, true}} {
				h := head{status: 200, ctype: typeBytes, length: n, etag: rev, close: conn.close, keep10: conn.keep10, doc: true}
				want := string(appendHead([]byte("x"), &h, d.date()))
				if got := string(appendDocHead([]byte("x"), d.docHead(), h.length, h.etag, h.close, h.keep10)); got != want {
					t.Fatalf("got %q\nwant %q", got, want)
				}
			}
		}
	}
}

// TestAnswerDoc_AsAnswerBody: answerDoc writes the bytes newAnswer and
// answerBody write for a small document, for GET and HEAD, HTTP/1.0 and
// 1.1, with and without Connection: close, and a batch of its answers
// sends what a batch of theirs sends.
func TestAnswerDoc_AsAnswerBody(t *testing.T) {
	s := newTestServer(t, Config{})
	fast, slow := newConn(s), newConn(s)
	for _, m := range []method{methodGET, methodHEAD} {
		for _, minor := range []uint8{0, 1} {
			for _, close := range []bool{false, true} {
				for _, n := range []int{0, 9, 64, copyMax} {
					for _, rev := range []uint64{0, 7, 65, 999, 1 << 40} {
						r := request{method: m, minor: minor, close: close}
						val := make([]byte, n)
						fast.answerDoc(&r, val, rev)
						a := slow.newAnswer(&r)
						slow.answerBody(a, &head{status: 200, ctype: typeBytes, etag: rev, doc: true}, val)
					}
				}
			}
		}
	}
	if string(fast.wbuf) != string(slow.wbuf) || fast.payload != slow.payload {
		t.Fatalf("answerDoc wrote %d bytes (payload %d), answerBody %d (payload %d)", len(fast.wbuf), fast.payload, len(slow.wbuf), slow.payload)
	}
	if len(fast.ans) != 1 {
		t.Fatalf("answerDoc left %d answers for one range of wbuf, want 1", len(fast.ans))
	}
	fc, sc := &memConn{}, &memConn{}
	fast.nc, slow.nc = fc, sc
	if err := fast.flush(); err != nil {
		t.Fatal(err)
	}
	if err := slow.flush(); err != nil {
		t.Fatal(err)
	}
	if string(fc.out) != string(sc.out) || len(fc.out) == 0 {
		t.Fatalf("sent %d bytes, want %d", len(fc.out), len(sc.out))
	}
}
