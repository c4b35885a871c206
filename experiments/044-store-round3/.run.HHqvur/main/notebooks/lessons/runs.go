package lessons

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"workbench/experiments/lab/stats"
)

// Run is one region of `pure-count run --json` (docs/pure-count-json.md).
type Run struct {
	Kind     string  `json:"kind"`
	Workload string  `json:"workload"`
	Ops      int     `json:"ops"`
	Repeat   int     `json:"repeat"`
	Event    string  `json:"event"`
	Value    float64 `json:"value"`
	PerOp    float64 `json:"per_op"`
	Source   string  `json:"source"`
	WallNS   float64 `json:"wall_ns"`
	CPUNS    float64 `json:"cpu_ns"`
}

// ReadRuns reads the "run" lines of a pure-count JSON file, in order.
func ReadRuns(file string) ([]Run, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var runs []Run
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var r Run
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", file, n, err)
		}
		if r.Kind == "run" {
			runs = append(runs, r)
		}
	}
	return runs, sc.Err()
}

// Summary is the middle and the range of some values.
type Summary struct {
	N                int
	Min, Median, Max float64
	Spread           float64 // (Max − Min) / Median
}

// Summarize returns the summary of vals (at least one).
func Summarize(vals []float64) Summary {
	s := slices.Clone(vals)
	slices.Sort(s)
	n := len(s)
	med := stats.Median(s)
	sp := 0.0
	if med != 0 {
		sp = (s[n-1] - s[0]) / med
	}
	return Summary{N: n, Min: s[0], Median: med, Max: s[n-1], Spread: sp}
}

// Group writes an integer with thousands separators: 2295856 → 2,295,856.
func Group(v float64) string {
	s := strconv.FormatInt(int64(v+0.5), 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Pct writes a fraction as a signed percentage with two decimals.
func Pct(f float64) string { return fmt.Sprintf("%+.2f %%", 100*f) }
