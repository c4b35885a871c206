package main

import (
	"bytes"
	"context"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"workbench/pure/baseline/nginx"
)

func TestRun_RefusesBadNames(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"servers=gin"}, `unknown server "gin"; known: pure-serve, pure-serve-before, pure-serve-ram, pure-serve-sendfile, pure-serve-write, nethttp-memory`},
		{[]string{"servers=pure-serve-before"}, "pass before=REV to build it"},
		{[]string{"before="}, "before=: name a commit"},
		{[]string{"work=get-1000c"}, `unknown workload "get-1000c"; known: get-64c`},
		{[]string{"servers=nginx", "work=put-64c"}, "no server among [nginx] runs any workload among [put-64c]"},
		{[]string{"rounds=0"}, "rounds=0: want a whole number of at least 1"},
		{[]string{"duration=fast"}, "duration=fast: want a duration"},
		{[]string{"exp=http"}, "exp=http: want NNN-slug"},
		{[]string{"exp=probes/12-x"}, "or probes/NNNN-slug"},
		{[]string{"cpus=0"}, "cpus=0: want SERVER,LOAD"},
	} {
		err := run(context.Background(), tc.args, &bytes.Buffer{}, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("run %v: %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
	var stderr bytes.Buffer
	if err := run(context.Background(), []string{"round=3"}, &bytes.Buffer{}, &stderr); err != errUsage {
		t.Errorf("unknown key: %v, want errUsage", err)
	}
	if n := strings.Count(stderr.String(), `"round=3"`); n != 1 {
		t.Errorf("unknown key reported %d times, want once:\n%s", n, stderr.String())
	}
	stderr.Reset()
	if err := run(context.Background(), nil, &bytes.Buffer{}, &stderr); err != errUsage || !strings.Contains(stderr.String(), "say run") {
		t.Errorf("no arguments: %v, %q; want errUsage and the usage, no run", err, stderr.String())
	}
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"--help"}, &stdout, &bytes.Buffer{}); err != nil {
		t.Errorf("--help: %v", err)
	}
	for _, key := range []string{"rounds=", "duration=", "servers=", "work=", "exp=", "data=", "cpus="} {
		if !strings.Contains(stdout.String(), key) {
			t.Errorf("--help does not list %s", key)
		}
	}
}

func TestPlan_RotatesServersEachRound(t *testing.T) {
	ss, _ := pickServers("pure-serve,nethttp-memory,fasthttp-memory,nethttp-crashsafe,nginx", false)
	ws, _ := pickWorkloads("get-64c,put-64c")
	steps, err := plan(3, ss, ws)
	if err != nil {
		t.Fatal(err)
	}
	first := map[string][]string{} // workload -> first server of each round
	count := map[string]int{}
	for _, s := range steps {
		if s.Order == 1 {
			first[s.Work.Name] = append(first[s.Work.Name], s.Server.ID)
		}
		count[s.Work.Name+"/"+s.Server.ID]++
	}
	if want := []string{"pure-serve", "nethttp-memory", "fasthttp-memory"}; !slices.Equal(first["get-64c"], want) {
		t.Errorf("get-64c first servers by round %v, want %v", first["get-64c"], want)
	}
	if want := []string{"pure-serve", "nethttp-crashsafe", "pure-serve"}; !slices.Equal(first["put-64c"], want) {
		t.Errorf("put-64c first servers by round %v, want %v", first["put-64c"], want)
	}
	if count["put-64c/nginx"] != 0 || count["put-64c/nethttp-memory"] != 0 || count["get-64c/nethttp-crashsafe"] != 0 {
		t.Errorf("a server ran a workload it does not serve: %v", count)
	}
	if count["get-64c/nginx"] != 3 || count["put-64c/pure-serve"] != 3 {
		t.Errorf("runs per cell %v, want 3 each", count)
	}
}

// TestPlan_RAMBoundOnWrites: pure-serve-ram, asked for, runs the write
// workloads as the bound without a device; the memory baselines do not.
func TestPlan_RAMBoundOnWrites(t *testing.T) {
	ss, _ := pickServers("pure-serve,pure-serve-ram,nethttp-memory,nethttp-crashsafe", false)
	ws, _ := pickWorkloads("put-64c")
	steps, err := plan(1, ss, ws)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range steps {
		ids = append(ids, s.Server.ID)
	}
	if want := []string{"pure-serve", "pure-serve-ram", "nethttp-crashsafe"}; !slices.Equal(ids, want) {
		t.Errorf("put-64c runs on %v, want %v", ids, want)
	}
}

