package serve

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"workbench/pure/store"
)

func TestServer_Docs_GetPutETag(t *testing.T) {
	s := newTestServer(t, Config{})
	c := dial(t, listen(t, s))

	if rp := c.get("/docs/a"); rp.status != 404 || rp.body != "not found: no document \"a\"\n" {
		t.Fatalf("GET missing: %d %q", rp.status, rp.body)
	}
	rp := c.put("/docs/a", "hello")
	if rp.status != 200 || rp.header.Get("ETag") == "" {
		t.Fatalf("PUT: %d %q %v", rp.status, rp.body, rp.header)
	}
	etag := rp.header.Get("ETag")
	rp = c.get("/docs/a")
	if rp.status != 200 || rp.body != "hello" || rp.header.Get("ETag") != etag {
		t.Fatalf("GET: %d %q etag %q, want 200 hello %s", rp.status, rp.body, rp.header.Get("ETag"), etag)
	}
	if rp.header.Get("Date") == "" {
		t.Fatalf("no Date header: %v", rp.header)
	}
	rp = c.put("/docs/a", "v2", "If-Match: "+etag)
	if rp.status != 200 || rp.header.Get("ETag") == etag {
		t.Fatalf("PUT If-Match current: %d %q %v", rp.status, rp.body, rp.header)
	}
	if rp = c.put("/docs/a", "v3", "If-Match: "+etag); rp.status != 412 {
		t.Fatalf("PUT If-Match stale: %d %q, want 412", rp.status, rp.body)
	}
	if rp = c.put("/docs/a", "v3", `If-Match: "0"`); rp.status != 412 {
		t.Fatalf("PUT If-Match 0: %d %q, want 412", rp.status, rp.body)
	}
	if rp = c.put("/docs/a", "v3", `If-None-Match: *`); rp.status != 412 {
		t.Fatalf("PUT If-None-Match * on existing: %d %q, want 412", rp.status, rp.body)
	}
	if rp = c.put("/docs/new", "n", `If-Match: *`); rp.status != 412 {
		t.Fatalf("PUT If-Match * on missing: %d %q, want 412", rp.status, rp.body)
	}
	if rp = c.put("/docs/a", "v3", `If-Match: W/"3"`); rp.status != 400 || !strings.Contains(rp.body, "If-Match") {
		t.Fatalf("PUT weak If-Match: %d %q, want 400 naming If-Match", rp.status, rp.body)
	}
	if rp = c.get("/docs/a"); rp.body != "v2" {
		t.Fatalf("after refused PUTs: %q, want v2", rp.body)
	}
	// The documents live under the prefix, so apps can share the store.
	sn, _ := s.st.Snapshot()
	defer sn.Release()
	if v, _, ok := sn.Get([]byte("d/a")); !ok || string(v) != "v2" {
		t.Fatalf("store key d/a: %q %v", v, ok)
	}
}

