package export

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/judge"
	"workbench/experiments/lab/note"
)

// samples reads an export as benchstat does: per benchmark, unit and side
// the values, and per unit whether it is declared exact.
func samples(t *testing.T, text string) (map[[3]string][]float64, map[string]bool) {
	t.Helper()
	vals := map[[3]string][]float64{}
	exact := map[string]bool{}
	r := benchfmt.NewReader(strings.NewReader(text), "bench.txt")
	for r.Scan() {
		switch x := r.Result().(type) {
		case *benchfmt.Result:
			for _, v := range x.Values {
				k := [3]string{string(x.Name), v.Unit, string(x.GetConfig("side"))}
				vals[k] = append(vals[k], v.Value)
			}
		case *benchfmt.UnitMetadata:
			if x.Key == "assume" && x.Value == "exact" {
				exact[x.Unit] = true
			}
		case *benchfmt.SyntaxError:
			t.Fatalf("syntax error: %v", x)
		}
	}
	return vals, exact
}

// centre is benchstat's centre of a sample: the mode for an exact unit,
// else the median (benchmath.AssumeNothing).
func centre(vals []float64, exact bool) float64 {
	s := benchmath.NewSample(vals, &benchmath.DefaultThresholds)
	a := benchmath.Assumption(benchmath.AssumeNothing)
	if exact {
		a = benchmath.AssumeExact
	}
	return a.Summary(s, 0.95).Center
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-8*math.Max(math.Abs(a), math.Abs(b)) }

// agree checks, for every deciding metric of every workload whose every
// pair the judge used, that benchstat's centre of each side is the note's
// median, and, where the note's interval excludes no change, that the two
// move the same way. It returns how many metrics it checked.
func agree(t *testing.T, runs []expdir.Run, rep judge.Report, text string) int {
	t.Helper()
	vals, exact := samples(t, text)
	n := 0
	for _, w := range rep.Workloads {
		for _, m := range w.Metrics {
			if !m.Decides || len(m.Pairs) == 0 || len(m.Pairs) != len(w.Pairs) {
				continue
			}
			unit := PairedUnit
			if m.Metric.Class == judge.ClassInstructions {
				unit = Unit(expdir.Count{Event: m.Metric.Name, Source: m.Source})
			} else if m.Metric.Name != judge.MetricPairedTime {
				continue
			}
			b, a := vals[[3]string{Name(w.Workload), unit, "before"}], vals[[3]string{Name(w.Workload), unit, "after"}]
			cb, ca := centre(b, exact[unit]), centre(a, exact[unit])
			if !near(cb, m.Before.Center) || !near(ca, m.After.Center) {
				t.Errorf("%s %s: benchstat's centres %v → %v, the note's medians %v → %v (exact %v)", w.Workload, unit, cb, ca, m.Before.Center, m.After.Center, exact[unit])
			}
			if m.Ratio.Lo > 1 && !(ca > cb) || m.Ratio.Hi < 1 && !(ca < cb) {
				t.Errorf("%s %s: the note's change [%v, %v] and benchstat's %v → %v disagree in direction", w.Workload, unit, m.Ratio.Lo, m.Ratio.Hi, cb, ca)
			}
			n++
		}
	}
	return n
}

// synthetic returns six pairs of one workload whose instruction count
// varies a little around a 5 % rise and whose paired time rises by 4 %.
func synthetic(seed uint64) []expdir.Run {
	rng := rand.New(rand.NewPCG(seed, 1))
	var runs []expdir.Run
	for p := 1; p <= 6; p++ {
		m := math.Log(1.04) + 0.004*rng.NormFloat64()
		for _, side := range []string{"before", "after"} {
			ins, pt := 1000+3*rng.NormFloat64(), math.Exp(-m/2)
			if side == "after" {
				ins, pt = 1050+3*rng.NormFloat64(), math.Exp(m/2)
			}
			runs = append(runs, expdir.Run{
				Workload: "store-get", Side: side, Pair: p, Position: 1, Revision: side, Commit: side, Ops: 100,
				Metrics: expdir.Metrics{Throughput: 1e6, PairedTime: pt},
				Counts:  []expdir.Count{{Event: "instructions", PerOp: ins, Value: 100 * ins, Source: "callgrind"}},
			})
		}
	}
	return runs
}

// The export read by x/perf's benchfmt and summarised by benchmath, as
// benchstat -col side does, gives the note's medians as the centre of each
// side, and the note's direction: for a planted change, and for a
// committed experiment.
func TestExport_BenchstatAgreesWithTheNote(t *testing.T) {
	seed := uint64(20261203)
	t.Logf("seed %d", seed)
	runs := synthetic(seed)
	rep := judge.Judge(runs, judge.DefaultCriteria, nil, judge.Options{})
	var b strings.Builder
	if err := Write(&b, "x", runs); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "instructions/op better=lower assume=exact") {
		t.Error("instructions that vary are declared exact")
	}
	if n := agree(t, runs, rep, b.String()); n != 2 {
		t.Errorf("checked %d deciding metrics, want 2 (paired time, instructions)", n)
	}
	if rep.Verdict != judge.Worse {
		t.Errorf("a planted 4 %% rise judged %s", rep.Verdict)
	}

	dir := filepath.Join("..", "..", "probes", "905-pairs-5d95b37-11224a3")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the committed main-job probe is gone: %v", err)
	}
	e, err := note.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := Write(&b, e.Name, e.Runs); err != nil {
		t.Fatal(err)
	}
	if n := agree(t, e.Runs, e.Report, b.String()); n < 4 {
		t.Errorf("checked only %d deciding metrics of %s", n, dir)
	}
}
