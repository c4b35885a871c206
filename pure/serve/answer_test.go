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
				if got := string(appendDocHead([]byte("x"), d.docHead(), &h)); got != want {
					t.Fatalf("got %q\nwant %q", got, want)
				}
			}
		}
	}
}
