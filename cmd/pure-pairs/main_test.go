package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"workbench/experiments/lab/bisect"
	"workbench/experiments/lab/build"
	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/pairs"
	"workbench/experiments/lab/pairs/pairstest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/name, writing testdata/name.got on a
// mismatch (and the file itself with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		os.WriteFile(path+".got", []byte(got), 0o644)
		t.Errorf("%s differs from the golden file; see %s.got (go test -update rewrites it)", path, path)
	}
}

func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want pairs.Options
	}{
		{[]string{"--before", "A", "--after", "B"}, pairs.Options{Options: build.Options{Suite: "apps"}, Before: "A", After: "B"}},
		// The form `just pairs before=A after=B ...` passes.
		{[]string{"before=A", "after=B", "pairs=4", "suite=s", "exp=012-x", "resume=1"},
			pairs.Options{Options: build.Options{Suite: "s"}, Before: "A", After: "B", Pairs: 4, Experiment: "012-x", Resume: true}},
		{[]string{"before=A", "after=B", "pairs=6", "suite=micro", "exp=", "resume=0"},
			pairs.Options{Options: build.Options{Suite: "micro"}, Before: "A", After: "B", Pairs: 6}},
		// Bare operands are before and after; flags may follow operands.
		{[]string{"A", "B", "--pairs", "3", "--cpu", "none", "--env", "K=V", "--keep-aslr"},
			pairs.Options{Options: build.Options{Suite: "apps", CPU: "none", ExtraEnv: []string{"K=V"}, KeepASLR: true}, Before: "A", After: "B", Pairs: 3}},
	} {
		got, err := options(tc.args, new(bytes.Buffer))
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if got.Before != tc.want.Before || got.After != tc.want.After || got.Pairs != tc.want.Pairs ||
			got.Suite != tc.want.Suite || got.Experiment != tc.want.Experiment || got.Resume != tc.want.Resume ||
			got.CPU != tc.want.CPU || got.KeepASLR != tc.want.KeepASLR || !slices.Equal(got.ExtraEnv, tc.want.ExtraEnv) {
			t.Errorf("%q:\ngot  %+v\nwant %+v", tc.args, got, tc.want)
		}
	}
}

func TestOptions_Errors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"before=A"}, "both --before and --after are needed"},
		{[]string{"A", "B", "C"}, `unexpected operand "C"`},
		{[]string{"A", "B", "colour=red"}, `unknown operand "colour=red"`},
		{[]string{"A", "B", "resume=maybe"}, `operand "resume=maybe"`},
		{[]string{"A", "B", "--pairs", "x"}, `invalid value "x" for flag -pairs`},
		{[]string{"A", "B", "pairs=0"}, "want at least 1 pair"},
		{[]string{"A", "B", "pairs=-3"}, "want at least 1 pair"},
		{[]string{"A", "B", "--pairs", "0"}, "want at least 1 pair"},
		{[]string{"A", "B", "pairs=six"}, `"six" is not a whole number`},
		{[]string{"A", "B", "--env", "NOEQUALS"}, "want KEY=VALUE"},
		{[]string{"A", "B", "module=example.com/m", "suite=apps"}, "drop suite="},
		{[]string{"A", "B", "repo=/tmp/x", "suite=micro"}, "drop suite="},
	} {
		var stderr bytes.Buffer
		_, err := options(tc.args, &stderr)
		if !errors.Is(err, errUsage) || !strings.Contains(stderr.String(), tc.want) || !strings.Contains(stderr.String(), "usage:") {
			t.Errorf("%q: err %v, stderr:\n%s", tc.args, err, stderr.String())
		}
	}
}

func TestExitCode(t *testing.T) {
	for err, want := range map[error]int{
		errUsage:                              2,
		fmt.Errorf("x: %w", context.Canceled): 130,
		pairs.ErrRunsExist:                    1,
	} {
		if got := exitCode(err); got != want {
			t.Errorf("exitCode(%v) = %d, want %d", err, got, want)
		}
	}
}

