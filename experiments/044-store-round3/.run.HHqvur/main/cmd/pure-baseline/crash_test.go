package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// childEnv makes the test binary run the command itself (see TestMain),
// so that a test can SIGKILL a real server process.
const childEnv = "PURE_BASELINE_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// startChild starts the command as a child process and returns it with
// its base URL.
func startChild(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append(args, "--addr", "127.0.0.1:0")...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if err != nil || !ok {
		t.Fatalf("child %v: first line %q, %v", args, line, err)
	}
	go io.Copy(io.Discard, out)
	return cmd, "http://" + addr
}

// acked is what the server acknowledged to one writer: its document's
// last revision and body, and the points added to its name.
type acked struct {
	rev    uint64
	body   string
	points int64
}

// writer PUTs its own document (chaining If-Match) and posts scores
// until the server goes away, recording only what was acknowledged.
func writer(base string, w int, a *acked) {
	c := &http.Client{Timeout: 5 * time.Second}
	for i := 0; ; i++ {
		body := fmt.Sprintf("w%d-%d", w, i)
		req, _ := http.NewRequest("PUT", fmt.Sprintf("%s/docs/w%d", base, w), strings.NewReader(body))
		if a.rev > 0 {
			req.Header.Set("If-Match", strconv.Quote(strconv.FormatUint(a.rev, 10)))
		}
		resp, err := c.Do(req)
		if err != nil {
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return
		}
		rev, err := strconv.ParseUint(strings.Trim(resp.Header.Get("ETag"), `"`), 10, 64)
		if err != nil {
			return
		}
		a.rev, a.body = rev, body
		resp, err = c.Post(fmt.Sprintf("%s/inputs/score?points=%d", base, i%5+1), "text/plain", strings.NewReader(fmt.Sprint("n", w)))
		if err != nil {
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return
		}
		a.points += int64(i%5 + 1)
	}
}

// TestBaseline_Kill9_KeepsAcknowledgedWrites: six writers write documents
// and scores; the server is killed with SIGKILL at a random moment and
// restarted; every acknowledged write must be there.
func TestBaseline_Kill9_KeepsAcknowledgedWrites(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 9))
	for _, impl := range []string{"nethttp", "fasthttp"} {
		for _, mode := range []string{"fdatasync", "crashsafe"} {
			t.Run(impl+"-"+mode, func(t *testing.T) {
				args := []string{"--impl", impl, "--mode", mode, "--data", t.TempDir()}
				for cycle := range 2 {
					cmd, base := startChild(t, args...)
					got := make([]acked, 6)
					var wg sync.WaitGroup
					for w := range got {
						wg.Add(1)
						go func() { defer wg.Done(); writer(base, w, &got[w]) }()
					}
					time.Sleep(time.Duration(50+rng.IntN(250)) * time.Millisecond)
					cmd.Process.Signal(syscall.SIGKILL)
					cmd.Wait()
					wg.Wait()
					_, base = startChild(t, args...)
					check(t, cycle, base, got)
				}
			})
		}
	}
}

// check compares the restarted server with what was acknowledged. A write
// in flight at the kill may or may not be there; an acknowledged one must.
func check(t *testing.T, cycle int, base string, got []acked) {
	t.Helper()
	n := 0
	for w, a := range got {
		n += int(a.rev)
		if a.rev == 0 {
			continue
		}
		resp, err := http.Get(fmt.Sprintf("%s/docs/w%d", base, w))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		rev, _ := strconv.ParseUint(strings.Trim(resp.Header.Get("ETag"), `"`), 10, 64)
		switch {
		case resp.StatusCode != 200 || rev < a.rev:
			t.Errorf("cycle %d: w%d is %d at revision %d, acknowledged revision %d", cycle, w, resp.StatusCode, rev, a.rev)
		case rev == a.rev && string(body) != a.body:
			t.Errorf("cycle %d: w%d at revision %d holds %q, acknowledged %q", cycle, w, rev, body, a.body)
		}
	}
	resp, err := http.Get(base + "/views/leaders?count=1000")
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for w, a := range got {
		var have int64
		if i := strings.Index(string(rows), fmt.Sprintf(`"name":"n%d","score":`, w)); i >= 0 {
			fmt.Sscan(string(rows[i+len(fmt.Sprintf(`"name":"n%d","score":`, w)):]), &have)
		}
		if have < a.points {
			t.Errorf("cycle %d: n%d scores %d, acknowledged %d points", cycle, w, have, a.points)
		}
	}
	if n == 0 {
		t.Errorf("cycle %d: no write was acknowledged before the kill: the test checked nothing", cycle)
	}
}
