package measure_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/measure"
	"workbench/experiments/lab/note"
	"workbench/experiments/lab/suite"
)

// fakeModeEnv makes the test binary, started as a build's pure-serve, act
// as a server instead of running the tests (TestMain):
//
//	serve  answers every request 200 with a small body and an ETag
//	fail   writes a reason on stderr and exits 3 before listening
//	mute   prints its listening line, accepts connections, never answers
const fakeModeEnv = "MEASURE_TEST_FAKE_SERVE"

func TestMain(m *testing.M) {
	switch os.Getenv(fakeModeEnv) {
	case "":
		os.Exit(m.Run())
	case "fail":
		fmt.Fprintln(os.Stderr, "fake pure-serve: no store here")
		os.Exit(3)
	case "mute":
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			os.Exit(1)
		}
		fmt.Printf("listening %s\n", ln.Addr())
		for {
			c, err := ln.Accept()
			if err != nil {
				os.Exit(1)
			}
			go io.Copy(io.Discard, c) // read, never answer
		}
	case "serve":
		fakeServe()
	}
}

// fakeServe serves every request 200 until SIGTERM, then exits 0.
func fakeServe() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.Exit(1)
	}
	fmt.Printf("listening %s\n", ln.Addr())
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("ETag", `"1"`)
		io.WriteString(w, "fake answer\n")
	}))
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	<-sig
	os.Exit(0)
}

var (
	loadOnce sync.Once
	loadPath string
	loadErr  error
)

