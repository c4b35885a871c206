package judge

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"workbench/experiments/lab/expdir"
	"workbench/perfcount"
)

func TestJudge_AA_Same(t *testing.T) {
	// Pure noise on both sides (the same build): the verdict must be "same"
	// in at least 95 % of simulations with the default criteria, and never
	// worse or better. Noise per run: 0.7 % on timed metrics (a clean
	// pinned run), 0.15 % on callgrind counts of an allocating workload,
	// 0.3 % on perf counts.
	rng := newRand(t, 11)
	const sims = 1000
	for _, tt := range []struct {
		pairs      int
		countNoise float64
		source     perfcount.Source
	}{
		{6, 0.0015, perfcount.SourceCallgrind},
		{6, 0.003, perfcount.SourcePerf},
		{10, 0.003, perfcount.SourcePerf},
		{20, 0.0015, perfcount.SourceCallgrind},
	} {
		s := sim{workload: "aa", pairs: tt.pairs, timeNoise: 0.007, countNoise: tt.countNoise, timeRatio: 1, countRatio: 1, source: tt.source}
		got := make(map[Verdict]int)
		for range sims {
			got[Judge(s.runs(rng), DefaultCriteria, nil, Options{}).Verdict]++
		}
		if rate := float64(got[Same]) / sims; rate < 0.95 || got[Worse] > 0 || got[Better] > 0 {
			t.Errorf("%d pairs, %s noise %v: verdicts %v; want ≥ 95 %% same and none worse or better", tt.pairs, tt.source, tt.countNoise, got)
		}
	}
}

func TestJudge_AA_NoisyTime_NeverWorse(t *testing.T) {
	// With time noise as large as the criterion allows (2 % per run), six
	// pairs cannot show the time is within 3 %: the verdict may be
	// unknown, but pure noise must never be called worse or better.
	rng := newRand(t, 12)
	s := sim{workload: "aa", pairs: 6, timeNoise: 0.02, countNoise: 0.0015, timeRatio: 1, countRatio: 1, source: perfcount.SourceCallgrind}
	got := make(map[Verdict]int)
	for range 1000 {
		got[Judge(s.runs(rng), DefaultCriteria, nil, Options{}).Verdict]++
	}
	if got[Worse]+got[Better] > 0 {
		t.Errorf("verdicts %v; want none worse or better", got)
	}
}

func TestJudge_InstructionRegression_Worse(t *testing.T) {
	// +2 % instructions with 0.1 % noise: worse in every simulation with
	// six pairs, whichever instrument counted.
	rng := newRand(t, 13)
	for _, src := range []perfcount.Source{perfcount.SourceCallgrind, perfcount.SourcePerf} {
		s := sim{workload: "reg", pairs: 6, timeNoise: 0.007, countNoise: 0.001, timeRatio: 1, countRatio: 1.02, source: src}
		for i := range 1000 {
			w := Judge(s.runs(rng), DefaultCriteria, nil, Options{}).Workloads[0]
			if w.Verdict != Worse || w.Instructions != Worse {
				t.Fatalf("%s, simulation %d: verdict %s (instructions %s): %s", src, i, w.Verdict, w.Instructions, w.Reason)
			}
		}
	}
}

func TestJudge_TimeRegression_Worse(t *testing.T) {
	rng := newRand(t, 14)
	s := sim{workload: "slow", pairs: 6, timeNoise: 0.007, countNoise: 0.001, timeRatio: 0.92, countRatio: 1, source: perfcount.SourceCallgrind}
	for i := range 200 {
		w := Judge(s.runs(rng), DefaultCriteria, nil, Options{}).Workloads[0]
		if w.Verdict != Worse || w.Time != Worse || w.Instructions != Same {
			t.Fatalf("simulation %d: verdict %s (time %s, instructions %s): %s", i, w.Verdict, w.Time, w.Instructions, w.Reason)
		}
	}
}

