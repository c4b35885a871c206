package stats

import (
	"math"
	"testing"
)

func TestMedian_LeavesNaNOut(t *testing.T) {
	nan := math.NaN()
	xs := []float64{3, nan, 1, 2}
	if got := Median(xs); got != 2 {
		t.Errorf("Median(%v) = %v, want 2", xs, got)
	}
	if xs[0] != 3 || !math.IsNaN(xs[1]) {
		t.Errorf("Median modified its argument: %v", xs)
	}
	if got := Median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("even median = %v, want 2.5", got)
	}
	for _, xs := range [][]float64{nil, {nan, nan}} {
		if got := Median(xs); !math.IsNaN(got) {
			t.Errorf("Median(%v) = %v, want NaN", xs, got)
		}
	}
}
