package note

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/google/pprof/profile"
	"workbench/experiments/lab/expdir"
	"workbench/perfcount"
)

// This file generates the inputs of the golden cases in testdata/:
// deterministic runs, meta.json, criteria and calibration files, and the
// pprof profiles (which are not committed: genProfiles writes them into the
// test's copy of a case).

// Commits of the generated experiments.
const (
	commitBefore = "1111111111111111111111111111111111111111"
	commitAfter  = "2222222222222222222222222222222222222222"
)

// genStart is when every generated experiment started.
var genStart = time.Date(2026, 12, 2, 9, 38, 7, 0, time.UTC)

// x86VM is a 2-core x86 VM like the ones the workbench runs on.
var x86VM = perfcount.Machine{
	Kernel: "6.8.0-49-generic", CPUModel: "Intel(R) Xeon(R) CPU @ 2.20GHz", NumCPU: 2,
	PMUs: []string{"breakpoint", "cpu", "kprobe", "software", "tracepoint", "uprobe"}, Paranoid: 2,
	GOARCH: "amd64", GOOS: "linux",
}

// pi5 is a Raspberry Pi 5.
var pi5 = perfcount.Machine{
	Kernel: "6.6.51+rpt-rpi-2712", CPUModel: "Cortex-A76", NumCPU: 4,
	PMUs: []string{"armv8_cortex_a76", "breakpoint", "software", "tracepoint"}, Paranoid: -99,
	GOARCH: "arm64", GOOS: "linux",
}

// jitter are small deterministic relative deviations, one per pair and side.
var jitter = [][2]float64{
	{+0.0021, -0.0013}, {-0.0017, +0.0024}, {+0.0008, -0.0031}, {-0.0026, +0.0011}, {+0.0015, +0.0004}, {-0.0004, -0.0019},
}

// wl describes one workload of a generated experiment.
type wl struct {
	name       string
	throughput float64 // ops/s before
	timeChange float64 // relative change of throughput after
	timeNoise  float64 // scale of jitter on throughput
	event      string  // count event; "" for none
	source     perfcount.Source
	count      float64 // per op before
	countDelta float64 // relative change after
	countNoise float64 // scale of jitter on counts
	latency    bool    // p50, p99 and peak RSS too
	// disturb makes the after run of pair disturb[0] lose CPU and
	// throughput by the fraction disturb[1].
	disturb [2]float64
	// crash makes the after run of pair crash exit with status 2.
	crash int
	// timeout makes the before run of pair timeout time out.
	timeout int
}

// genRuns returns the runs of an experiment of pairs ABBA pairs.
func genRuns(exp string, pairs int, m perfcount.Machine, wls []wl, revBefore, revAfter string) []expdir.Run {
	var runs []expdir.Run
	const ops = 10000
	t := genStart
	for p := 1; p <= pairs; p++ {
		for _, w := range wls {
			order := []string{"before", "after"}
			if p%2 == 0 {
				order = []string{"after", "before"}
			}
			for pos, side := range order {
				s := 0
				if side == "after" {
					s = 1
				}
				j := jitter[(p-1)%len(jitter)][s]
				thr := w.throughput * (1 + w.timeNoise*j/0.003)
				share := 0.90 + j
				rev, commit := revBefore, commitBefore
				if s == 1 {
					thr *= 1 + w.timeChange
					rev, commit = revAfter, commitAfter
				}
				if s == 1 && float64(p) == w.disturb[0] {
					thr *= 1 - w.disturb[1]
					share *= 1 - w.disturb[1]
				}
				r := expdir.Run{
					Schema: expdir.SchemaVersion, Experiment: exp, Suite: "default", Workload: w.name,
					Side: side, Revision: rev, Commit: commit, Pair: p, Position: pos + 1,
					Start: t, Wall: time.Duration(float64(ops) / thr * 1e9), Ops: ops,
					Metrics: expdir.Metrics{Throughput: thr, CPUPerOp: share / thr, CPUShare: share},
					Machine: m,
				}
				t = t.Add(r.Wall + time.Second)
				if w.latency {
					r.Metrics.P50 = 3.5e-3 * (1 + j)
					r.Metrics.P99 = 4.1e-3 * (1 - j)
					r.Metrics.PeakRSS = 5*1024*1024 + int64(j*1e6)
				}
				if w.event != "" {
					v := w.count * (1 + w.countNoise*j/0.003)
					if s == 1 {
						v *= 1 + w.countDelta
					}
					v = float64(int64(v*ops)) / ops
					r.Counts = []expdir.Count{{Event: w.event, Value: v * ops, PerOp: v, Source: w.source}}
				}
				if s == 1 && p == w.crash {
					r.Metrics, r.Counts, r.ExitCode = expdir.Metrics{}, nil, 2
					r.StderrTail = "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nworkbench/pure/store.(*Tree).find(...)\n\t/work/main/pure/store/tree.go:212 +0x1d4\nmain.main()\n\t/work/main/cmd/pure-count/main.go:48 +0x2a8\n"
				}
				if s == 0 && p == w.timeout {
					r.Metrics, r.Counts, r.ExitCode = expdir.Metrics{}, nil, -1
				}
				runs = append(runs, r)
			}
		}
	}
	return runs
}

