package measure

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"workbench/experiments/lab/build"
	"workbench/experiments/lab/suite"
)

func TestParseCountOutput(t *testing.T) {
	// Two repeats of two events, plus a summary line and another workload's
	// line, which are ignored.
	out := `{"kind":"run","workload":"w","ops":10,"repeat":1,"event":"task-clock","value":500,"per_op":50,"source":"perf","multiplexed":false,"wall_ns":2000,"cpu_ns":1000,"machine":{"kernel":"k1","num_cpu":2}}
{"kind":"run","workload":"w","ops":10,"repeat":1,"event":"instructions","value":1000,"per_op":100,"source":"perf","multiplexed":true,"wall_ns":2000,"cpu_ns":1000}
{"kind":"run","workload":"w","ops":10,"repeat":2,"event":"task-clock","value":700,"per_op":70,"source":"perf","multiplexed":false,"wall_ns":3000,"cpu_ns":1500}
{"kind":"run","workload":"w","ops":10,"repeat":2,"event":"instructions","value":1100,"per_op":110,"source":"perf","multiplexed":false,"wall_ns":3000,"cpu_ns":1500}
{"kind":"summary","workload":"w","event":"instructions","source":"perf","n":2,"min":100,"median":105,"max":110,"spread":0.1,"values":[100,110]}
{"kind":"run","workload":"other","ops":99,"repeat":1,"event":"instructions","value":5,"source":"perf"}
`
	var o output
	ops, err := parseCountOutput(&o, "w", suite.BackendPerf, []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if ops != 20 || o.machine == nil || o.machine.Kernel != "k1" {
		t.Errorf("ops %d, machine %v", ops, o.machine)
	}
	if len(o.counts) != 2 {
		t.Fatalf("counts %+v", o.counts)
	}
	tc, ins := o.counts[0], o.counts[1]
	if tc.Event != "task-clock" || tc.Value != 1200 || tc.PerOp != 60 || tc.Multiplexed {
		t.Errorf("task-clock %+v", tc)
	}
	if ins.Event != "instructions" || ins.Value != 2100 || ins.PerOp != 105 || !ins.Multiplexed || ins.Source != "perf" {
		t.Errorf("instructions %+v", ins)
	}
	// The fastest of the two repeats: 10 ops in 2000 and 3000 ns of wall
	// time (5e6 and 3.33e6 ops/s), 1000 and 1500 ns of CPU time (100 and
	// 150 ns/op); CPU share 0.5 in both (the median).
	m := o.metrics
	if math.Abs(m.Throughput-5e6) > 1e-6 || math.Abs(m.CPUPerOp-100e-9) > 1e-15 || m.CPUShare != 0.5 {
		t.Errorf("metrics %+v", m)
	}
}

// Regions of two invocations: the counts sum over all four, the time is the
// fastest region's, whichever invocation it came from, and the CPU share is
// the median.
func TestParseCountOutput_RegionsOfSeveralInvocations(t *testing.T) {
	inv1 := `{"kind":"run","workload":"w","ops":10,"repeat":1,"region":1,"event":"task-clock","value":400,"source":"perf","wall_ns":4000,"cpu_ns":4000}
{"kind":"run","workload":"w","ops":10,"repeat":1,"region":2,"event":"task-clock","value":300,"source":"perf","wall_ns":3000,"cpu_ns":2400}
`
	inv2 := `{"kind":"run","workload":"w","ops":10,"repeat":1,"region":1,"event":"task-clock","value":250,"source":"perf","wall_ns":2500,"cpu_ns":2000}
{"kind":"run","workload":"w","ops":10,"repeat":1,"region":2,"event":"task-clock","value":500,"source":"perf","wall_ns":5000,"cpu_ns":4500}
`
	var o output
	ops, err := parseCountOutput(&o, "w", suite.BackendPerf, []byte(inv1), []byte(inv2))
	if err != nil {
		t.Fatal(err)
	}
	if ops != 40 || len(o.counts) != 1 || o.counts[0].Value != 1450 {
		t.Fatalf("ops %d, counts %+v", ops, o.counts)
	}
	// Fastest: 10 ops in 2500 ns (4e6 ops/s); least CPU: 2000 ns / 10 ops;
	// shares 1, 0.8, 0.8, 0.9: median 0.85.
	m := o.metrics
	if math.Abs(m.Throughput-4e6) > 1e-6 || math.Abs(m.CPUPerOp-200e-9) > 1e-15 || math.Abs(m.CPUShare-0.85) > 1e-12 {
		t.Errorf("metrics %+v", m)
	}
}

func TestParseCountOutput_CallgrindHasNoMetrics(t *testing.T) {
	out := `{"kind":"run","workload":"w","ops":10,"repeat":1,"event":"instructions","value":1000,"source":"callgrind","wall_ns":0,"cpu_ns":0}`
	var o output
	if _, err := parseCountOutput(&o, "w", suite.BackendCallgrind, []byte(out)); err != nil {
		t.Fatal(err)
	}
	if o.metrics.Throughput != 0 || o.counts[0].Source != "callgrind" || o.counts[0].PerOp != 100 {
		t.Errorf("%+v", o)
	}
}

func TestParseCountOutput_Errors(t *testing.T) {
	for _, tc := range []struct{ name, out, want string }{
		{"empty", "", "printed no run line for w"},
		{"not json", "hello\n", "w stdout line 1 is not a JSON object"},
		{"zero ops", `{"kind":"run","workload":"w","ops":0,"event":"x","source":"perf"}`, "ops is 0"},
		{"mixed sources", `{"kind":"run","workload":"w","ops":1,"repeat":1,"event":"x","source":"perf"}
{"kind":"run","workload":"w","ops":1,"repeat":2,"event":"x","source":"callgrind"}`, "counted by both perf and callgrind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseCountOutput(new(output), "w", suite.BackendPerf, []byte(tc.out))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

func TestTail(t *testing.T) {
	var b bytes.Buffer
	for i := range 100 {
		b.WriteString(strings.Repeat("x", i%7) + "\n")
	}
	b.WriteString("last line\n")
	got := build.Tail(b.Bytes(), 3, 1000)
	if !strings.HasSuffix(got, "\nlast line") || strings.Count(got, "\n") != 2 {
		t.Errorf("tail = %q", got)
	}
	got = build.Tail([]byte("aaaa\nbbbb\ncccc"), 10, 7)
	if got != "cccc" {
		t.Errorf("tail by bytes = %q", got)
	}
}

func TestTailBuffer(t *testing.T) {
	tb := &tailBuffer{max: 4}
	for _, s := range []string{"abc", "defgh", "ij", "k"} {
		tb.Write([]byte(s))
	}
	if got := string(tb.Bytes()); !strings.HasSuffix(got, "hijk") || len(got) > 8 {
		t.Errorf("kept %q", got)
	}
}
