package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"workbench/pure/baseline/kv"
)

// server is one pure-baseline run() serving in the background.
type server struct {
	url  string
	stop func() error
}

// start runs the command with args on a free port and waits for its
// "listening" line.
func start(t *testing.T, args ...string) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr strings.Builder
	done := make(chan error, 1)
	go func() {
		err := run(ctx, append(args, "--addr", "127.0.0.1:0"), pw, &stderr)
		pw.CloseWithError(fmt.Errorf("run returned: %v", err))
		done <- err
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("pure-baseline %v: no listening line: %v (stderr: %s)", args, err, stderr.String())
	}
	go io.Copy(io.Discard, pr)
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if !ok {
		t.Fatalf("first line %q, want \"listening HOST:PORT\"", line)
	}
	s := &server{url: "http://" + addr}
	stopped := false
	s.stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			return fmt.Errorf("run did not return 10 s after cancel")
		}
	}
	t.Cleanup(func() {
		if err := s.stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return s
}

// do sends one request and returns status, ETag and body.
func (s *server) do(t *testing.T, method, path, body string, hdr ...string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, path, err)
	}
	return resp.StatusCode, resp.Header.Get("ETag"), string(b)
}

// raw writes head and then n bytes of body on a new connection (ignoring
// write errors: the server may answer before reading it all) and returns
// the answer's status line.
func (s *server) raw(t *testing.T, head string, n int) string {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go func() {
		c.Write([]byte(head))
		c.Write(make([]byte, n))
	}()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the answer to %q: %v", head, err)
	}
	return strings.TrimSpace(line)
}

func (s *server) want(t *testing.T, method, path, body string, wantCode int, wantBody string, hdr ...string) string {
	t.Helper()
	code, etag, got := s.do(t, method, path, body, hdr...)
	if code != wantCode || (wantBody != "*" && got != wantBody) {
		t.Errorf("%s %s: got %d %q, want %d %q", method, path, code, got, wantCode, wantBody)
	}
	return etag
}

// each runs f against every implementation in every mode, each with a
// fresh data directory.
func each(t *testing.T, f func(t *testing.T, args []string, mode kv.Mode)) {
	for _, impl := range []string{"nethttp", "fasthttp"} {
		for _, mode := range kv.Modes() {
			t.Run(impl+"-"+string(mode), func(t *testing.T) {
				args := []string{"--impl", impl, "--mode", string(mode)}
				if mode.Durable() {
					args = append(args, "--data", t.TempDir())
				}
				f(t, args, mode)
			})
		}
	}
}

func TestBaseline_Documents(t *testing.T) {
	each(t, func(t *testing.T, args []string, _ kv.Mode) {
		s := start(t, args...)
		s.want(t, "GET", "/docs/d00", "", 404, "not found: no document \"d00\"; PUT it first\n")
		if e := s.want(t, "PUT", "/docs/d00", "hello", 200, ""); e != `"1"` {
			t.Errorf("first PUT: ETag %s, want \"1\"", e)
		}
		if _, etag, body := s.do(t, "GET", "/docs/d00", ""); etag != `"1"` || body != "hello" {
			t.Errorf("GET after PUT: %s %q, want \"1\" \"hello\"", etag, body)
		}
		if e := s.want(t, "PUT", "/docs/d00", "second", 200, "", "If-Match", `"1"`); e != `"2"` {
			t.Errorf("PUT with If-Match \"1\": ETag %s, want \"2\"", e)
		}
		s.want(t, "PUT", "/docs/d00", "lost", 412, "precondition failed: document \"d00\" is at revision 2, If-Match named 1; GET it and retry with its ETag\n", "If-Match", `"1"`)
		s.want(t, "PUT", "/docs/nope", "x", 412, "*", "If-Match", `"1"`)
		s.want(t, "PUT", "/docs/d00", "x", 400, "*", "If-Match", `1`)
		s.want(t, "GET", "/docs/d00", "", 200, "second")
		s.want(t, "GET", "/docs/.hidden", "", 400, "*")
		s.want(t, "GET", "/docs/"+strings.Repeat("k", kv.MaxKeyLen+1), "", 400, "*")
		s.want(t, "DELETE", "/docs/d00", "", 405, "*")
		s.want(t, "GET", "/nowhere", "", 404, "*")
		big := strings.Repeat("b", 1<<20)
		s.want(t, "PUT", "/docs/big", big, 200, "")
		s.want(t, "GET", "/docs/big", "", 200, big)
		if status := s.raw(t, "PUT /docs/huge HTTP/1.1\r\nHost: x\r\nContent-Length: "+fmt.Sprint(kv.MaxBody+1)+"\r\n\r\n", kv.MaxBody+1); status != "HTTP/1.1 413 Request Entity Too Large" {
			t.Errorf("PUT over the body limit: %q, want 413", status)
		}
	})
}

