package serve

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestConn_PipelinedGets_ZeroAllocs: parsing a batch of 16 pipelined GETs
// of a 64 B document, answering them and sending the batch allocates
// nothing once the connection is warm.
func TestConn_PipelinedGets_ZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool (the store's snapshots and borrowed values) drops items under the race detector")
	}
	s := newTestServer(t, Config{})
	putRaw(t, s.st, "d/d07", []byte(strings.Repeat("x", 64)))
	in := strings.Repeat("GET /docs/d07 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", 16)
	c := testConn(s)
	mc := &memConn{discard: true}
	c.nc = mc
	round := func() {
		c.r0, c.r1 = 0, copy(c.rbuf, in)
		c.batch()
		if err := c.flush(); err != nil {
			t.Fatal(err)
		}
	}
	round()
	per := mc.written
	if got := runBatch(t, s, in); strings.Count(got, "HTTP/1.1 200 OK") != 16 || len(got) != per {
		t.Fatalf("answers: %q", got)
	}
	if n := testing.AllocsPerRun(200, round); n != 0 {
		t.Fatalf("%v allocations per batch of 16 pipelined GETs, want 0", n)
	}
	// The same with the document lent rather than copied (1 MiB GETs).
	putRaw(t, s.st, "d/big", []byte(strings.Repeat("y", 4096)))
	in = strings.Repeat("GET /docs/big HTTP/1.1\r\n\r\n", 4)
	round()
	if n := testing.AllocsPerRun(200, round); n != 0 {
		t.Fatalf("%v allocations per batch of 4 lent GETs, want 0", n)
	}
}

// TestConn_RawSocket_ZeroAllocs: over a real loopback socket, where the
// connection's loop runs inside one RawConn.Read and reads and the vectored
// write are raw system calls (rawio.go, conn.step), reading a batch of 16
// pipelined GETs, answering it and sending it allocates nothing, and the
// client receives all 16 answers with their bodies. (AllocsPerRun counts
// every goroutine's allocations, the server's loop among them.)
func TestConn_RawSocket_ZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool (the store's snapshots and borrowed values) drops items under the race detector")
	}
	s := newTestServer(t, Config{})
	putRaw(t, s.st, "d/d07", []byte(strings.Repeat("x", 64)))
	putRaw(t, s.st, "d/big", []byte(strings.Repeat("y", 4096)))
	c, cli := rawLoopbackConn(t, s)
	ended := make(chan error, 1)
	go func() { ended <- c.serveRaw() }()
	in := []byte(strings.Repeat("GET /docs/d07 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", 15) +
		"GET /docs/big HTTP/1.1\r\n\r\n")
	out := make([]byte, 64<<10)
	bigBody := bytes.Repeat([]byte("y"), 4096)
	round := pipelinedRound(t, cli, in, out, 16, bigBody)
	round()
	if n := testing.AllocsPerRun(100, round); n != 0 {
		t.Fatalf("%v allocations per batch of 16 pipelined GETs over a socket, want 0", n)
	}
	cli.Close()
	if err := <-ended; !errors.Is(err, io.EOF) {
		t.Fatalf("the loop ended with %v after the client closed, want EOF", err)
	}
}

