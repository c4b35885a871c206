package measure

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"workbench/experiments/lab/build"
	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/gobench"
	"workbench/experiments/lab/judge"
	"workbench/experiments/lab/stats"
	"workbench/experiments/lab/suite"
	"workbench/perfcount"
	"workbench/perfcount/callgrind"
)

// runGoBench runs one measurement of a Go benchmark (suite.GoBench) of
// g's cells and folds it into lines: the timed one (timedGoBench) or the
// counted one (CountGoBench). The error is non-nil only when ctx was
// cancelled or the harness failed; a benchmark that fails, panics or times
// out fails its line, with the end of its output, and the others go on.
func runGoBench(ctx context.Context, c *Controls, timeout time.Duration, g Group, m suite.Measure, lines []expdir.Line) error {
	failed := make([]bool, len(lines))
	for i := range lines {
		failed[i] = lines[i].Failed()
	}
	var err error
	if m.Backend == suite.BackendCallgrind {
		for i := range g.Cells {
			if failed[i] {
				continue
			}
			dump := ""
			if i < len(g.DumpDirs) {
				dump = g.DumpDirs[i]
			}
			var cnt expdir.Count
			var mss []expdir.Measurement
			var tail string
			if cnt, mss, tail, err = CountGoBench(ctx, c, timeout, g.Builds[i], m, dump, g.Cells[i].Workload.Name); err != nil {
				break
			}
			l := &lines[i]
			for _, ms := range mss {
				addMeasurement(l, ms)
			}
			if last := mss[len(mss)-1]; last.Error != "" {
				failLine(l, last, tail)
				continue
			}
			l.Counts = append(l.Counts, cnt)
		}
	} else {
		err = timedGoBench(ctx, c, timeout, g, m, lines, failed)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %w", ErrInterrupted, ctx.Err())
	}
	return err
}

// addMeasurement appends ms to l, adding its wall to the line's; the
// first sets the line's start.
func addMeasurement(l *expdir.Line, ms expdir.Measurement) {
	l.Measurements = append(l.Measurements, ms)
	l.Wall += ms.Wall
	if l.Start.IsZero() {
		l.Start = ms.Start
	}
}

