package measure

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"slices"
	"syscall"
	"time"

	"workbench/experiments/lab/build"
	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/judge"
	"workbench/experiments/lab/stats"
	"workbench/experiments/lab/suite"
	"workbench/perfcount"
)

// stderrKeep is how much of a subject's stderr is kept for its tail.
const stderrKeep = 64 << 10

// ErrInterrupted marks a run cut short by the caller's context: it is not
// recorded.
var ErrInterrupted = errors.New("interrupted")

// RunCells runs every measurement of one or two cells and merges each
// cell's into its line (see expdir.Line for the rules). Two cells are the
// two sides of one workload in one pair (see Group). The error is non-nil
// only when no line should be recorded: ctx was cancelled, or the harness itself failed. A subject that
// fails, crashes or times out yields a line saying so.
//
// A perf measurement of two cells is interleaved: in each round one fresh
// process per side, the round's first side alternating A B B A ...; repeat
// rounds, then more up to max-repeat while the measurement is unsettled
// (see judge.Rounds.Another). When both sides' pure-count know run --gate (see
// Controls.Alternation), a round's two processes run side by side and
// their regions alternate one by one, A B B A A B ..., only one running at
// a time (invokeGated): the bursts of interference a shared machine sends
// come and go within tenths of a second, so regions taken 20-80 ms apart
// meet the same ones, where whole processes a second apart do not (on the
// VM this was built on, the pair-to-pair spread of store-get's time fell
// from 6.6 % to 2.8 % with regions alternating, and to 1.4 % when they
// also reran on one preparation; see experiments/018-gate). Otherwise the
// processes themselves alternate. Other measurements run side by side
// whole: first cell, then second.
func RunCells(ctx context.Context, c *Controls, timeout time.Duration, g Group) ([]expdir.Line, error) {
	n := len(g.Cells)
	lines := make([]expdir.Line, n)
	for i, cell := range g.Cells {
		lines[i] = expdir.Line{
			Run: expdir.Run{
				Schema:   expdir.SchemaVersion,
				Workload: cell.Workload.Name,
				Side:     string(cell.Side),
				Revision: g.Builds[i].Revision,
				Commit:   g.Builds[i].Commit,
				Pair:     cell.Pair,
				Position: cell.Position,
			},
			Controls: c.run(),
		}
	}
	timed := make([]bool, n)
	for _, m := range g.Cells[0].Workload.Measures {
		if m.HTTP != nil {
			if err := runHTTP(ctx, c, timeout, g, m, lines); err != nil {
				return nil, err
			}
			continue
		}
		if m.GoBench != nil {
			if err := runGoBench(ctx, c, timeout, g, m, lines); err != nil {
				return nil, err
			}
			continue
		}
		if m.PrepareOnce && !c.PrepareOnce {
			m.PrepareOnce = false // a side's pure-count predates --rerun (see Controls)
		}
		mr := &measureRun{ctx: ctx, c: c, timeout: timeout, g: g, m: m, name: g.Cells[0].Workload.Name, lines: lines,
			stdouts: make([][][]byte, n), ms: make([]expdir.Measurement, n), failed: make([]bool, n),
			tails: make([]string, n), floors: make([][]float64, n)}
		var err error
		if m.Backend == suite.BackendPerf && n == 2 && max(m.Repeat, m.MaxRepeat) > 1 {
			err = mr.rounds()
		} else {
			err = mr.whole()
		}
		if err != nil {
			return nil, err
		}
		mr.merge(timed)
	}
	for i := range lines {
		if lines[i].Machine.Kernel == "" {
			lines[i].Machine = perfcount.ThisMachine()
		}
	}
	return lines, nil
}

// A Group is the one or two cells RunCells runs together: the two sides of
// one workload in one pair, in the order they were scheduled, with their
// builds. DumpDirs, when not empty, are where callgrind measurements keep
// their dumps (pure-count run --dump-dir), for the note's profiles. Refs
// are each side's reference floor, wall nanoseconds per op (0: none; see
// judge.Rounds.Another).
type Group struct {
	Cells    []Cell
	Builds   []expdir.Build
	DumpDirs []string
	Refs     []float64
}

