package pairs

import (
	"testing"
	"time"

	"workbench/experiments/lab/expdir"
)

// An added pair that runs only a workload's perf measurement is estimated
// from the time its perf measurements spanned in earlier pairs (both
// sides' together, overlapping as a server's windows do), not from the
// whole pair's: the budget then lets in the pairs that fit.
func TestPairEstimate_Part(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC)
	ms := func(b string, from, wall time.Duration) expdir.Measurement {
		return expdir.Measurement{Backend: b, Start: t0.Add(from), Wall: wall}
	}
	var r runner
	for p := range 3 {
		off := time.Duration(p) * time.Minute
		// The two servers run side by side for 26 s; then callgrind, one
		// side after the other, 7 s each.
		before := expdir.Line{Run: expdir.Run{Workload: "score", Pair: p + 1, Side: "before"}, Measurements: []expdir.Measurement{
			ms("perf", off, 26*time.Second), ms("callgrind", off+26*time.Second, 7*time.Second)}}
		after := expdir.Line{Run: expdir.Run{Workload: "score", Pair: p + 1, Side: "after"}, Measurements: []expdir.Measurement{
			ms("perf", off+time.Second, 25*time.Second), ms("callgrind", off+33*time.Second, 7*time.Second)}}
		r.prior = append(r.prior, before, after)
	}
	r.priorSpans()
	if got := r.pairEstimate("score", []string{"perf"}); got != 26*time.Second {
		t.Errorf("perf part: %v, want 26s", got)
	}
	if got := r.pairEstimate("score", []string{"callgrind", "perf"}); got != 40*time.Second {
		t.Errorf("both parts: %v, want 40s", got)
	}
}