func TestBaseline_Scoreboard(t *testing.T) {
	each(t, func(t *testing.T, args []string, _ kv.Mode) {
		s := start(t, args...)
		s.want(t, "GET", "/views/total", "", 200, "0")
		s.want(t, "GET", "/views/leaders", "", 200, "[]")
		for i, name := range []string{"carol", "alice", "bob", "alice"} {
			s.want(t, "POST", fmt.Sprintf("/inputs/score?points=%d", i+1), name, 200, name)
		}
		s.want(t, "GET", "/views/total", "", 200, "10")
		s.want(t, "GET", "/views/leaders", "", 200, `[{"name":"alice","score":6},{"name":"bob","score":3},{"name":"carol","score":1}]`)
		s.want(t, "GET", "/views/leaders?from=1&count=1", "", 200, `[{"name":"bob","score":3}]`)
		s.want(t, "GET", "/views/leaders?from=5", "", 200, `[]`)
		s.want(t, "GET", "/views/leaders?count=1001", "", 400, "bad request: field \"count\": 1001 is over the limit of 1000 rows: page with from\n")
		s.want(t, "GET", "/views/leaders?from=x", "", 400, "bad request: field \"from\": \"x\" is not a whole number >= 0\n")
		s.want(t, "POST", "/inputs/score?points=z", "alice", 400, "bad request: field \"points\": \"z\" is not a decimal integer\n")
		s.want(t, "POST", "/inputs/score", "alice", 400, "*")
		s.want(t, "POST", "/inputs/score?points=1", "", 400, "*")
		s.want(t, "GET", "/views/x", "", 404, "not found: no view \"x\"; views: total, leaders\n")
		s.want(t, "POST", "/inputs/x", "", 404, "not found: no input \"x\"; inputs: score\n")
		var rows []kv.Row
		_, _, body := s.do(t, "GET", "/views/leaders?count=1000", "")
		if err := json.Unmarshal([]byte(body), &rows); err != nil || len(rows) != 3 {
			t.Errorf("leaders as JSON: %v, %d rows, want 3", err, len(rows))
		}
	})
}

func TestBaseline_Restart_KeepsAcknowledgedWrites(t *testing.T) {
	each(t, func(t *testing.T, args []string, mode kv.Mode) {
		if !mode.Durable() {
			return
		}
		s := start(t, args...)
		s.want(t, "PUT", "/docs/a", "one", 200, "")
		s.want(t, "PUT", "/docs/a", "two", 200, "", "If-Match", `"1"`)
		s.want(t, "PUT", "/docs/b", "", 200, "")
		s.want(t, "POST", "/inputs/score?points=5", "zoë/../x", 200, "zoë/../x")
		s.want(t, "POST", "/inputs/score?points=-2", "zoë/../x", 200, "zoë/../x")
		s.want(t, "POST", "/inputs/score?points=7", "al", 200, "al")
		if err := s.stop(); err != nil {
			t.Fatalf("stop: %v", err)
		}
		s = start(t, args...)
		if _, etag, body := s.do(t, "GET", "/docs/a", ""); etag != `"2"` || body != "two" {
			t.Errorf("after restart: a is %s %q, want \"2\" \"two\"", etag, body)
		}
		s.want(t, "GET", "/docs/b", "", 200, "")
		s.want(t, "GET", "/views/total", "", 200, "10")
		s.want(t, "GET", "/views/leaders", "", 200, `[{"name":"al","score":7},{"name":"zoë/../x","score":3}]`)
		if e := s.want(t, "PUT", "/docs/a", "three", 200, "", "If-Match", `"2"`); e != `"3"` {
			t.Errorf("PUT after restart: ETag %s, want \"3\"", e)
		}
	})
}

func TestRun_Flags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--impl", "gin"}, `unknown --impl "gin"`},
		{[]string{"--mode", "fdatasync"}, "pass --data DIR"},
		{[]string{"--mode", "memory", "--data", "/x"}, "keeps nothing on disk"},
		{[]string{"--ram", "--mode", "crashsafe"}, "--ram means --mode memory"},
		{[]string{"--mode", "paper"}, `unknown mode "paper"`},
	} {
		err := run(context.Background(), tc.args, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("run %v: %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
	var out strings.Builder
	if err := run(context.Background(), []string{"--help"}, &out, io.Discard); err != nil {
		t.Errorf("--help: %v", err)
	}
	for _, flag := range []string{"-impl", "-mode", "-ram", "-data", "-addr"} {
		if !strings.Contains(out.String(), flag) {
			t.Errorf("--help does not list %s", flag)
		}
	}
	var errOut strings.Builder
	if err := run(context.Background(), []string{"--bogus"}, io.Discard, &errOut); err != errUsage {
		t.Errorf("unknown flag: %v, want errUsage", err)
	}
	if n := strings.Count(errOut.String(), "flag provided but not defined"); n != 1 {
		t.Errorf("unknown flag reported %d times, want once:\n%s", n, errOut.String())
	}
}