// measureRun is one measurement of a Group's cells in progress.
type measureRun struct {
	ctx     context.Context
	c       *Controls
	timeout time.Duration
	g       Group
	m       suite.Measure
	name    string
	lines   []expdir.Line

	stdouts    [][][]byte
	ms         []expdir.Measurement
	failed     []bool
	tails      []string
	floors     [][]float64 // each process's fastest region, per side
	pairedLogs []float64   // ln(second cell's region / first's), gated rounds
	roundLogs  []float64   // each gated round's own ln(paired ratio), NaN: none
}

// recordSide keeps what one invocation of a side did.
func (mr *measureRun) recordSide(side int, one expdir.Measurement, stdout []byte, tail string) {
	floor := math.Inf(1)
	if one.ExitCode == 0 && one.Error == "" {
		var o output
		var err error
		if one.Ops, err = parseCountOutput(&o, mr.name, mr.m.Backend, stdout); err != nil {
			one.Error = err.Error()
		} else if floor = o.floor; mr.m.Backend == suite.BackendPerf && !math.IsInf(floor, 1) {
			one.FloorNsPerOp = floor
		}
	}
	l := &mr.lines[side]
	l.Measurements = append(l.Measurements, one)
	l.Wall += one.Wall
	ms := mr.ms
	if ms[side].Args == nil {
		ms[side] = one
		ms[side].Ops, ms[side].PeakRSS = 0, 0
	}
	ms[side].ExitCode, ms[side].Error = one.ExitCode, one.Error
	ms[side].PeakRSS = max(ms[side].PeakRSS, one.PeakRSS)
	if one.ExitCode != 0 || one.Error != "" {
		mr.failed[side], mr.tails[side] = true, tail
		return
	}
	mr.stdouts[side] = append(mr.stdouts[side], stdout)
	mr.floors[side] = append(mr.floors[side], floor)
}

// invokeSide runs one process of a side with m (the measurement, or one
// round of it) and records it.
func (mr *measureRun) invokeSide(side int, m suite.Measure, args []string) error {
	if err := mr.c.Use(mr.g.Builds[side]); err != nil {
		return err
	}
	one, stdout, tail, err := Invoke(mr.ctx, mr.c, mr.timeout, m, args)
	if err != nil {
		return err
	}
	mr.recordSide(side, one, stdout, tail)
	return nil
}

// whole runs the measurement whole on each side: first cell, then second.
func (mr *measureRun) whole() error {
	m := mr.m
	for i := range mr.g.Cells {
		args := m.Args(mr.name)
		if i < len(mr.g.DumpDirs) && mr.g.DumpDirs[i] != "" && m.Backend == suite.BackendCallgrind {
			args = append([]string{args[0], "--dump-dir", mr.g.DumpDirs[i]}, args[1:]...)
		}
		if err := mr.invokeSide(i, m, args); err != nil {
			return err
		}
	}
	return nil
}

