package suite

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestLoadSuite_DefaultRenamed: the old name says where the suite went.
func TestLoadSuite_DefaultRenamed(t *testing.T) {
	_, err := LoadSuite(filepath.Join("..", "..", "suites"), "default")
	if err == nil || !strings.Contains(err.Error(), "now named micro") || !strings.Contains(err.Error(), "default suite is apps") {
		t.Fatalf("LoadSuite(default) = %v, want an error naming micro and apps", err)
	}
}

func TestLoadSuite_Micro(t *testing.T) {
	s, err := LoadSuite(filepath.Join("..", "..", "suites"), "micro")
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "micro" || s.Pairs != 6 || len(s.Workloads) == 0 {
		t.Fatalf("suite %q: pairs %d, %d workloads", s.Name, s.Pairs, len(s.Workloads))
	}
	// Every workload is measured once for time and once for instructions.
	for _, w := range s.Workloads {
		var b []string
		for _, m := range w.Measures {
			b = append(b, m.Backend)
		}
		if !slices.Equal(b, []string{BackendPerf, BackendCallgrind}) {
			t.Errorf("workload %s is measured under %v, want perf then callgrind", w.Name, b)
		}
	}
	if got := s.Tools(); !slices.Equal(got, []string{"pure-count"}) {
		t.Errorf("Tools() = %v", got)
	}
}

