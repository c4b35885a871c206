package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// startRun runs the command in-process and returns its address and a
// function that stops it (as SIGTERM would) and returns run's error.
func startRun(t *testing.T, args ...string) (addr string, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() {
		err := run(ctx, args, pw, &stderr)
		pw.Close()
		done <- err
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "listening ") {
		cancel()
		t.Fatalf("first line %q (%v), want \"listening HOST:PORT\"; run: %v", line, err, <-done)
	}
	go io.Copy(io.Discard, pr)
	var once bool
	var runErr error
	stop = func() error {
		if !once {
			once = true
			cancel()
			select {
			case runErr = <-done:
			case <-time.After(15 * time.Second):
				t.Fatal("run did not return 15 s after the context ended")
			}
		}
		return runErr
	}
	t.Cleanup(func() { stop() })
	return strings.TrimSpace(strings.TrimPrefix(line, "listening ")), stop
}

func do(t *testing.T, method, url, body string, header ...string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

func TestRun_RAM_DocsAndScores(t *testing.T) {
	addr, stop := startRun(t, "--ram", "--addr", "127.0.0.1:0")
	base := "http://" + addr
	code, _, h := do(t, "PUT", base+"/docs/d00", strings.Repeat("x", 64))
	if code != 200 || h.Get("ETag") == "" {
		t.Fatalf("PUT: %d %v", code, h)
	}
	if code, body, _ := do(t, "GET", base+"/docs/d00", ""); code != 200 || len(body) != 64 {
		t.Fatalf("GET: %d %q", code, body)
	}
	if code, body, _ := do(t, "POST", base+"/inputs/score?points=5", "alice"); code != 200 || body != "alice" {
		t.Fatalf("score: %d %q", code, body)
	}
	do(t, "POST", base+"/inputs/score?points=7", "bob")
	if code, body, _ := do(t, "GET", base+"/views/total", ""); code != 200 || body != "12" {
		t.Fatalf("total: %d %q", code, body)
	}
	code, body, h := do(t, "GET", base+"/views/leaders?from=0&count=20", "")
	if code != 200 || body != `[{"name":"alice","score":5},{"name":"bob","score":7}]` || h.Get("Content-Type") != "application/json" {
		t.Fatalf("leaders: %d %q %v", code, body, h)
	}
	if code, body, _ := do(t, "GET", base+"/views/nope", ""); code != 404 || !strings.Contains(body, `"nope"`) {
		t.Fatalf("unknown view: %d %q", code, body)
	}
	if err := stop(); err != nil {
		t.Fatalf("run after stop: %v", err)
	}
}

// TestRun_Data_Durable: what was acknowledged is there after a restart.
func TestRun_Data_Durable(t *testing.T) {
	dir := t.TempDir()
	addr, stop := startRun(t, "--data", dir, "--addr", "127.0.0.1:0")
	if code, _, _ := do(t, "PUT", "http://"+addr+"/docs/k", "kept"); code != 200 {
		t.Fatalf("PUT: %d", code)
	}
	do(t, "POST", "http://"+addr+"/inputs/score?points=3", "carol")
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	addr, _ = startRun(t, "--data", dir, "--addr", "127.0.0.1:0")
	if code, body, _ := do(t, "GET", "http://"+addr+"/docs/k", ""); code != 200 || body != "kept" {
		t.Fatalf("after restart: %d %q", code, body)
	}
	if _, body, _ := do(t, "GET", "http://"+addr+"/views/total", ""); body != "3" {
		t.Fatalf("total after restart: %q", body)
	}
}

// TestRun_Data_BigBodyBySendfile: with the default --sendfile-min a
// durable 1 MiB document is sent from the store's file (sendfile), and it
// arrives whole, byte for byte, twice on one keep-alive connection; and
// after an overwrite the new bytes arrive, not the old file range.
func TestRun_Data_BigBodyBySendfile(t *testing.T) {
	c, err := parseFlags([]string{"--data", t.TempDir()}, io.Discard, io.Discard)
	if err != nil || c.sendfileMin != DefaultSendfileMin || DefaultSendfileMin > 1<<20 {
		t.Fatalf("default --sendfile-min %d (%v), want %d, at most 1 MiB", c.sendfileMin, err, DefaultSendfileMin)
	}
	addr, _ := startRun(t, "--data", t.TempDir(), "--addr", "127.0.0.1:0")
	for _, fill := range []byte{'a', 'b'} {
		big := make([]byte, 1<<20)
		for i := range big {
			big[i] = fill + byte(i%7)
		}
		if code, _, _ := do(t, "PUT", "http://"+addr+"/docs/big", string(big)); code != 200 {
			t.Fatalf("PUT: %d", code)
		}
		for range 2 {
			if code, body, _ := do(t, "GET", "http://"+addr+"/docs/big", ""); code != 200 || body != string(big) {
				t.Fatalf("GET of %c...: %d, %d bytes, equal %v", fill, code, len(body), body == string(big))
			}
		}
	}
}

func TestRun_AppNone_Pprof(t *testing.T) {
	addr, _ := startRun(t, "--ram", "--addr", "127.0.0.1:0", "--app", "none", "--pprof", "127.0.0.1:0", "--workers", "1")
	if code, body, _ := do(t, "GET", "http://"+addr+"/views/total", ""); code != 404 || !strings.Contains(body, "no app") {
		t.Fatalf("--app none: %d %q", code, body)
	}
}

func TestRun_Flags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // in the error or the usage
	}{
		{nil, "exactly one of --ram"},
		{[]string{"--ram", "--data", "x"}, "exactly one of --ram"},
		{[]string{"--ram", "--app", "chess"}, `unknown --app "chess"`},
		{[]string{"--ram", "--workers", "0"}, "--workers 0: must be positive"},
		{[]string{"--ram", "--workers", "-2"}, "--workers -2: must be positive"},
		{[]string{"--ram", "--addr", "256.0.0.1:1"}, "listen on"},
	} {
		var out, errb bytes.Buffer
		err := run(context.Background(), tc.args, &out, &errb)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"--bogus"}, &out, &errb); err != errUsage ||
		strings.Count(errb.String(), "bogus") != 1 || !strings.Contains(errb.String(), "usage:") {
		t.Errorf("unknown flag: %v, stderr %q", err, errb.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"--help"}, &out, &errb); err != nil {
		t.Fatalf("--help: %v", err)
	}
	for _, f := range []string{"-ram", "-data", "-addr", "-pprof", "-app", "-payload-budget", "-workers", "-max-conns", "-idle-timeout", "-header-timeout"} {
		if !strings.Contains(out.String(), f) {
			t.Errorf("--help does not list %s", f)
		}
	}
}