func TestJudge_DisturbedRun(t *testing.T) {
	// An "after" run that lost 13 % of its CPU (and so 13 % of its
	// throughput) is found, listed, and left out of the time verdict but
	// not of the callgrind instruction counts. So is a 5 % one.
	rng := newRand(t, 15)
	for _, drop := range []float64{0.13, 0.05} {
		for i := range 500 {
			s := sim{workload: "tpcc", pairs: 6, timeNoise: 0.007, countNoise: 0.001, timeRatio: 1, countRatio: 1, source: perfcount.SourceCallgrind}
			runs := s.runs(rng)
			pair := 1 + rng.IntN(6)
			r := find(runs, pair, SideAfter)
			r.Metrics.CPUShare *= 1 - drop
			r.Metrics.Throughput *= 1 - drop
			w := Judge(runs, DefaultCriteria, nil, Options{}).Workloads[0]
			found := slices.ContainsFunc(w.Disturbed, func(d Disturbance) bool {
				return d.Pair == pair && d.Side == SideAfter && d.Metric == metricCPUShare
			})
			if !found || w.Pairs[pair-1].Status != PairDisturbed {
				t.Fatalf("−%v, simulation %d: pair %d not found disturbed: %+v", drop, i, pair, w.Disturbed)
			}
			if slices.Contains(w.TimePairs, pair) || !slices.Contains(w.InstructionPairs, pair) {
				t.Fatalf("−%v, simulation %d: time used pairs %v, instructions %v; pair %d must be out of time only", drop, i, w.TimePairs, w.InstructionPairs, pair)
			}
			if w.Time == Worse || w.Time == Better || !strings.Contains(w.Reason, fmt.Sprintf("%d disturbed", pair)) {
				t.Fatalf("−%v, simulation %d: time %s, reason %q", drop, i, w.Time, w.Reason)
			}
		}
	}
}

func TestJudge_DisturbedPerfCountsLeftOut(t *testing.T) {
	rng := newRand(t, 16)
	s := sim{workload: "w", pairs: 6, timeNoise: 0.007, countNoise: 0.001, timeRatio: 1, countRatio: 1, source: perfcount.SourcePerf}
	runs := s.runs(rng)
	find(runs, 2, SideBefore).Metrics.CPUPerOp *= 1.2
	w := Judge(runs, DefaultCriteria, nil, Options{}).Workloads[0]
	if slices.Contains(w.InstructionPairs, 2) || slices.Contains(w.TimePairs, 2) {
		t.Errorf("disturbed pair 2 used: time %v, instructions %v", w.TimePairs, w.InstructionPairs)
	}
}

func TestJudge_TooFewCleanPairs_Unknown(t *testing.T) {
	rng := newRand(t, 17)
	s := sim{workload: "w", pairs: 6, timeNoise: 0.007, countNoise: 0.001, timeRatio: 1, countRatio: 1, source: perfcount.SourceCallgrind}
	runs := s.runs(rng)
	find(runs, 2, SideAfter).Metrics.CPUShare *= 0.8
	find(runs, 5, SideBefore).ExitCode = 2
	w := Judge(runs, DefaultCriteria, nil, Options{}).Workloads[0]
	if w.Time != Unknown || w.Verdict != Unknown {
		t.Fatalf("time %s, verdict %s; want unknown", w.Time, w.Verdict)
	}
	want := "throughput: too few clean pairs, 4 of 6 (2 disturbed, 5 failed), need 5"
	if !strings.Contains(w.Reason, want) {
		t.Errorf("reason %q; want it to contain %q", w.Reason, want)
	}
	if w.Pairs[4].Status != PairFailed || w.Pairs[4].Note != "before run exited with status 2" {
		t.Errorf("pair 5: %s %q", w.Pairs[4].Status, w.Pairs[4].Note)
	}
}

func TestJudge_Straddles_Unknown(t *testing.T) {
	// Instructions about 1 % higher with 0.4 % noise: the interval cannot
	// tell whether the 1 % criterion holds.
	runs := exactRuns("w", 6, perfcount.SourcePerf, []float64{1.004, 1.008, 1.010, 1.012, 1.014, 1.018})
	w := Judge(runs, DefaultCriteria, nil, Options{}).Workloads[0]
	if w.Instructions != Unknown || !strings.Contains(w.Reason, "straddles") {
		t.Errorf("instructions %s: %s", w.Instructions, w.Reason)
	}
}

// exactRuns returns runs of a workload with only instruction counts: every
// before run counts 1,000,000 per op, and the after run of pair i counts
// ratios[i-1] times that.
func exactRuns(workload string, pairs int, src perfcount.Source, ratios []float64) []expdir.Run {
	var runs []expdir.Run
	for p := 1; p <= pairs; p++ {
		for _, side := range []string{SideBefore, SideAfter} {
			v := 1e6
			if side == SideAfter {
				v *= ratios[(p-1)%len(ratios)]
			}
			runs = append(runs, expdir.Run{
				Workload: workload, Side: side, Pair: p, Ops: 1,
				Counts: []expdir.Count{{Event: "instructions:u", Value: v, PerOp: v, Source: src}},
			})
		}
	}
	return runs
}

