package measure

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"workbench/experiments/lab/build"
	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/httpbench"
	"workbench/experiments/lab/suite"
	"workbench/perfcount"
	"workbench/perfcount/callgrind"
)

// countLoadTimeout is pure-load's --timeout under callgrind, where a
// batch's answers take many times longer than natively.
const countLoadTimeout = time.Minute

// CountEvent is the event of the instruction counts of servers under
// load: callgrind's Ir, named as pure-count names it.
const CountEvent = "instructions"

// countHTTP runs the counted measurement: on each side, in the pair's
// order, the server under callgrind in two fresh processes, one serving
// N1 requests and one N2, and the side's instructions per request from
// the difference of their counts (perRequest).
//
// pure-serve cannot be ended with SIGTERM under callgrind (valgrind 3.19
// asserts in callgrind's signal tracking when the Go runtime handles it),
// so once pure-load has its answers the runner asks callgrind, through
// vgdb, to dump its counts, then kills the server: the count ends at the
// dump, with no shutdown in it.
func (hr *httpRun) countHTTP() error {
	vg, err := perfcount.ValgrindPath()
	if err != nil {
		for i := range hr.lines {
			hr.fail(i, expdir.Measurement{Backend: suite.BackendCallgrind, ExitCode: -1, Error: err.Error()}, "")
		}
		return nil
	}
	for i := range hr.g.Cells {
		var irs [2]float64
		for j, n := range hr.h.Requests {
			if hr.failed[i] || hr.ctx.Err() != nil {
				break
			}
			ms, ir, err := hr.countOne(i, j, n, vg)
			if err != nil {
				return err
			}
			irs[j] = ir
			l := &hr.lines[i]
			l.Measurements = append(l.Measurements, ms)
			l.Wall += ms.Wall
			if l.Start.IsZero() {
				l.Start = ms.Start
			}
		}
		if hr.failed[i] {
			continue
		}
		c, err := perRequest(irs, hr.h.Requests)
		if err != nil {
			hr.fail(i, expdir.Measurement{Backend: suite.BackendCallgrind, Error: err.Error()}, "")
			continue
		}
		hr.lines[i].Counts = append(hr.lines[i].Counts, c)
	}
	return nil
}

// perRequest is the instruction count per request of a side from its two
// counted processes: irs[j] instructions for requests[j] requests, start-up
// and all. Their difference is the instructions of requests[1] −
// requests[0] requests, and start-up, preparation and the connections'
// set-up, which both processes did, cancel. The count's value is that
// difference and its per-op value the difference per request.
func perRequest(irs [2]float64, requests [2]int64) (expdir.Count, error) {
	dn := requests[1] - requests[0]
	if dn <= 0 {
		return expdir.Count{}, fmt.Errorf("requests %d and %d: the second count must serve more requests than the first", requests[0], requests[1])
	}
	d := irs[1] - irs[0]
	if d <= 0 {
		return expdir.Count{}, fmt.Errorf("callgrind counted %.0f instructions serving %d requests and %.0f serving %d: the larger run must count more (did the server do its work outside the counted process?)", irs[0], requests[0], irs[1], requests[1])
	}
	return expdir.Count{Event: CountEvent, Value: d, PerOp: d / float64(dn), Source: perfcount.SourceCallgrind}, nil
}

// countOne runs side i's server under callgrind for requests n (the
// counts' j-th, from 0), prepares its store, sends exactly n requests,
// dumps the count and kills the server. It returns the measurement and the
// process's Ir; a side whose server fails is marked failed.
func (hr *httpRun) countOne(i, j int, n int64, vg string) (expdir.Measurement, float64, error) {
	c := hr.c
	out := filepath.Join(c.RunDir, "callgrind-"+strconv.Itoa(j+1)+".out")
	for _, f := range []string{out, out + ".1", out + ".log"} {
		os.Remove(f)
	}
	pre := []string{vg, "--tool=callgrind", "--callgrind-out-file=" + out, "--log-file=" + out + ".log"}
	env := countEnv(c.Env, out)
	data, err := hr.dataDir(j + 1)
	if err != nil {
		return expdir.Measurement{}, 0, err
	}
	defer func() {
		if data != "" {
			os.RemoveAll(data)
		}
	}()
	srv, ms, err := hr.startServer(i, suite.BackendCallgrind, pre, env, hr.serverArgs(data), serverStartCallgrind)
	if srv == nil || err != nil {
		return ms, 0, err
	}
	defer srv.Kill()
	ms.LoadArgs = append(hr.loadArgs("-n", strconv.FormatInt(n, 10), "--timeout", countLoadTimeout.String()), "URL")
	ir, err := hr.serveCounted(srv, n, out)
	ms.Wall = time.Since(ms.Start)
	if err != nil {
		ms.Error = err.Error()
		hr.fail(i, ms, valgrindTail(out+".log", srv))
		return ms, 0, nil
	}
	ms.ExitCode, ms.Ops = 0, n
	ms.Counts = []expdir.Count{{Event: CountEvent, Value: ir, PerOp: ir / float64(n), Source: perfcount.SourceCallgrind}}
	if j < len(hr.g.DumpDirs) && i < len(hr.g.DumpDirs) && hr.g.DumpDirs[i] != "" {
		keepDump(out+".1", hr.g.DumpDirs[i], hr.g.Cells[i].Workload.Name, j)
	}
	return ms, ir, nil
}