// TestServer_Docs_Durable: a PUT's answer leaves after its commit, so a
// store reopened after the server stopped holds every acknowledged write.
func TestServer_Docs_Durable(t *testing.T) {
	path := t.TempDir() + "/pure.db"
	st, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Store: st, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	addr := listenOnly(t, s)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := dial(t, addr)
			for j := range 10 {
				if rp := c.put("/docs/w"+string(rune('0'+i)), strings.Repeat("x", j+1)); rp.status != 200 {
					t.Errorf("PUT: %d %q", rp.status, rp.body)
					return
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("80 PUTs from 8 connections in %d publications", st.Stats().Publications)
	stopAndClose(t, s, st)
	st, err = store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sn, _ := st.Snapshot()
	defer sn.Release()
	for i := range 8 {
		if v, _, ok := sn.Get([]byte("d/w" + string(rune('0'+i)))); !ok || len(v) != 10 {
			t.Errorf("w%d after reopen: %q %v, want 10 bytes", i, v, ok)
		}
	}
}

// TestServer_Docs_SeeAnsweredCommit: a request sent after its client got
// an answer sees that answer's commit, on the same connection and on
// another one.
func TestServer_Docs_SeeAnsweredCommit(t *testing.T) {
	s := newTestServer(t, Config{})
	addr := listen(t, s)
	w, r := dial(t, addr), dial(t, addr)
	for i := range 50 {
		body := strings.Repeat("v", i+1)
		rp := w.put("/docs/k", body)
		if rp.status != 200 {
			t.Fatalf("PUT: %d", rp.status)
		}
		if got := w.get("/docs/k"); got.body != body || got.header.Get("ETag") != rp.header.Get("ETag") {
			t.Fatalf("same connection, round %d: %q %s", i, got.body, got.header.Get("ETag"))
		}
		if got := r.get("/docs/k"); got.body != body {
			t.Fatalf("other connection, round %d: %q, want %q", i, got.body, body)
		}
	}
	// In one pipelined batch, a read after a write sees it too.
	raw := runBatch(t, s, "PUT /docs/p HTTP/1.1\r\nContent-Length: 3\r\n\r\nnewGET /docs/p HTTP/1.1\r\n\r\n")
	if rs := replies(t, raw); len(rs) != 2 || rs[1].body != "new" {
		t.Fatalf("pipelined PUT then GET: %q", raw)
	}
}

// TestServer_Docs_BorrowedSurvivesChange: a large GET body is lent from the
// mapping; changing the document and compacting the store before the batch
// is sent does not change what is sent.
func TestServer_Docs_BorrowedSurvivesChange(t *testing.T) {
	path := t.TempDir() + "/pure.db"
	st, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := newTestServer(t, Config{Store: st})
	old := bytes.Repeat([]byte("old-"), 4096) // 16 KiB: lent, not copied
	putRaw(t, st, "d/big", old)

	c := testConn(s)
	mc := &memConn{}
	c.nc = mc
	c.r1 = copy(c.rbuf, "GET /docs/big HTTP/1.1\r\n\r\n")
	c.batch()
	if len(c.borrowed) != 1 {
		t.Fatalf("%d borrowed values, want 1 (the body lent from the mapping)", len(c.borrowed))
	}
	putRaw(t, st, "d/big", bytes.Repeat([]byte("new!"), 8192))
	if err := st.Compact(); err != nil {
		t.Fatal(err)
	}
	putRaw(t, st, "d/big", []byte("newer"))
	if err := c.flush(); err != nil {
		t.Fatal(err)
	}
	rs := replies(t, string(mc.out))
	if len(rs) != 1 || rs[0].body != string(old) {
		t.Fatalf("sent %d answers, body %d bytes; want the old %d bytes", len(rs), len(rs[0].body), len(old))
	}
}

func putRaw(t *testing.T, st *store.Store, k string, v []byte) {
	t.Helper()
	tx, err := st.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Put([]byte(k), v, store.Any); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func TestServer_Docs_BadKeys(t *testing.T) {
	s := newTestServer(t, Config{})
	long := strings.Repeat("k", MaxKeyBytes+1)
	for _, tc := range []struct{ path, want string }{
		{"/docs/", "empty document key"},
		{"/docs/a/../b", `".."`},
		{"/docs/..", `".."`},
		{"/docs/./a", `"."`},
		{"/docs/a%00b", "NUL"},
		{"/docs/a%2Fb", "encoded slash"},
		{"/docs/a%2fb", "encoded slash"},
		{"/docs/a%zz", "percent escape"},
		{"/docs/a%0a", "control byte"},
		{"/docs/" + long, "longer than 256"},
	} {
		raw := runBatch(t, s, "GET "+tc.path+" HTTP/1.1\r\n\r\nGET /docs/ok HTTP/1.1\r\n\r\n")
		rs := replies(t, raw)
		if len(rs) != 2 || rs[0].status != 400 || !strings.Contains(rs[0].body, tc.want) {
			t.Errorf("GET %s: %q, want 400 naming %s", tc.path, raw, tc.want)
			continue
		}
		if rs[1].status != 404 {
			t.Errorf("GET %s: the connection did not go on: %q", tc.path, raw)
		}
	}
	// Percent-escapes and slashes that are fine.
	raw := runBatch(t, s, "PUT /docs/a%20b/c HTTP/1.1\r\nContent-Length: 1\r\n\r\nxGET /docs/a%20b/c HTTP/1.1\r\n\r\n")
	if rs := replies(t, raw); len(rs) != 2 || rs[1].status != 200 || rs[1].body != "x" {
		t.Fatalf("escaped key: %q", raw)
	}
	if raw := runBatch(t, s, "DELETE /docs/a HTTP/1.1\r\n\r\n"); !strings.Contains(raw, "405") || !strings.Contains(raw, "Allow: GET, HEAD, PUT") {
		t.Fatalf("DELETE: %q", raw)
	}
}

// listenOnly serves s on a free port without closing its store at cleanup.
func listenOnly(t *testing.T, s *Server) string { return listen(t, s) }

// stopAndClose shuts the server down and closes its store.
func stopAndClose(t *testing.T, s *Server, st *store.Store) {
	t.Helper()
	if err := s.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
}

// gatedFile holds the store's syncs while armed, until released.
type gatedFile struct {
	store.File
	armed   atomic.Bool
	entered chan struct{}
	release chan struct{}
}

func (f *gatedFile) Sync() error {
	if f.armed.CompareAndSwap(true, false) {
		f.entered <- struct{}{}
		<-f.release
	}
	return f.File.Sync()
}

// TestServer_Docs_CommitsShareSyncs: while one PUT's sync is held, PUTs
// from other connections reach the store and commit together after it,
// even with one worker: the host does not serialize commits.
func TestServer_Docs_CommitsShareSyncs(t *testing.T) {
	gf := &gatedFile{entered: make(chan struct{}), release: make(chan struct{})}
	st, err := store.Open(t.TempDir()+"/pure.db", &store.Options{
		WrapFile: func(f store.File) store.File { gf.File = f; return gf }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := newTestServer(t, Config{Store: st, Workers: 1})
	addr := listen(t, s)
	before := st.Stats().Publications
	gf.armed.Store(true)
	var wg sync.WaitGroup
	put := func(k string) {
		defer wg.Done()
		if rp := dial(t, addr).put("/docs/"+k, "v"); rp.status != 200 {
			t.Errorf("PUT %s: %d %q", k, rp.status, rp.body)
		}
	}
	wg.Add(1)
	go put("first")
	<-gf.entered // the first commit is syncing, and stays there
	for i := range 7 {
		wg.Add(1)
		go put(fmt.Sprintf("k%d", i))
	}
	time.Sleep(200 * time.Millisecond) // time for the seven to reach the store
	close(gf.release)
	wg.Wait()
	if n := st.Stats().Publications - before; n > 3 {
		t.Fatalf("8 PUTs in %d publications, want 2 (the held one, then the seven together): commits did not queue during the sync", n)
	} else {
		t.Logf("8 PUTs in %d publications", n)
	}
}
