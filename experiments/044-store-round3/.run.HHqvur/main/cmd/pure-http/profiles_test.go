package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

func TestPublications(t *testing.T) {
	for _, c := range []struct {
		stderr string
		want   int64
	}{
		{"pure-serve: store: 1234 publications (one per synced group of commits), seq 9, 64 keys, 100 bytes\n", 1234},
		{"warning\npure-serve: store: 5 publications, ...\npure-serve: store: 7 publications (x)\n", 7},
		{"nethttp: bye\n", 0},
		{"", 0},
	} {
		if got := publications(c.stderr); got != c.want {
			t.Errorf("publications(%q) = %d, want %d", c.stderr, got, c.want)
		}
	}
}

// writeProfile writes a CPU profile whose samples have the given flat
// nanoseconds per function.
func writeProfile(t *testing.T, path string, flat map[string]int64) {
	t.Helper()
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 1e7,
	}
	id := uint64(1)
	for name, ns := range flat {
		fn := &profile.Function{ID: id, Name: name}
		loc := &profile.Location{ID: id, Line: []profile.Line{{Function: fn}}}
		p.Function, p.Location = append(p.Function, fn), append(p.Location, loc)
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{ns / 1e7, ns}})
		id++
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
}

// TestRenderProfiles: two rounds' profiles are summed per function and the
// largest listed first with their share; a missing profile is named, not
// fatal.
func TestRenderProfiles(t *testing.T) {
	dir := t.TempDir()
	writeProfile(t, filepath.Join(dir, "profiles", "r1.pprof"), map[string]int64{
		"internal/runtime/syscall/linux.Syscall6": 6e8, "workbench/pure/serve.(*conn).doc": 1e8})
	writeProfile(t, filepath.Join(dir, "profiles", "r2.pprof"), map[string]int64{
		"internal/runtime/syscall/linux.Syscall6": 2e8, "workbench/pure/serve.(*conn).doc": 1e8})
	recs := []Record{
		{Workload: "get-64c", ID: subject, Round: 1, Profile: "profiles/r1.pprof"},
		{Workload: "get-64c", ID: subject, Round: 2, Profile: "profiles/r2.pprof"},
		{Workload: "big-8c", ID: subject, Round: 1, Profile: "profiles/gone.pprof"},
		{Workload: "get-64c", ID: "nethttp-memory", Round: 1},
	}
	var b strings.Builder
	renderProfiles(&b, dir, recs)
	out := b.String()
	for strings.Contains(out, "  ") { // the table's padding
		out = strings.ReplaceAll(out, "  ", " ")
	}
	if !strings.Contains(out, "| 1.00 | linux.Syscall6 80 %, serve.(*conn).doc 20 %") {
		t.Errorf("get-64c row: want the two rounds summed (0.8 s and 0.2 s of 1.0 s), largest first:\n%s", out)
	}
	if !strings.Contains(out, "(profiles/gone.pprof: no such file or directory)") {
		t.Errorf("a missing profile is not named:\n%s", out)
	}
	if strings.Contains(out, "nethttp-memory") {
		t.Errorf("an unprofiled server is listed:\n%s", out)
	}
	var none strings.Builder
	renderProfiles(&none, dir, recs[3:])
	if none.Len() != 0 {
		t.Errorf("no profiles, yet a section:\n%s", none.String())
	}
}