// genCase is the inputs of one golden case.
type genCase struct {
	runs []expdir.Run
	// errors are the harness's errors of runs, by index.
	errors      map[int]string
	tail        string // appended to runs.jsonl as it is
	calibration []expdir.Run
	meta        map[string]any
	criteria    string // "" writes no criteria file
	profiles    map[string][2]*profile.Profile
}

// genMeta returns meta.json as `just pairs` writes it, with fields the note
// does not read, to check they are ignored.
func genMeta(exp, revBefore, revAfter string, pairs int, criteria map[string]any, controls map[string]any) map[string]any {
	return map[string]any{
		"experiment": exp,
		"before":     map[string]any{"side": "before", "revision": revBefore, "commit": commitBefore, "dir": "/root/.cache/workbench/bin/" + commitBefore, "go_version": "go1.26.0"},
		"after":      map[string]any{"side": "after", "revision": revAfter, "commit": commitAfter, "dir": "/root/.cache/workbench/bin/" + commitAfter, "go_version": "go1.26.0"},
		"suite":      "default", "suite_path": "experiments/suites/default.suite", "suite_text": "workload store-get\n",
		"pairs": pairs, "runs": pairs * 4, "timeout_ns": int64(2 * time.Minute),
		"controls": controls, "criteria": criteria,
		"harness": map[string]any{"repo": "/work/main", "commit": "3333333333333333333333333333333333333333", "dirty": false},
		"start":   genStart,
	}
}

// pinned are the controls of a VM where setarch and taskset work.
var pinned = map[string]any{
	"run_dir": "/tmp/workbench-run", "env": []string{"HOME=/tmp/workbench-run", "LANG=C", "PATH=/usr/bin:/bin"}, "env_bytes": 53,
	"aslr_off": true, "setarch": []string{"/usr/bin/setarch", "x86_64", "-R"}, "randomize_va_space": 2,
	"cpu": "1", "taskset": []string{"/usr/bin/taskset", "-c", "1"},
}