// failLine records that l failed in ms, unless it already says it failed;
// tail is the end of the benchmark's output.
func failLine(l *expdir.Line, ms expdir.Measurement, tail string) {
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

// timedGoBench runs the timed measurement: Repeat rounds, one process per
// side each, the round's first side alternating A B B A ...; each process
// runs the benchmark Count times at -test.benchtime=Nx. A side's time is
// its fastest result's ns/op, and each round's two fastest results give
// the round's log ratio, from which the paired time comes
// (judge.PairedLog). B/op and allocs/op are the medians of the results.
func timedGoBench(ctx context.Context, c *Controls, timeout time.Duration, g Group, m suite.Measure, lines []expdir.Line, failed []bool) error {
	gb := m.GoBench
	n := len(g.Cells)
	results := make([][]gobench.Result, n)
	var roundLogs []float64
	for r := range max(m.Repeat, 1) {
		var fastest [2]float64
		for _, i := range turn(n, r) {
			if failed[i] {
				continue
			}
			ms, res, tail, err := goBenchOnce(ctx, c, timeout, g.Builds[i], m, nil, gb.Args(gb.N, gb.Count), c.Env)
			if err != nil {
				return err
			}
			addMeasurement(&lines[i], ms)
			if ms.Error != "" {
				failed[i] = true
				failLine(&lines[i], ms, tail)
				continue
			}
			results[i] = append(results[i], res...)
			fastest[i] = slices.MinFunc(res, func(a, b gobench.Result) int { return cmpFloat(a.NsPerOp, b.NsPerOp) }).NsPerOp
			lines[i].Measurements[len(lines[i].Measurements)-1].FloorNsPerOp = fastest[i]
		}
		if n == 2 && !failed[0] && !failed[1] && fastest[0] > 0 && fastest[1] > 0 {
			roundLogs = append(roundLogs, math.Log(fastest[1]/fastest[0]))
		}
	}
	for i := range lines {
		if failed[i] {
			continue
		}
		l := &lines[i]
		var ops int64
		var rss int64
		for _, ms := range l.Measurements {
			if ms.Backend == suite.BackendPerf {
				ops += ms.Ops
				rss = max(rss, ms.PeakRSS)
			}
		}
		floor := math.Inf(1)
		var bs, as []float64
		for _, r := range results[i] {
			floor = min(floor, r.NsPerOp)
			if r.BytesPerOp != nil {
				bs = append(bs, *r.BytesPerOp)
			}
			if r.AllocsPerOp != nil {
				as = append(as, *r.AllocsPerOp)
			}
		}
		l.Ops = ops
		l.Metrics = expdir.Metrics{Throughput: 1e9 / floor, PeakRSS: rss}
		if len(bs) > 0 {
			v := stats.Median(bs)
			l.Metrics.BytesPerOp = &v
		}
		if len(as) > 0 {
			v := stats.Median(as)
			l.Metrics.AllocsPerOp = &v
		}
	}
	if n == 2 && !failed[0] && !failed[1] {
		if mid, ok := judge.PairedLog(roundLogs, nil); ok {
			lines[0].Metrics.PairedTime = math.Exp(-mid / 2)
			lines[1].Metrics.PairedTime = math.Exp(mid / 2)
		}
	}
	return nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// goBenchOnce runs the side's test binary once under the controls, prefixed
// by pre, in its package's directory, and returns the measurement and the
// benchmark's results. A run that fails, prints no result for the
// benchmark or times out says so in the Measurement's Error, with the end
// of its output (stdout and stderr: the testing package prints a failed
// benchmark's log and a panic's trace there) as the tail. The error is
// the harness's own.
func goBenchOnce(ctx context.Context, c *Controls, timeout time.Duration, b expdir.Build, m suite.Measure, pre, args, env []string) (expdir.Measurement, []gobench.Result, string, error) {
	gb := m.GoBench
	if err := c.UseTool(b, m.Tool); err != nil {
		return expdir.Measurement{}, nil, "", err
	}
	src, err := c.pointSource(b)
	if err != nil {
		return expdir.Measurement{}, nil, "", err
	}
	ms, stdout, stderrTail, err := invoke(ctx, c, timeout, m, pre, args, env, filepath.Join(src, filepath.FromSlash(gb.Dir)))
	if err != nil {
		return ms, nil, "", err
	}
	tail := strings.TrimSpace(build.Tail(stdout, 20, 2000) + "\n" + stderrTail)
	if ms.Error != "" {
		return ms, nil, tail, nil
	}
	if ms.ExitCode != 0 {
		ms.Error = fmt.Sprintf("%s exited with status %d (the benchmark failed or panicked: see its output)", m.Tool, ms.ExitCode)
		return ms, nil, tail, nil
	}
	all, perr := gobench.Parse(stdout)
	var res []gobench.Result
	for _, r := range all {
		if r.Name == gb.Bench {
			res = append(res, r)
		}
	}
	switch {
	case perr != nil:
		ms.Error = "its output does not parse: " + perr.Error()
	case len(res) == 0:
		ms.Error = fmt.Sprintf("it printed no result for %s (skipped, or renamed?)", gb.Bench)
	}
	if ms.Error != "" {
		return ms, nil, tail, nil
	}
	for _, r := range res {
		ms.Ops += int64(r.N)
	}
	return ms, res, "", nil
}

// pointSource replaces the symlink RunDir/src with one to the side's
// source tree (gobench.SourceDir) and returns RunDir/src: both sides'
// test binaries run in the same path, their package's directory under it.
func (c *Controls) pointSource(b expdir.Build) (string, error) {
	link := filepath.Join(c.RunDir, "src")
	tmp := link + ".new"
	os.Remove(tmp)
	if err := os.Symlink(gobench.SourceDir(b), tmp); err != nil {
		return "", fmt.Errorf("pointing %s at %s: %w", link, gobench.SourceDir(b), err)
	}
	if err := os.Rename(tmp, link); err != nil {
		return "", fmt.Errorf("pointing %s at %s: %w", link, gobench.SourceDir(b), err)
	}
	return link, nil
}

// CountGoBench counts a side's instructions per op of a Go benchmark
// under callgrind: two fresh processes, with -test.benchtime=N1x and N2x
// (m.GoBench.Iters), and the count (Ir(N2) − Ir(N1)) / (N2 − N1). The
// process's start-up, the testing package's first b.N=1 call and the
// benchmark's set-up are in both and cancel. It returns the count, the
// two processes' measurements (each with its own Ir in Counts) and, when
// the last measurement's Error says it failed, the end of its output.
// dumpDir, when not empty, keeps the two dumps for the workload's profile
// (keepDump). The error is the harness's own, or ctx's.
func CountGoBench(ctx context.Context, c *Controls, timeout time.Duration, b expdir.Build, m suite.Measure, dumpDir, workload string) (expdir.Count, []expdir.Measurement, string, error) {
	gb := m.GoBench
	vg, err := perfcount.ValgrindPath()
	if err != nil {
		return expdir.Count{}, []expdir.Measurement{{Backend: suite.BackendCallgrind, ExitCode: -1, Error: err.Error()}}, "", nil
	}
	var mss []expdir.Measurement
	var irs [2]float64
	for j, iters := range gb.Iters {
		out := filepath.Join(c.RunDir, fmt.Sprintf("callgrind-gobench-%d.out", j+1))
		for _, f := range []string{out, out + ".log"} {
			os.Remove(f)
		}
		pre := []string{vg, "--tool=callgrind", "--callgrind-out-file=" + out, "--log-file=" + out + ".log"}
		// The settings that keep Go programs alive and repeatable under
		// this valgrind (perfcount.CallgrindEnv), but for the region
		// toggle: the whole process is counted.
		env := append(append([]string(nil), c.Env...), perfcount.CallgrindEnv(out)[:3]...)
		ms, _, tail, err := goBenchOnce(ctx, c, timeout, b, m, pre, gb.Args(iters, 1), env)
		if err != nil {
			return expdir.Count{}, mss, "", err
		}
		if ms.Error == "" {
			var ir uint64
			p, perr := callgrind.ParseFile(out)
			if perr == nil {
				perr = p.Check()
			}
			if perr == nil {
				ir, perr = p.Total("Ir")
			}
			if perr != nil {
				ms.Error = "callgrind's output: " + perr.Error()
				log, _ := os.ReadFile(out + ".log")
				tail = build.Tail(log, 10, 1000)
			} else {
				irs[j] = float64(ir)
				ms.Counts = []expdir.Count{{Event: CountEvent, Value: irs[j], PerOp: irs[j] / float64(iters), Source: perfcount.SourceCallgrind}}
				if dumpDir != "" {
					keepDump(out, dumpDir, workload, j)
				}
			}
		}
		mss = append(mss, ms)
		if ms.Error != "" {
			return expdir.Count{}, mss, tail, nil
		}
	}
	dn := gb.Iters[1] - gb.Iters[0]
	d := irs[1] - irs[0]
	if dn <= 0 || d <= 0 {
		mss[len(mss)-1].Error = fmt.Sprintf("callgrind counted %.0f instructions at %dx and %.0f at %dx: the larger run must count more", irs[0], gb.Iters[0], irs[1], gb.Iters[1])
		return expdir.Count{}, mss, "", nil
	}
	return expdir.Count{Event: CountEvent, Value: d, PerOp: d / float64(dn), Source: perfcount.SourceCallgrind}, mss, "", nil
}