// harnessLoad builds pure-load from this checkout, once per test binary.
func harnessLoad(t *testing.T) string {
	t.Helper()
	loadOnce.Do(func() {
		dir, err := os.MkdirTemp("", "measure-test-load-")
		if err != nil {
			loadErr = err
			return
		}
		loadPath = filepath.Join(dir, "pure-load")
		out, err := exec.Command("go", "build", "-o", loadPath, "workbench/cmd/pure-load").CombinedOutput()
		if err != nil {
			loadErr = fmt.Errorf("go build pure-load: %v\n%s", err, out)
		}
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loadPath
}

// fakeBuild returns a build directory whose pure-serve is this test
// binary in the given fake mode.
func fakeBuild(t *testing.T, side, mode string) expdir.Build {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := fmt.Sprintf("#!/bin/sh\n%s=%s exec %q \"$@\"\n", fakeModeEnv, mode, self)
	if err := os.WriteFile(filepath.Join(dir, "pure-serve"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return expdir.Build{Side: side, Revision: mode, Commit: strings.Repeat(mode[:1], 40), Dir: dir}
}

// httpControls are controls for HTTP measurements in a fresh run
// directory, unpinned (the test machine's CPUs are not ours to pin).
func httpControls(t *testing.T) *measure.Controls {
	t.Helper()
	c, err := measure.DetectControls(context.Background(), t.TempDir(), measure.ControlOptions{CPU: "none"})
	if err != nil {
		t.Fatal(err)
	}
	c.SetHTTP(context.Background(), harnessLoad(t))
	return &c
}

// httpWorkload parses a one-workload suite.
func httpWorkload(t *testing.T, lines string) suite.Workload {
	t.Helper()
	s, err := suite.ParseSuite("test.suite", strings.NewReader(lines))
	if err != nil {
		t.Fatal(err)
	}
	return s.Workloads[0]
}

// TestRunCells_HTTP_OneSideFailsToStart runs a timed HTTP measurement
// whose after side's server exits before listening: the before side is
// measured alone, window by window, and the after side's line says why it
// failed, with the server's stderr.
func TestRunCells_HTTP_OneSideFailsToStart(t *testing.T) {
	c := httpControls(t)
	w := httpWorkload(t, "workload get-2c backend=perf load=get conns=2 windows=3 window=150ms warmup=50ms\n")
	g := measure.Group{
		Cells:  []measure.Cell{{Pair: 1, Position: 1, Side: measure.Before, Workload: w}, {Pair: 1, Position: 2, Side: measure.After, Workload: w}},
		Builds: []expdir.Build{fakeBuild(t, "before", "serve"), fakeBuild(t, "after", "fail")},
	}
	lines, err := measure.RunCells(context.Background(), c, time.Minute, g)
	if err != nil {
		t.Fatal(err)
	}
	ok, bad := lines[0], lines[1]
	if ok.Failed() {
		t.Fatalf("before side failed: %s (%s)", ok.Error, ok.StderrTail)
	}
	m := ok.Metrics
	if m.Throughput <= 0 || m.CPUPerOp <= 0 || m.CPUShare <= 0 || m.P50 <= 0 || m.P99 < m.P50 || m.PeakRSS <= 0 || ok.Ops <= 0 {
		t.Errorf("before side's metrics %+v, ops %d: want 2xx/s, CPU per 2xx, CPU share, p50 <= p99, peak RSS and ops", m, ok.Ops)
	}
	if len(ok.Measurements) != 1 || len(ok.Measurements[0].Windows) != 3 || ok.Measurements[0].LoadAvg1 == nil {
		t.Fatalf("before side's measurements %+v: want one server with 3 windows and a load average", ok.Measurements)
	}
	var sum int64
	for _, win := range ok.Measurements[0].Windows {
		sum += win.OK
		if win.ServerCPU <= 0 || win.Non2xx != 0 || win.Errors != 0 {
			t.Errorf("window %+v: want server CPU and no failed request", win)
		}
	}
	if sum != ok.Ops {
		t.Errorf("ops %d, windows' 2xx %d: want them equal", ok.Ops, sum)
	}
	if !bad.Failed() || !strings.Contains(bad.Error, "did not start") || !strings.Contains(bad.Error, "no store here") {
		t.Errorf("after side: exit %d, error %q: want a failure saying the server did not start, with its stderr", bad.ExitCode, bad.Error)
	}
}

// TestRunCells_HTTP_PortThatNeverAnswers: a server that listens but never
// answers fails its side; the other side is measured.
func TestRunCells_HTTP_PortThatNeverAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for pure-load's 5 s timeout: run without -short")
	}
	c := httpControls(t)
	w := httpWorkload(t, "workload get-2c backend=perf load=get conns=2 windows=2 window=100ms warmup=50ms\n")
	g := measure.Group{
		Cells:  []measure.Cell{{Pair: 2, Position: 1, Side: measure.After, Workload: w}, {Pair: 2, Position: 2, Side: measure.Before, Workload: w}},
		Builds: []expdir.Build{fakeBuild(t, "after", "mute"), fakeBuild(t, "before", "serve")},
	}
	lines, err := measure.RunCells(context.Background(), c, time.Minute, g)
	if err != nil {
		t.Fatal(err)
	}
	if !lines[0].Failed() || lines[0].Error == "" {
		t.Errorf("the mute server's line: exit %d, error %q: want a failure", lines[0].ExitCode, lines[0].Error)
	}
	if lines[1].Failed() || len(lines[1].Measurements[0].Windows) != 2 {
		t.Errorf("the answering server's line: %q, %+v: want two windows and no failure", lines[1].Error, lines[1].Measurements)
	}
}

// TestRunCells_HTTP_RoundTripIntoNote records a timed HTTP measurement of
// two answering servers in an experiment directory and renders its note
// from the files alone: the time that decides is the server's CPU per 2xx
// (cpu_per_op, from the suite's criteria line), and the controls say how
// the servers were loaded.
func TestRunCells_HTTP_RoundTripIntoNote(t *testing.T) {
	c := httpControls(t)
	su, err := suite.ParseSuite("http.suite", strings.NewReader("criteria time.metric = cpu_per_op\nworkload get-2c backend=perf load=get conns=2 windows=4 window=100ms warmup=50ms\n"))
	if err != nil {
		t.Fatal(err)
	}
	w := su.Workloads[0]
	before, after := fakeBuild(t, "before", "serve"), fakeBuild(t, "after", "serve")
	dir := expdir.Dir(t.TempDir())
	runs, err := expdir.OpenRuns(dir.Path(expdir.RunsFile), 0)
	if err != nil {
		t.Fatal(err)
	}
	for p := 1; p <= 2; p++ {
		g := measure.Group{Builds: []expdir.Build{before, after}, Cells: []measure.Cell{
			{Pair: p, Position: 1, Side: measure.Before, Workload: w}, {Pair: p, Position: 2, Side: measure.After, Workload: w}}}
		lines, err := measure.RunCells(context.Background(), c, time.Minute, g)
		if err != nil {
			t.Fatal(err)
		}
		// Four windows a side, taking turns: each line carries the paired
		// time, the two sides' reciprocal about their geometric mean.
		if p0, p1 := lines[0].Metrics.PairedTime, lines[1].Metrics.PairedTime; p0 <= 0 || p1 <= 0 || math.Abs(p0*p1-1) > 1e-9 {
			t.Errorf("pair %d: paired times %v and %v, want both set and reciprocal", p, p0, p1)
		}
		for i := range lines {
			lines[i].Experiment, lines[i].Suite = "900-http-test", "http"
			if err := runs.Append(&lines[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	runs.Close()
	meta := expdir.Meta{Experiment: "900-http-test", Before: before, After: after, Suite: "http", Pairs: 2, Controls: c.Controls}
	if err := dir.WriteMeta(&meta); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir.Path(expdir.CriteriaFile), []byte("time.max_worse = 3%\n"+strings.Join(su.Criteria, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := note.Load(string(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Runs) != 4 || len(e.Failures) != 0 || len(e.LoadAvgs) != 4 {
		t.Fatalf("%d runs, failures %+v, %d load averages: want 4 runs, no failure, 4 load averages", len(e.Runs), e.Failures, len(e.LoadAvgs))
	}
	var b strings.Builder
	if err := e.Write(&b); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{"time (cpu_per_op) before", "| servers under load", "| load generator", "load average (1 minute)", "| peak_rss", "| p99"} {
		if !strings.Contains(md, want) {
			t.Errorf("the note lacks %q:\n%s", want, md)
		}
	}
}
