//go:build linux

package serve

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"workbench/pure/store"
)

// noise returns n pseudo-random bytes from seed, so that a body sent from
// a wrong offset or a wrong file cannot pass for the right one.
func noise(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// durableServer serves a fresh on-disk store on a loopback port, sending
// bodies of sendfileMin bytes or more by sendfile (0: never).
func durableServer(t *testing.T, sendfileMin int) (*store.Store, string) {
	t.Helper()
	st, err := store.Open(t.TempDir()+"/pure.db", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := newTestServer(t, Config{Store: st, SendfileMin: sendfileMin})
	return st, listen(t, s)
}

// TestServer_Sendfile_SurvivesChange: pipelined GETs of 1 MiB documents in
// durable mode are sent from the store's file by sendfile(2). The client
// does not read until the server found the socket full in the middle of a
// sendfile; then the documents are overwritten, the file compacted (the
// store closes the file the bodies are sent from) and written again. Every
// answer still arrives whole, with the bytes of the revision it names, in
// the order asked, interleaved with small (copied) and mid-sized (written
// from the mapping) bodies and a HEAD.
func TestServer_Sendfile_SurvivesChange(t *testing.T) {
	waited := make(chan struct{})
	var once sync.Once
	sendfileWaitHook = func() { once.Do(func() { close(waited) }) }
	t.Cleanup(func() { sendfileWaitHook = nil })

	st, addr := durableServer(t, 64<<10)
	const big = 1 << 20
	a, b := noise(1, big), noise(2, big+12345)
	mid, small := noise(3, 16<<10), []byte("small document")
	putRaw(t, st, "d/a", a)
	putRaw(t, st, "d/b", b)
	putRaw(t, st, "d/mid", mid)
	putRaw(t, st, "d/small", small)

	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.(*net.TCPConn).SetReadBuffer(64 << 10) // a fixed window (no autotuning up to tcp_rmem), so the 6 MiB of answers fill the socket
	nc.SetDeadline(time.Now().Add(60 * time.Second))
	paths := []string{"a", "small", "b", "mid", "a", "b", "a", "a"}
	var req strings.Builder
	for i, p := range paths {
		method := "GET"
		if i == 6 {
			method = "HEAD"
		}
		fmt.Fprintf(&req, "%s /docs/%s HTTP/1.1\r\nHost: x\r\n\r\n", method, p)
	}
	if _, err := io.WriteString(nc, req.String()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-waited:
	case <-time.After(30 * time.Second):
		t.Fatal("the server never waited for room in a sendfile: 6 MiB of answers went into a socket the client does not read, so the bodies were not sent by sendfile")
	}
	putRaw(t, st, "d/a", noise(10, big))
	putRaw(t, st, "d/b", noise(11, 300<<10))
	if err := st.Compact(); err != nil {
		t.Fatal(err)
	}
	putRaw(t, st, "d/a", noise(12, 200<<10))

	want := map[string][]byte{"a": a, "b": b, "mid": mid, "small": small}
	br := bufio.NewReaderSize(nc, 64<<10)
	for i, p := range paths {
		if i == 6 {
			resp, err := http.ReadResponse(br, &http.Request{Method: "HEAD"})
			if err != nil {
				t.Fatalf("answer %d (HEAD %s): %v", i, p, err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 || resp.Header.Get("Content-Length") != fmt.Sprint(len(a)) {
				t.Fatalf("HEAD answer: status %d, Content-Length %q", resp.StatusCode, resp.Header.Get("Content-Length"))
			}
			continue
		}
		rp, err := readReply(br)
		if err != nil {
			t.Fatalf("answer %d (%s): %v", i, p, err)
		}
		if rp.status != 200 || !bytes.Equal([]byte(rp.body), want[p]) {
			t.Fatalf("answer %d (%s): status %d, %d bytes; want the %d bytes the document held when asked", i, p, rp.status, len(rp.body), len(want[p]))
		}
	}

	// The documents as they are now, by a second connection (from the
	// compacted file).
	c := dial(t, addr)
	if rp := c.get("/docs/a"); !bytes.Equal([]byte(rp.body), noise(12, 200<<10)) {
		t.Fatalf("GET a after the change: %d bytes", len(rp.body))
	}
	if rp := c.get("/docs/b"); !bytes.Equal([]byte(rp.body), noise(11, 300<<10)) {
		t.Fatalf("GET b after the change: %d bytes", len(rp.body))
	}
}

// TestServer_Sendfile_OffByDefault: with Config.SendfileMin unset, 6 MiB
// of pipelined answers that fill the socket are written from the mapping:
// no sendfile ever waits, and the bodies arrive whole.
func TestServer_Sendfile_OffByDefault(t *testing.T) {
	var waits atomic.Int64
	sendfileWaitHook = func() { waits.Add(1) }
	t.Cleanup(func() { sendfileWaitHook = nil })
	st, addr := durableServer(t, 0)
	body := noise(8, 1<<20)
	putRaw(t, st, "d/a", body)
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.(*net.TCPConn).SetReadBuffer(64 << 10)
	nc.SetDeadline(time.Now().Add(60 * time.Second))
	if _, err := io.WriteString(nc, strings.Repeat("GET /docs/a HTTP/1.1\r\n\r\n", 6)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // let the server fill the socket before the client reads
	br := bufio.NewReaderSize(nc, 64<<10)
	for i := range 6 {
		rp, err := readReply(br)
		if err != nil || rp.status != 200 || !bytes.Equal([]byte(rp.body), body) {
			t.Fatalf("answer %d: %v, %d bytes", i, err, len(rp.body))
		}
	}
	if n := waits.Load(); n != 0 {
		t.Fatalf("a sendfile waited %d times with SendfileMin unset, want none", n)
	}
}

// TestServer_Sendfile_RAM: in RAM mode the store has no file, so large
// bodies are written from memory, whole.
func TestServer_Sendfile_RAM(t *testing.T) {
	s := newTestServer(t, Config{SendfileMin: 64 << 10})
	body := noise(5, 1<<20)
	putRaw(t, s.st, "d/big", body)
	c := dial(t, listen(t, s))
	c.send("GET /docs/big HTTP/1.1\r\n\r\nGET /docs/big HTTP/1.1\r\n\r\n")
	for i := range 2 {
		if rp := c.reply(); rp.status != 200 || !bytes.Equal([]byte(rp.body), body) {
			t.Fatalf("answer %d: status %d, %d bytes", i, rp.status, len(rp.body))
		}
	}
}

// TestConn_Sendfile_ZeroAllocs: over a real socket in durable mode, a
// batch of 4 pipelined GETs of a 128 KiB document, each sent by sendfile,
// allocates nothing once the connection is warm.
func TestConn_Sendfile_ZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool (the store's snapshots and borrowed values) drops items under the race detector")
	}
	st, err := store.Open(t.TempDir()+"/pure.db", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := newTestServer(t, Config{Store: st, SendfileMin: 64 << 10})
	body := noise(7, 128<<10)
	putRaw(t, st, "d/big", body)
	c, cli := rawLoopbackConn(t, s)
	sends := 0
	sendfileWaitHook = func() { sends++ } // counted on the server's goroutine, read after it ended
	defer func() { sendfileWaitHook = nil }()
	ended := make(chan error, 1)
	go func() { ended <- c.serveRaw() }()
	in := []byte(strings.Repeat("GET /docs/big HTTP/1.1\r\n\r\n", 4))
	out := make([]byte, 4*len(body)+4096)
	round := pipelinedRound(t, cli, in, out, 4, body)
	round()
	if n := testing.AllocsPerRun(50, round); n != 0 {
		t.Fatalf("%v allocations per batch of 4 GETs sent by sendfile, want 0", n)
	}
	cli.Close()
	if err := <-ended; !errors.Is(err, io.EOF) {
		t.Fatalf("the loop ended with %v after the client closed, want EOF", err)
	}
	t.Logf("the sends waited for room %d times", sends)
}