func TestParseSuite(t *testing.T) {
	const text = `# comment
pairs 4   # trailing comment
timeout 90s
max-pairs 26
max-time 14m

workload sort-ints-10k backend=perf events=task-clock ops=2000 regions=30 max-repeat=9
workload sort-ints-10k backend=callgrind ops=20 repeat=3
workload other backend=perf tool=pure-other timeout=2m
`
	s, err := ParseSuite("x/mine.suite", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "mine" || s.Pairs != 4 || s.Timeout != 90*time.Second || s.MaxTime != 14*time.Minute || s.MaxPairs != 26 || s.Text != text {
		t.Errorf("got name %q pairs %d timeout %v max-time %v max-pairs %d", s.Name, s.Pairs, s.Timeout, s.MaxTime, s.MaxPairs)
	}
	if len(s.Workloads) != 2 || s.Workloads[0].Name != "sort-ints-10k" || s.Workloads[0].Line != 7 ||
		s.Workloads[1].Name != "other" || s.Workloads[1].Line != 9 {
		t.Fatalf("workloads %+v", s.Workloads)
	}
	want := []Measure{
		{Backend: "perf", Tool: "pure-count", Ops: 2000, Repeat: 1, Regions: 30, MaxRepeat: 9, Events: []string{"task-clock"}, Line: 7},
		{Backend: "callgrind", Tool: "pure-count", Ops: 20, Repeat: 3, Regions: 1, Line: 8},
		{Backend: "perf", Tool: "pure-other", Repeat: 1, Regions: 1, Timeout: 2 * time.Minute, Line: 9},
	}
	got := append(s.Workloads[0].Measures, s.Workloads[1].Measures...)
	if len(got) != len(want) {
		t.Fatalf("got %d measures, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Backend != w.Backend || g.Tool != w.Tool || g.Ops != w.Ops ||
			g.Repeat != w.Repeat || g.Regions != w.Regions || g.MaxRepeat != w.MaxRepeat || !slices.Equal(g.Events, w.Events) || g.Timeout != w.Timeout || g.Line != w.Line {
			t.Errorf("measure %d = %+v, want %+v", i, g, w)
		}
	}
	if got := s.Tools(); !slices.Equal(got, []string{"pure-count", "pure-other"}) {
		t.Errorf("Tools() = %v", got)
	}
	if got, want := strings.Join(want[0].Args("sort-ints-10k"), " "), "run --backend perf -e task-clock -n 2000 --regions 30 -r 1 --json sort-ints-10k"; got != want {
		t.Errorf("Args() = %q, want %q", got, want)
	}
	if got, want := strings.Join(want[2].Args("other"), " "), "run --backend perf -r 1 --json other"; got != want {
		t.Errorf("Args() = %q, want %q", got, want)
	}
}

func TestParseSuite_Errors(t *testing.T) {
	const text = `pairs 6
pairs 7
timeout soon
workload
workload Bad_Name backend=perf
workload a backend=gpu
workload b ops=5
workload c backend=perf ops=0
workload d backend=perf colour=red
workload e backend=perf ops
workload f backend=perf
workload f backend=perf ops=3
frobnicate 3
workload g backend=perf events=a,,b
workload h backend=perf timeout=-1s
workload i backend=callgrind regions=5
workload j backend=perf regions=0
workload k backend=perf repeat=4 max-repeat=3
max-time 0s
max-time 10m
max-time 20m
max-pairs 0
max-pairs 30
max-pairs 32
`
	_, err := ParseSuite("bad.suite", strings.NewReader(text))
	if err == nil {
		t.Fatal("no error")
	}
	wantLines := []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24}
	var got []int
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var pe *ParseError
		if !errors.As(e, &pe) {
			t.Fatalf("%v is not a *ParseError", e)
		}
		if pe.File != "bad.suite" {
			t.Errorf("file %q", pe.File)
		}
		got = append(got, pe.Line)
	}
	if !slices.Equal(got, wantLines) {
		t.Errorf("errors at lines %v, want %v\n%v", got, wantLines, err)
	}
	for _, want := range []string{
		"bad.suite:2: pairs repeated (first at line 1)",
		"bad.suite:6: backend=gpu: want perf or callgrind",
		"bad.suite:7: workload b: backend=perf or backend=callgrind is required",
		"bad.suite:9: unknown key \"colour\"",
		"bad.suite:12: workload f with backend=perf repeats line 11",
		"bad.suite:13: unknown directive \"frobnicate\"",
		"bad.suite:16: regions=5: several regions per process are for timing (backend=perf)",
		"bad.suite:17: regions=0: want a whole number of at least 1",
		"bad.suite:18: max-repeat=3: for backend=perf only, and at least repeat (4)",
		"bad.suite:19: max-time \"0s\": want a positive duration such as 14m or 1h",
		"bad.suite:21: max-time repeated (first at line 19)",
		"bad.suite:22: max-pairs \"0\": want a whole number of at least 1",
		"bad.suite:24: max-pairs repeated (first at line 22)",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

func TestParseSuite_Empty(t *testing.T) {
	_, err := ParseSuite("empty.suite", strings.NewReader("# nothing\npairs 2\n"))
	if err == nil || !strings.Contains(err.Error(), "empty.suite: no workload lines") {
		t.Fatalf("got %v", err)
	}
}

func TestLoadSuite_Missing(t *testing.T) {
	_, err := LoadSuite(t.TempDir(), "nope")
	if err == nil || !strings.Contains(err.Error(), `suite "nope"`) {
		t.Fatalf("got %v", err)
	}
}

// TestLoadSuite_Committed parses every suite committed in
// experiments/suites, and checks the apps suite as the default one: each
// workload measured for time, then for instructions.
func TestLoadSuite_Committed(t *testing.T) {
	dir := filepath.Join("..", "..", "suites")
	files, err := filepath.Glob(filepath.Join(dir, "*.suite"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no suites in %s (%v)", dir, err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".suite")
		s, err := LoadSuite(dir, name)
		if err != nil {
			t.Errorf("suite %s: %v", name, err)
			continue
		}
		if name != "apps" {
			continue
		}
		for _, w := range s.Workloads {
			var b []string
			for _, m := range w.Measures {
				b = append(b, m.Backend)
			}
			if !slices.Equal(b, []string{BackendPerf, BackendCallgrind}) {
				t.Errorf("apps workload %s is measured under %v, want perf then callgrind", w.Name, b)
			}
		}
	}
}
