package serve

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"workbench/pure/store"
)

// memConn is an in-memory net.Conn: reads come from in, writes append to
// out (or are counted only, when discard is set).
type memConn struct {
	in      []byte
	out     []byte
	written int
	discard bool
}

func (m *memConn) Read(p []byte) (int, error) {
	if len(m.in) == 0 {
		return 0, io.EOF
	}
	n := copy(p, m.in)
	m.in = m.in[n:]
	return n, nil
}

func (m *memConn) Write(p []byte) (int, error) {
	m.written += len(p)
	if !m.discard {
		m.out = append(m.out, p...)
	}
	return len(p), nil
}

func (m *memConn) Close() error                     { return nil }
func (m *memConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (m *memConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (m *memConn) SetDeadline(time.Time) error      { return nil }
func (m *memConn) SetReadDeadline(time.Time) error  { return nil }
func (m *memConn) SetWriteDeadline(time.Time) error { return nil }

// newTestServer returns a Server over a fresh RAM store, shut down at the
// end of the test.
func newTestServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	if cfg.Store == nil {
		st, err := store.OpenRAM(nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		cfg.Store = st
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Shutdown(context.Background()) })
	return s
}

// listen serves s on a free loopback port and returns its address.
func listen(t *testing.T, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ln) }()
	t.Cleanup(func() {
		s.Shutdown(context.Background())
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// client is a raw HTTP/1.1 connection for tests.
type client struct {
	t  *testing.T
	nc net.Conn
	br *bufio.Reader
}

func dial(t *testing.T, addr string) *client {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(20 * time.Second))
	return &client{t: t, nc: nc, br: bufio.NewReader(nc)}
}

// send writes raw request bytes.
func (c *client) send(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.nc, s); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// reply reads one answer.
func (c *client) reply() *reply {
	c.t.Helper()
	rp, err := readReply(c.br)
	if err != nil {
		c.t.Fatalf("reading an answer: %v", err)
	}
	return rp
}

// reply is a parsed answer.
type reply struct {
	status int
	close  bool // the answer said Connection: close
	header http.Header
	body   string
}

func readReply(br *bufio.Reader) (*reply, error) {
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	return &reply{status: resp.StatusCode, close: resp.Close, header: resp.Header, body: string(b)}, nil
}

// closed reports whether the server closed the connection (EOF or reset).
func (c *client) closed() bool {
	c.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err := c.br.ReadByte()
	return err != nil
}

// get, put: one request and its answer.
func (c *client) get(path string) *reply {
	c.t.Helper()
	c.send("GET " + path + " HTTP/1.1\r\nHost: t\r\n\r\n")
	return c.reply()
}

func (c *client) put(path, body string, headers ...string) *reply {
	c.t.Helper()
	c.send(fmt.Sprintf("PUT %s HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n%s\r\n%s",
		path, len(body), headerLines(headers), body))
	return c.reply()
}

func headerLines(h []string) string {
	var b strings.Builder
	for _, l := range h {
		b.WriteString(l + "\r\n")
	}
	return b.String()
}

// runBatch feeds raw bytes to a fresh connection state of s in one batch
// and returns what it sent.
func runBatch(t *testing.T, s *Server, in string) string {
	t.Helper()
	c := testConn(s)
	mc := &memConn{}
	c.nc = mc
	if len(in) > len(c.rbuf) {
		c.rbuf = make([]byte, len(in))
	}
	c.r1 = copy(c.rbuf, in)
	for {
		more := c.batch()
		if err := c.flush(); err != nil {
			t.Fatal(err)
		}
		if !more || c.closeAfter {
			break
		}
	}
	return string(mc.out)
}

// replies parses every answer in raw.
func replies(t *testing.T, raw string) []*reply {
	t.Helper()
	br := bufio.NewReader(bytes.NewReader([]byte(raw)))
	var out []*reply
	for {
		if _, err := br.Peek(1); err != nil {
			return out
		}
		rp, err := readReply(br)
		if err != nil {
			t.Fatalf("parsing answers %q: %v", raw, err)
		}
		out = append(out, rp)
	}
}

// benchStore is a RAM store holding the 64 B document d07 under "d/".
func benchStore(tb testing.TB) *store.Store {
	st, err := store.OpenRAM(nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	tx, _ := st.Begin()
	tx.Put([]byte("d/d07"), []byte(strings.Repeat("x", 64)), store.Any)
	if _, err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
	return st
}

// pipelinedRound returns a function that writes in (a batch of pipelined
// requests) to cli and reads into out until it holds answers 200 answers
// and ends with last: one round of an allocation test.
func pipelinedRound(t *testing.T, cli net.Conn, in, out []byte, answers int, last []byte) func() {
	return func() {
		if _, err := cli.Write(in); err != nil {
			t.Fatal(err)
		}
		for got := 0; ; {
			m, err := cli.Read(out[got:])
			if err != nil {
				t.Fatal(err)
			}
			got += m
			if n := bytes.Count(out[:got], []byte("HTTP/1.1 200 OK")); n == answers && bytes.HasSuffix(out[:got], last) {
				return
			}
		}
	}
}

// rawLoopbackConn returns a connection of s over loopback TCP, attached to
// its raw socket, and the client's end; both close when the test ends.
func rawLoopbackConn(t *testing.T, s *Server) (*conn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cli, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	nc, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	c := testConn(s)
	c.nc = nc
	if c.rawOK = c.raw.attach(nc); !c.rawOK {
		t.Fatal("a TCP connection has no raw socket")
	}
	return c, cli
}

// testConn is a connection state of s holding its read buffer, as the
// first read would make it, for tests that put requests into rbuf.
func testConn(s *Server) *conn {
	c := newConn(s)
	c.wake()
	return c
}