// countEnv is the environment of a counted server: base (the timed
// server's) with the settings that keep Go programs alive and repeatable
// under this valgrind (perfcount.CallgrindEnv), but for two. The whole
// process is counted, so there is no region toggle; and GOMAXPROCS is not
// set, so the server takes the Ps it takes in the timed run, pinned the
// same way: pure-serve takes a second P with --data (durableProcs), and
// with the single P that perfcount.CallgrindEnv sets, its durable score
// POSTs fell into one P's pathology (the app's owner syncing while no
// connection could run), and how deep varied from process to process:
// 1,180 to 3,431 syncs for 6,000 POSTs (probe 1015), so instructions per
// POST read 10.4k or 15k (experiment 168's ±42 % noise). With the
// server's own two Ps (and its one connection worker slot, as in the
// timed run) the A/A run 183 measured the count's noise at 11 %.
func countEnv(base []string, out string) []string {
	env := append([]string(nil), base...)
	for _, kv := range perfcount.CallgrindEnv(out)[:3] {
		if !strings.HasPrefix(kv, "GOMAXPROCS=") {
			env = append(env, kv)
		}
	}
	return env
}

// countSettle is how long a counted server rests between its preparation
// and the counted requests (see serveCounted).
const countSettle = time.Second

// serveCounted prepares the server's store, sends it exactly n requests,
// has callgrind dump its counts to out.1 and returns the total Ir.
func (hr *httpRun) serveCounted(srv *httpbench.Server, n int64, out string) (float64, error) {
	if _, err := hr.c.loader().PrepareFor(hr.ctx, url(srv), hr.h.Load); err != nil {
		return 0, err
	}
	// Let the preparation's after-effects end before the counted requests:
	// the seed's 1 MiB document makes pure-serve's trimmer force a garbage
	// collection, whose concurrent marking, under valgrind, went on into
	// the first requests in some processes and not in others (write
	// barriers in the difference of the two counts): the difference per
	// pipelined GET spread from 1,712 to 2,421 instructions over four pairs
	// of processes, and from 1,846 to 1,873 over three with this wait.
	select {
	case <-hr.ctx.Done():
		return 0, hr.ctx.Err()
	case <-time.After(countSettle):
	}
	res, err := hr.c.loader().Run(hr.ctx, append(hr.loadArgs("-n", strconv.FormatInt(n, 10), "--timeout", countLoadTimeout.String()), url(srv))...)
	if err != nil {
		return 0, err
	}
	if res.OK != n || res.Non2xx > 0 || res.Errors.Total() > 0 {
		return 0, fmt.Errorf("%d requests sent, %d answered 2xx, %d non-2xx, errors %+v: want every one answered 2xx", res.Requests, res.OK, res.Non2xx, res.Errors)
	}
	if err := srv.Alive(); err != nil {
		return 0, err
	}
	if err := vgdbDump(hr.ctx, srv.Pid()); err != nil {
		return 0, err
	}
	p, err := callgrind.ParseFile(out + ".1")
	if err == nil {
		err = p.Check()
	}
	var ir uint64
	if err == nil {
		ir, err = p.Total("Ir")
	}
	if err != nil {
		return 0, fmt.Errorf("callgrind's dump: %w", err)
	}
	return float64(ir), nil
}

// vgdbDump asks the callgrind running as pid to dump its counts (what
// callgrind_control --dump does) and waits until it has.
func vgdbDump(ctx context.Context, pid int) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	vgdb := "vgdb"
	if vg, err := perfcount.ValgrindPath(); err == nil {
		if p := filepath.Join(filepath.Dir(vg), "vgdb"); fileExists(p) {
			vgdb = p
		}
	}
	out, err := exec.CommandContext(ctx, vgdb, "--pid="+strconv.Itoa(pid), "dump").CombinedOutput()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("vgdb --pid=%d dump did not return within a minute: vgdb wakes a server blocked in a system call with ptrace (run as root, or set kernel.yama.ptrace_scope to 0)", pid)
	}
	if err != nil {
		return fmt.Errorf("vgdb --pid=%d dump: %v: %s", pid, err, out)
	}
	return nil
}

// valgrindTail returns the end of valgrind's log and of the server's
// stderr, for a failed counted run.
func valgrindTail(log string, srv *httpbench.Server) string {
	b, _ := os.ReadFile(log)
	t := build.Tail(b, 10, 1000)
	if s := srv.Stderr(); s != "" {
		t = strings.TrimSpace(t + "\n" + build.Tail([]byte(s), 10, 1000))
	}
	return t
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// keepDump moves a callgrind dump into dir, where the pairs runner makes
// the workload's profile of it: the N2 process's as W.1.callgrind (the
// name pure-count's dumps have) and the N1 process's as W.base.callgrind,
// which the profile subtracts (pairs.convertProfiles), so that what is left
// is the instructions of N2 − N1 requests by function.
func keepDump(dump, dir, workload string, j int) {
	name := expdir.FileName(workload) + ".1.callgrind"
	if j == 0 {
		name = expdir.FileName(workload) + ".base.callgrind"
	}
	if os.MkdirAll(dir, 0o755) == nil {
		os.Rename(dump, filepath.Join(dir, name))
	}
}
