package note

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/mdtable"
	"workbench/experiments/lab/stats"
)

// writeGoBench writes, for an experiment on another module's Go
// benchmarks (meta.json's gobench), what was run: the subject, each
// benchmark's iterations, B/op and allocs/op, whether its instruction
// counts were exact, and the benchmarks not judged (on one side only, or
// failing their probe, with the end of their output).
func (e *Experiment) writeGoBench(b *strings.Builder) {
	g := e.Meta.GoBench
	if g == nil {
		return
	}
	b.WriteString("## Go benchmarks\n\n")
	subject := "repository " + code(g.Repo)
	if g.Module != "" {
		subject = "module " + code(g.Module)
	}
	fmt.Fprintf(b, "The benchmarks of %s, packages %s, benchmarks %s: each side's packages built with `go test -c` and each benchmark present on both sides run as a workload of its own, sub-benchmarks included. "+
		"Time: each side's test binary run natively, `-test.benchtime=Nx -test.count=C -test.cpu=1 -test.benchmem`, the processes of the two sides taking turns; N was chosen once for both sides from a short probe. "+
		"Instructions per op: %s.\n\n", subject, code(g.Pkg), code(g.Bench), g.Instructions)
	t := mdtable.New("workload", "package", ">N", ">count", ">callgrind iterations", ">B/op before", ">after", ">allocs/op before", ">after", "instructions")
	for _, bm := range g.Benchmarks {
		bb, ba := e.goMedian(bm.Workload, "before", bytesPerOp), e.goMedian(bm.Workload, "after", bytesPerOp)
		ab, aa := e.goMedian(bm.Workload, "before", allocsPerOp), e.goMedian(bm.Workload, "after", allocsPerOp)
		t.Row(bm.Workload, code(bm.Package), fmt.Sprint(bm.N), fmt.Sprint(bm.Count), fmt.Sprintf("%d, %d", bm.Iters[0], bm.Iters[1]),
			bb, ba, ab, aa, e.goExact(bm.Workload))
	}
	t.Write(b)
	b.WriteString("\nInstructions: exact when each side's count per op was the same in every pair; otherwise the largest spread of a side's counts, (max − min) / median, which the judge takes as the count's noise.\n\n")
	if len(g.OnlyBefore) > 0 || len(g.OnlyAfter) > 0 {
		b.WriteString("Not judged, on one side only:\n\n")
		for _, n := range g.OnlyBefore {
			fmt.Fprintf(b, "- before only: %s\n", code(n))
		}
		for _, n := range g.OnlyAfter {
			fmt.Fprintf(b, "- after only: %s\n", code(n))
		}
		b.WriteString("\n")
	}
	if len(g.Failed) > 0 {
		b.WriteString("Not judged, failing their probe:\n\n")
		for _, f := range g.Failed {
			fmt.Fprintf(b, "- %s %s, %s side: %s\n", code(f.Package), code(f.Name), f.Side, mdtable.Cell(f.Error))
			if f.Tail != "" {
				b.WriteString("\n")
				codeBlock(b, "text", f.Tail)
			}
		}
		b.WriteString("\n")
	}
}

func bytesPerOp(m expdir.Metrics) *float64  { return m.BytesPerOp }
func allocsPerOp(m expdir.Metrics) *float64 { return m.AllocsPerOp }

// goMedian is the median over a workload's successful runs of one side
// of a Go benchmark metric, formatted; "—" when none reported it.
func (e *Experiment) goMedian(workload, side string, get func(expdir.Metrics) *float64) string {
	var vs []float64
	for _, r := range e.Runs {
		if r.Workload == workload && r.Side == side && r.ExitCode == 0 {
			if v := get(r.Metrics); v != nil {
				vs = append(vs, *v)
			}
		}
	}
	if len(vs) == 0 {
		return "—"
	}
	v := stats.Median(vs)
	if v == math.Trunc(v) && v < 1000 {
		return strconv.FormatFloat(v, 'f', 0, 64) // B/op and allocs/op are whole numbers
	}
	return formatCount(v)
}

// goExact says whether each side's instruction counts per op of workload
// were identical across its runs, or how far they spread.
func (e *Experiment) goExact(workload string) string {
	spread, n := 0.0, 0
	for _, side := range []string{"before", "after"} {
		var vs []float64
		for _, r := range e.Runs {
			if r.Workload != workload || r.Side != side || r.ExitCode != 0 {
				continue
			}
			for _, c := range r.Counts {
				if c.Event == "instructions" {
					vs = append(vs, c.PerOp)
				}
			}
		}
		if len(vs) < 2 {
			continue
		}
		n++
		lo, hi := slices.Min(vs), slices.Max(vs)
		if med := stats.Median(vs); med > 0 {
			spread = max(spread, (hi-lo)/med)
		}
	}
	switch {
	case n == 0:
		return "fewer than two counts a side"
	case spread == 0:
		return "exact"
	}
	return "spread " + formatSpread(spread)
}
