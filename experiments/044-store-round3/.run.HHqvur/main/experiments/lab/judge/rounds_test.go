package judge

import (
	"math"
	"testing"
)

// anotherRound asks Rounds.Another with the state of a measurement after r
// rounds.
func anotherRound(m Rounds, r int, floors [][]float64, failed []bool, refs, logs []float64) bool {
	m.Done, m.Floors, m.Failed, m.Refs, m.Logs = r, floors, failed, refs, logs
	return m.Another()
}

func TestSettledAndAnotherRound(t *testing.T) {
	for _, tc := range []struct {
		floors []float64
		want   bool
	}{
		{nil, false},
		{[]float64{100}, false},
		{[]float64{100, 130, 125}, false},        // one process reached the floor
		{[]float64{130, 100, 101.9}, true},       // two within 2 %
		{[]float64{100, 102.5, 140, 150}, false}, // the second is 2.5 % above
	} {
		if got := Settled(tc.floors); got != tc.want {
			t.Errorf("Settled(%v) = %v, want %v", tc.floors, got, tc.want)
		}
	}
	m := Rounds{Repeat: 2, MaxRepeat: 5}
	ok := []float64{100, 101}
	bad := []float64{100, 120}
	for _, tc := range []struct {
		r      int
		floors [][]float64
		failed []bool
		want   bool
	}{
		{1, [][]float64{ok, ok}, []bool{false, false}, true},   // below repeat: always
		{2, [][]float64{ok, ok}, []bool{false, false}, false},  // both settled
		{2, [][]float64{ok, bad}, []bool{false, false}, true},  // one unsettled
		{3, [][]float64{ok, ok}, []bool{false, false}, true},   // settled, but odd: each side first as often
		{4, [][]float64{ok, ok}, []bool{false, false}, false},  // settled and even
		{5, [][]float64{ok, bad}, []bool{false, false}, false}, // max-repeat reached
		{3, [][]float64{bad, ok}, []bool{false, true}, false},  // a side failed
	} {
		if got := anotherRound(m, tc.r, tc.floors, tc.failed, nil, nil); got != tc.want {
			t.Errorf("anotherRound after %d rounds, floors %v, failed %v = %v, want %v", tc.r, tc.floors, tc.failed, got, tc.want)
		}
	}
	if anotherRound(Rounds{Repeat: 3}, 3, [][]float64{bad, bad}, []bool{false, false}, nil, nil) {
		t.Error("without max-repeat, repeat rounds are all")
	}
	// Settled, but above the side's own reference: another round; each
	// side is held only to its own reference.
	slow := []float64{130, 131}
	for _, tc := range []struct {
		refs []float64
		want bool
	}{
		{[]float64{100, 100}, true},  // the first side sits 30 % above its history
		{[]float64{128, 100}, false}, // within 2 % of its own history
		{[]float64{0, 0}, false},     // no history yet
	} {
		if got := anotherRound(m, 2, [][]float64{slow, ok}, []bool{false, false}, tc.refs, nil); got != tc.want {
			t.Errorf("refs %v: anotherRound = %v, want %v", tc.refs, got, tc.want)
		}
	}
}

func TestAnotherRound_GatedRoundsSettleOnTheirCouples(t *testing.T) {
	m := Rounds{Repeat: 4, MaxRepeat: 10}
	bad := [][]float64{{100, 120}, {100, 130}} // floors alone would ask for more
	noFail := []bool{false, false}
	nan := math.NaN()
	for _, tc := range []struct {
		r    int
		logs []float64
		want bool
	}{
		// Couples 0 and -0.001: settled, whatever the floors say.
		{4, []float64{0.005, -0.005, 0.004, -0.006}, false},
		// Rounds 3 % either side by start order: the couples agree.
		{4, []float64{0.03, -0.03, 0.03, -0.03}, false},
		// Couples 0.03 and -0.03, standard error 0.03: two more rounds.
		{4, []float64{0.03, 0.03, -0.03, -0.03}, true},
		{5, []float64{0.001, 0.001, 0.001, 0.001, 0.001}, true},                                // odd: one more
		{10, []float64{0.03, 0.03, -0.03, -0.03, 0.03, 0.03, -0.03, -0.03, 0.03, 0.03}, false}, // max-repeat
		{2, []float64{0, 0}, true},                                                             // below repeat
		// One couple only (the other has a round without a paired
		// time): the floors decide.
		{4, []float64{nan, 0.01, 0, 0}, true},
	} {
		if got := anotherRound(m, tc.r, bad, noFail, nil, tc.logs); got != tc.want {
			t.Errorf("after %d rounds with round logs %v: anotherRound = %v, want %v", tc.r, tc.logs, got, tc.want)
		}
	}
	// Sample standard deviation sqrt(4*0.0009/3) over sqrt(4).
	if got, want := StandardError([]float64{0.03, -0.03, 0.03, -0.03}), math.Sqrt(0.0012)/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("standardError = %v, want %v", got, want)
	}
}

func TestPairedLog_MedianOfCouples(t *testing.T) {
	// Couples 0.01, 0.01, 0.19 (a round far off) and 0: median 0.01.
	rounds := []float64{0.02, 0.00, 0.01, 0.01, 0.20, 0.18, -0.01, 0.01}
	if got, ok := PairedLog(rounds, nil); !ok || math.Abs(got-0.01) > 1e-12 {
		t.Errorf("pairedLog = %v, %v; want 0.01", got, ok)
	}
	// An odd round out and a round without a paired time leave their
	// couples out: couples 0.01 and 0.03.
	rounds = []float64{0.02, 0.00, math.NaN(), 0.5, 0.03, 0.03, 0.9}
	if got, ok := PairedLog(rounds, nil); !ok || math.Abs(got-0.02) > 1e-12 {
		t.Errorf("pairedLog = %v, %v; want 0.02", got, ok)
	}
	// No couple: the interquartile mean of the pooled regions, when there
	// are enough of them.
	pooled := []float64{-1, 0.01, 0.02, 0.02, 0.03, 0.03, 0.04, 1}
	if got, ok := PairedLog([]float64{0.5}, pooled); !ok || math.Abs(got-0.025) > 1e-12 {
		t.Errorf("pooled pairedLog = %v, %v; want 0.025", got, ok)
	}
	if _, ok := PairedLog(nil, pooled[:7]); ok {
		t.Error("a paired time from 7 region pairs and no couple")
	}
}
