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
		{[]string{"load-via=ssh h", "cpus=0,1"}, "pinned there by load-via itself"},
		{[]string{"load-via="}, "load-via=: name a command prefix"},
		{[]string{"load-bin="}, "load-bin=: name pure-load's path"},
		{[]string{"listen=localhost"}, "listen=localhost: want an IP address"},
		// TEST-NET-1 (RFC 5737): no host has it.
		{[]string{"listen=192.0.2.1"}, "listen=192.0.2.1: cannot listen there"},
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
	for _, key := range []string{"rounds=", "duration=", "servers=", "work=", "exp=", "data=", "cpus=", "listen=", "load-via=", "load-bin="} {
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

// TestSeries_LoadVia runs pure-serve for a second with the load through a
// command prefix, as on a load host (load-via=, here a script that logs
// its command line and runs it), the server listening on 127.0.0.2: the
// record and the note say where the load ran, and the machine's other CPU
// is not reduced by a client CPU that was not this machine's.
func TestSeries_LoadVia(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a server; skipped with -short")
	}
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	logged := filepath.Join(dir, "via.log")
	via := filepath.Join(dir, "via")
	if err := os.WriteFile(via, []byte("#!/bin/sh\necho \"$@\" >> "+logged+"\nexec \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	o, err := parseOptions([]string{"servers=pure-serve", "work=get-64c", "rounds=1", "duration=1s", "cpus=0",
		"listen=127.0.0.2", "load-via=" + via, "exp=probes/9999-load-via"}, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if o.ServerCPU != "0" || o.LoadCPU != "" || o.Listen != "127.0.0.2" {
		t.Fatalf("options: server CPU %q, load CPU %q, listen %q; want 0, none (pinned by load-via), 127.0.0.2", o.ServerCPU, o.LoadCPU, o.Listen)
	}
	// 127.0.0.2 is a loopback address: fine for this local prefix, but
	// the warning is right for a real load host.
	if !strings.Contains(stderr.String(), "with listen=127.0.0.2: a load on another host cannot reach a loopback address") {
		t.Errorf("stderr %q: want the loopback warning", stderr.String())
	}
	var log bytes.Buffer
	o.ExpDir, o.DataRoot, o.Repo, o.Log = t.TempDir(), t.TempDir(), strings.TrimSpace(string(out)), &log
	if err := build(t.Context(), o, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	ran, failed, err := series(t.Context(), o)
	if err != nil || ran != 1 || failed != 0 {
		t.Fatalf("series: %d ran, %d failed, %v\n%s", ran, failed, err, log.String())
	}
	f, _ := os.Open(filepath.Join(o.ExpDir, "runs.jsonl"))
	defer f.Close()
	recs, err := ReadRecords(f)
	if err != nil || len(recs) != 1 {
		t.Fatalf("records: %d, %v", len(recs), err)
	}
	r := recs[0]
	if r.LoadVia != via || r.Listen != "127.0.0.2" || r.CPULoad != "" || r.OK == 0 || r.OtherCPU == nil {
		t.Errorf("record: load_via %q, listen %q, cpu_load %q, ok %d, other CPU %v; want %q, 127.0.0.2, none, answers, a figure", r.LoadVia, r.Listen, r.CPULoad, r.OK, r.OtherCPU, via)
	}
	b, err := os.ReadFile(logged)
	if err != nil {
		t.Fatalf("the load did not run through load-via: %v", err)
	}
	// The seed and the load, each as env GOMAXPROCS=1 pure-load --json ... URL.
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		t.Fatalf("load-via ran %d commands, want the seed and the load:\n%s", len(lines), b)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "env GOMAXPROCS=1 "+o.bins.load+" --json ") || !strings.Contains(l, " http://127.0.0.2:") {
			t.Errorf("load-via ran %q: want env GOMAXPROCS=1 %s --json ... http://127.0.0.2:PORT", l, o.bins.load)
		}
	}
	if err := writeNote(o.ExpDir); err != nil {
		t.Fatal(err)
	}
	note, _ := os.ReadFile(filepath.Join(o.ExpDir, "note.md"))
	for _, want := range []string{"listening on 127.0.0.2; pure-load on another host through `" + via + "`", "beyond the server's own (pure-load ran on another host)"} {
		if !strings.Contains(string(note), want) {
			t.Errorf("note does not say %q", want)
		}
	}
}

// A load host cannot reach a loopback address: load-via with the default
// listen= warns.
func TestParseOptions_LoadViaLoopbackWarns(t *testing.T) {
	var stderr bytes.Buffer
	if _, err := parseOptions([]string{"load-via=ssh bench@10.0.0.2", "exp=probes/9999-load-via"}, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "cannot reach a loopback address") {
		t.Errorf("stderr %q: want a warning that the load host cannot reach 127.0.0.1", stderr.String())
	}
}
