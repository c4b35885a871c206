package pairs_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"workbench/experiments/lab/bisect"
	"workbench/experiments/lab/build"
	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/judge"
	"workbench/experiments/lab/pairs"
)

// The regression TestInjectedRegression plants: checkSorted walks each
// slice after it is sorted, about 3 % more instructions in sort-ints-10k.
const (
	injectedFunc = "workbench/perfcount/workload.checkSorted"
	workloadFile = "perfcount/workload/builtin.go"
	sortCall     = "\t\t\tslices.Sort(c)\n"
	checkSorted  = `
// checkSorted walks s after each sort and panics if it is out of order: the
// regression that the injected-regression test of experiments/pairs plants.
//
//go:noinline
func checkSorted(s []int) {
	for i := 1; i < len(s); i++ {
		if s[i] < s[i-1] {
			panic("workload: slice not sorted")
		}
	}
}
`
)

// regressionSuite is the suite of TestInjectedRegression: the workload the
// regression slows and one it leaves alone, under callgrind only, few ops.
const regressionSuite = `pairs 3
timeout 2m
workload sort-ints-10k    backend=callgrind ops=3
workload itoa-strconv-10k backend=callgrind ops=3
`

// TestInjectedRegression is the acceptance test of `just pairs` and `just
// bisect` on a real regression. It copies this module's source into a
// scratch repository, commits it ("base"), plants a regression in the hot
// path of sort-ints-10k ("slow down sort") and adds a harmless commit after
// it. Then:
//
//   - pairs on base..regression, judged by judge.Judge, must call
//     sort-ints-10k worse and itoa-strconv-10k the same, and the diff of the
//     two sides' profiles must put the planted function first among the
//     functions whose instructions rose;
//   - bisect from base to the scratch HEAD must name "slow down sort".
//
// It needs valgrind (CALLGRIND_OPTIONAL=1 skips it where valgrind is
// missing) and takes about a minute; -short skips it. `just
// check-regression runs=N` repeats it.
func TestInjectedRegression(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pure-count at three commits and runs callgrind: skipped in -short mode")
	}
	if _, err := exec.LookPath("valgrind"); err != nil {
		if os.Getenv("CALLGRIND_OPTIONAL") == "1" {
			t.Skip("valgrind is not installed: skipped because CALLGRIND_OPTIONAL=1")
		}
		t.Fatal("valgrind is not installed (apt-get install valgrind): this test counts instructions under callgrind; " +
			"set CALLGRIND_OPTIONAL=1 to skip it where valgrind cannot be installed")
	}
	ctx := context.Background()
	start := time.Now()
	src, err := build.RepoRoot(ctx, ".")
	if err != nil {
		t.Fatal(err)
	}
	s := newScratch(t, src)
	t.Logf("scratch repository of %d files: base %.7s, regression %.7s, harmless %.7s (%v)",
		s.files, s.base, s.regress, s.head, time.Since(start).Round(time.Millisecond))

	work := t.TempDir()
	su := filepath.Join(work, "regression.suite")
	writeFile(t, su, regressionSuite)
	expDir := filepath.Join(work, "experiments")
	cache := filepath.Join(work, "cache")
	var log bytes.Buffer

	// (a) pairs on base..regression, then the judge.
	writeFile(t, filepath.Join(expDir, "001-regression", expdir.CriteriaFile),
		"instructions.max_higher = 1%\nmin_clean_pairs = 3\n")
	phase := time.Now()
	res, err := pairs.Run(ctx, pairs.Options{
		Options:    build.Options{Repo: s.dir, Suite: su, ExperimentsDir: expDir, CacheDir: cache},
		Before:     "base",
		After:      "regression",
		Experiment: "001-regression",
		Log:        &log,
		Progress:   io.Discard,
	})
	if err != nil {
		t.Fatalf("pairs: %v\nlog:\n%s", err, log.String())
	}
	t.Logf("pairs: %d runs, %d failed (%v)", res.Ran, res.Failed, time.Since(phase).Round(time.Millisecond))
	if res.Failed > 0 {
		t.Fatalf("%d runs failed; see %s\nlog:\n%s", res.Failed, res.RunsPath, log.String())
	}
	runs, err := expdir.ReadRecords(res.RunsPath)
	if err != nil {
		t.Fatal(err)
	}
	critText, err := os.ReadFile(filepath.Join(res.Dir, expdir.CriteriaFile))
	if err != nil {
		t.Fatal(err)
	}
	crit, err := judge.ParseCriteria(bytes.NewReader(critText), expdir.CriteriaFile)
	if err != nil {
		t.Fatal(err)
	}
	calib, err := expdir.ReadCalibration(expdir.Dir(res.Dir))
	if err != nil {
		t.Fatal(err)
	}
	rep := judge.Judge(runs, crit, calib, judge.Options{})
	want := map[string]judge.Verdict{"sort-ints-10k": judge.Worse, "itoa-strconv-10k": judge.Same}
	for _, w := range rep.Workloads {
		t.Logf("judge: %s %s: %s", w.Workload, w.Verdict, w.Reason)
		if v, ok := want[w.Workload]; !ok || w.Verdict != v {
			t.Errorf("%s: verdict %s, want %s", w.Workload, w.Verdict, v)
		}
		delete(want, w.Workload)
	}
	for w := range want {
		t.Errorf("the judge has no verdict on %s", w)
	}

	// The profiles: the planted function tops the rises.
	diff := profileDiff(t, filepath.Join(res.Dir, expdir.ProfilesDir, "sort-ints-10k.before.pb.gz"),
		filepath.Join(res.Dir, expdir.ProfilesDir, "sort-ints-10k.after.pb.gz"))
	for _, d := range diff[:min(3, len(diff))] {
		t.Logf("profile: %+d instructions in %s", d.delta, d.name)
	}
	if len(diff) == 0 || diff[0].name != injectedFunc || diff[0].delta <= 0 {
		t.Errorf("the profile diff does not put %s at the top of the rises: %v", injectedFunc, diff[:min(5, len(diff))])
	}

	// (b) bisect from base to the scratch HEAD.
	phase = time.Now()
	log.Reset()
	b, err := bisect.Run(ctx, bisect.Options{
		Options:  build.Options{Repo: s.dir, Suite: su, ExperimentsDir: expDir, CacheDir: cache},
		Good:     "base",
		Bad:      "HEAD",
		Workload: "sort-ints-10k",
		Log:      &log,
	})
	if err != nil {
		t.Fatalf("bisect: %v\nlog:\n%s", err, log.String())
	}
	for _, st := range b.Steps {
		t.Logf("bisect: %-9s %.7s %.0f/op ×%.4f %s", st.Role, st.Commit, st.Count, st.Ratio, st.Subject)
	}
	t.Logf("bisect: %s, threshold %.3g %% (%v)", b.Backend, 100*b.Threshold, time.Since(phase).Round(time.Millisecond))
	if b.First == nil || b.First.Commit != s.regress || b.First.Subject != "slow down sort" {
		t.Errorf("bisect found %+v, want %s (slow down sort)\nlog:\n%s", b.First, s.regress, log.String())
	}
	t.Logf("total %v", time.Since(start).Round(time.Millisecond))
}

