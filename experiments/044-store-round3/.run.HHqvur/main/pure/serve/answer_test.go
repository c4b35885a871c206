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
