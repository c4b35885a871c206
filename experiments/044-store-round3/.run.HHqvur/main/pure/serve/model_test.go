package serve_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"workbench/pure/app"
	"workbench/pure/apps/scores"
	"workbench/pure/serve"
	"workbench/pure/store"
)

// startModelServer serves documents and the scoreboard on a fresh RAM
// store at a free loopback port, with workers connection workers.
func startModelServer(t *testing.T, workers int) string {
	t.Helper()
	st, err := store.OpenRAM(nil)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := app.Start(st, scores.New(), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := serve.New(serve.Config{Store: st, Apps: rt, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		rt.Close()
		st.Close()
	})
	return ln.Addr().String()
}

// modelConn is one keep-alive client connection.
type modelConn struct {
	nc net.Conn
	br *bufio.Reader
}

func (mc *modelConn) send(reqs []req) error {
	var b []byte
	for _, q := range reqs {
		b = fmt.Appendf(b, "%s %s HTTP/1.1\r\nHost: model\r\nContent-Length: %d\r\n", q.method, q.target, len(q.body))
		if q.ifMatch != "" {
			b = fmt.Appendf(b, "If-Match: %s\r\n", q.ifMatch)
		}
		b = append(append(b, "\r\n"...), q.body...)
	}
	_, err := mc.nc.Write(b) // the whole group at once: pipelined
	return err
}

func (mc *modelConn) receive(method string) (answer, error) {
	resp, err := http.ReadResponse(mc.br, &http.Request{Method: method})
	if err != nil {
		return answer{}, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return answer{status: resp.StatusCode, etag: resp.Header.Get("ETag"), ctype: resp.Header.Get("Content-Type"), body: string(body)}, err
}

// modelSeed is MODEL_SEED if set, else the clock.
func modelSeed(t *testing.T) uint64 {
	if s := os.Getenv("MODEL_SEED"); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("MODEL_SEED=%q: %v", s, err)
		}
		return seed
	}
	return uint64(time.Now().UnixNano())
}

// TestModel_RandomRequests_MatchReference sends 1,000 random requests
// (documents with and without If-Match, scoreboard inputs and views, table
// pages, missing names, bad queries, bad keys) over three keep-alive
// connections, in pipelined groups of one to three with at most one write
// each, to a real server with one connection worker and with four, and
// compares every answer with the reference model (model_ref_test.go):
// status, error text (which starts with the status word), body, ETag,
// Content-Type and JSON rows. Rerun a failure with MODEL_SEED=<seed>.
func TestModel_RandomRequests_MatchReference(t *testing.T) {
	seed := modelSeed(t)
	t.Logf("seed %d (rerun with MODEL_SEED=%d)", seed, seed)
	for _, workers := range []int{1, 4} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			runModel(t, startModelServer(t, workers), seed, 1000)
		})
	}
}

func runModel(t *testing.T, addr string, seed uint64, n int) {
	m := newModel(seed)
	conns := make([]*modelConn, 3)
	for i := range conns {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		conns[i] = &modelConn{nc: nc, br: bufio.NewReader(nc)}
	}
	counts := map[int]int{}
	for sent := 0; sent < n; {
		group, writes := []req{}, 0
		for len(group) < 1+m.rng.IntN(3) && sent+len(group) < n {
			q := m.next()
			group = append(group, q)
			if q.write {
				writes++
			}
			if writes > 0 { // one write per group keeps revisions in order
				break
			}
		}
		mc := conns[m.rng.IntN(len(conns))]
		if err := mc.send(group); err != nil {
			t.Fatalf("request %d: sending: %v", sent, err)
		}
		for _, q := range group {
			got, err := mc.receive(q.method)
			if err != nil {
				t.Fatalf("request %d %s %s: reading the answer: %v", sent, q.method, q.target, err)
			}
			compare(t, sent, q, got)
			counts[got.status]++
			sent++
		}
		if t.Failed() {
			t.Fatalf("stopped at request %d", sent)
		}
	}
	t.Logf("%d requests matched the model; by status: %v", n, counts)
	for _, status := range []int{200, 400, 404, 409, 412} {
		if counts[status] == 0 {
			t.Errorf("no answer with status %d: the generator does not cover it", status)
		}
	}
}

// compare checks one answer against the model's.
func compare(t *testing.T, i int, q req, got answer) {
	t.Helper()
	want := q.want
	if got.status != want.status || got.body != want.body || got.etag != want.etag ||
		want.ctype != "" && got.ctype != want.ctype {
		t.Errorf("request %d: %s %s (If-Match %q, body %q):\n got %d etag %q type %q body %q\nwant %d etag %q type %q body %q",
			i, q.method, q.target, q.ifMatch, q.body, got.status, got.etag, got.ctype, got.body,
			want.status, want.etag, want.ctype, want.body)
		return
	}
	if want.status >= 400 && !strings.HasPrefix(got.body, app.StatusWord(got.status)+": ") {
		t.Errorf("request %d: error body %q does not start with its status word", i, got.body)
	}
	if want.ctype == jsonType {
		var g, w []map[string]any
		if err := json.Unmarshal([]byte(got.body), &g); err != nil {
			t.Errorf("request %d: rows are not JSON: %v", i, err)
		}
		json.Unmarshal([]byte(want.body), &w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("request %d: rows %v, want %v", i, g, w)
		}
	}
}