func TestJudge_ExactCounts(t *testing.T) {
	tests := []struct {
		ratio  float64
		want   Verdict
		reason string
	}{
		{1.012, Worse, "instructions:u 1.2 % higher (exact, the same in all 6 pairs), above the 1 % criterion (exact counts, no noise)"},
		{1.005, Same, "instructions:u 0.50 % higher (exact, the same in all 6 pairs), a real change within the 1 % criterion (exact counts, no noise)"},
		{1, Same, "instructions:u unchanged (exact, the same in all 6 pairs), no significant change, within the 1 % criterion (exact counts, no noise)"},
		{0.98, Better, "instructions:u 2.0 % lower (exact, the same in all 6 pairs), an improvement beyond the 1 % criterion (exact counts, no noise)"},
	}
	for _, tt := range tests {
		w := Judge(exactRuns("w", 6, perfcount.SourceCallgrind, []float64{tt.ratio}), DefaultCriteria, nil, Options{}).Workloads[0]
		if w.Verdict != tt.want || w.Time != NotMeasured {
			t.Errorf("ratio %v: verdict %s, time %s; want %s, not measured", tt.ratio, w.Verdict, w.Time, tt.want)
		}
		if m := metric(t, w, "instructions:u"); m.Reason != tt.reason {
			t.Errorf("ratio %v: reason\n\t%q\nwant\n\t%q", tt.ratio, m.Reason, tt.reason)
		}
	}
}

func TestJudge_NoiseRaisesThreshold(t *testing.T) {
	// A/A calibration with 2 % spread: a 1.5 % increase is within the
	// noise, never called worse, and the threshold is the noise.
	calib := exactRuns("w", 6, perfcount.SourcePerf, []float64{0.99, 1.01, 1.0, 0.995, 1.005, 1.0})
	runs := exactRuns("w", 6, perfcount.SourcePerf, []float64{1.015})
	w := Judge(runs, DefaultCriteria, calib, Options{}).Workloads[0]
	m := metric(t, w, "instructions:u")
	if m.Noise.CalibrationPairs != 6 || m.Threshold < 0.0199 || m.Verdict != Same {
		t.Errorf("noise %+v threshold %v verdict %s: %s", m.Noise, m.Threshold, m.Verdict, m.Reason)
	}
	if !strings.Contains(m.Reason, "within the 2.0 % noise, which exceeds the 1 % criterion") {
		t.Errorf("reason %q", m.Reason)
	}
	// Calibration from another instrument is not used.
	w = Judge(runs, DefaultCriteria, exactRuns("w", 6, perfcount.SourceCallgrind, []float64{0.99, 1.01}), Options{}).Workloads[0]
	if m := metric(t, w, "instructions:u"); m.Noise.CalibrationPairs != 0 || m.Verdict != Worse || len(m.Warnings) == 0 {
		t.Errorf("mismatched calibration: noise %+v verdict %s warnings %v", m.Noise, m.Verdict, m.Warnings)
	}
}

func TestJudge_MixedSources_Unknown(t *testing.T) {
	runs := exactRuns("w", 6, perfcount.SourceCallgrind, []float64{1.05})
	runs[0].Counts[0].Source = perfcount.SourcePerf
	w := Judge(runs, DefaultCriteria, nil, Options{}).Workloads[0]
	if w.Instructions != Unknown || !strings.Contains(w.Reason, "mix perf and callgrind") {
		t.Errorf("instructions %s: %s", w.Instructions, w.Reason)
	}
}

func TestJudge_MultiplexedLeftOut(t *testing.T) {
	runs := exactRuns("w", 6, perfcount.SourcePerf, []float64{1.0})
	runs[3].Counts[0].Multiplexed = true
	runs[3].Counts[0].PerOp *= 0.5
	w := Judge(runs, DefaultCriteria, nil, Options{}).Workloads[0]
	if slices.Contains(w.InstructionPairs, 2) || w.Instructions != Same || !strings.Contains(w.Reason, "2 multiplexed") {
		t.Errorf("pairs %v, instructions %s: %s", w.InstructionPairs, w.Instructions, w.Reason)
	}
}

func TestJudge_Overrides(t *testing.T) {
	crit, err := ParseCriteria(strings.NewReader("workload strict instructions.max_higher = 0.5%\n"), "criteria")
	if err != nil {
		t.Fatal(err)
	}
	runs := append(exactRuns("loose", 6, perfcount.SourceCallgrind, []float64{1.008}),
		exactRuns("strict", 6, perfcount.SourceCallgrind, []float64{1.008})...)
	rep := Judge(runs, crit, nil, Options{})
	if rep.Workloads[0].Verdict != Same || rep.Workloads[1].Verdict != Worse || rep.Verdict != Worse {
		t.Errorf("loose %s, strict %s, overall %s", rep.Workloads[0].Verdict, rep.Workloads[1].Verdict, rep.Verdict)
	}
	if want := "of 2 workloads, 1 worse (strict), 1 same (loose)"; rep.Reason != want {
		t.Errorf("reason %q, want %q", rep.Reason, want)
	}
}

