package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The kill -9 test. What "acknowledged" means: a write is acknowledged
// when its client has read a complete 200 answer to it. The server answers
// only after the save that holds the write is synced, so every
// acknowledged write must be present after a SIGKILL and restart. Each
// client sends one request at a time, so at the kill it has at most one
// write in flight (sent, not answered): that write may or may not be
// present, and nothing else may be. Precisely, after the restart:
//
//   - a document is as its last acknowledged PUT left it (same body, same
//     revision), or as its client's in-flight PUT to it would leave it
//     (that body, a newer revision); anything else is a lost write (older)
//     or a phantom (a body never sent);
//   - a name's score is at least the sum of its acknowledged inputs and at
//     most that plus the points of the inputs in flight to it (points are
//     positive); below is a lost write, above a phantom.
//
// The state found after a restart is the base of the next cycle.

const crashClients = 6

// crashState is what the clients know across cycles.
type crashState struct {
	mu     sync.Mutex
	docs   map[string]crashDoc // the base plus acknowledged PUTs
	maybe  map[string]string   // key -> body of a PUT in flight at the kill
	scores map[string]int64    // the base plus acknowledged points
	extra  map[string]int64    // name -> points in flight at the kill
	acked  int                 // acknowledged writes, all cycles
	lost   int                 // acknowledged writes found missing, all cycles
}

type crashDoc struct {
	body string
	rev  uint64
	revs []uint64 // revisions acknowledged this cycle, to count losses
}

var crashNames = []string{"ann", "ben", "cy", "dee"}

// TestCrash_KillDuringWrites builds pure-serve, serves --data from a temp
// directory, and SERVE_CRASH_CYCLES times (default 3) lets six clients
// write documents and scores over keep-alive connections, kills the server
// with SIGKILL at a random moment, restarts it on the same data and checks
// every acknowledged write. It prints "N cycles, A acknowledged, L lost"
// (N the cycles completed, even when it fails).
func TestCrash_KillDuringWrites(t *testing.T) {
	cycles, seed, rng, dir, bin := crashSetup(t, 1)
	data := filepath.Join(dir, "data")
	st := &crashState{docs: map[string]crashDoc{}, scores: map[string]int64{}}
	done := 0
	defer func() { fmt.Printf("%d cycles, %d acknowledged, %d lost\n", done, st.acked, st.lost) }()
	srv := startServe(t, bin, data)
	for cycle := 1; cycle <= cycles; cycle++ {
		st.maybe, st.extra = map[string]string{}, map[string]int64{}
		var wg sync.WaitGroup
		for g := range crashClients {
			wg.Go(func() { crashClient(t, srv.addr, st, g, rand.New(rand.NewPCG(seed, uint64(cycle*100+g)))) })
		}
		time.Sleep(time.Duration(50+rng.IntN(400)) * time.Millisecond)
		srv.kill(t)
		wg.Wait()
		srv = startServe(t, bin, data)
		lost := crashVerify(t, srv.addr, st)
		t.Logf("cycle %d: %d acknowledged so far, %d lost in this cycle", cycle, st.acked, lost)
		done = cycle
	}
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := srv.wait(); err != nil {
		t.Errorf("pure-serve did not stop cleanly on SIGTERM: %v\n%s", err, srv.stderr.String())
	}
	if st.acked == 0 {
		t.Error("no write was acknowledged: the test checked nothing")
	}
	if st.lost > 0 {
		t.Errorf("%d acknowledged writes lost", st.lost)
	}
}

// serveProc is a running pure-serve.
type serveProc struct {
	cmd    *exec.Cmd
	addr   string
	stderr *bytes.Buffer
	done   chan error
}

// startServe starts bin on data, with the extra flags, and reads its
// "listening" line.
func startServe(t *testing.T, bin, data string, extra ...string) *serveProc {
	t.Helper()
	p := &serveProc{stderr: &bytes.Buffer{}, done: make(chan error, 1)}
	p.cmd = exec.Command(bin, append([]string{"--addr", "127.0.0.1:0", "--data", data}, extra...)...)
	p.cmd.Stderr = &lockedWriter{w: p.stderr}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("starting pure-serve: %v", err)
	}
	br := bufio.NewReader(out)
	line, err := br.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "listening ") {
		p.cmd.Process.Kill()
		p.cmd.Wait()
		t.Fatalf("pure-serve's first line %q (%v), want \"listening HOST:PORT\"; stderr:\n%s", line, err, p.stderr.String())
	}
	p.addr = strings.TrimSpace(strings.TrimPrefix(line, "listening "))
	go func() {
		io.Copy(io.Discard, br)
		p.done <- p.cmd.Wait()
	}()
	t.Cleanup(func() { p.cmd.Process.Kill(); <-p.done })
	return p
}

func (p *serveProc) kill(t *testing.T) {
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.done
	p.done <- nil // for the cleanup
}

