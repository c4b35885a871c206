package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// TestPprof_Endpoints: the hand-written --pprof listener answers the index,
// a heap profile and a wall-clock (fgprof) profile that parse as pprof,
// and 404 for an unknown profile.
func TestPprof_Endpoints(t *testing.T) {
	var stderr bytes.Buffer
	stop, err := servePprof("127.0.0.1:0", &stderr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	base := strings.TrimSpace(strings.TrimPrefix(strings.Fields(stderr.String())[2], "http://"))
	base = "http://" + strings.TrimSuffix(base, "/debug/pprof/")
	get := func(path string) (int, []byte) {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, b
	}
	if code, b := get("/debug/pprof/"); code != 200 || !strings.Contains(string(b), "heap") {
		t.Fatalf("index: %d %q", code, b)
	}
	for _, path := range []string{"/debug/pprof/heap?gc=1", "/debug/fgprof?seconds=1"} {
		code, b := get(path)
		if code != 200 {
			t.Fatalf("%s: %d %q", path, code, b)
		}
		p, err := profile.Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: not a pprof profile: %v", path, err)
		}
		if len(p.Sample) == 0 {
			t.Fatalf("%s: no samples", path)
		}
	}
	if code, b := get("/debug/pprof/nosuch"); code != 404 || !strings.Contains(string(b), "nosuch") {
		t.Fatalf("unknown profile: %d %q", code, b)
	}
}

// TestWallToProfile: the hand-written encoder's profile parses with
// github.com/google/pprof/profile and holds what was sampled: two sample
// types, each stack's count and time, its functions with their files.
func TestWallToProfile(t *testing.T) {
	pcs := make([]uintptr, 16)
	n := runtime.Callers(1, pcs)
	var k strings.Builder
	for _, pc := range pcs[:n] {
		k.WriteString(strconv.FormatUint(uint64(pc), 16) + " ")
	}
	var b bytes.Buffer
	if err := wallToProfile(&b, map[string]int64{k.String(): 7, k.String() + "1 ": 0}, 100); err != nil {
		t.Fatal(err)
	}
	p, err := profile.Parse(&b)
	if err != nil {
		t.Fatalf("not a pprof profile: %v", err)
	}
	if got := fmt.Sprintf("%s %s %s %s %s %s %d", p.SampleType[0].Type, p.SampleType[0].Unit, p.SampleType[1].Type, p.SampleType[1].Unit, p.PeriodType.Type, p.PeriodType.Unit, p.Period); got != "samples count time nanoseconds wallclock nanoseconds 10000000" {
		t.Errorf("types and period: %s", got)
	}
	var found bool
	for _, s := range p.Sample {
		if s.Value[0] != 7 {
			continue
		}
		found = true
		if s.Value[1] != 7*p.Period {
			t.Errorf("time %d, want 7 periods", s.Value[1])
		}
		fn := s.Location[0].Line[0].Function
		if !strings.HasSuffix(fn.Name, "TestWallToProfile") || !strings.HasSuffix(fn.Filename, "pprof_test.go") || s.Location[0].Line[0].Line == 0 {
			t.Errorf("leaf frame %s %s:%d, want this test's", fn.Name, fn.Filename, s.Location[0].Line[0].Line)
		}
	}
	if !found || len(p.Sample) != 2 {
		t.Errorf("%d samples, the counted one found: %v", len(p.Sample), found)
	}
	if err := p.CheckValid(); err != nil {
		t.Error(err)
	}
}
