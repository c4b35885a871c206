package main

import (
	"slices"
	"testing"

	"workbench/experiments/lab/judge"
	"workbench/perfcount"
)

// undecidedBackends names the backends of the deciding metrics left
// unknown, and only those: a decided instruction count leaves the time's
// perf measurement alone, and a count of no known source asks for all.
func TestUndecidedBackends(t *testing.T) {
	timeM := judge.Metric{Name: judge.MetricPairedTime, Class: judge.ClassTime}
	instr := judge.Metric{Name: "instructions", Class: judge.ClassInstructions}
	p50 := judge.Metric{Name: judge.MetricP50, Class: judge.ClassTime}
	for _, tc := range []struct {
		name    string
		metrics []judge.MetricResult
		want    []string
	}{
		{"time unknown, callgrind count same", []judge.MetricResult{
			{Metric: timeM, Decides: true, Verdict: judge.Unknown},
			{Metric: p50, Verdict: judge.Unknown},
			{Metric: instr, Source: perfcount.SourceCallgrind, Decides: true, Verdict: judge.Same},
		}, []string{"perf"}},
		{"both unknown", []judge.MetricResult{
			{Metric: timeM, Decides: true, Verdict: judge.Unknown},
			{Metric: instr, Source: perfcount.SourceCallgrind, Decides: true, Verdict: judge.Unknown},
		}, []string{"callgrind", "perf"}},
		{"callgrind count unknown alone", []judge.MetricResult{
			{Metric: timeM, Decides: true, Verdict: judge.Same},
			{Metric: instr, Source: perfcount.SourceCallgrind, Decides: true, Verdict: judge.Unknown},
		}, []string{"callgrind"}},
		{"perf count unknown", []judge.MetricResult{
			{Metric: timeM, Decides: true, Verdict: judge.Same},
			{Metric: instr, Source: perfcount.SourcePerf, Decides: true, Verdict: judge.Unknown},
		}, []string{"perf"}},
		{"count of mixed sources", []judge.MetricResult{
			{Metric: timeM, Decides: true, Verdict: judge.Unknown},
			{Metric: instr, Decides: true, Verdict: judge.Unknown},
		}, nil},
	} {
		got := undecidedBackends(&judge.WorkloadResult{Verdict: judge.Unknown, Metrics: tc.metrics})
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