// TestDurableProcs: with --data pure-serve runs with at least two Ps, so a
// goroutine blocked in fdatasync does not hold the only one; in RAM, with
// more CPUs, or with GOMAXPROCS set in the environment, Go's choice stands.
func TestDurableProcs(t *testing.T) {
	for _, c := range []struct {
		durable bool
		env     string
		cur     int
		want    int
	}{
		{true, "", 1, 2},
		{true, "", 2, 2},
		{true, "", 8, 8},
		{true, "1", 1, 1},
		{false, "", 1, 1},
	} {
		if got := durableProcs(c.durable, c.env, c.cur); got != c.want {
			t.Errorf("durableProcs(durable %v, GOMAXPROCS=%q, now %d) = %d, want %d", c.durable, c.env, c.cur, got, c.want)
		}
	}
}

// TestDurableGCPercent: 50 with --data, the runtime's own setting in RAM
// mode or when the GOGC environment variable is set (even to 100 or off).
func TestDurableGCPercent(t *testing.T) {
	for _, c := range []struct {
		durable bool
		env     string
		want    int
		ok      bool
	}{
		{true, "", 50, true},
		{true, "100", 0, false},
		{true, "off", 0, false},
		{false, "", 0, false},
	} {
		if got, ok := durableGCPercent(c.durable, c.env); got != c.want || ok != c.ok {
			t.Errorf("durableGCPercent(durable %v, GOGC=%q) = %d, %v; want %d, %v", c.durable, c.env, got, ok, c.want, c.ok)
		}
	}
}