// genCases returns the inputs of every golden case by name.
func genCases() map[string]genCase {
	cases := map[string]genCase{}

	// same: nothing changed; perf counts with a little noise, exact
	// callgrind counts, and A/A calibration runs.
	same := []wl{
		{name: "store-get", throughput: 127764, timeChange: -0.002, timeNoise: 0.004, event: "instructions:u", source: perfcount.SourcePerf, count: 1437512, countNoise: 0.0002},
		{name: "scoreboard", throughput: 44527, timeChange: 0.001, timeNoise: 0.005, event: "Ir", source: perfcount.SourceCallgrind, count: 8695000},
	}
	cases["same"] = genCase{
		runs:        genRuns("001-same", 6, x86VM, same, "HEAD~1", "HEAD"),
		calibration: genRuns("001-same", 4, x86VM, []wl{same[0], {name: same[1].name, throughput: same[1].throughput, timeNoise: 0.005, event: "Ir", source: perfcount.SourceCallgrind, count: same[1].count}}, "HEAD~1", "HEAD~1"),
		meta:        genMeta("001-same", "HEAD~1", "HEAD", 6, map[string]any{"source": "default"}, pinned),
		criteria:    "time.max_worse = 3%\ninstructions.max_higher = 1%\n",
	}

	// worse: an injected +2 % instruction regression in store-get, with
	// profiles; doc-put 1.5 % fewer instructions, without profiles.
	worse := []wl{
		{name: "store-get", throughput: 127764, timeChange: -0.011, timeNoise: 0.004, event: "Ir", source: perfcount.SourceCallgrind, count: 1437500, countDelta: 0.02},
		{name: "doc-put", throughput: 2155, timeChange: 0.004, timeNoise: 0.006, event: "Ir", source: perfcount.SourceCallgrind, count: 27070000, countDelta: -0.015},
	}
	cases["worse"] = genCase{
		runs: genRuns("002-worse", 6, x86VM, worse, "main~1", "main"),
		meta: genMeta("002-worse", "main~1", "main", 6,
			map[string]any{"source": "committed", "commit": commitBefore, "path": "experiments/002-worse/criteria"}, pinned),
		criteria: "# written before the change\ntime.max_worse = 3%\ninstructions.max_higher = 1%   # bank-query rule of note 111\nworkload doc-put instructions.max_higher = 0.5%\n",
		profiles: map[string][2]*profile.Profile{"store-get": genProfiles()},
	}

	// crash: the after run of pair 4 panics; the other pairs go on, and the
	// last line of runs.jsonl was cut by an interrupted write.
	crash := []wl{
		{name: "store-get", throughput: 127764, timeChange: 0.003, timeNoise: 0.004, event: "Ir", source: perfcount.SourceCallgrind, count: 1437500, crash: 4},
		{name: "doc-get", throughput: 2794, timeChange: -0.002, timeNoise: 0.004, event: "Ir", source: perfcount.SourceCallgrind, count: 27070000, timeout: 2},
	}
	crashRuns := genRuns("003-crash", 6, x86VM, crash, "HEAD~1", "HEAD")
	crashErrors := map[int]string{}
	for i, r := range crashRuns {
		if r.ExitCode == -1 {
			crashErrors[i] = "timed out after 2m0s: killed"
		}
	}
	cases["crash"] = genCase{
		runs:     crashRuns,
		errors:   crashErrors,
		tail:     `{"schema":1,"experiment":"003-crash","workload":"store-get","pai`,
		meta:     genMeta("003-crash", "HEAD~1", "HEAD", 6, map[string]any{"source": "default"}, pinned),
		criteria: "time.max_worse = 3%\ninstructions.max_higher = 1%\n",
	}

	// disturbed: the after run of pair 3 lost 13 % of its CPU; perf counts,
	// so its counts are left out too; on a Pi without setarch and taskset.
	disturbed := []wl{
		{name: "scoreboard", throughput: 44527, timeChange: -0.005, timeNoise: 0.004, event: "instructions:u", source: perfcount.SourcePerf, count: 8695000, countDelta: 0.0093, countNoise: 0.0001, latency: true, disturb: [2]float64{3, 0.13}},
	}
	cases["disturbed"] = genCase{
		runs: genRuns("004-disturbed", 6, pi5, disturbed, "HEAD~1", "HEAD"),
		meta: genMeta("004-disturbed", "HEAD~1", "HEAD", 6, map[string]any{"source": "file"}, map[string]any{
			"run_dir": "/tmp/workbench-run", "env": []string{"LANG=C"}, "env_bytes": 7, "aslr_off": false, "randomize_va_space": 2,
			"notes": []string{"ASLR left on: setarch not found (install util-linux)", "not pinned: taskset -c 3 failed: sched_setaffinity: Invalid argument"},
		}),
		criteria: "time.max_worse = 3%\ninstructions.max_higher = 1%\ntime.metric = throughput\n",
	}
	return cases
}