// TestPickServers_Before: before=REV adds pure-serve-before right after
// pure-serve, and only then; "all" leaves it out without before=.
func TestPickServers_Before(t *testing.T) {
	ids := func(ss []serverSpec) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.ID)
		}
		return out
	}
	ss, err := pickServers("nethttp-memory,pure-serve,fasthttp-memory", true)
	if want := []string{"nethttp-memory", "pure-serve", beforeID, "fasthttp-memory"}; err != nil || !slices.Equal(ids(ss), want) {
		t.Errorf("with before: %v %v, want %v", ids(ss), err, want)
	}
	ss, _ = pickServers("all", false)
	if slices.Contains(ids(ss), beforeID) {
		t.Errorf("all without before= holds %s: %v", beforeID, ids(ss))
	}
	ss, _ = pickServers("", true)
	if got := ids(ss); len(got) < 2 || got[0] != "pure-serve" || got[1] != beforeID {
		t.Errorf("defaults with before: %v", got)
	}
}

func TestNextExperiment(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"001-a", "026-load", "905-pairs", "judge"} {
		os.Mkdir(filepath.Join(dir, d), 0o755)
	}
	if got, _ := nextExperiment(dir, "http-servers"); got != "027-http-servers" {
		t.Errorf("nextExperiment = %s, want 027-http-servers", got)
	}
}

// TestSeries_Baselines runs the harness for real on two baselines for a
// second each: built binaries, pinned processes, records, note.
func TestSeries_Baselines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs servers; skipped with -short")
	}
	if _, err := exec.LookPath("taskset"); err != nil {
		t.Skipf("taskset is not installed (util-linux): %v", err)
	}
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatal(err)
	}
	list, want := "nethttp-memory,fasthttp-fdatasync", 2
	if _, err := os.Stat(nginx.Binary); err == nil {
		list, want = list+",nginx", 3
	} else {
		t.Logf("nginx left out: %v", err)
	}
	ss, _ := pickServers(list, false)
	ws, _ := pickWorkloads("get-64c,put-8c")
	var log bytes.Buffer
	o := &options{Rounds: 1, Duration: time.Second, Servers: ss, Works: ws, ExpDir: t.TempDir(),
		DataRoot: t.TempDir(), Repo: strings.TrimSpace(string(out)), ServerCPU: "0", LoadCPU: "1", Log: &log}
	if err := build(t.Context(), o, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	// Built static (no libc in its RSS): no program interpreter.
	for _, bin := range []string{o.bins.nethttp, o.bins.fasthttp} {
		ef, err := elf.Open(bin)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ef.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("%s has a program interpreter: built with cgo, want CGO_ENABLED=0", bin)
			}
		}
		ef.Close()
	}
	// One implementation per baseline binary: each refuses the other's.
	for impl, bin := range map[string]string{"fasthttp": o.bins.nethttp, "nethttp": o.bins.fasthttp} {
		out, err := exec.Command(bin, "--impl", impl, "--mode", "memory", "--addr", "127.0.0.1:0").CombinedOutput()
		if err == nil || !strings.Contains(string(out), "-tags no"+impl) {
			t.Errorf("%s --impl %s: %v, %s; want refused, naming -tags no%s", bin, impl, err, out, impl)
		}
	}
	ran, failed, err := series(t.Context(), o)
	if err != nil || ran != want || failed != 0 {
		t.Fatalf("series: %d ran, %d failed, %v\n%s", ran, failed, err, log.String())
	}
	f, _ := os.Open(filepath.Join(o.ExpDir, "runs.jsonl"))
	defer f.Close()
	recs, err := ReadRecords(f)
	if err != nil || len(recs) != want {
		t.Fatalf("records: %d, %v", len(recs), err)
	}
	for _, r := range recs {
		if r.SettleS != prepSettle.Seconds() {
			t.Errorf("%s %s: rested %gs after the preparation, want %v", r.ID, r.Workload, r.SettleS, prepSettle)
		}
		if r.Build != staticBuild {
			t.Errorf("%s %s: build %q, want %q", r.ID, r.Workload, r.Build, staticBuild)
		}
		if r.OK == 0 || r.ServerCPU <= 0 || r.OKPerServerCPU <= 0 || r.PeakRSSKiB <= 0 || r.P99us <= 0 {
			t.Errorf("%s %s: a measurement is missing: %+v", r.ID, r.Workload, r)
		}
		// Resident memory at rest, before the load, is at most the
		// load's peak (both reset at the same moment; nginx: its worker).
		if r.OtherCPU == nil || *r.OtherCPU < 0 {
			t.Errorf("%s %s: other CPU %v, want a figure >= 0", r.ID, r.Workload, r.OtherCPU)
		}
		if r.RestRSSKiB <= 0 || r.RestRSSKiB > r.PeakRSSKiB {
			t.Errorf("%s %s: RSS at rest %d KiB, peak %d KiB: want 0 < rest <= peak", r.ID, r.Workload, r.RestRSSKiB, r.PeakRSSKiB)
		}
		if (r.Workload == "put-8c") != (r.FsyncP50us > 0) {
			t.Errorf("%s %s: fsync probe %v us, want one on write workloads only", r.ID, r.Workload, r.FsyncP50us)
		}
	}
	if err := writeNote(o.ExpDir); err != nil {
		t.Fatal(err)
	}
	t.Logf("harness log:\n%s", log.String())
}