func TestRun_Usage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), nil, &stdout, &stderr); !errors.Is(err, errUsage) || exitCode(err) != 2 {
		t.Errorf("no arguments: %v", err)
	}
	if err := run(context.Background(), []string{"frob"}, &stdout, &stderr); !errors.Is(err, errUsage) ||
		!strings.Contains(stderr.String(), `unknown command "frob"`) {
		t.Errorf("unknown command: %v\n%s", err, stderr.String())
	}
	for _, tc := range []struct {
		args []string
		file string
	}{
		{[]string{"help"}, "help.golden"},
		{[]string{"run", "-h"}, "help-run.golden"},
		{[]string{"bisect", "good=A", "--help"}, "help-bisect.golden"},
	} {
		stdout.Reset()
		if err := run(context.Background(), tc.args, &stdout, &stderr); err != nil {
			t.Fatal(err)
		}
		golden(t, tc.file, stdout.String())
	}
}

func TestBisectOptions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bisect.Options
	}{
		{[]string{"good=A", "bad=B", "workload=w"}, bisect.Options{Options: build.Options{Suite: "apps"}, Good: "A", Bad: "B", Workload: "w"}},
		{[]string{"good=A", "bad=B", "workload=w", "threshold=2.5%", "repeat=5", "suite=s", "backend=callgrind", "ops=7"},
			bisect.Options{Options: build.Options{Suite: "s"}, Good: "A", Bad: "B", Workload: "w", Threshold: 0.025, Repeat: 5, Backend: "callgrind", Ops: 7}},
		{[]string{"A", "B", "--workload", "w", "--threshold", "1%"}, bisect.Options{Options: build.Options{Suite: "apps"}, Good: "A", Bad: "B", Workload: "w", Threshold: 0.01}},
	} {
		got, err := bisectOptions(tc.args, new(bytes.Buffer))
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if got.Good != tc.want.Good || got.Bad != tc.want.Bad || got.Workload != tc.want.Workload || got.Threshold != tc.want.Threshold ||
			got.Repeat != tc.want.Repeat || got.Suite != tc.want.Suite || got.Backend != tc.want.Backend || got.Ops != tc.want.Ops {
			t.Errorf("%q:\ngot  %+v\nwant %+v", tc.args, got, tc.want)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"good=A", "workload=w"}, "both --good and --bad are needed"},
		{[]string{"good=A", "bad=B"}, "name the workload"},
		{[]string{"A", "B", "C", "workload=w"}, `unexpected operand "C"`},
		{[]string{"A", "B", "workload=w", "threshold=1"}, "want a percentage with its % sign"},
		{[]string{"A", "B", "workload=w", "threshold=0%"}, "want a percentage with its % sign"},
		{[]string{"A", "B", "workload=w", "colour=red"}, `unknown operand "colour=red"`},
	} {
		var stderr bytes.Buffer
		_, err := bisectOptions(tc.args, &stderr)
		if !errors.Is(err, errUsage) || !strings.Contains(stderr.String(), tc.want) || !strings.Contains(stderr.String(), "usage: pure-pairs bisect") {
			t.Errorf("%q: err %v, stderr:\n%s", tc.args, err, stderr.String())
		}
	}
}

func TestBisect_EndToEnd(t *testing.T) {
	repo := pairstest.NewRepo(t, map[string]string{
		"experiments/suites/tiny.suite": "workload count-a backend=callgrind ops=5\n",
	})
	var stdout, stderr bytes.Buffer
	args := []string{"bisect", "--checkout", repo.Dir, "--cache", t.TempDir(), "--backend", "callgrind",
		"good=HEAD~1", "bad=main", "workload=count-a", "suite=tiny", "repeat=2"}
	// At the default threshold of 1 %, a rise of exactly 1 % is no rise.
	if err := run(context.Background(), args, &stdout, &stderr); !errors.Is(err, bisect.ErrNoRise) || exitCode(err) != 1 {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	want := fmt.Sprintf(`good       %.7s          1,000 /op  ×1.0000   +0.00 %%  good   before
bad        %.7s          1,010 /op  ×1.0100   +1.00 %%  below  after
`, repo.Before, repo.After)
	if got := stdout.String(); got != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", got, want)
	}

	// With a lower threshold, the one commit is the first bad one.
	stdout.Reset()
	args = append(args, "threshold=0.5%")
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	want = fmt.Sprintf(`good       %.7s          1,000 /op  ×1.0000   +0.00 %%  good   before
bad        %.7s          1,010 /op  ×1.0100   +1.00 %%  above  after
1 commit after good, count-a instructions per op (callgrind, 5 ops), threshold 0.5 %% (noise at good 0 %%)
first bad commit: %s after
  count-a: 1,000 → 1,010 instructions per op, ×1.0100 (+1.00 %%) over good %.7s
`, repo.Before, repo.After, repo.After, repo.Before)
	if got := stdout.String(); got != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", got, want)
	}
}