// TestConn_RestDropsReadBuffer: a new connection holds no read buffer; one
// with nothing pending gives its read buffer back when it waits (rest), so
// idle keep-alive connections hold none; one with part of a request
// pending, or with a grown buffer for a big body, keeps it; the next read
// takes one again; a state pooled for the next connection holds none.
func TestConn_RestDropsReadBuffer(t *testing.T) {
	s := newTestServer(t, Config{})
	c := newConn(s)
	if c.rbuf != nil || c.small != nil {
		t.Fatalf("a new connection holds a read buffer of %d bytes before its first read", len(c.rbuf))
	}
	if !c.makeRoom() || len(c.rbuf) != readSize || c.small == nil {
		t.Fatalf("a new connection's first read buffer: %d bytes", len(c.rbuf))
	}
	c.r0, c.r1 = 0, copy(c.rbuf, "GET /docs/a HT")
	c.rest()
	if c.rbuf == nil || string(c.rbuf[:c.r1]) != "GET /docs/a HT" {
		t.Fatalf("rest with a partial request pending dropped it: %q", c.rbuf)
	}
	c.r0 = c.r1
	c.rest()
	if c.rbuf != nil || c.small != nil {
		t.Fatalf("rest with nothing pending kept the buffer (%d bytes)", len(c.rbuf))
	}
	if !c.makeRoom() || len(c.rbuf) != readSize || c.r0 != 0 || c.r1 != 0 {
		t.Fatalf("makeRoom after rest: %d bytes, r0 %d r1 %d", len(c.rbuf), c.r0, c.r1)
	}
	c.need = 3 * readSize
	if !c.makeRoom() || len(c.rbuf) <= readSize {
		t.Fatalf("makeRoom for a big body: %d bytes", len(c.rbuf))
	}
	c.need = 0
	c.rest()
	if len(c.rbuf) <= readSize {
		t.Fatalf("rest dropped a grown buffer (%d bytes left)", len(c.rbuf))
	}
	// A state going back to the server's pool holds no read buffer and no
	// share of the payload budget.
	c.r0, c.r1 = 0, 0
	c.recycle()
	if c.rbuf != nil || c.small != nil || c.held != 0 || s.held.Load() != 0 {
		t.Fatalf("recycle kept a read buffer: %d bytes, small %v, held %d (server %d)", len(c.rbuf), c.small != nil, c.held, s.held.Load())
	}
}

// TestConn_GrownBufferSize: a request a little over 4 KiB (a 4.6 KB
// document PUT) grows the read buffer to the allocator's 4,864- or
// 5,376-byte class, not 8 KiB, with the pending bytes kept and only the
// bytes above readSize reserved against the payload budget; while the
// grown buffer is held the 4 KiB one is back in the pool; once the request
// is answered, compact returns to a 4 KiB buffer.
func TestConn_GrownBufferSize(t *testing.T) {
	s := newTestServer(t, Config{})
	c := newConn(s)
	if !c.makeRoom() {
		t.Fatal("makeRoom for the first read failed")
	}
	head := "PUT /docs/a HTTP/1.1\r\nContent-Length: 4600\r\n\r\n"
	c.r0, c.r1 = 0, copy(c.rbuf, head)
	for _, tc := range []struct{ need, size int }{
		{4200, 4864}, {len(head) + 4600, 4864}, {5000, 5376}, {7000, 8 << 10}, {9000, 10 << 10}, {20000, 32 << 10},
	} {
		c.need = tc.need
		if !c.makeRoom() || len(c.rbuf) != tc.size {
			t.Fatalf("makeRoom for a %d-byte request: %d bytes, want %d", tc.need, len(c.rbuf), tc.size)
		}
		if string(c.rbuf[:c.r1]) != head {
			t.Fatalf("growing to %d bytes lost the pending head: %q", tc.size, c.rbuf[:c.r1])
		}
		if c.small != nil {
			t.Fatalf("a connection holding a %d-byte buffer still holds its 4 KiB one", tc.size)
		}
		if want := int64(tc.size - readSize); c.held != want || s.held.Load() != want {
			t.Fatalf("a %d-byte buffer reserved %d (server %d), want %d", tc.size, c.held, s.held.Load(), want)
		}
	}
	c.need = 0
	c.r0 = c.r1
	c.compact()
	if len(c.rbuf) != readSize || c.small == nil || c.held != 0 || s.held.Load() != 0 {
		t.Fatalf("compact after the big request: %d bytes, small %v, held %d (server %d)", len(c.rbuf), c.small != nil, c.held, s.held.Load())
	}
	// A size no class covers is allocated in whole 4 KiB pages.
	c.need = (1 << 20) + 1
	if !c.makeRoom() || len(c.rbuf) != (1<<20)+readSize {
		t.Fatalf("makeRoom for a request over the largest class: %d bytes", len(c.rbuf))
	}
}
