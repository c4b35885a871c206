package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// gatedCount is a `pure-count run --gate` process started from the test
// binary, with the runner's ends of its gate.
type gatedCount struct {
	cmd         *exec.Cmd
	goW, doneR  *os.File
	out, stderr bytes.Buffer
}

func startGatedCount(t *testing.T, args ...string) *gatedCount {
	t.Helper()
	goR, goW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	doneR, doneW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	g := &gatedCount{goW: goW, doneR: doneR}
	g.cmd = exec.Command(os.Args[0], append([]string{"run", "--gate"}, args...)...)
	g.cmd.Env = append(os.Environ(), "PURE_COUNT_TEST_AS_MAIN=1")
	g.cmd.ExtraFiles = []*os.File{goR, doneW}
	g.cmd.Stdout, g.cmd.Stderr = &g.out, &g.stderr
	if err := g.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	goR.Close()
	doneW.Close()
	t.Cleanup(func() {
		goW.Close()
		doneR.Close()
		if g.cmd.ProcessState == nil {
			g.cmd.Process.Kill()
			g.cmd.Wait()
		}
	})
	return g
}

// done waits for the process's next byte on the done pipe.
func (g *gatedCount) done(t *testing.T, what string) {
	t.Helper()
	var b [1]byte
	if n, err := g.doneR.Read(b[:]); n != 1 {
		t.Fatalf("%s: no byte on the done pipe (%v); stderr: %s", what, err, g.stderr.String())
	}
}

// quiet checks that nothing arrives on the done pipe for a while: the
// process waits for the go-ahead. (Only a broken protocol can fail it; a
// slow machine can only make it pass.)
func (g *gatedCount) quiet(t *testing.T, what string) {
	t.Helper()
	g.doneR.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	defer g.doneR.SetReadDeadline(time.Time{})
	var b [1]byte
	if n, _ := g.doneR.Read(b[:]); n != 0 {
		t.Fatalf("%s: the process said done without a go-ahead", what)
	}
}

// Two gated processes take turns region by region, A B B A A B, each
// counting its own three regions (rerun on one preparation), and each
// waits for its go-ahead.
func TestRun_GateAlternatesTwoProcesses(t *testing.T) {
	args := []string{"-e", "task-clock", "-n", "200", "--regions", "3", "--rerun", "--json", "store-get"}
	ps := []*gatedCount{startGatedCount(t, args...), startGatedCount(t, args...)}
	for i, p := range ps {
		p.done(t, "ready")
		p.quiet(t, "before region 1 of process "+string(rune('A'+i)))
	}
	for k, order := range [][]int{{0, 1}, {1, 0}, {0, 1}} {
		for _, i := range order {
			other := ps[1-i]
			if _, err := ps[i].goW.Write([]byte{1}); err != nil {
				t.Fatal(err)
			}
			ps[i].done(t, "region")
			if k < 2 {
				other.quiet(t, "while the other process counted")
			}
		}
	}
	for i, p := range ps {
		if err := p.cmd.Wait(); err != nil {
			t.Fatalf("process %d: %v; stderr: %s", i, err, p.stderr.String())
		}
		lines := jsonLines(t, p.out.String())
		var regions []float64
		for _, l := range lines {
			if l["kind"] == "run" {
				regions = append(regions, l["region"].(float64))
			}
		}
		if len(regions) != 3 || regions[0] != 1 || regions[2] != 3 {
			t.Errorf("process %d: regions %v, want 1 2 3:\n%s", i, regions, p.out.String())
		}
	}
}

// A caller that closes the gate ends the process with a clear error, and
// the regions it counted are not printed as complete output.
func TestRun_GateClosedEarly(t *testing.T) {
	p := startGatedCount(t, "-e", "task-clock", "-n", "2", "--regions", "3", "--json", "sort-ints-10k")
	p.done(t, "ready")
	p.goW.Write([]byte{1})
	p.done(t, "region 1")
	p.goW.Close()
	err := p.cmd.Wait()
	if err == nil {
		t.Fatalf("the process succeeded with its gate closed after 1 of 3 regions:\n%s", p.out.String())
	}
	if !strings.Contains(p.stderr.String(), "closed the gate") {
		t.Errorf("stderr does not say the gate closed: %s", p.stderr.String())
	}
}

// Without the caller's pipes, --gate says what it needs.
func TestRun_GateWithoutPipes(t *testing.T) {
	cmd := exec.Command(os.Args[0], "run", "--gate", "store-get")
	cmd.Env = append(os.Environ(), "PURE_COUNT_TEST_AS_MAIN=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "fd 3 is not a pipe") {
		t.Errorf("want an error saying fd 3 is not a pipe, got %v: %s", err, out)
	}
}