// rounds runs rounds of one process per side, the first side alternating
// A B B A ...; past repeat rounds, more while judge.Rounds.Another says,
// up to max-repeat. Within a round the two processes run side by side and
// their regions alternate one by one (gated), when both sides' pure-count
// can.
func (mr *measureRun) rounds() error {
	m := mr.m
	one := m
	one.Repeat = 1
	gated := mr.c.Alternation == expdir.AlternateRegions && m.Regions > 1
	failed := mr.failed
	for r := 0; (judge.Rounds{Repeat: m.Repeat, MaxRepeat: m.MaxRepeat, Done: r, Floors: mr.floors, Failed: failed, Refs: mr.g.Refs, Logs: mr.roundLogs}).Another(); r++ {
		order := []int{0, 1}
		if r%2 == 1 {
			order = []int{1, 0}
		}
		if gated && !failed[0] && !failed[1] {
			if err := mr.gatedRound(one, order); err != nil {
				return err
			}
			continue
		}
		for _, i := range order {
			if failed[i] {
				continue // one failure ends this side's measurement
			}
			if err := mr.invokeSide(i, one, one.Args(mr.name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// gatedRound runs one gated round and keeps its paired time.
func (mr *measureRun) gatedRound(one suite.Measure, order []int) error {
	res, err := invokeGated(mr.ctx, mr.c, mr.timeout, one, mr.g.Builds, gateArgs(one.Args(mr.name)), order, mr.m.Regions)
	if err != nil {
		return err
	}
	for i := range res {
		mr.recordSide(i, res[i].ms, res[i].stdout, res[i].tail)
	}
	if mr.failed[0] || mr.failed[1] {
		return nil
	}
	logs := regionLogRatios(mr.name, res[0].stdout, res[1].stdout)
	mr.roundLogs = append(mr.roundLogs, math.NaN())
	if len(logs) >= judge.MinPairedRegions {
		// This round's own paired time, kept on its processes'
		// measurements: how far rounds (fresh processes, fresh binary
		// copies) differ.
		mid := judge.InterquartileMean(logs)
		mr.roundLogs[len(mr.roundLogs)-1] = mid
		l0, l1 := &mr.lines[0], &mr.lines[1]
		l0.Measurements[len(l0.Measurements)-1].PairedTime = math.Exp(-mid / 2)
		l1.Measurements[len(l1.Measurements)-1].PairedTime = math.Exp(mid / 2)
	}
	mr.pairedLogs = append(mr.pairedLogs, logs...)
	return nil
}

// merge folds the measurement into each cell's line (see expdir.Line for
// the rules); timed says which lines already took their metrics from an
// earlier perf measurement.
func (mr *measureRun) merge(timed []bool) {
	m, ms, failed := mr.m, mr.ms, mr.failed
	for i := range mr.lines {
		l := &mr.lines[i]
		var out output
		if !failed[i] {
			ops, err := parseCountOutput(&out, mr.name, m.Backend, mr.stdouts[i]...)
			if err != nil {
				failed[i], ms[i].Error = true, err.Error()
				out = output{stderrTail: mr.tails[i]}
			}
			ms[i].Ops = ops
		} else {
			out.stderrTail = mr.tails[i]
		}
		if l.Start.IsZero() {
			l.Start = ms[i].Start
			l.Ops = ms[i].Ops
		}
		if failed[i] {
			if !l.Failed() {
				l.ExitCode = ms[i].ExitCode
				if l.ExitCode == 0 {
					l.ExitCode = -1 // exited 0 without a usable result
				}
				l.Error = ms[i].Error
				if l.Error != "" {
					l.Error = m.Backend + " measurement: " + l.Error
				}
				l.StderrTail = out.stderrTail
			}
			continue
		}
		if l.Machine.Kernel == "" && out.machine != nil {
			l.Machine = *out.machine
		}
		l.Counts = append(l.Counts, out.counts...)
		if m.Backend == suite.BackendPerf && !timed[i] {
			timed[i] = true
			l.Ops = ms[i].Ops
			l.Metrics = out.metrics
			l.Metrics.PeakRSS = ms[i].PeakRSS
		}
	}
	if len(mr.lines) == 2 && !failed[0] && !failed[1] {
		// Each side's time over the geometric mean of both: the second
		// cell's over the first's is exp(mid).
		if mid, ok := judge.PairedLog(mr.roundLogs, mr.pairedLogs); ok {
			mr.lines[0].Metrics.PairedTime = math.Exp(-mid / 2)
			mr.lines[1].Metrics.PairedTime = math.Exp(mid / 2)
		}
	}
}

// regionLogRatios pairs the regions of two gated processes that took turns
// (region k of one ran right before or after region k of the other) and
// returns ln(b's time per op / a's) for each region both printed. A region
// without a positive time is skipped.
func regionLogRatios(workload string, a, b []byte) []float64 {
	perOp := func(stdout []byte) map[int]float64 {
		lines, err := runLines(stdout, workload)
		if err != nil {
			return nil
		}
		t := map[int]float64{}
		for _, rl := range lines {
			k := max(rl.Region, 1)
			if _, ok := t[k]; !ok && rl.WallNS > 0 && rl.Ops > 0 {
				t[k] = float64(rl.WallNS) / float64(rl.Ops)
			}
		}
		return t
	}
	ta, tb := perOp(a), perOp(b)
	var logs []float64
	for k := 1; k <= len(ta); k++ {
		if x, y := ta[k], tb[k]; x > 0 && y > 0 {
			logs = append(logs, math.Log(y/x))
		}
	}
	return logs
}

// output is what one measurement's invocation printed, parsed.
type output struct {
	// floor is the least wall time per operation over the regions, in
	// nanoseconds (+Inf when no region has one).
	floor      float64
	counts     []expdir.Count
	metrics    expdir.Metrics
	machine    *perfcount.Machine
	stderrTail string
}

// Invoke runs m's tool once under the controls with args, and returns what
// it did, its standard output and the tail of its standard error. The error
// is non-nil only when ctx was cancelled; a subject that failed to start,
// exited non-zero or timed out is described in the Measurement. timeout is
// the suite's, which the measurement's own overrides.
func Invoke(ctx context.Context, c *Controls, timeout time.Duration, m suite.Measure, args []string) (ms expdir.Measurement, stdout []byte, stderrTail string, err error) {
	return invoke(ctx, c, timeout, m, nil, args, c.Env, c.RunDir)
}

// invoke is Invoke with pre (such as valgrind's command) between the
// controls' prefix and the program, the environment env and the working
// directory dir.
func invoke(ctx context.Context, c *Controls, timeout time.Duration, m suite.Measure, pre, args, env []string, dir string) (ms expdir.Measurement, stdout []byte, stderrTail string, err error) {
	ms = expdir.Measurement{Backend: m.Backend, Args: args}
	if m.Timeout > 0 {
		timeout = m.Timeout
	}
	argv := append(append(c.Prefix(), pre...), c.Program(m.Tool))
	argv = append(argv, args...)

	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	// Its own process group, so a timeout or an interrupt also ends whatever
	// it started (valgrind, pure-count's measuring child).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	stderr := &tailBuffer{max: stderrKeep}
	cmd.Stdout, cmd.Stderr = &out, stderr

	ms.Start = time.Now().UTC()
	runErr := cmd.Run()
	ms.Wall = time.Since(ms.Start)
	if ctx.Err() != nil {
		return ms, nil, "", fmt.Errorf("%w: %w", ErrInterrupted, ctx.Err())
	}

	ms.ExitCode = -1
	if ps := cmd.ProcessState; ps != nil {
		ms.ExitCode = ps.ExitCode()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok && m.Backend == suite.BackendPerf {
			// Under valgrind the resident set is valgrind's, not the subject's.
			ms.PeakRSS = ru.Maxrss * 1024
		}
	}
	switch {
	case errors.Is(runCtx.Err(), context.DeadlineExceeded):
		ms.Error = fmt.Sprintf("killed after its timeout of %v", timeout)
	case cmd.ProcessState == nil:
		ms.Error = fmt.Sprintf("could not start %s: %v", argv[0], runErr)
	}
	return ms, out.Bytes(), build.Tail(stderr.Bytes(), 20, 2000), nil
}

// countLine is one of pure-count's --json lines, as the contract in
// docs/pure-count-json.md describes it. Only the fields used are decoded.
type countLine struct {
	Kind        string             `json:"kind"`
	Workload    string             `json:"workload"`
	Ops         int64              `json:"ops"`
	Repeat      int                `json:"repeat"`
	Region      int                `json:"region"`
	Event       string             `json:"event"`
	Value       float64            `json:"value"`
	Source      perfcount.Source   `json:"source"`
	Multiplexed bool               `json:"multiplexed"`
	WallNS      int64              `json:"wall_ns"`
	CPUNS       int64              `json:"cpu_ns"`
	Machine     *perfcount.Machine `json:"machine"`
}

// parseCountOutput fills out's counts, metrics and machine from pure-count's
// stdout, one per invocation, and returns the operations measured. Its "run"
// lines for workload are summed over regions: each event's Value is the
// total over all regions and PerOp that over all operations. Several events
// of one region share it, so a region's ops, wall and CPU time are counted
// once. Metrics are filled only for the perf backend, where the times are
// meaningful: throughput and CPU per op from the fastest region, CPU share
// the median.
func parseCountOutput(out *output, workload, backend string, stdouts ...[]byte) (ops int64, err error) {
	type regionKey struct{ invocation, repeat, region int }
	type region struct{ ops, wall, cpu int64 }
	var (
		regions = map[regionKey]region{}
		index   = map[string]int{} // event -> position in out.counts
	)
	for inv, stdout := range stdouts {
		lines, err := runLines(stdout, workload)
		if err != nil {
			return 0, err
		}
		for _, rl := range lines {
			n, cl := rl.n, rl.countLine
			if cl.Ops <= 0 {
				return 0, fmt.Errorf("%s stdout line %d: ops is %d", workload, n, cl.Ops)
			}
			key := regionKey{inv, cl.Repeat, max(cl.Region, 1)} // lines without a region have one
			if _, ok := regions[key]; !ok {
				regions[key] = region{cl.Ops, cl.WallNS, cl.CPUNS}
			}
			if cl.Machine != nil && out.machine == nil {
				out.machine = cl.Machine
			}
			i, ok := index[cl.Event]
			if !ok {
				i = len(out.counts)
				index[cl.Event] = i
				out.counts = append(out.counts, expdir.Count{Event: cl.Event, Source: cl.Source})
			}
			c := &out.counts[i]
			if c.Source != cl.Source {
				return 0, fmt.Errorf("%s stdout line %d: event %s counted by both %s and %s", workload, n, cl.Event, c.Source, cl.Source)
			}
			c.Value += cl.Value
			c.Multiplexed = c.Multiplexed || cl.Multiplexed
		}
	}
	if len(regions) == 0 {
		return 0, fmt.Errorf("pure-count printed no run line for %s", workload)
	}
	var thr, cpuOp, share []float64
	out.floor = math.Inf(1)
	for _, r := range regions {
		ops += r.ops
		if r.wall > 0 {
			out.floor = min(out.floor, float64(r.wall)/float64(r.ops))
			thr = append(thr, float64(r.ops)*1e9/float64(r.wall))
			if r.cpu > 0 {
				cpuOp = append(cpuOp, float64(r.cpu)/(float64(r.ops)*1e9))
				share = append(share, float64(r.cpu)/float64(r.wall))
			}
		}
	}
	for i := range out.counts {
		out.counts[i].PerOp = out.counts[i].Value / float64(ops)
	}
	// Times are the fastest region's. On this project's VMs interference
	// from outside the guest comes in bursts: within one process the median
	// of 100 regions of 15 ms sat 5-29 % above their floor, while the floor
	// itself held to 1 % from process to process; and about one fresh
	// process in ten is slower throughout. A region is never faster than its
	// work allows, so the minimum of many short regions in several fresh
	// processes is the estimator that noise of that shape disturbs least
	// (Chen and Revels, "Robust benchmarking in noisy environments", 2016).
	// CPU share, which the disturbance rule reads, is the median.
	if backend == suite.BackendPerf && len(thr) > 0 {
		out.metrics.Throughput = slices.Max(thr)
		if len(cpuOp) > 0 {
			out.metrics.CPUPerOp = slices.Min(cpuOp)
			out.metrics.CPUShare = stats.Median(share)
		}
	}
	return ops, nil
}

// tailBuffer keeps the last max bytes written to it, and at most 2*max at
// any time.
type tailBuffer struct {
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 2*t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

// Bytes returns the kept bytes: the last max or more written.
func (t *tailBuffer) Bytes() []byte { return t.b }

// runLine is one "run" line of pure-count's output and its line number.
type runLine struct {
	n int
	countLine
}

// runLines returns the "run" lines for workload in pure-count's --json
// output (docs/pure-count-json.md); other lines are skipped, and a line
// that is not JSON is an error naming its number.
func runLines(stdout []byte, workload string) ([]runLine, error) {
	var out []runLine
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var cl countLine
		if err := json.Unmarshal(text, &cl); err != nil {
			return nil, fmt.Errorf("%s stdout line %d is not a JSON object: %v", workload, n, err)
		}
		if cl.Kind == "run" && cl.Workload == workload {
			out = append(out, runLine{n, cl})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s output: %w", workload, err)
	}
	return out, nil
}
