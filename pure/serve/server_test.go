package serve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestServer_Pipelining_InOrder(t *testing.T) {
	s := newTestServer(t, Config{})
	c := dial(t, listen(t, s))
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "PUT /docs/k%02d HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s", i, i+1, strings.Repeat("x", i+1))
	}
	for i := range 40 {
		fmt.Fprintf(&b, "GET /docs/k%02d HTTP/1.1\r\n\r\n", i)
	}
	c.send(b.String())
	for i := range 40 {
		if rp := c.reply(); rp.status != 200 {
			t.Fatalf("PUT %d: %d %q", i, rp.status, rp.body)
		}
	}
	for i := range 40 {
		if rp := c.reply(); rp.status != 200 || len(rp.body) != i+1 {
			t.Fatalf("GET %d: %d, %d bytes, want %d", i, rp.status, len(rp.body), i+1)
		}
	}
}

// TestServer_Pipelining_OneWrite: a batch's answers leave in one write.
func TestServer_Pipelining_OneWrite(t *testing.T) {
	s := newTestServer(t, Config{})
	putRaw(t, s.st, "d/a", []byte("0123456789"))
	c := testConn(s)
	mc := &countConn{}
	c.nc = mc
	c.r1 = copy(c.rbuf, strings.Repeat("GET /docs/a HTTP/1.1\r\n\r\n", 16))
	c.batch()
	if err := c.flush(); err != nil {
		t.Fatal(err)
	}
	if mc.writes != 1 || strings.Count(string(mc.out), "HTTP/1.1 200 OK") != 16 {
		t.Fatalf("%d writes, %d answers; want 1 write of 16", mc.writes, strings.Count(string(mc.out), "200 OK"))
	}
}

// countConn counts writes; it does not take net.Buffers itself, so a batch
// of small answers must already be one contiguous buffer to be one write.
type countConn struct {
	memConn
	writes int
}

func (c *countConn) Write(p []byte) (int, error) { c.writes++; return c.memConn.Write(p) }

