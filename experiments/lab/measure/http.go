package measure

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/httpbench"
	"workbench/experiments/lab/stats"
	"workbench/experiments/lab/suite"
	"workbench/pure/load"
)

// How long a server may take to print its listening line: natively, and
// under callgrind, which first translates the Go runtime's start-up.
const (
	serverStart          = 20 * time.Second
	serverStartCallgrind = 2 * time.Minute
	// serverStop is how long a server has to stop after SIGTERM.
	serverStop = 10 * time.Second
	// loadTimeout is pure-load's --timeout in a timed window: the longest
	// a connect or a batch's answers may take before they count as
	// errors.
	loadTimeout = 5 * time.Second
)

// httpRun is one HTTP measurement (a suite line with load=) of a Group's
// cells in progress: the timed one (timedHTTP, this file) or the counted
// one (countHTTP, httpcount.go).
type httpRun struct {
	ctx   context.Context
	c     *Controls
	g     Group
	m     suite.Measure
	h     *suite.HTTP
	lines []expdir.Line
	// failed says which sides have failed in this measurement: a failed
	// side is measured no further, and the other goes on alone.
	failed []bool
}

// httpSide is one side's server in a timed measurement.
type httpSide struct {
	srv  *httpbench.Server
	ms   expdir.Measurement
	data string // its fresh data directory, "" for --ram
}

