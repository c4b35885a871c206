package judge

import "testing"

func TestPct(t *testing.T) {
	for f, want := range map[float64]string{
		0.018: "1.8", -0.018: "1.8", 0.00094: "0.094", 0.02: "2.0", 0.13: "13", 0.00996: "1.0", 0.0996: "10", 1.5: "150", 0: "0",
	} {
		if got := pct(f); got != want {
			t.Errorf("pct(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestFormatPairs(t *testing.T) {
	for _, tt := range []struct {
		in   []int
		want string
	}{
		{nil, "none"}, {[]int{3}, "3"}, {[]int{1, 2}, "1 and 2"}, {[]int{1, 2, 4, 5, 6}, "1, 2 and 4–6"}, {[]int{1, 3, 4, 5, 7}, "1, 3–5 and 7"},
	} {
		if got := FormatPairs(tt.in); got != tt.want {
			t.Errorf("FormatPairs(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A threshold taken from the noise is rounded like the noise it is; a
// criterion is written as given.
func TestThresholdPct(t *testing.T) {
	for _, tc := range []struct {
		threshold, criterion float64
		want                 string
	}{
		{0.146882, 0.01, "15 %"},
		{0.040402, 0.01, "4.0 %"},
		{0.05, 0.05, "5 %"},
		{0.0025, 0.0025, "0.25 %"},
	} {
		if got := thresholdPct(&MetricResult{Threshold: tc.threshold, Criterion: tc.criterion}); got != tc.want {
			t.Errorf("threshold %v, criterion %v: %q, want %q", tc.threshold, tc.criterion, got, tc.want)
		}
	}
}
