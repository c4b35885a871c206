package bisect

import (
	"strings"
	"testing"

	"workbench/experiments/lab/judge"
	"workbench/experiments/lab/measure"
	"workbench/experiments/lab/suite"
)

func TestPickMiddle(t *testing.T) {
	for _, tc := range []struct {
		lo, hi  int
		skipped []int
		want    int
	}{
		{-1, 4, nil, 1},
		{-1, 1, nil, 0},
		{0, 1, nil, -1},
		{-1, 4, []int{1}, 0},     // the older of two equally near
		{-1, 4, []int{1, 0}, 2},  // then the newer
		{-1, 2, []int{0, 1}, -1}, // every commit between skipped
		{3, 9, []int{6, 5, 7}, 4},
	} {
		skipped := map[int]bool{}
		for _, i := range tc.skipped {
			skipped[i] = true
		}
		if got := pickMiddle(tc.lo, tc.hi, skipped); got != tc.want {
			t.Errorf("pickMiddle(%d, %d, %v) = %d, want %d", tc.lo, tc.hi, tc.skipped, got, tc.want)
		}
	}
}

func TestPerOpCounts(t *testing.T) {
	out := `{"kind":"run","workload":"w","ops":10,"repeat":1,"event":"instructions","value":1000,"source":"callgrind"}
{"kind":"run","workload":"w","ops":10,"repeat":2,"event":"instructions","value":1010,"source":"callgrind"}
{"kind":"run","workload":"other","ops":10,"repeat":1,"event":"instructions","value":5,"source":"callgrind"}
{"kind":"summary","workload":"w","event":"instructions","source":"callgrind","n":2}
`
	counts, event, err := measure.PerOpCounts([]byte(out), "w", suite.BackendCallgrind)
	if err != nil || event != "instructions" || len(counts) != 2 || counts[0] != 100 || counts[1] != 101 {
		t.Errorf("got %v, %q, %v", counts, event, err)
	}
	for _, tc := range []struct{ out, want string }{
		{"", "printed no run line"},
		{"not json\n", "is not a JSON object"},
		{`{"kind":"run","workload":"w","ops":10,"repeat":1,"event":"instructions","value":1,"source":"perf"}`, "counted by perf, not callgrind"},
		{`{"kind":"run","workload":"w","ops":10,"repeat":1,"event":"instructions","value":1,"source":"callgrind","multiplexed":true}`, "multiplexed"},
		{`{"kind":"run","workload":"w","ops":0,"repeat":1,"event":"instructions","value":1,"source":"callgrind"}`, "ops is 0"},
	} {
		if _, _, err := measure.PerOpCounts([]byte(tc.out), "w", suite.BackendCallgrind); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.out, err, tc.want)
		}
	}
	if s := judge.Spread([]float64{100, 102, 101}); s != 2.0/101 {
		t.Errorf("spread = %v", s)
	}
	if got := fmtCount(2295861.4); got != "2,295,861" {
		t.Errorf("fmtCount = %q", got)
	}
}