func TestJudge_Deterministic(t *testing.T) {
	rng := newRand(t, 18)
	var runs []expdir.Run
	for _, name := range []string{"b", "a", "c"} {
		s := sim{workload: name, pairs: 8, timeNoise: 0.01, countNoise: 0.002, timeRatio: 0.99, countRatio: 1.004, source: perfcount.SourcePerf}
		runs = append(runs, s.runs(rng)...)
	}
	find(runs, 4, SideAfter).Metrics.CPUShare *= 0.7
	want := fmt.Sprintf("%+v", Judge(runs, DefaultCriteria, nil, Options{}))
	shuffled := slices.Clone(runs)
	for i := range 20 {
		rand.New(rand.NewPCG(uint64(i), 1)).Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		if got := fmt.Sprintf("%+v", Judge(shuffled, DefaultCriteria, nil, Options{})); got != want {
			t.Fatalf("shuffle %d changed the report:\n%s\nwant\n%s", i, got, want)
		}
	}
	if !reflect.DeepEqual(Judge(runs, DefaultCriteria, nil, Options{}).Options, DefaultOptions) {
		t.Errorf("zero Options did not take DefaultOptions")
	}
}

// Runs whose regions took turns carry a paired time, and by default it
// decides; with time.metric = throughput it is reported beside it. Here
// throughput looks 6 % worse in one pair (a burst on one side) while the
// paired time, from regions next to each other, holds within 1 %. Runs
// without it fall back to throughput without a warning.
func TestJudge_PairedTime(t *testing.T) {
	throughputRatio := []float64{1.00, 0.99, 0.94, 1.01, 1.00, 0.995}
	pairedRatio := []float64{1.002, 0.998, 1.006, 0.997, 1.001, 1.004}
	var runs []expdir.Run
	for p := 1; p <= 6; p++ {
		for _, side := range []string{SideBefore, SideAfter} {
			thr, pt := 1000.0, 1/math.Sqrt(pairedRatio[p-1])
			if side == SideAfter {
				thr *= throughputRatio[p-1]
				pt = math.Sqrt(pairedRatio[p-1])
			}
			runs = append(runs, expdir.Run{Workload: "w", Side: side, Pair: p, Ops: 1,
				Metrics: expdir.Metrics{Throughput: thr, CPUShare: 1, PairedTime: pt}})
		}
	}
	byThroughput := DefaultCriteria
	byThroughput.TimeMetric = MetricThroughput
	w := Judge(runs, byThroughput, nil, Options{}).Workloads[0]
	if w.Time != Unknown {
		t.Errorf("by throughput: time %s, want unknown: %s", w.Time, w.Reason)
	}
	if !slices.ContainsFunc(w.Metrics, func(m MetricResult) bool { return m.Metric.Name == MetricPairedTime && !m.Decides }) {
		t.Errorf("paired_time is not reported beside throughput: %+v", w.Metrics)
	}
	w = Judge(runs, DefaultCriteria, nil, Options{}).Workloads[0]
	if w.Time != Same {
		t.Errorf("by paired_time: time %s, want same: %s", w.Time, w.Reason)
	}
	for _, m := range w.Metrics {
		if m.Metric.Name == MetricPairedTime && (!m.Decides || math.Abs(m.Ratio.Center-1.0015) > 1e-9) {
			t.Errorf("paired_time: decides %v, median ratio %v, want 1.0015", m.Decides, m.Ratio.Center)
		}
	}
}

// Without paired times (runs that did not take turns), the default judges
// throughput and says nothing of it; a metric the criteria name explicitly
// and the runs lack is warned about.
func TestJudge_PairedTimeFallback(t *testing.T) {
	rng := newRand(t, 21)
	s := sim{workload: "w", pairs: 6, timeNoise: 0.004, countNoise: 0.001, timeRatio: 1, countRatio: 1, source: perfcount.SourceCallgrind}
	runs := s.runs(rng)
	w := Judge(runs, DefaultCriteria, nil, Options{}).Workloads[0]
	for _, m := range w.Metrics {
		if m.Decides && m.Metric.Class == ClassTime && m.Metric.Name != MetricThroughput {
			t.Errorf("%s decides, want throughput", m.Metric.Name)
		}
	}
	if len(w.Warnings) > 0 {
		t.Errorf("default fallback warned: %v", w.Warnings)
	}
	for i := range runs {
		runs[i].Metrics.P99 = 0
	}
	c := DefaultCriteria
	c.TimeMetric = MetricP99
	w = Judge(runs, c, nil, Options{}).Workloads[0]
	if !slices.ContainsFunc(w.Warnings, func(err error) bool { return strings.Contains(err.Error(), "have no p99") }) {
		t.Errorf("no warning for the missing p99: %v", w.Warnings)
	}
}
