package pairs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"workbench/experiments/lab/build"
	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/measure"
	"workbench/experiments/lab/pairs"
	"workbench/experiments/lab/pairs/pairstest"
	"workbench/experiments/lab/suite"
)

// testSuite runs three workloads of the fake subject: one under callgrind,
// one that crashes, and one measured twice: under perf with two repeats, and
// under callgrind.
const testSuite = `pairs 2
timeout 1m
workload count-a backend=callgrind ops=10
workload crash   backend=perf ops=1
workload count-b backend=perf events=task-clock ops=100 repeat=2
workload count-b backend=callgrind ops=10
`

type fixture struct {
	repo    *pairstest.Repo
	opts    pairs.Options
	log     *bytes.Buffer // Options.Log
	fakeLog string        // what the fake subject logs of its invocations
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{
		repo: pairstest.NewRepo(t, map[string]string{
			"experiments/007-e2e/criteria": "time.max_worse = 5%\n",
		}),
		log: new(bytes.Buffer),
	}
	f.fakeLog = filepath.Join(t.TempDir(), "fake.log")
	suites := filepath.Join(f.repo.Dir, "experiments", "suites")
	if err := os.MkdirAll(suites, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(suites, "test.suite"), []byte(testSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	f.opts = pairs.Options{
		Options:  build.Options{Repo: f.repo.Dir, Suite: "test", CacheDir: t.TempDir(), ExtraEnv: []string{"FAKE_LOG=" + f.fakeLog}},
		Before:   "HEAD~1",
		After:    "main",
		Log:      f.log,
		Progress: new(bytes.Buffer),
	}
	return f
}

func readLines(t *testing.T, path string) []expdir.Line {
	t.Helper()
	fl, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	lines, _, err := expdir.ReadRuns(fl)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

func keys(lines []expdir.Line) []string {
	var ks []string
	for i := range lines {
		ks = append(ks, measure.CellKey{Pair: lines[i].Pair, Side: measure.Side(lines[i].Side), Workload: lines[i].Workload}.String())
	}
	return ks
}

// scheduleKeys is the order the test suite's cells run in.
func scheduleKeys(t *testing.T, n int) []string {
	t.Helper()
	s, err := suite.ParseSuite("test.suite", strings.NewReader(testSuite))
	if err != nil {
		t.Fatal(err)
	}
	var ks []string
	for _, c := range pairs.Schedule(n, s.Workloads) {
		ks = append(ks, c.Key().String())
	}
	return ks
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestRun_EndToEnd(t *testing.T) {
	f := newFixture(t)
	o := f.opts
	o.Experiment = "007-e2e"
	res, err := pairs.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, f.log)
	}
	if res.Ran != 12 || res.Failed != 4 || res.Skipped != 0 {
		t.Errorf("ran %d, failed %d, skipped %d; want 12, 4, 0", res.Ran, res.Failed, res.Skipped)
	}
	// meta.json says what the after commit changes: its commit, and the
	// code it touches (everything but the experiments' data).
	if c := res.Meta.Changes; c == nil || len(c.Commits) != 1 || c.Commits[0].Subject == "" || c.Diffstat == "" {
		t.Errorf("changes recorded: %+v", c)
	}
	if n := strings.Count(f.log.String(), ": building "); n != 2 {
		t.Errorf("%d builds, want 2; log:\n%s", n, f.log)
	}

	// The lines come in ABBA order, one per cell.
	lines := readLines(t, res.RunsPath)
	if got, want := keys(lines), scheduleKeys(t, 2); !slices.Equal(got, want) {
		t.Fatalf("cells in runs.jsonl:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantPos := map[[2]any]int{{1, "before"}: 1, {1, "after"}: 2, {2, "after"}: 1, {2, "before"}: 2}
	for i := range lines {
		l := &lines[i]
		commit, rev, perOp := f.repo.Before, "HEAD~1", float64(pairstest.BeforePerOp)
		if l.Side == "after" {
			commit, rev, perOp = f.repo.After, "main", pairstest.AfterPerOp
		}
		if l.Commit != commit || l.Revision != rev || l.Experiment != "007-e2e" || l.Suite != "test" || l.Schema != 1 {
			t.Errorf("line %d: %+v", i+1, l.Run)
		}
		if l.Position != wantPos[[2]any{l.Pair, l.Side}] {
			t.Errorf("line %d: pair %d %s at position %d", i+1, l.Pair, l.Side, l.Position)
		}
		if l.Controls == nil || l.Start.IsZero() || l.Wall <= 0 || len(l.Measurements) == 0 {
			t.Errorf("line %d: controls %v, start %v, wall %v, measurements %v", i+1, l.Controls, l.Start, l.Wall, l.Measurements)
		}
		switch l.Workload {
		case "count-a":
			if l.Failed() || l.Ops != 10 || len(l.Counts) != 1 || l.Counts[0].PerOp != perOp ||
				l.Counts[0].Source != "callgrind" || l.Metrics.Throughput != 0 || l.Metrics.PeakRSS != 0 {
				t.Errorf("line %d (count-a): %+v", i+1, l)
			}
		case "count-b":
			// One run of two measurements: time and task-clock from perf,
			// instructions from callgrind, each per its own operations.
			m := l.Metrics
			if l.Failed() || l.Ops != 200 || len(l.Counts) != 2 ||
				l.Counts[0].Event != "task-clock" || l.Counts[0].Source != "perf" || l.Counts[0].Value != 200*perOp ||
				l.Counts[1].Event != "instructions" || l.Counts[1].Source != "callgrind" || l.Counts[1].Value != 10*perOp ||
				l.Counts[1].PerOp != perOp || m.Throughput != 1e6 || m.CPUShare != 0.9 || m.PeakRSS <= 0 {
				t.Errorf("line %d (count-b): %+v", i+1, l)
			}
			ms := l.Measurements
			// repeat=2 is two fresh processes per side, interleaved
			// between the sides: each is its own invocation.
			if len(ms) != 3 || ms[0].Backend != "perf" || ms[1].Backend != "perf" || ms[2].Backend != "callgrind" ||
				ms[0].Ops != 100 || ms[1].Ops != 100 || ms[2].Ops != 10 ||
				ms[0].FloorNsPerOp != 1000 || ms[2].FloorNsPerOp != 0 ||
				strings.Join(ms[0].Args, " ") != "run --backend perf -e task-clock -n 100 -r 1 --json count-b" ||
				l.Wall != ms[0].Wall+ms[1].Wall+ms[2].Wall || !l.Start.Equal(ms[0].Start) {
				t.Errorf("line %d (count-b): measurements %+v", i+1, ms)
			}
		case "crash":
			if l.ExitCode != 3 || !strings.Contains(l.StderrTail, "panic: boom") || l.Counts != nil || l.Error != "" ||
				len(l.Measurements) != 1 || l.Measurements[0].ExitCode != 3 {
				t.Errorf("line %d (crash): exit %d, error %q, stderr %q", i+1, l.ExitCode, l.Error, l.StderrTail)
			}
		}
	}

	// count-b's fresh processes alternated between the sides, A B B A,
	// starting with the side that goes first in the pair.
	for pair := 1; pair <= 2; pair++ {
		var first, second *expdir.Line
		for i := range lines {
			if l := &lines[i]; l.Pair == pair && l.Workload == "count-b" {
				if l.Position == 1 {
					first = l
				} else {
					second = l
				}
			}
		}
		if first == nil || second == nil || len(first.Measurements) < 2 || len(second.Measurements) < 2 {
			t.Fatalf("pair %d: count-b lines missing", pair)
		}
		starts := []time.Time{first.Measurements[0].Start, second.Measurements[0].Start, second.Measurements[1].Start, first.Measurements[1].Start}
		if !slices.IsSortedFunc(starts, func(a, b time.Time) int { return a.Compare(b) }) {
			t.Errorf("pair %d: count-b processes did not run A B B A: %v", pair, starts)
		}
	}

	// Both sides ran through the same path, in the same directory, with an
	// environment of the same size.
	logged, err := os.ReadFile(f.fakeLog)
	if err != nil {
		t.Fatal(err)
	}
	invocations := strings.Split(strings.TrimSpace(string(logged)), "\n")
	if len(invocations) != 20 {
		t.Errorf("%d invocations logged, want 20", len(invocations))
	}
	slices.Sort(invocations)
	if u := slices.Compact(invocations); len(u) != 1 || !strings.Contains(u[0], "/bin/pure-count ") {
		t.Errorf("invocations differ:\n%s", strings.Join(u, "\n"))
	}

	// meta.json records the commits, the controls and where the criteria
	// came from; the committed criteria were copied.
	b, err := os.ReadFile(filepath.Join(res.Dir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	var meta expdir.Meta
	if err := json.Unmarshal(b, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.Before.Commit != f.repo.Before || meta.After.Commit != f.repo.After || meta.Pairs != 2 || meta.Runs != 12 ||
		meta.Suite != "test" || meta.SuiteText != testSuite || meta.Criteria.Source != "committed" ||
		meta.Criteria.Path != "experiments/007-e2e/criteria" || meta.Controls.EnvBytes == 0 ||
		!slices.Contains(meta.Controls.Env, "FAKE_LOG="+f.fakeLog) {
		t.Errorf("meta.json:\n%s", b)
	}
	if c, _ := os.ReadFile(filepath.Join(res.Dir, "criteria")); string(c) != "time.max_worse = 5%\n" {
		t.Errorf("criteria %q", c)
	}

	// The user's checkout is untouched and no worktree is left behind.
	if wt := gitOut(t, f.repo.Dir, "worktree", "list", "--porcelain"); strings.Count(wt, "worktree ") != 1 {
		t.Errorf("worktrees left:\n%s", wt)
	}
	if st := gitOut(t, f.repo.Dir, "status", "--porcelain", "--untracked-files=no"); st != "" {
		t.Errorf("checkout modified:\n%s", st)
	}
	if head := strings.TrimSpace(gitOut(t, f.repo.Dir, "rev-parse", "HEAD")); head != f.repo.After {
		t.Errorf("HEAD moved to %s", head)
	}

	// Running the same experiment again without resume is refused.
	_, err = pairs.Run(context.Background(), o)
	if !errors.Is(err, pairs.ErrRunsExist) || !strings.Contains(err.Error(), "resume=1") {
		t.Errorf("second run without resume: %v", err)
	}

	// A new experiment of the same commits reuses the builds.
	f.log.Reset()
	o.Experiment, o.Pairs = "", 1
	res2, err := pairs.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(f.log.String(), ": building ") || strings.Count(f.log.String(), "using cached build") != 2 {
		t.Errorf("builds not reused; log:\n%s", f.log)
	}
	if want := "008-pairs-" + f.repo.Before[:7] + "-" + f.repo.After[:7]; res2.Experiment != want || res2.Ran != 6 {
		t.Errorf("experiment %s with %d runs, want %s with 6", res2.Experiment, res2.Ran, want)
	}
	if c, _ := os.ReadFile(filepath.Join(res2.Dir, "criteria")); string(c) != pairs.DefaultCriteria {
		t.Errorf("default criteria %q", c)
	}
}

func TestRun_Resume(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := f.opts
	n := 0
	o.OnRun = func(*expdir.Line) {
		if n++; n == 5 {
			cancel() // as an interrupt would, after the fifth run
		}
	}
	res, err := pairs.Run(ctx, o)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "resume=1") {
		t.Fatalf("interrupted run: %v", err)
	}
	if res == nil {
		t.Fatal("no result")
	}
	// The fifth run's other side ran with it, so both are recorded.
	first := readLines(t, res.RunsPath)
	if len(first) != 6 || res.Ran != 6 {
		t.Fatalf("%d lines after the interrupt (%d ran), want 6", len(first), res.Ran)
	}
	// An interrupted write leaves a partial line; resume drops it, and runs
	// the side it lost on its own.
	whole, err := os.ReadFile(res.RunsPath)
	if err != nil {
		t.Fatal(err)
	}
	cut := bytes.LastIndexByte(whole[:len(whole)-1], '\n') + 1
	partial := append(whole[:cut:cut], `{"schema":1,"experiment":"`...)
	if err := os.WriteFile(res.RunsPath, partial, 0o644); err != nil {
		t.Fatal(err)
	}
	first = first[:5]

	// Resume, naming no experiment: the latest one of these commits goes on.
	o.OnRun = nil
	o.Resume = true
	progress := new(bytes.Buffer)
	o.Progress = progress
	res2, err := pairs.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	// Each line of a log starts with the time of day, HH:MM:SS.
	if first := progress.String(); len(first) < 9 || first[2] != ':' || first[5] != ':' || !strings.HasPrefix(first[9:], "run 6/12: pair 1 of 2 after count-b: ok") {
		t.Errorf("progress of the resumed session:\n%s", progress)
	}
	if res2.Experiment != res.Experiment || res2.Skipped != 5 || res2.Ran != 7 {
		t.Errorf("resumed %s: skipped %d, ran %d; want %s, 5, 7", res2.Experiment, res2.Skipped, res2.Ran, res.Experiment)
	}
	all := readLines(t, res.RunsPath)
	if got, want := keys(all), scheduleKeys(t, 2); !slices.Equal(got, want) {
		t.Errorf("cells after resume:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range first {
		if !first[i].Start.Equal(all[i].Start) {
			t.Errorf("line %d was rewritten", i+1)
		}
	}

	// Resuming it with other commits is refused.
	o.Experiment = res.Experiment
	o.Before, o.After = o.After, o.Before
	if _, err := pairs.Run(context.Background(), o); !errors.Is(err, pairs.ErrMetaMismatch) {
		t.Errorf("resume with swapped commits: %v", err)
	}
}

func TestRun_BuildFailure(t *testing.T) {
	f := newFixture(t)
	o := f.opts
	o.After = "broken"
	o.Experiment = "009-broken"
	_, err := pairs.Run(context.Background(), o)
	var be *build.BuildError
	if !errors.As(err, &be) {
		t.Fatalf("got %v, want a *BuildError", err)
	}
	if be.Side != string(measure.After) || be.Revision != "broken" || be.Commit != f.repo.Broken ||
		!strings.Contains(be.StderrTail, "main.go") {
		t.Errorf("build error %+v", be)
	}
	msg := err.Error()
	for _, want := range []string{"after", "broken", f.repo.Broken, "cmd/pure-count/main.go"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if _, err := os.Stat(filepath.Join(f.repo.Dir, "experiments", "009-broken")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("experiment directory created for a failed build: %v", err)
	}
	if wt := gitOut(t, f.repo.Dir, "worktree", "list", "--porcelain"); strings.Count(wt, "worktree ") != 1 {
		t.Errorf("worktrees left:\n%s", wt)
	}
}

func TestRun_UnknownRevision(t *testing.T) {
	f := newFixture(t)
	o := f.opts
	o.Before = "no-such-rev"
	_, err := pairs.Run(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), `revision "no-such-rev" does not name a commit`) {
		t.Errorf("got %v", err)
	}
}

func TestRun_Timeout(t *testing.T) {
	f := newFixture(t)
	su := filepath.Join(f.repo.Dir, "experiments", "suites", "sleepy.suite")
	// 2s, not less: the stub must start and say "sleeping" before it is
	// killed, and on a loaded machine (CI beside other jobs) a 300 ms
	// timeout once killed it first.
	if err := os.WriteFile(su, []byte("workload sleep backend=perf timeout=2s\nworkload count-a backend=perf\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := f.opts
	o.Suite, o.Pairs = "sleepy", 1
	res, err := pairs.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	lines := readLines(t, res.RunsPath)
	if res.Failed != 2 || len(lines) != 4 {
		t.Fatalf("failed %d of %d", res.Failed, len(lines))
	}
	for _, l := range lines {
		switch l.Workload {
		case "sleep":
			if l.ExitCode != -1 || l.Error != "perf measurement: killed after its timeout of 2s" ||
				!strings.Contains(l.StderrTail, "sleeping") || l.Measurements[0].ExitCode != -1 {
				t.Errorf("sleep: exit %d, error %q, stderr %q", l.ExitCode, l.Error, l.StderrTail)
			}
		case "count-a":
			if l.Failed() {
				t.Errorf("count-a failed: %+v", l)
			}
		}
	}
}

// A native measurement of several regions, when both sides' pure-count know
// --gate: each round's two processes take turns region by region, A B B A
// A B, the round's first side alternating from round to round and starting
// with the pair's first side; every measurement records --gate, and
// meta.json the alternation.
func TestRun_GatedRegionsAlternate(t *testing.T) {
	res, regionLog := runGated(t, "pairs 2\ntimeout 1m\nworkload count-c backend=perf events=task-clock ops=10 repeat=2 regions=4\n", "008-gated")
	if res.Ran != 4 || res.Failed != 0 {
		t.Fatalf("ran %d, failed %d; want 4, 0", res.Ran, res.Failed)
	}
	b, err := os.ReadFile(regionLog)
	if err != nil {
		t.Fatal(err)
	}
	// before counts 1000 per op, after 1010; pair 1 has before first,
	// pair 2 after first (ABBA).
	round := func(first, other string) string {
		return first + " 1\n" + other + " 1\n" + other + " 2\n" + first + " 2\n" + first + " 3\n" + other + " 3\n" +
			other + " 4\n" + first + " 4\n"
	}
	want := round("1000", "1010") + round("1010", "1000") + round("1010", "1000") + round("1000", "1010")
	if string(b) != want {
		t.Errorf("regions ran in the order\n%s\nwant\n%s", b, want)
	}
	// Region k takes 1000+k ns per op before and 1010+k after. The paired
	// time ratio is the mean of the middle half of the eight region-by-
	// region log ratios: those of regions 2 and 3.
	wantRatio := math.Exp((math.Log(1012.0/1002) + math.Log(1013.0/1003)) / 2)
	paired := map[int]map[string]float64{}
	for _, l := range readLines(t, res.RunsPath) {
		floor := 1001.0
		if l.Side == "after" {
			floor = 1011
		}
		if len(l.Measurements) != 2 {
			t.Fatalf("pair %d %s: %d measurements, want 2", l.Pair, l.Side, len(l.Measurements))
		}
		for _, m := range l.Measurements {
			if !slices.Contains(m.Args, "--gate") || m.ExitCode != 0 || m.FloorNsPerOp != floor || m.Ops != 40 {
				t.Errorf("pair %d %s: measurement %+v", l.Pair, l.Side, m)
			}
		}
		if l.Metrics.Throughput != 1e9/floor {
			t.Errorf("pair %d %s: throughput %v, want the fastest region's, %v", l.Pair, l.Side, l.Metrics.Throughput, 1e9/floor)
		}
		if paired[l.Pair] == nil {
			paired[l.Pair] = map[string]float64{}
		}
		paired[l.Pair][l.Side] = l.Metrics.PairedTime
	}
	for pair, p := range paired {
		if got := p["after"] / p["before"]; math.Abs(got-wantRatio) > 1e-12 || math.Abs(p["after"]*p["before"]-1) > 1e-12 {
			t.Errorf("pair %d: paired times %v: after/before %v, want %v, and their product 1", pair, p, got, wantRatio)
		}
	}
	meta, err := os.ReadFile(filepath.Join(res.Dir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(meta), `"alternation": "regions"`) {
		t.Errorf("meta.json does not record region-by-region alternation:\n%s", meta)
	}
}

// A gated process that crashes in the middle of its regions is recorded as
// a failed run with its exit status and stderr; the other side's process
// counts its remaining regions alone, that side completes its repeat alone,
// and its run is complete.
func TestRun_GatedCrashLeavesTheOtherSide(t *testing.T) {
	res, regionLog := runGated(t, "pairs 1\ntimeout 1m\nworkload crash-in-region-2 backend=perf events=task-clock ops=10 repeat=2 regions=3\n", "009-gated-crash")
	if res.Ran != 2 || res.Failed != 1 {
		t.Fatalf("ran %d, failed %d; want 2, 1", res.Ran, res.Failed)
	}
	b, err := os.ReadFile(regionLog)
	if err != nil {
		t.Fatal(err)
	}
	// Pair 1: before first. After crashes on its go-ahead for region 2.
	if want := "1000 1\n1010 1\n1000 2\n1000 3\n"; string(b) != want {
		t.Errorf("regions ran in the order\n%s\nwant\n%s", b, want)
	}
	for _, l := range readLines(t, res.RunsPath) {
		switch l.Side {
		case "before":
			ms := l.Measurements
			if l.Failed() || len(ms) != 2 || ms[0].Ops != 30 || ms[0].FloorNsPerOp != 1001 || !slices.Contains(ms[0].Args, "--gate") {
				t.Errorf("before: %+v", l)
			}
		case "after":
			if l.ExitCode != 3 || !strings.Contains(l.StderrTail, "crashing in region 2") {
				t.Errorf("after: exit %d, stderr %q", l.ExitCode, l.StderrTail)
			}
		}
	}
}

// runGated runs suite (as suite "gated") on the fixture as experiment exp,
// with the fake logging each gated region to the returned file.
func runGated(t *testing.T, su, exp string) (*pairs.Result, string) {
	t.Helper()
	f := newFixture(t)
	if err := os.WriteFile(filepath.Join(f.repo.Dir, "experiments", "suites", "gated.suite"), []byte(su), 0o644); err != nil {
		t.Fatal(err)
	}
	regionLog := filepath.Join(t.TempDir(), "regions.log")
	o := f.opts
	o.Suite, o.Experiment = "gated", exp
	o.ExtraEnv = append(o.ExtraEnv, "FAKE_REGIONS="+regionLog)
	res, err := pairs.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, f.log)
	}
	return res, regionLog
}

// TestRun_ExtendsOnlyUndecidedBackends gives count-b (measured under perf
// and under callgrind) two more pairs for its perf measurement alone and
// count-a (callgrind only) two more whole, as a Decider that found
// count-b's instruction count decided but not its time would ask: the
// added pairs' lines of count-b carry only perf measurements, meta.json
// records the part, and a resumed experiment reruns a lost cell of it the
// same way.
func TestRun_ExtendsOnlyUndecidedBackends(t *testing.T) {
	f := newFixture(t)
	o := f.opts
	o.Experiment, o.MaxPairs = "008-part", 4
	calls := 0
	o.Decide = func(context.Context, string) (map[string]pairs.Undecided, error) {
		if calls++; calls > 1 {
			return nil, nil
		}
		return map[string]pairs.Undecided{
			"count-b": {Reason: "time unknown.", Backends: []string{suite.BackendPerf}},
			// Naming every backend of the workload is the same as none.
			"count-a": {Reason: "instructions unknown.", Backends: []string{suite.BackendCallgrind}},
		}, nil
	}
	res, err := pairs.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, f.log)
	}
	if !strings.Contains(f.log.String(), "pairs 3 and 4 for count-a, count-b (perf only) alone") {
		t.Errorf("the log does not say what the added pairs measure:\n%s", f.log)
	}
	ext := res.Meta.Extensions
	if len(ext) != 1 || !slices.Equal(ext[0].Pairs, []int{3, 4}) || len(ext[0].Backends) != 1 || !slices.Equal(ext[0].Backends["count-b"], []string{suite.BackendPerf}) {
		t.Fatalf("extensions %+v, want pairs 3 and 4 with count-b's perf part alone", ext)
	}
	backends := func(l *expdir.Line) []string {
		var bs []string
		for _, m := range l.Measurements {
			if !slices.Contains(bs, m.Backend) {
				bs = append(bs, m.Backend)
			}
		}
		slices.Sort(bs)
		return bs
	}
	check := func(lines []expdir.Line) {
		t.Helper()
		n := 0
		for i := range lines {
			l := &lines[i]
			if l.Pair < 3 {
				continue
			}
			n++
			want := map[string][]string{"count-a": {"callgrind"}, "count-b": {"perf"}}[l.Workload]
			if got := backends(l); want == nil || !slices.Equal(got, want) {
				t.Errorf("pair %d %s %s measured by %v, want %v", l.Pair, l.Side, l.Workload, got, want)
			}
			if l.Workload == "count-b" && (len(l.Counts) != 1 || l.Counts[0].Source != "perf" || l.Metrics.CPUPerOp <= 0) {
				t.Errorf("pair %d %s count-b: counts %+v, cpu per op %v; want its perf count and time alone", l.Pair, l.Side, l.Counts, l.Metrics.CPUPerOp)
			}
		}
		if n != 8 {
			t.Errorf("%d lines of added pairs, want 8 (2 pairs x 2 sides x 2 workloads)", n)
		}
	}
	lines := readLines(t, res.RunsPath)
	check(lines)

	// Lose the last line (pair 4's last count-b side) and resume: it runs
	// again with perf alone, and nothing more is added.
	whole, err := os.ReadFile(res.RunsPath)
	if err != nil {
		t.Fatal(err)
	}
	cut := bytes.LastIndexByte(whole[:len(whole)-1], '\n') + 1
	if err := os.WriteFile(res.RunsPath, whole[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	o.Resume, o.Decide = true, func(context.Context, string) (map[string]pairs.Undecided, error) {
		t.Error("the decider was asked again after the last pair allowed")
		return nil, nil
	}
	res2, err := pairs.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("resume: %v\nlog:\n%s", err, f.log)
	}
	if res2.Ran != 1 {
		t.Errorf("resume ran %d runs, want 1", res2.Ran)
	}
	check(readLines(t, res.RunsPath))
}

// TestRun_SuiteMaxPairs checks that a suite's max-pairs line bounds the
// added pairs when the command line does not say: a workload the Decider
// never decides gets pairs 3 and 4 and no more, and meta.json records the
// bound.
func TestRun_SuiteMaxPairs(t *testing.T) {
	f := newFixture(t)
	su := "pairs 2\nmax-pairs 4\ntimeout 1m\nworkload count-c backend=perf events=task-clock ops=10\n"
	if err := os.WriteFile(filepath.Join(f.repo.Dir, "experiments", "suites", "bounded.suite"), []byte(su), 0o644); err != nil {
		t.Fatal(err)
	}
	o := f.opts
	o.Suite, o.Experiment = "bounded", "010-bounded"
	o.Decide = func(context.Context, string) (map[string]pairs.Undecided, error) {
		return map[string]pairs.Undecided{"count-c": {Reason: "time unknown."}}, nil
	}
	res, err := pairs.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, f.log)
	}
	if res.Meta.MaxPairs != 4 {
		t.Errorf("meta max_pairs %d, want the suite's 4", res.Meta.MaxPairs)
	}
	if ext := res.Meta.Extensions; len(ext) != 1 || !slices.Equal(ext[0].Pairs, []int{3, 4}) {
		t.Errorf("extensions %+v, want pairs 3 and 4 only", ext)
	}
}