func TestServer_ConnectionClose(t *testing.T) {
	s := newTestServer(t, Config{})
	addr := listen(t, s)
	c := dial(t, addr)
	c.send("GET /docs/a HTTP/1.1\r\nConnection: close\r\n\r\nGET /docs/b HTTP/1.1\r\n\r\n")
	rp := c.reply()
	if rp.status != 404 || !rp.close {
		t.Fatalf("answer: %d %v", rp.status, rp.header)
	}
	if !c.closed() {
		t.Fatal("connection still open after Connection: close")
	}
	// HTTP/1.0 closes unless it asks for keep-alive.
	c = dial(t, addr)
	c.send("GET /docs/a HTTP/1.0\r\n\r\n")
	c.reply()
	if !c.closed() {
		t.Fatal("HTTP/1.0 connection still open")
	}
	c = dial(t, addr)
	c.send("GET /docs/a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
	if rp := c.reply(); rp.header.Get("Connection") != "keep-alive" {
		t.Fatalf("HTTP/1.0 keep-alive: %v", rp.header)
	}
	if rp := c.get("/docs/a"); rp.status != 404 {
		t.Fatalf("second request on HTTP/1.0 keep-alive: %d", rp.status)
	}
}

// TestServer_BadInput_OthersServed: each malformed request gets its status,
// its connection is closed, and another connection is served throughout.
func TestServer_BadInput_OthersServed(t *testing.T) {
	s := newTestServer(t, Config{PayloadBudget: 1 << 20})
	addr := listen(t, s)
	good := dial(t, addr)
	good.put("/docs/x", "ok")
	for _, tc := range []struct {
		name, req string
		status    int
		want      string
	}{
		{"request line", "GET /docs/x\r\n\r\n", 400, "request line"},
		{"method", "G(T /docs/x HTTP/1.1\r\n\r\n", 400, "method"},
		{"target", "GET docs/x HTTP/1.1\r\n\r\n", 400, "target"},
		{"version", "GET /docs/x HTTP/2.0\r\n\r\n", 505, "HTTP/1.0"},
		{"header name", "GET /docs/x HTTP/1.1\r\nBad Name: v\r\n\r\n", 400, "header name"},
		{"space before colon", "GET /docs/x HTTP/1.1\r\nHost : v\r\n\r\n", 400, "header name"},
		{"obs-fold", "GET /docs/x HTTP/1.1\r\nX-A: v\r\n  folded\r\n\r\n", 400, "folding"},
		{"bare LF", "GET /docs/x HTTP/1.1\nHost: t\n\n", 400, "bare LF"},
		{"bare LF header", "GET /docs/x HTTP/1.1\r\nHost: t\n\r\n", 400, "bare LF"},
		{"CL+TE", "PUT /docs/x HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 400, "Transfer-Encoding"},
		{"TE+CL", "PUT /docs/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nabc", 400, "Transfer-Encoding"},
		{"chunked", "PUT /docs/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 411, "Content-Length"},
		{"TE not chunked", "PUT /docs/x HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 400, "chunked"},
		{"duplicate CL", "PUT /docs/x HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400, "Content-Length"},
		{"CL sign", "PUT /docs/x HTTP/1.1\r\nContent-Length: +3\r\n\r\nabc", 400, "Content-Length"},
		{"CL list", "PUT /docs/x HTTP/1.1\r\nContent-Length: 3, 3\r\n\r\nabc", 400, "Content-Length"},
		{"two hosts", "GET /docs/x HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "Host"},
		{"NUL in header", "GET /docs/x HTTP/1.1\r\nX-A: a\x00b\r\n\r\n", 400, "control"},
		{"expect", "PUT /docs/x HTTP/1.1\r\nExpect: magic\r\nContent-Length: 1\r\n\r\nx", 417, "100-continue"},
		{"too large", "PUT /docs/x HTTP/1.1\r\nContent-Length: 2097152\r\n\r\nabc", 413, "payload budget"},
		{"head too large", "GET /docs/x HTTP/1.1\r\nX-A: " + strings.Repeat("a", 9000) + "\r\n\r\n", 431, "header limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, addr)
			c.send(tc.req)
			rp := c.reply()
			if rp.status != tc.status || !strings.Contains(rp.body, tc.want) || !rp.close {
				t.Fatalf("%d %q %v, want %d naming %q and Connection: close", rp.status, rp.body, rp.header, tc.status, tc.want)
			}
			if !c.closed() {
				t.Fatal("connection still open after a framing error")
			}
			if rp := good.get("/docs/x"); rp.status != 200 || rp.body != "ok" {
				t.Fatalf("the other connection: %d %q", rp.status, rp.body)
			}
		})
	}
}

// TestServer_BadInput_TooLargeNotRead: a body over the budget is refused
// from its head alone; the server does not wait for the body, and the
// client, still sending it, receives the 413 (the server drains what it
// sends a while before closing, so its close does not reset the answer).
func TestServer_BadInput_TooLargeNotRead(t *testing.T) {
	s := newTestServer(t, Config{PayloadBudget: 1000})
	addr := listen(t, s)
	c := dial(t, addr)
	c.send("PUT /docs/x HTTP/1.1\r\nContent-Length: 100000000\r\n\r\n")
	if rp := c.reply(); rp.status != 413 || !rp.close {
		t.Fatalf("%d %q, want 413 and close", rp.status, rp.body)
	}
	for range 5 {
		c = dial(t, addr)
		go func(nc net.Conn) {
			io.WriteString(nc, "PUT /docs/x HTTP/1.1\r\nContent-Length: 4000000\r\n\r\n")
			nc.Write(make([]byte, 4000000))
		}(c.nc)
		time.Sleep(5 * time.Millisecond)
		if rp := c.reply(); rp.status != 413 {
			t.Fatalf("%d %q, want 413", rp.status, rp.body)
		}
	}
}

// TestServer_BlankLinesBeforeRequest: a few CRLFs before a request line
// (sent by some clients after a body) are skipped; many are not.
func TestServer_BlankLinesBeforeRequest(t *testing.T) {
	s := newTestServer(t, Config{})
	raw := runBatch(t, s, "PUT /docs/a HTTP/1.1\r\nContent-Length: 1\r\n\r\nx\r\n\r\nGET /docs/a HTTP/1.1\r\n\r\n")
	if rs := replies(t, raw); len(rs) != 2 || rs[1].body != "x" {
		t.Fatalf("CRLF after a body: %q", raw)
	}
	raw = runBatch(t, s, strings.Repeat("\r\n", maxBlankLines+1)+"GET /docs/a HTTP/1.1\r\n\r\n")
	if rs := replies(t, raw); len(rs) != 1 || rs[0].status != 400 {
		t.Fatalf("%d blank lines: %q", maxBlankLines+1, raw)
	}
}

func TestServer_NotFoundRoute(t *testing.T) {
	s := newTestServer(t, Config{})
	c := dial(t, listen(t, s))
	rp := c.get("/nope/x")
	if rp.status != 404 || !strings.Contains(rp.body, `no route for "/nope/x"`) {
		t.Fatalf("%d %q", rp.status, rp.body)
	}
	if rp = c.get("/views/total"); rp.status != 404 || !strings.Contains(rp.body, "no app") {
		t.Fatalf("without apps: %d %q", rp.status, rp.body)
	}
}

func TestServer_ExpectContinue(t *testing.T) {
	s := newTestServer(t, Config{})
	c := dial(t, listen(t, s))
	c.send("PUT /docs/e HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
	line, err := c.br.ReadString('\n')
	if err != nil || line != "HTTP/1.1 100 Continue\r\n" {
		t.Fatalf("interim answer %q %v", line, err)
	}
	c.br.ReadString('\n')
	c.send("hello")
	if rp := c.reply(); rp.status != 200 {
		t.Fatalf("%d %q", rp.status, rp.body)
	}
	if rp := c.get("/docs/e"); rp.body != "hello" {
		t.Fatalf("%q", rp.body)
	}
}

func TestServer_Timeouts(t *testing.T) {
	s := newTestServer(t, Config{HeaderTimeout: 200 * time.Millisecond, IdleTimeout: 300 * time.Millisecond})
	addr := listen(t, s)
	// A slow head gets 408 and the connection closes.
	c := dial(t, addr)
	c.send("GET /docs/x HTTP/1.1\r\nHost:")
	start := time.Now()
	rp := c.reply()
	if rp.status != 408 {
		t.Fatalf("slow head: %d %q", rp.status, rp.body)
	}
	// An idle connection is closed (the deadline moves in steps of a second).
	c = dial(t, addr)
	c.get("/docs/x")
	if !c.closed() {
		t.Fatal("idle connection not closed")
	}
	t.Logf("slow head refused after %v", time.Since(start))
}

// TestServer_ManyConnections: 1,100 connections at once, each served, and
// connection state reused as they come and go, at most poolMax of them kept.
func TestServer_ManyConnections(t *testing.T) {
	s := newTestServer(t, Config{})
	addr := listen(t, s)
	putRaw(t, s.st, "d/a", []byte("0123456789"))
	const n = 1100
	conns := make([]net.Conn, 0, n)
	for range n {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Skipf("cannot open %d connections here: %v", n, err)
		}
		conns = append(conns, nc)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for _, nc := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			nc.SetDeadline(time.Now().Add(30 * time.Second))
			io.WriteString(nc, "GET /docs/a HTTP/1.1\r\n\r\n")
			if rp, err := readReply(bufio.NewReader(nc)); err == nil && rp.body == "0123456789" {
				mu.Lock()
				ok++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if ok != n {
		t.Fatalf("%d of %d connections answered", ok, n)
	}
	if got := s.Conns(); got != n {
		t.Fatalf("%d connections served, want %d", got, n)
	}
	for _, nc := range conns {
		nc.Close()
	}
	waitFor(t, func() bool { return s.Conns() == 0 })
	s.mu.Lock()
	pooled := len(s.free)
	s.mu.Unlock()
	if pooled != poolMax {
		t.Fatalf("%d connection states pooled after %d connections, want poolMax = %d", pooled, n, poolMax)
	}
	c := dial(t, addr)
	c.get("/docs/a")
	s.mu.Lock()
	pooled = len(s.free)
	s.mu.Unlock()
	if pooled != poolMax-1 {
		t.Fatalf("a new connection did not take pooled state: %d pooled", pooled)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 500 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("condition not reached in 5 s")
}

// TestServer_Shutdown: Shutdown closes idle connections, lets Serve return
// nil, and refuses new connections.
func TestServer_Shutdown(t *testing.T) {
	s := newTestServer(t, Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ln) }()
	c := dial(t, ln.Addr().String())
	c.get("/docs/a")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if !c.closed() {
		t.Fatal("idle connection open after Shutdown")
	}
	if nc, err := ln.Accept(); err == nil { // (dialling the port could reach another test's listener)
		nc.Close()
		t.Fatal("the listener still accepts after Shutdown")
	}
}

// TestServer_BigBodies_BudgetCut: 1 MiB bodies in and out, pipelined;
// eight 1 MiB GETs over a 2 MiB budget are answered whole and in order
// across several batches; small pipelined requests straddling reads work.
func TestServer_BigBodies_BudgetCut(t *testing.T) {
	s := newTestServer(t, Config{PayloadBudget: 2 << 20})
	c := dial(t, listen(t, s))
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = byte('a' + i%26)
	}
	if rp := c.put("/docs/big", string(big)); rp.status != 200 {
		t.Fatalf("PUT 1 MiB: %d %q", rp.status, rp.body)
	}
	c.send(strings.Repeat("GET /docs/big HTTP/1.1\r\n\r\nGET /docs/none HTTP/1.1\r\n\r\n", 8))
	for i := range 8 {
		if rp := c.reply(); rp.status != 200 || rp.body != string(big) {
			t.Fatalf("GET %d: %d, %d bytes", i, rp.status, len(rp.body))
		}
		if rp := c.reply(); rp.status != 404 {
			t.Fatalf("GET none %d: %d", i, rp.status)
		}
	}
	// 300 small requests in one send: about 12 KiB, more than one read buffer.
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "PUT /docs/s%d HTTP/1.1\r\nContent-Length: 3\r\n\r\n%03d", i%7, i)
	}
	c.send(b.String())
	for i := range 300 {
		if rp := c.reply(); rp.status != 200 {
			t.Fatalf("small PUT %d: %d %q", i, rp.status, rp.body)
		}
	}
	if rp := c.get("/docs/s6"); rp.body != "293" {
		t.Fatalf("last write of s6: %q, want 293", rp.body)
	}
	c.nc.Close()
	waitFor(t, func() bool { return s.Conns() == 0 })
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, cn := range s.free {
		if len(cn.rbuf) > keepLimit || cap(cn.wbuf) > keepLimit {
			t.Errorf("pooled state keeps a %d-byte read buffer and a %d-byte answer buffer", len(cn.rbuf), cap(cn.wbuf))
		}
	}
}

// TestServer_PayloadBudget_Shared: the read buffers grown for request
// bodies share the budget: a body that does not fit beside another
// connection's gets 503, and fits again once that one was answered.
func TestServer_PayloadBudget_Shared(t *testing.T) {
	s := newTestServer(t, Config{PayloadBudget: 1 << 20})
	addr := listen(t, s)
	a := dial(t, addr)
	a.send("PUT /docs/a HTTP/1.1\r\nContent-Length: 700000\r\n\r\n" + strings.Repeat("a", 1000))
	waitFor(t, func() bool { return s.held.Load() > 0 })
	b := dial(t, addr)
	b.send("PUT /docs/b HTTP/1.1\r\nContent-Length: 700000\r\n\r\n")
	if rp := b.reply(); rp.status != 503 || !strings.Contains(rp.body, "payload budget") || !rp.close {
		t.Fatalf("second big body: %d %q, want 503 naming the payload budget", rp.status, rp.body)
	}
	a.send(strings.Repeat("a", 699000))
	if rp := a.reply(); rp.status != 200 {
		t.Fatalf("first big body: %d %q", rp.status, rp.body)
	}
	waitFor(t, func() bool { return s.held.Load() == 0 })
	b = dial(t, addr)
	if rp := b.put("/docs/b", strings.Repeat("b", 700000)); rp.status != 200 {
		t.Fatalf("second big body, retried: %d %q", rp.status, rp.body)
	}
}

// TestServer_BadInput_Linger: after a refusal the server half-closes and
// drains what the client still sends, so the client reads the whole
// refusal and then an orderly end of stream rather than a reset.
func TestServer_BadInput_Linger(t *testing.T) {
	s := newTestServer(t, Config{})
	addr := listen(t, s)
	for range 3 {
		c := dial(t, addr)
		go func() {
			io.WriteString(c.nc, "GET /docs/x HTTP/1.1\nHost: t\n\n")
			c.nc.Write(make([]byte, 512<<10))
		}()
		time.Sleep(5 * time.Millisecond)
		if rp := c.reply(); rp.status != 400 || !strings.Contains(rp.body, "bare LF") {
			t.Fatalf("%d %q, want 400 naming the bare LF", rp.status, rp.body)
		}
		if _, err := c.br.ReadByte(); err != io.EOF {
			t.Fatalf("after the refusal: %v, want EOF (an orderly close)", err)
		}
	}
}

// TestServer_BigBody_NotKeptByPooledState: after a 1 MiB PUT as the
// connection's last request, neither the connection's live state nor its
// pooled state points into the grown read buffer (the parsed request's
// slices kept 1 MiB alive for the life of the server).
func TestServer_BigBody_NotKeptByPooledState(t *testing.T) {
	s := newTestServer(t, Config{})
	c := dial(t, listen(t, s))
	if rp := c.put("/docs/big", strings.Repeat("b", 1<<20)); rp.status != 200 {
		t.Fatalf("PUT 1 MiB: %d %q", rp.status, rp.body)
	}
	c.nc.Close()
	waitFor(t, func() bool { return s.Conns() == 0 })
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.free) == 0 {
		t.Fatal("no connection state pooled")
	}
	for _, cn := range s.free {
		if r := &cn.req; cap(r.body) > 0 || cap(r.path) > 0 || len(cn.rbuf) > readSize {
			t.Errorf("pooled state keeps a %d-byte body, a %d-byte path and a %d-byte read buffer",
				cap(r.body), cap(r.path), len(cn.rbuf))
		}
	}
}

// TestServer_SplitSends_NoLostWakeup: requests whose bytes arrive in two
// sends, the second while the server may be answering the first part, are
// all answered. The connection's loop waits without a read after a read
// that drained the socket (conn.step); a notification lost for bytes that
// arrived meanwhile would leave a request unanswered until the idle
// timeout, and the 2 s read deadline here would fail the test.
func TestServer_SplitSends_NoLostWakeup(t *testing.T) {
	s := newTestServer(t, Config{})
	c := dial(t, listen(t, s))
	if rp := c.put("/docs/a", "x"); rp.status != 200 {
		t.Fatalf("PUT: %d %q", rp.status, rp.body)
	}
	req := strings.Repeat("GET /docs/a HTTP/1.1\r\nHost: t\r\n\r\n", 3)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		cut := 1 + rng.IntN(len(req)-1)
		c.send(req[:cut])
		if i%3 == 0 {
			time.Sleep(time.Duration(rng.IntN(200)) * time.Microsecond)
		}
		c.send(req[cut:])
		c.nc.SetReadDeadline(time.Now().Add(2 * time.Second))
		for j := range 3 {
			if rp := c.reply(); rp.status != 200 || rp.body != "x" {
				t.Fatalf("round %d (cut at %d), answer %d: %d %q", i, cut, j, rp.status, rp.body)
			}
		}
	}
}
