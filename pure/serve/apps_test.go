package serve

import (
	"fmt"
	"strings"
	"testing"

	"workbench/pure/app"
	"workbench/pure/apps/scores"
	"workbench/pure/store"
)

// startScores serves the scoreboard over a durable store in a temp dir.
func startScores(t *testing.T) (*Server, *app.Runtime) {
	t.Helper()
	st, err := store.Open(t.TempDir()+"/pure.db", nil)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := app.Start(st, scores.New(), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(); st.Close() })
	return newTestServer(t, Config{Store: st, Apps: rt}), rt
}

// TestServer_Apps_PipelinedInputsShareSaves: a batch submits all its app
// calls before waiting for the first, so pipelined inputs share saves, and
// the answers come back in request order.
func TestServer_Apps_PipelinedInputsShareSaves(t *testing.T) {
	s, rt := startScores(t)
	c := dial(t, listen(t, s))
	var b strings.Builder
	const n = 20
	for i := range n {
		name := fmt.Sprintf("p%02d", i)
		fmt.Fprintf(&b, "POST /inputs/score?points=%d HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s", i+1, len(name), name)
	}
	b.WriteString("GET /views/total HTTP/1.1\r\n\r\n")
	b.WriteString("GET /views/leaders?from=1&count=2 HTTP/1.1\r\n\r\n")
	c.send(b.String())
	for i := range n {
		if rp := c.reply(); rp.status != 200 || rp.body != fmt.Sprintf("p%02d", i) {
			t.Fatalf("input %d: %d %q", i, rp.status, rp.body)
		}
	}
	if rp := c.reply(); rp.body != fmt.Sprint(n*(n+1)/2) {
		t.Fatalf("total: %q", rp.body)
	}
	if rp := c.reply(); rp.body != `[{"name":"p01","score":2},{"name":"p02","score":3}]` || rp.header.Get("Content-Type") != "application/json" {
		t.Fatalf("leaders: %q %v", rp.body, rp.header)
	}
	if st := rt.Stats(); st.Saves >= n {
		t.Fatalf("%d saves for %d pipelined inputs: they did not share saves", st.Saves, n)
	} else {
		t.Logf("%d inputs in %d saves", n, st.Saves)
	}
}

func TestServer_Apps_Refusals(t *testing.T) {
	s, _ := startScores(t)
	c := dial(t, listen(t, s))
	for _, tc := range []struct {
		req    string
		status int
		want   string
	}{
		{"GET /views/nope HTTP/1.1\r\n\r\n", 404, `"nope"`},
		{"POST /inputs/nope HTTP/1.1\r\nContent-Length: 1\r\n\r\nx", 404, `"nope"`},
		{"POST /inputs/score?points=x HTTP/1.1\r\nContent-Length: 1\r\n\r\nx", 400, "points"},
		{"GET /inputs/score?points=1 HTTP/1.1\r\n\r\n", 405, "POST"},
		{"POST /views/total HTTP/1.1\r\nContent-Length: 0\r\n\r\n", 405, "GET"},
	} {
		c.send(tc.req)
		rp := c.reply()
		if rp.status != tc.status || !strings.Contains(rp.body, tc.want) || rp.close {
			t.Errorf("%q: %d %q close=%v, want %d naming %s, connection kept", tc.req, rp.status, rp.body, rp.close, tc.status, tc.want)
		}
	}
	// HEAD of a view: the head with the body's length, no body.
	raw := runBatch(t, s, "HEAD /views/total HTTP/1.1\r\n\r\n")
	if !strings.HasPrefix(raw, "HTTP/1.1 200 OK\r\n") || !strings.HasSuffix(raw, "Content-Length: 1\r\n\r\n") {
		t.Fatalf("HEAD: %q", raw)
	}
}

// TestConn_AppView_ZeroAllocs: a batch of pipelined GET /views/total
// allocates nothing once warm (the name is interned, the calls reused).
func TestConn_AppView_ZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocations are not counted under the race detector")
	}
	s, _ := startScores(t)
	in := strings.Repeat("GET /views/total HTTP/1.1\r\n\r\n", 8)
	c := testConn(s)
	c.nc = &memConn{discard: true}
	round := func() {
		c.r0, c.r1 = 0, copy(c.rbuf, in)
		c.batch()
		if err := c.flush(); err != nil {
			t.Fatal(err)
		}
	}
	round()
	if n := testing.AllocsPerRun(100, round); n != 0 {
		t.Fatalf("%v allocations per batch of 8 view GETs, want 0", n)
	}
}