func TestRun_EndToEnd(t *testing.T) {
	repo := pairstest.NewRepo(t, nil)
	suites := filepath.Join(repo.Dir, "experiments", "suites")
	os.MkdirAll(suites, 0o755)
	os.WriteFile(filepath.Join(suites, "tiny.suite"), []byte(
		"pairs 3\nworkload count-a backend=perf ops=5\nworkload count-a backend=callgrind ops=5\nworkload count-b backend=perf ops=7\n"), 0o644)

	var stdout, stderr bytes.Buffer
	args := []string{"run", "--checkout", repo.Dir, "--cache", t.TempDir(),
		"before=HEAD~1", "after=main", "pairs=1", "max-pairs=1", "suite=tiny", "exp=001-cli", "resume=0"}
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	for _, want := range []string{"run 4/4: pair 1 of 1 after count-b: ok", "001-cli: 4 runs recorded (0 failed)"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	b, err := os.ReadFile(filepath.Join(repo.Dir, "experiments", "001-cli", "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n != 4 {
		t.Errorf("%d lines in runs.jsonl, want 4", n)
	}

	// Again without resume: refused with advice.
	stderr.Reset()
	err = run(context.Background(), args, &stdout, &stderr)
	if !errors.Is(err, pairs.ErrRunsExist) || exitCode(err) != 1 {
		t.Errorf("second run: %v", err)
	}
}

// The flags pairs and bisect share are one definition: their help is the
// same word for word, and each command lists all of them.
func TestFlags_SharedHelpIsOne(t *testing.T) {
	run := newFlags(new(pairs.Options), io.Discard)
	bis := newBisectFlags(new(bisect.Options), io.Discard)
	shared := flag.NewFlagSet("shared", flag.ContinueOnError)
	new(build.Options).Flags(shared)
	n := 0
	shared.VisitAll(func(f *flag.Flag) {
		n++
		r, b := run.Lookup(f.Name), bis.Lookup(f.Name)
		if r == nil || b == nil {
			t.Errorf("--%s: run has it %v, bisect has it %v", f.Name, r != nil, b != nil)
			return
		}
		if r.Usage != b.Usage || r.DefValue != b.DefValue {
			t.Errorf("--%s differs:\n run:    %q\n bisect: %q", f.Name, r.Usage, b.Usage)
		}
	})
	if n < 7 {
		t.Errorf("%d shared flags, want at least 7 (suite, repo, experiments, cache, cpu, keep-aslr, env)", n)
	}
}

// TestRun_ExtendsUndecided runs one pair, which leaves both workloads
// unknown (fewer than the 5 clean pairs the criteria need): the runner must
// add two pairs at a time for them until they are decided (worse, by an
// exact 1 % count rise, once 5 pairs are clean), record each step in
// meta.json, and the note must say how many pairs each workload took.
func TestRun_ExtendsUndecided(t *testing.T) {
	repo := tinyRepo(t, "workload count-a backend=callgrind ops=5\nworkload count-b backend=callgrind ops=7\n")
	dir, meta, stdout, stderr := runTiny(t, repo, t.TempDir(), "exp=002-ext")
	var steps []string
	for _, e := range meta.Extensions {
		steps = append(steps, fmt.Sprintf("after %d: %v for %v", e.AfterPairs, e.Pairs, e.Workloads))
		if len(e.Reasons) != len(e.Workloads) {
			t.Errorf("extension after %d: %d reasons for %d workloads", e.AfterPairs, len(e.Reasons), len(e.Workloads))
		}
	}
	want := []string{"after 1: [2 3] for [count-a count-b]", "after 3: [4 5] for [count-a count-b]"}
	if !slices.Equal(steps, want) {
		t.Errorf("extensions %q, want %q\nstderr:\n%s", steps, want, stderr)
	}
	if meta.MaxPairs != pairs.DefaultMaxPairs {
		t.Errorf("max_pairs %d, want %d", meta.MaxPairs, pairs.DefaultMaxPairs)
	}
	if !strings.Contains(stdout, "verdict: worse") {
		t.Errorf("stdout lacks the verdict worse:\n%s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(dir, expdir.NoteFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "5 pairs (1, then 4 more") {
		t.Errorf("the note does not say how many pairs count-a took:\n%s", b)
	}
}

// tinyRepo is a test repository whose suite tiny has the given text.
func tinyRepo(t *testing.T, suite string) *pairstest.Repo {
	t.Helper()
	repo := pairstest.NewRepo(t, nil)
	suites := filepath.Join(repo.Dir, "experiments", "suites")
	if err := os.MkdirAll(suites, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(suites, "tiny.suite"), []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	return repo
}

// runTiny runs one pair of suite tiny in repo, HEAD~1 against main, with
// the extra operands (exp=NAME first), and returns the experiment's
// directory, meta.json, stdout and stderr.
func runTiny(t *testing.T, repo *pairstest.Repo, cache string, extra ...string) (string, expdir.Meta, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args := append([]string{"run", "--checkout", repo.Dir, "--cache", cache,
		"before=HEAD~1", "after=main", "pairs=1", "suite=tiny"}, extra...)
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	dir := filepath.Join(repo.Dir, "experiments", strings.TrimPrefix(extra[0], "exp="))
	meta, err := expdir.Dir(dir).Meta()
	if err != nil {
		t.Fatal(err)
	}
	return dir, meta, stdout.String(), stderr.String()
}

// TestRun_TimeBudgetStopsAddingPairs is TestRun_ExtendsUndecided with a
// time budget that the first pair already spends (the suite's max-time
// line): no pairs are added, meta.json records the stop, the workloads stay
// unknown, and the note says why. A budget on the command line overrides
// the suite's: with one of an hour the pairs are added as without one.
func TestRun_TimeBudgetStopsAddingPairs(t *testing.T) {
	repo := tinyRepo(t, "max-time 1ms\nworkload count-a backend=callgrind ops=5\nworkload count-b backend=callgrind ops=7\n")
	cache := t.TempDir()
	dir, meta, stdout, _ := runTiny(t, repo, cache, "exp=003-budget")
	if len(meta.Extensions) != 0 || meta.MaxTime != time.Millisecond {
		t.Errorf("extensions %v, max time %v: want none and 1ms", meta.Extensions, meta.MaxTime)
	}
	st := meta.BudgetStop
	if st == nil || st.AfterPairs != 1 || !slices.Equal(st.Workloads, []string{"count-a", "count-b"}) || st.Estimate <= 0 || st.Elapsed < time.Millisecond {
		t.Fatalf("budget stop %+v, want after 1 pair for count-a and count-b, with an estimate and the time spent", st)
	}
	if !strings.Contains(stdout, "verdict: unknown") {
		t.Errorf("stdout lacks the verdict unknown:\n%s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(dir, expdir.NoteFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "Time budget: after 1 pair, ") || !strings.Contains(string(b), "count-a, count-b would have needed about") {
		t.Errorf("the note does not say the budget stopped the pairs:\n%s", b)
	}

	_, meta, _, _ = runTiny(t, repo, cache, "exp=004-budget-flag", "max-time=1h")
	if meta.BudgetStop != nil || len(meta.Extensions) != 2 || meta.MaxTime != time.Hour {
		t.Errorf("with max-time=1h: stop %+v, %d extensions, max time %v; want no stop, 2 extensions, 1h", meta.BudgetStop, len(meta.Extensions), meta.MaxTime)
	}
}