// genProfiles returns before and after profiles of store-get: find and
// mallocgc cost more after, a budget check is new, a fast path is gone.
func genProfiles() [2]*profile.Profile {
	type fn struct {
		name   string
		before int64
		after  int64
	}
	fns := []fn{
		{"workbench/pure/store.(*Tree).find", 4_200_000_000, 4_410_000_000},
		{"runtime.mallocgc", 2_100_000_000, 2_122_090_000},
		{"workbench/pure/store.(*Tree).checkBudget", 0, 61_000_000},
		{"workbench/pure/store.(*Tree).fastGet", 45_000_000, 0},
		{"runtime.memmove", 1_300_000_000, 1_302_500_000},
		{"hash/crc32.ieeeCLMUL", 2_918_000_000, 2_918_000_000},
		{"workbench/pure/store.(*Handle).Get", 700_000_000, 712_000_000},
		{"runtime.mapaccess2_faststr", 650_000_000, 648_000_000},
		{"sync.(*Mutex).Lock", 400_000_000, 400_900_000},
		{"workbench/pure/store.decodeNode", 1_600_000_000, 1_625_000_000},
		{"runtime.nextFreeFast", 300_000_000, 301_000_000},
		{"main.main", 12_000_000, 12_000_000},
		{"runtime.(*mspan).init", 150_000_000, 150_010_000},
	}
	var out [2]*profile.Profile
	for side := range 2 {
		p := &profile.Profile{
			SampleType:        []*profile.ValueType{{Type: "instructions", Unit: "count"}, {Type: "data_reads", Unit: "count"}},
			DefaultSampleType: "instructions",
			PeriodType:        &profile.ValueType{Type: "instructions", Unit: "count"},
			Period:            1,
		}
		m := &profile.Mapping{ID: 1, File: "pure-count", HasFunctions: true}
		p.Mapping = []*profile.Mapping{m}
		mainFn := &profile.Function{ID: 1, Name: "main.main", SystemName: "main.main", Filename: "main.go"}
		p.Function = append(p.Function, mainFn)
		caller := &profile.Location{ID: 1, Mapping: m, Line: []profile.Line{{Function: mainFn, Line: 40}}}
		p.Location = append(p.Location, caller)
		for i, f := range fns {
			v := f.before
			if side == 1 {
				v = f.after
			}
			if v == 0 {
				continue
			}
			pf := mainFn
			if f.name != "main.main" {
				pf = &profile.Function{ID: uint64(len(p.Function) + 1), Name: f.name, SystemName: f.name, Filename: "x.go"}
				p.Function = append(p.Function, pf)
			}
			// Each function's cost on two lines, the second a third of it,
			// to check that lines add up; decodeNode inlined into find.
			lines := []profile.Line{{Function: pf, Line: int64(10 + i)}}
			if f.name == "workbench/pure/store.decodeNode" {
				lines = append(lines, profile.Line{Function: p.Function[1], Line: 99})
			}
			l1 := &profile.Location{ID: uint64(len(p.Location) + 1), Mapping: m, Line: lines}
			p.Location = append(p.Location, l1)
			l2 := &profile.Location{ID: uint64(len(p.Location) + 1), Mapping: m, Line: []profile.Line{{Function: pf, Line: int64(20 + i)}}}
			p.Location = append(p.Location, l2)
			p.Sample = append(p.Sample,
				&profile.Sample{Location: []*profile.Location{l1, caller}, Value: []int64{v - v/3, v / 2}},
				&profile.Sample{Location: []*profile.Location{l2, caller}, Value: []int64{v / 3, v / 4}})
		}
		out[side] = p
	}
	return out
}

// writeCase writes the committed inputs of c into dir.
func writeCase(dir string, c genCase) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{expdir.RunsFile: append(jsonl(c.runs, c.errors), c.tail...)}
	if c.calibration != nil {
		files[expdir.CalibrationFile] = jsonl(c.calibration, nil)
	}
	meta, err := json.MarshalIndent(c.meta, "", "  ")
	if err != nil {
		return err
	}
	files[expdir.MetaFile] = append(meta, '\n')
	if c.criteria != "" {
		files[expdir.CriteriaFile] = []byte(c.criteria)
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeProfiles writes c's profiles into dir/profiles.
func writeProfiles(dir string, c genCase) error {
	for w, ps := range c.profiles {
		if err := os.MkdirAll(filepath.Join(dir, expdir.ProfilesDir), 0o755); err != nil {
			return err
		}
		for i, side := range []string{"before", "after"} {
			var b bytes.Buffer
			if err := ps[i].Write(&b); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, expdir.ProfilesDir, fmt.Sprintf("%s.%s.pb.gz", w, side)), b.Bytes(), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonl writes runs one JSON object per line, with the harness's error
// of run i from errs[i], as `just pairs` writes them.
func jsonl(runs []expdir.Run, errs map[int]string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for i, r := range runs {
		if err := enc.Encode(expdir.Line{Run: r, Error: errs[i]}); err != nil {
			panic(err) // a expdir.Run always encodes
		}
	}
	return b.Bytes()
}
