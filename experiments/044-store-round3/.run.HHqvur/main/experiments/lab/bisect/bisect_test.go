package bisect_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"workbench/experiments/lab/bisect"
	"workbench/experiments/lab/build"
	"workbench/experiments/lab/pairs/pairstest"
	"workbench/experiments/lab/suite"
)

// chain is a scratch repository of commits in a line, each with the fake
// subject counting a given number per operation, or not compiling.
type chain struct {
	dir     string
	commits []string
}

// broken marks a commit of newChain whose subject does not compile.
const broken = -1

// newChain commits one fake subject per entry of perOps, in order, on one
// branch, with a suite "b" that measures count-a under callgrind.
func newChain(t *testing.T, perOps ...int) *chain {
	t.Helper()
	c := &chain{dir: t.TempDir()}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", c.dir, "-c", "user.name=bisecttest",
			"-c", "user.email=bisecttest@example.invalid", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(path, content string) {
		t.Helper()
		p := filepath.Join(c.dir, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write("go.mod", "module fake\n\ngo 1.22\n")
	write("experiments/suites/b.suite", "timeout 1m\nworkload count-a backend=callgrind ops=10\n")
	for i, n := range perOps {
		src, subject := pairstest.FakeCount(n), "count "+strings.Repeat("+", i)
		if n == broken {
			src, subject = "package main\n\nfunc main() { this does not compile }\n", "break the build"
		}
		write("cmd/pure-count/main.go", src+"\n// commit "+strings.Repeat("+", i)+"\n")
		git("add", "-A")
		git("commit", "-q", "-m", subject)
		c.commits = append(c.commits, git("rev-parse", "HEAD"))
	}
	return c
}

func (c *chain) options(t *testing.T, good, bad int) bisect.Options {
	return bisect.Options{
		Options:  build.Options{Repo: c.dir, Suite: "b", CacheDir: t.TempDir()},
		Good:     c.commits[good],
		Bad:      c.commits[bad],
		Workload: "count-a",
		Backend:  suite.BackendCallgrind,
		Log:      new(bytes.Buffer),
	}
}

func TestBisect(t *testing.T) {
	c := newChain(t, 1000, 1000, broken, 1000, 1020, 1020, broken, 1040)
	cache := t.TempDir()

	// good 0, bad 5: commit 2 does not build and is skipped; 4 is first.
	o := c.options(t, 0, 5)
	o.CacheDir = cache
	var seen []string
	o.OnStep = func(s bisect.Step) { seen = append(seen, s.Role+" "+s.Commit) }
	res, err := bisect.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, o.Log)
	}
	if res.First == nil || res.First.Commit != c.commits[4] || res.First.Subject != "count ++++" {
		t.Fatalf("first bad %+v, want %s; steps %+v", res.First, c.commits[4], res.Steps)
	}
	if res.First.Count != 1020 || res.First.Ratio != 1.02 || !res.First.Bad || len(res.First.Counts) != bisect.DefaultRepeat {
		t.Errorf("first bad step %+v", res.First)
	}
	if res.Good.Count != 1000 || res.Bad.Count != 1020 || res.Noise != 0 || res.Threshold != bisect.DefaultThreshold ||
		res.Commits != 5 || res.Backend != "callgrind" || res.Event != "instructions" || res.Ops != 10 {
		t.Errorf("result %+v", res)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Commit != c.commits[2] || !strings.Contains(res.Skipped[0].Skipped, "does not build") {
		t.Errorf("skipped %+v", res.Skipped)
	}
	// Good and bad first, then the halving: 1 (good), 2 (skipped), 3 and 4.
	var want []string
	for _, s := range []struct {
		role string
		i    int
	}{{"good", 0}, {"bad", 5}, {"candidate", 2}, {"candidate", 1}, {"candidate", 3}, {"candidate", 4}} {
		want = append(want, s.role+" "+c.commits[s.i])
	}
	if !slices.Equal(seen, want) {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}

	// good 5, bad 7: the only commit between them does not build, so
	// either it or bad is the first bad one.
	o = c.options(t, 5, 7)
	o.CacheDir = cache
	res, err = bisect.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.First != nil || !slices.Equal(res.Candidates, c.commits[6:8]) {
		t.Errorf("first %+v, candidates %v; want candidates %v", res.First, res.Candidates, c.commits[6:8])
	}
	// The builds are cached by commit: this bisection built only 6 and 7.
	if n := strings.Count(o.Log.(*bytes.Buffer).String(), ": building "); n != 2 {
		t.Errorf("%d builds, want 2:\n%s", n, o.Log)
	}
}

func TestBisect_NoRise(t *testing.T) {
	c := newChain(t, 1000, 1005, 1020)
	for _, tc := range []struct {
		good, bad int
		threshold float64
		want      string
	}{
		{0, 1, 0, "count-a at good " + "%s is 1,000 per op and at bad %s 1,005 per op (×1.0050, +0.50 %), not above the 1 % threshold"},
		{0, 2, 0.05, "not above the 5 % threshold"},
	} {
		o := c.options(t, tc.good, tc.bad)
		o.Threshold = tc.threshold
		_, err := bisect.Run(context.Background(), o)
		want := tc.want
		if strings.Contains(want, "%s") {
			want = strings.Replace(strings.Replace(want, "%s", c.commits[tc.good][:7], 1), "%s", c.commits[tc.bad][:7], 1)
		}
		if !errors.Is(err, bisect.ErrNoRise) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "not monotone") {
			t.Errorf("good %d, bad %d: %v\nwant %q", tc.good, tc.bad, err, want)
		}
	}
}

func TestBisect_Errors(t *testing.T) {
	c := newChain(t, 1000, 1020)
	for _, tc := range []struct {
		name string
		edit func(*bisect.Options)
		want string
	}{
		{"swapped", func(o *bisect.Options) { o.Good, o.Bad = o.Bad, o.Good }, "is an ancestor of good"},
		{"same", func(o *bisect.Options) { o.Bad = o.Good }, "nothing to bisect"},
		{"no workload", func(o *bisect.Options) { o.Workload = "" }, "name the workload"},
		{"backend", func(o *bisect.Options) { o.Backend = "time" }, `backend "time"`},
		{"revision", func(o *bisect.Options) { o.Good = "nope" }, `revision "nope" does not name a commit`},
		{"workload", func(o *bisect.Options) { o.Workload = "crash" }, "good " + c.commits[0] + " (" + c.commits[0][:7] + ") cannot be measured: measurement failed: exited with status 3: panic: boom"},
	} {
		o := c.options(t, 0, 1)
		tc.edit(&o)
		if _, err := bisect.Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v\nwant %q", tc.name, err, tc.want)
		}
	}
}
