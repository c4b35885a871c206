package gobench_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/gobench"
	"workbench/experiments/lab/suite"
)

func TestParse(t *testing.T) {
	out := `goos: linux
goarch: amd64
pkg: example.com/x
BenchmarkSum         	    1000	       526.2 ns/op	      16 B/op	       1 allocs/op
BenchmarkOther/small 	    2000	        65.32 ns/op
--- FAIL: BenchmarkBroken
    x_test.go:9: dial tcp: network is unreachable
PASS
`
	res, err := gobench.Parse([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 {
		t.Fatalf("%d results, want 2: %+v", len(res), res)
	}
	r := res[0]
	if r.Name != "BenchmarkSum" || r.N != 1000 || r.NsPerOp < 526.19 || r.NsPerOp > 526.21 || r.BytesPerOp == nil || *r.BytesPerOp != 16 || *r.AllocsPerOp != 1 {
		t.Errorf("first result %+v", r)
	}
	if r := res[1]; r.Name != "BenchmarkOther/small" || r.BytesPerOp != nil || r.AllocsPerOp != nil {
		t.Errorf("second result %+v", r)
	}
}

func TestBenchRegexp(t *testing.T) {
	for in, want := range map[string]string{
		"BenchmarkSum":              "^BenchmarkSum$",
		"BenchmarkOther/n=1":        "^BenchmarkOther$/^n=1$",
		"BenchmarkSimple/Long_lead": "^BenchmarkSimple$/^Long_lead$",
		"BenchmarkX/a.b(c)":         `^BenchmarkX$/^a\.b\(c\)$`,
	} {
		if got := suite.BenchRegexp(in); got != want {
			t.Errorf("BenchRegexp(%q) = %q, want %q", in, got, want)
		}
	}
	if got := expdir.FileName("Other/n=1"); strings.Contains(got, "/") {
		t.Errorf("FileName keeps a slash: %q", got)
	}
	if got := expdir.FileName("sort-ints-10k"); got != "sort-ints-10k" {
		t.Errorf("FileName changed a project workload's name: %q", got)
	}
}

// A package whose test binary does not build is recorded with go's
// output and the other packages go on; a benchmark only the after side
// has is listed, not judged; a sub-benchmark is a workload of its own.
func TestPlan_RecordsWhatIsNotJudged(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/plan\n\ngo 1.22\n")
	write("a_test.go", "package plan\n\nimport \"testing\"\n\nvar sink int\n\nfunc BenchmarkA(b *testing.B) {\n\tb.Run(\"one\", func(b *testing.B) {\n\t\tfor i := range b.N {\n\t\t\tsink += i\n\t\t}\n\t})\n}\n")
	write("broken/broken_test.go", "package broken\n\nimport \"testing\"\n\nfunc BenchmarkB(b *testing.B) { undefined() }\n")
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "one")
	write("new_test.go", "package plan\n\nimport \"testing\"\n\nfunc BenchmarkNew(b *testing.B) {\n\tfor i := range b.N {\n\t\tsink += i\n\t}\n}\n")
	git("add", ".")
	git("commit", "-qm", "two")

	ctx := context.Background()
	b, err := gobench.NewBuilder(gobench.Subject{Repo: dir}, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var sides [2]*gobench.Side
	for i, rev := range []string{"HEAD~1", "HEAD"} {
		commit, err := b.Resolve(ctx, rev)
		if err != nil {
			t.Fatal(err)
		}
		if sides[i], err = b.Build(ctx, []string{"before", "after"}[i], rev, commit); err != nil {
			t.Fatal(err)
		}
	}
	if s := sides[0]; len(s.Packages) != 1 || len(s.Failed) != 1 || s.Failed[0].ImportPath != "example.com/plan/broken" || !strings.Contains(s.Failed[0].Tail, "undefined") {
		t.Fatalf("before side: packages %+v, failed %+v", s.Packages, s.Failed)
	}
	var log []string
	su, meta, err := gobench.Plan{Probe: 5 * time.Millisecond}.Suite(ctx, b.Subject, sides, func(f string, a ...any) { log = append(log, f) })
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, w := range su.Workloads {
		names = append(names, w.Name)
		if len(w.Measures) != 2 || w.Measures[0].GoBench.N < 1 || w.Measures[1].GoBench.Iters[0] < 1 || w.Measures[1].GoBench.Iters[1] != 2*w.Measures[1].GoBench.Iters[0] {
			t.Errorf("workload %s: measures %+v", w.Name, w.Measures)
		}
	}
	if !slices.Equal(names, []string{"A/one"}) {
		t.Errorf("workloads %q, want [A/one]", names)
	}
	if !slices.Equal(meta.OnlyAfter, []string{"example.com/plan BenchmarkNew"}) || len(meta.OnlyBefore) != 0 {
		t.Errorf("only before %q, only after %q", meta.OnlyBefore, meta.OnlyAfter)
	}
	if len(meta.Failed) != 2 || meta.Failed[0].Package != "example.com/plan/broken" {
		t.Errorf("failed %+v, want the broken package on both sides", meta.Failed)
	}
}

// A package that needs cgo, built where there is no C compiler, is
// recorded with a message saying so, and the others build.
func TestBuild_CgoWithoutCompiler(t *testing.T) {
	t.Setenv("CGO_ENABLED", "1")
	t.Setenv("CC", "/nonexistent-cc")
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":       "module example.com/cgox\n\ngo 1.22\n",
		"pure_test.go": "package cgox\n\nimport \"testing\"\n\nfunc BenchmarkPure(b *testing.B) {}\n",
		"c/c.go":       "package c\n\n// int two(void) { return 2; }\nimport \"C\"\n\nfunc Two() int { return int(C.two()) }\n",
		"c/c_test.go":  "package c\n\nimport \"testing\"\n\nfunc BenchmarkTwo(b *testing.B) { for range b.N { Two() } }\n",
	}
	for name, text := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "one"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	ctx := context.Background()
	b, err := gobench.NewBuilder(gobench.Subject{Repo: dir}, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	commit, err := b.Resolve(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	s, err := b.Build(ctx, "before", "HEAD", commit)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Packages) != 1 || s.Packages[0].ImportPath != "example.com/cgox" {
		t.Errorf("built %+v, want only example.com/cgox", s.Packages)
	}
	if len(s.Failed) != 1 || !strings.Contains(s.Failed[0].Error, "needs cgo and no C compiler") || !strings.Contains(s.Failed[0].Tail, "nonexistent-cc") {
		t.Errorf("failed %+v, want example.com/cgox/c with the cgo hint", s.Failed)
	}
}