// scratch is the repository TestInjectedRegression works in.
type scratch struct {
	dir                 string
	base, regress, head string
	files               int
}

// newScratch copies the files git tracks in the checkout src, as they are
// in its working tree, into a new repository and makes three commits: base
// (tag "base"), the regression (tag "regression"), and a harmless one.
func newScratch(t *testing.T, src string) *scratch {
	t.Helper()
	s := &scratch{dir: t.TempDir()}
	out, err := exec.Command("git", "-C", src, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files in %s: %v", src, err)
	}
	for _, p := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if copyTracked(t, filepath.Join(src, p), filepath.Join(s.dir, p)) {
			s.files++
		}
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", s.dir, "-c", "user.name=regressiontest",
			"-c", "user.email=regressiontest@example.invalid", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("tag", "base")
	s.base = git("rev-parse", "HEAD")

	path := filepath.Join(s.dir, workloadFile)
	code, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(code, []byte(sortCall)) != 1 {
		t.Fatalf("%s no longer has one line %q in sort-ints-10k's loop: update the regression this test plants", workloadFile, strings.TrimSpace(sortCall))
	}
	code = bytes.Replace(code, []byte(sortCall), []byte(sortCall+"\t\t\tcheckSorted(c)\n"), 1)
	writeFile(t, path, string(code)+checkSorted)
	git("commit", "-q", "-am", "slow down sort")
	git("tag", "regression")
	s.regress = git("rev-parse", "HEAD")

	writeFile(t, filepath.Join(s.dir, "HARMLESS"), "A commit that changes nothing the workloads run.\n")
	git("add", "HARMLESS")
	git("commit", "-q", "-m", "add a harmless file")
	s.head = git("rev-parse", "HEAD")
	return s
}

// copyTracked copies one tracked file, keeping symbolic links as links and
// the executable bit; a tracked file deleted from the working tree is left
// out. It reports whether it copied.
func copyTracked(t *testing.T, from, to string) bool {
	t.Helper()
	fi, err := os.Lstat(from)
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(from)
		if err == nil {
			err = os.Symlink(target, to)
		}
		if err != nil {
			t.Fatal(err)
		}
		return true
	}
	if !fi.Mode().IsRegular() {
		return false // a submodule, say
	}
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, fi.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
	return true
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// funcDelta is how much a function's flat instructions changed.
type funcDelta struct {
	name  string
	delta int64
}

func (d funcDelta) String() string { return fmt.Sprintf("%s %+d", d.name, d.delta) }

// profileDiff returns the change of each function's flat instructions (the
// instructions executed in the function itself, inlined callees counted
// where they were inlined into) from the before profile to the after one,
// largest rise first.
func profileDiff(t *testing.T, before, after string) []funcDelta {
	t.Helper()
	flat := map[string]int64{}
	for sign, path := range map[int64]string{-1: before, 1: after} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatalf("profile: %v", err)
		}
		p, err := profile.Parse(f)
		f.Close()
		if err != nil {
			t.Fatalf("profile %s: %v", path, err)
		}
		idx := slices.IndexFunc(p.SampleType, func(v *profile.ValueType) bool { return v.Type == "instructions" })
		if idx < 0 {
			t.Fatalf("profile %s has no instructions sample type", path)
		}
		for _, s := range p.Sample {
			name := "?"
			if len(s.Location) > 0 {
				loc := s.Location[0]
				name = fmt.Sprintf("%#x", loc.Address)
				if len(loc.Line) > 0 && loc.Line[0].Function != nil {
					// Line[0] is the innermost frame at that address.
					name = loc.Line[0].Function.Name
				}
			}
			flat[name] += sign * s.Value[idx]
		}
	}
	var diff []funcDelta
	for name, d := range flat {
		if d != 0 {
			diff = append(diff, funcDelta{name, d})
		}
	}
	slices.SortFunc(diff, func(a, b funcDelta) int { return cmp.Or(cmp.Compare(b.delta, a.delta), cmp.Compare(a.name, b.name)) })
	return diff
}