func (p *serveProc) wait() error {
	select {
	case err := <-p.done:
		p.done <- nil
		return err
	case <-time.After(10 * time.Second):
		return fmt.Errorf("still running 10 s after SIGTERM")
	}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// crashClient writes until the connection fails (the kill): PUTs to its
// own documents with If-Match of the revision it knows, and score inputs.
func crashClient(t *testing.T, addr string, st *crashState, g int, rng *rand.Rand) {
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		return // killed before this client connected
	}
	defer nc.Close()
	br := bufio.NewReader(nc)
	for i := 0; ; i++ {
		nc.SetDeadline(time.Now().Add(10 * time.Second))
		var head, body string
		key, name, points := "", "", int64(0)
		if rng.IntN(2) == 0 {
			key = fmt.Sprintf("c%d-k%d", g, rng.IntN(5))
			body = fmt.Sprintf("client %d write %d %s", g, i, strings.Repeat("x", rng.IntN(3000)))
			head = fmt.Sprintf("PUT /docs/%s HTTP/1.1\r\nHost: crash\r\nContent-Length: %d\r\n", key, len(body))
			st.mu.Lock()
			if d, ok := st.docs[key]; ok && rng.IntN(2) == 0 {
				head += fmt.Sprintf("If-Match: \"%d\"\r\n", d.rev)
			}
			st.maybe[key] = body
			st.mu.Unlock()
		} else {
			name, points = crashNames[rng.IntN(len(crashNames))], int64(1+rng.IntN(9))
			body = name
			head = fmt.Sprintf("POST /inputs/score?points=%d HTTP/1.1\r\nHost: crash\r\nContent-Length: %d\r\n", points, len(body))
			st.mu.Lock()
			st.extra[name] += points
			st.mu.Unlock()
		}
		if _, err := io.WriteString(nc, head+"\r\n"+body); err != nil {
			return // in flight at the kill
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			return
		}
		out, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return
		}
		if resp.StatusCode != 200 || key == "" && string(out) != name {
			t.Errorf("client %d: %s answered %d %q; every write of this test should succeed", g, head, resp.StatusCode, out)
			return
		}
		st.mu.Lock()
		st.acked++
		if key != "" {
			rev, err := strconv.ParseUint(strings.Trim(resp.Header.Get("ETag"), `"`), 10, 64)
			if err != nil {
				t.Errorf("client %d: PUT %s answered ETag %q", g, key, resp.Header.Get("ETag"))
			}
			d := st.docs[key]
			st.docs[key] = crashDoc{body: body, rev: rev, revs: append(d.revs, rev)}
			delete(st.maybe, key)
		} else {
			st.scores[name] += points
			st.extra[name] -= points
		}
		st.mu.Unlock()
	}
}

// crashVerify checks every acknowledged write on the restarted server,
// counts the lost ones, and makes what it found the next cycle's base.
func crashVerify(t *testing.T, addr string, st *crashState) int {
	t.Helper()
	lost, applied := 0, 0
	client := &http.Client{Timeout: 10 * time.Second}
	for key, d := range st.docs {
		resp, err := client.Get("http://" + addr + "/docs/" + key)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		rev, _ := strconv.ParseUint(strings.Trim(resp.Header.Get("ETag"), `"`), 10, 64)
		inflight, hasInflight := st.maybe[key]
		switch {
		case resp.StatusCode == 200 && string(body) == d.body && rev == d.rev:
		case resp.StatusCode == 200 && hasInflight && string(body) == inflight && rev > d.rev:
			applied++
		default:
			n := 0
			for _, r := range d.revs {
				if resp.StatusCode != 200 || r > rev {
					n++
				}
			}
			lost += max(n, 1)
			t.Errorf("document %s: found %d rev %d (%d bytes), acknowledged rev %d (%d bytes)", key, resp.StatusCode, rev, len(body), d.rev, len(d.body))
		}
		if resp.StatusCode == 200 {
			st.docs[key] = crashDoc{body: string(body), rev: rev}
		} else {
			delete(st.docs, key)
		}
	}
	resp, err := client.Get("http://" + addr + "/views/leaders?count=1000")
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Name  string `json:"name"`
		Score int64  `json:"score"`
	}
	err = json.NewDecoder(resp.Body).Decode(&rows)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("leaders: %v", err)
	}
	found := map[string]int64{}
	for _, r := range rows {
		found[r.Name] = r.Score
	}
	for _, name := range crashNames {
		acked, got := st.scores[name], found[name]
		switch {
		case got < acked:
			lost++
			t.Errorf("score of %s: %d, below the acknowledged %d", name, got, acked)
		case got > acked+st.extra[name]:
			t.Errorf("score of %s: %d, above the acknowledged %d plus %d in flight", name, got, acked, st.extra[name])
		}
		if got > acked {
			applied++
		}
		st.scores[name] = got
	}
	t.Logf("%d documents and %d points were in flight at the kill; %d of those documents and names were found written", len(st.maybe), sum(st.extra), applied)
	st.lost += lost
	return lost
}

func sum(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// crashSetup reads a crash test's settings, SERVE_CRASH_CYCLES (default 3)
// and SERVE_CRASH_SEED (default the clock, logged so a failure can be
// rerun), returns the seed and a random stream from it (stream tells the
// tests' streams apart), and builds pure-serve into a temporary directory, returned with
// the binary's path.
func crashSetup(t *testing.T, stream uint64) (cycles int, seed uint64, rng *rand.Rand, dir, bin string) {
	t.Helper()
	cycles = 3
	if s := os.Getenv("SERVE_CRASH_CYCLES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("SERVE_CRASH_CYCLES=%q: want a positive number", s)
		}
		cycles = n
	}
	seed = uint64(time.Now().UnixNano())
	if s := os.Getenv("SERVE_CRASH_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (rerun with SERVE_CRASH_SEED=%d)", seed, seed)
	dir = t.TempDir()
	bin = filepath.Join(dir, "pure-serve")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building pure-serve: %v\n%s", err, out)
	}
	return cycles, seed, rand.New(rand.NewPCG(seed, stream)), dir, bin
}