// runHTTP runs one HTTP measurement of g's cells and folds it into lines.
// The error is non-nil only when ctx was cancelled or the harness failed.
func runHTTP(ctx context.Context, c *Controls, timeout time.Duration, g Group, m suite.Measure, lines []expdir.Line) error {
	if c.HTTP == nil {
		return errors.New("measuring a server under load needs the HTTP controls (the harness's pure-load): pairs.Run sets them for suites with load= lines")
	}
	if m.Timeout > 0 {
		timeout = m.Timeout
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	hr := &httpRun{ctx: runCtx, c: c, g: g, m: m, h: m.HTTP, lines: lines, failed: make([]bool, len(g.Cells))}
	for i := range lines {
		hr.failed[i] = lines[i].Failed()
	}
	var err error
	if m.Backend == suite.BackendCallgrind {
		err = hr.countHTTP()
	} else {
		err = hr.timedHTTP()
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %w", ErrInterrupted, ctx.Err())
	}
	return err
}

// serverArgs returns the server's arguments after its program: a free
// port of 127.0.0.1 and the store, in RAM or in data. Both sides get the
// same, but for the data directory, which differs only in its last digit.
func (hr *httpRun) serverArgs(data string) []string {
	args := []string{"--addr", "127.0.0.1:0"}
	if data == "" {
		return append(args, "--ram")
	}
	return append(args, "--data", data)
}

// dataDir makes a fresh, empty data directory for the k-th server started
// in this measurement (from 1), for store=disk; "" for store=ram. The
// directories of the two sides differ only in k, and the sides alternate
// which they get from pair to pair, as they alternate which starts first.
func (hr *httpRun) dataDir(k int) (string, error) {
	if hr.h.Store != suite.StoreDisk {
		return "", nil
	}
	dir := filepath.Join(hr.c.RunDir, "data-"+strconv.Itoa(k))
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	return dir, os.Mkdir(dir, 0o755)
}

// startServer starts side i's server through RunDir/bin, pointed at a
// fresh copy of its build, prefixed by pre (valgrind's command, or
// nothing), and waits for its listening line. A server that does not
// start is described in the returned Measurement (with srv nil), and the
// side is marked failed; the error is the harness's own.
func (hr *httpRun) startServer(i int, backend string, pre []string, env []string, args []string, wait time.Duration) (*httpbench.Server, expdir.Measurement, error) {
	ms := expdir.Measurement{Backend: backend, Args: args, ExitCode: -1}
	if err := hr.c.Use(hr.g.Builds[i]); err != nil {
		return nil, ms, err
	}
	argv := append(append(hr.c.Prefix(), pre...), hr.c.Program(hr.m.Tool))
	argv = append(argv, args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = hr.c.RunDir, env
	// Its own process group, so a kill also ends what it started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	ms.Start = time.Now().UTC()
	srv, err := httpbench.Start(hr.ctx, cmd, wait)
	if err != nil {
		ms.Error = fmt.Sprintf("the server did not start: %v", err)
		if srv == nil && cmd.ProcessState != nil {
			ms.ExitCode = cmd.ProcessState.ExitCode()
		}
		hr.fail(i, ms, "")
		return nil, ms, nil
	}
	return srv, ms, nil
}

// fail records that side i failed in ms, unless its line already says it
// failed; tail is the end of the server's stderr.
func (hr *httpRun) fail(i int, ms expdir.Measurement, tail string) {
	hr.failed[i] = true
	l := &hr.lines[i]
	if l.Failed() {
		return
	}
	l.ExitCode = ms.ExitCode
	if l.ExitCode == 0 {
		l.ExitCode = -1 // ran, but gave no usable result
	}
	l.Error = ms.Backend + " measurement: " + ms.Error
	l.StderrTail = tail
}

// url is the base URL of a started server.
func url(srv *httpbench.Server) string { return "http://" + srv.Addr }

// loadArgs returns pure-load's arguments for this measurement, bounded by
// bound (-d DURATION or -n COUNT), before the URL.
func (hr *httpRun) loadArgs(bound ...string) []string {
	args := []string{"--workload", hr.h.Load, "-c", strconv.Itoa(hr.h.Conns), "--pipeline", strconv.Itoa(hr.h.Pipeline)}
	return append(args, bound...)
}

// timedHTTP runs the timed measurement: both sides' servers side by side
// on the subjects' CPU, each prepared and warmed up, then loaded in turn,
// one window at a time, A B B A A B ..., so that the two sides' windows
// meet the same moments of the machine; only one is loaded at a time, the
// other waits idle. See suite.HTTP.
func (hr *httpRun) timedHTTP() error {
	n := len(hr.g.Cells)
	sides := make([]*httpSide, n)
	defer func() {
		for _, s := range sides {
			if s != nil && s.srv != nil {
				s.srv.Kill()
			}
			if s != nil && s.data != "" {
				os.RemoveAll(s.data)
			}
		}
	}()
	// 1. Start the servers, in the pair's order.
	for i := range n {
		if hr.failed[i] {
			continue
		}
		data, err := hr.dataDir(i + 1)
		if err != nil {
			return err
		}
		srv, ms, err := hr.startServer(i, suite.BackendPerf, nil, hr.c.Env, hr.serverArgs(data), serverStart)
		if err != nil {
			return err
		}
		ms.LoadArgs = append(hr.loadArgs("-d", hr.h.Window.String()), "URL")
		sides[i] = &httpSide{srv: srv, ms: ms, data: data}
	}
	// 2. Prepare each store and warm each server up; none of it is
	// measured. Then the peaks of memory start again.
	for i, s := range sides {
		if hr.failed[i] {
			continue
		}
		if _, err := hr.c.loader().PrepareFor(hr.ctx, url(s.srv), hr.h.Load); err != nil {
			hr.sideFailed(i, s, err)
			continue
		}
		if _, err := hr.c.loader().Run(hr.ctx, append(hr.loadArgs("-d", hr.h.Warmup.String()), url(s.srv))...); err != nil {
			hr.sideFailed(i, s, fmt.Errorf("warm-up: %w", err))
		}
	}
	for i, s := range sides {
		if !hr.failed[i] {
			httpbench.ResetPeakRSS(s.srv.Pid()) // if it fails, the peak is since the start
		}
	}
	// 3. The windows, taking turns.
	for k := range hr.h.Windows {
		for _, i := range turn(n, k) {
			if hr.failed[i] || hr.ctx.Err() != nil {
				continue
			}
			if err := hr.window(i, sides[i], k+1); err != nil {
				hr.sideFailed(i, sides[i], err)
			}
		}
	}
	// 4. Peaks, stops, and each side's line.
	for i, s := range sides {
		if s != nil {
			hr.finishTimed(i, s)
		}
	}
	// 5. The paired time, from the windows that ran next to each other.
	if n == 2 && !hr.failed[0] && !hr.failed[1] {
		if mid, ok := windowPairedLog(sides[0].ms.Windows, sides[1].ms.Windows); ok {
			hr.lines[0].Metrics.PairedTime = math.Exp(-mid / 2)
			hr.lines[1].Metrics.PairedTime = math.Exp(mid / 2)
		}
	}
	return nil
}

// MinPairedWindows is the fewest window pairs from which an HTTP
// measurement records a paired time.
const MinPairedWindows = 4

// windowPairedLog is the log paired ratio of server CPU per answer, the
// second side's over the first's, from windows that took turns (A B B A
// ...): the median over k of the log ratio of the two sides' k-th windows,
// which ran next to each other. Both lists must hold at least
// MinPairedWindows windows with answers and CPU. Why: a window's CPU per
// answer moves 8-10 % with the machine from window to window, and the two
// sides' neighbouring windows move together; over the A/A runs 058, 063,
// 070 and 075 the pairs' ratios from this median spread less than the
// ratio of the two sides' totals in 9 of 12 workloads (standard deviation
// 1.7-4.9 % against 2.7-6.0 % on this machine; see experiment 077).
func windowPairedLog(first, second []expdir.Window) (float64, bool) {
	var logs []float64
	for k := range min(len(first), len(second)) {
		a, b := first[k], second[k]
		if a.OK <= 0 || b.OK <= 0 || a.ServerCPU <= 0 || b.ServerCPU <= 0 {
			continue
		}
		logs = append(logs, math.Log((b.ServerCPU/float64(b.OK))/(a.ServerCPU/float64(a.OK))))
	}
	if len(logs) < MinPairedWindows {
		return 0, false
	}
	return stats.Median(logs), true
}

// turn returns the order in which the n sides take window k (from 0):
// A B, then B A, then A B, ..., so that over the windows A B B A A B ...
// neither side always goes first.
func turn(n, k int) []int {
	if n == 1 {
		return []int{0}
	}
	if k%2 == 1 {
		return []int{1, 0}
	}
	return []int{0, 1}
}

// window runs window k (from 1) on side s: the server's CPU clock before
// and after one pure-load run of Window.
func (hr *httpRun) window(i int, s *httpSide, k int) error {
	pid := s.srv.Pid()
	cpu0, err := httpbench.CPUClock(pid)
	if err != nil {
		return fmt.Errorf("window %d: %w (%v)", k, err, s.srv.Alive())
	}
	start := time.Now().UTC()
	res, lerr := hr.c.loader().Run(hr.ctx, append(hr.loadArgs("-d", hr.h.Window.String(), "--timeout", loadTimeout.String()), url(s.srv))...)
	cpu1, err := httpbench.CPUClock(pid)
	if err != nil {
		return fmt.Errorf("window %d: after the load: %w (%v)", k, err, s.srv.Alive())
	}
	if lerr != nil {
		return fmt.Errorf("window %d: %w", k, lerr)
	}
	w := windowOf(res, start, cpu1-cpu0)
	s.ms.Windows = append(s.ms.Windows, w)
	if w.OK == 0 || w.Non2xx > 0 || w.Errors > 0 {
		return fmt.Errorf("window %d: %d of %d requests failed (%d non-2xx, errors %+v): the server does not keep the contract", k, w.Non2xx+w.Errors, res.Requests, w.Non2xx, res.Errors)
	}
	return nil
}

// windowOf records one window from pure-load's result and the server's
// CPU over it.
func windowOf(res load.Result, start time.Time, cpu time.Duration) expdir.Window {
	return expdir.Window{
		Start: start, Wall: time.Duration(res.DurationS * 1e9),
		OK: res.OK, Non2xx: res.Non2xx, Errors: res.Errors.Total(),
		ServerCPU: cpu.Seconds(),
		P50:       res.LatencyUS.P50 * 1e-6, P99: res.LatencyUS.P99 * 1e-6,
		ClientCPU: res.ClientCPUS,
	}
}

// sideFailed marks side s failed with err, its server's stderr as the
// tail.
func (hr *httpRun) sideFailed(i int, s *httpSide, err error) {
	s.ms.Error = err.Error()
	hr.fail(i, s.ms, s.srv.Stderr())
}

// finishTimed reads side i's peak memory, stops its server and records its
// measurement and, when it succeeded, its metrics (timedMetrics).
func (hr *httpRun) finishTimed(i int, s *httpSide) {
	l := &hr.lines[i]
	s.ms.LoadAvg1 = httpbench.LoadAvg1()
	if s.srv != nil {
		if kib, err := httpbench.StatusKiB(s.srv.Pid(), "VmHWM"); err == nil {
			s.ms.PeakRSS = kib << 10
		}
		if err := s.srv.Stop(serverStop); err != nil && !hr.failed[i] {
			hr.sideFailed(i, s, fmt.Errorf("stopping the server: %w", err))
		}
		s.ms.ExitCode = s.srv.ExitCode()
		s.ms.Wall = time.Since(s.ms.Start)
	}
	for _, w := range s.ms.Windows {
		s.ms.Ops += w.OK
	}
	l.Measurements = append(l.Measurements, s.ms)
	l.Wall += s.ms.Wall
	if l.Start.IsZero() {
		l.Start = s.ms.Start
	}
	if hr.failed[i] || len(s.ms.Windows) == 0 {
		return
	}
	l.Ops, l.Metrics = s.ms.Ops, timedMetrics(s.ms)
}

// timedMetrics are a side's metrics from its windows: 2xx/s and the share
// of a CPU the server used over all of them; server CPU seconds per 2xx
// answer, the total over the total; the medians of the windows' p50 and
// p99; the peak resident set after the warm-up.
func timedMetrics(ms expdir.Measurement) expdir.Metrics {
	var ok int64
	var wall, cpu float64
	var p50, p99 []float64
	for _, w := range ms.Windows {
		ok += w.OK
		wall += w.Wall.Seconds()
		cpu += w.ServerCPU
		p50, p99 = append(p50, w.P50), append(p99, w.P99)
	}
	m := expdir.Metrics{P50: stats.Median(p50), P99: stats.Median(p99), PeakRSS: ms.PeakRSS}
	if wall > 0 {
		m.Throughput, m.CPUShare = float64(ok)/wall, cpu/wall
	}
	if ok > 0 {
		m.CPUPerOp = cpu / float64(ok)
	}
	return m
}
