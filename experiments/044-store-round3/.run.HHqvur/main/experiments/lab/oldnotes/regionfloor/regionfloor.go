// Package regionfloor writes the note of experiment 012-region-floor from its
// runs.jsonl: `go run ./cmd/pure-expnote experiments/012-region-floor`.
package regionfloor

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/stats"
)

// line is one of pure-count's run lines, with the process number run.sh adds.
type line struct {
	Process  int    `json:"process"`
	Workload string `json:"workload"`
	Region   int    `json:"region"`
	Ops      int64  `json:"ops"`
	WallNs   int64  `json:"wall_ns"`
}

// The settle rule of the pairs runner (now judge/rounds.go), restated here so the
// experiment keeps the rule it tested.
const (
	settleTolerance = 0.02
	settleProcesses = 2
	threshold       = 0.03
)

// procs maps a workload to its processes in order, each its regions' wall
// time per op in nanoseconds.
type procs map[string][][]float64

func read(path string) (procs, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	p := procs{}
	var order []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if l.Ops <= 0 || l.Process < 1 {
			return nil, nil, fmt.Errorf("%s:%d: no ops or process", path, n)
		}
		if _, ok := p[l.Workload]; !ok {
			order = append(order, l.Workload)
		}
		for len(p[l.Workload]) < l.Process {
			p[l.Workload] = append(p[l.Workload], nil)
		}
		p[l.Workload][l.Process-1] = append(p[l.Workload][l.Process-1], float64(l.WallNs)/float64(l.Ops))
	}
	return p, order, sc.Err()
}

// Write writes dir/note.md from dir/runs.jsonl.
func Write(dir string) error {
	p, order, err := read(expdir.Dir(dir).Path(expdir.RunsFile))
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString("# Experiment 012: the floor of many short regions\n\n")
	b.WriteString("Generated from runs.jsonl by `go run ./cmd/pure-expnote experiments/012-region-floor`;\n")
	b.WriteString("`experiments/012-region-floor/run.sh` measures afresh and regenerates it. Every figure is wall time\n")
	b.WriteString("per operation of a region (perf backend, time, not instructions), pinned to one CPU, ASLR off.\n\n")

	b.WriteString("## Floors of fresh processes\n\n")
	b.WriteString("Each process timed 20 regions of about 15 ms. A process's floor is its fastest region; the\n")
	b.WriteString("columns give the processes' floors and median regions relative to the fastest region of all.\n\n")
	b.WriteString("| workload | processes | fastest ns/op | process floors | median regions |\n")
	b.WriteString("|:--|--:|--:|--:|--:|\n")
	for _, w := range order {
		var floors, meds []float64
		for _, r := range p[w] {
			if len(r) == 0 {
				continue
			}
			floors = append(floors, slices.Min(r))
			meds = append(meds, stats.Median(r))
		}
		least := slices.Min(floors)
		fmt.Fprintf(&b, "| %s | %d | %.0f | %.3f to %.3f | %.3f to %.3f |\n", w, len(floors), least,
			slices.Min(floors)/least, slices.Max(floors)/least, slices.Min(meds)/least, slices.Max(meds)/least)
	}

	const sim = "itoa-strconv-10k"
	stream := p[sim]
	fmt.Fprintf(&b, "\n## Estimators, simulated as A/A pairs on %d processes of %s\n\n", len(stream), sim)
	b.WriteString("Consecutive processes are dealt to two sides as the pairs runner deals them (rounds of one\n")
	b.WriteString("process per side, A B then B A), and each side's time is its fastest region. Fixed: a set\n")
	fmt.Fprintf(&b, "number of processes per side. Settle: at least 4, then more up to 10 while fewer than %d of a\n", settleProcesses)
	fmt.Fprintf(&b, "side's processes reached its fastest region within %.0f %%. A ratio outside ±%.0f %% would make an\n", 100*settleTolerance, 100*threshold)
	b.WriteString("A/A pair look like a change beyond the default criterion. Own history: a side is also unsettled\n")
	b.WriteString("while its fastest region is more than 2 % above the median of the same side's earlier pairs.\n\n")
	b.WriteString("| estimator | pairs | ratio q05 | median | q95 | within ±3 % | processes per side |\n")
	b.WriteString("|:--|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range []int{2, 4, 6, 8} {
		row(&b, fmt.Sprintf("fixed, %d", r), deal(stream, r, r, false))
	}
	row(&b, "settle, 4 to 10", deal(stream, 4, 10, false))
	row(&b, "settle and own history, 4 to 10", deal(stream, 4, 10, true))
	return expdir.WriteFileAtomic(expdir.Dir(dir).Path(expdir.NoteFile), b.Bytes())
}

type pair struct {
	ratio float64
	procs int
}

// deal walks the stream in rounds, as the pairs runner runs a perf
// measurement, and returns one pair per block of rounds. With history, each
// side is also held to the median of its own earlier pairs' floors.
func deal(stream [][]float64, least, most int, history bool) []pair {
	var out []pair
	var past [2][]float64
	ok := func(f []float64, side int) bool {
		if !settled(f) {
			return false
		}
		if !history || len(past[side]) == 0 {
			return true
		}
		ref := stats.Median(past[side])
		return slices.Min(f) <= ref*(1+settleTolerance)
	}
	for s := 0; ; {
		var sides [2][]float64 // floors
		r := 0
		for ; r < most; r++ {
			if r >= least && ok(sides[0], 0) && ok(sides[1], 1) {
				break
			}
			if s+2 > len(stream) {
				return out
			}
			a, b := stream[s], stream[s+1]
			s += 2
			if r%2 == 1 {
				a, b = b, a
			}
			sides[0] = append(sides[0], slices.Min(a))
			sides[1] = append(sides[1], slices.Min(b))
		}
		out = append(out, pair{slices.Min(sides[1]) / slices.Min(sides[0]), r})
		past[0] = append(past[0], slices.Min(sides[0]))
		past[1] = append(past[1], slices.Min(sides[1]))
	}
}

func settled(floors []float64) bool {
	if len(floors) == 0 {
		return false
	}
	least, near := slices.Min(floors), 0
	for _, f := range floors {
		if f <= least*(1+settleTolerance) {
			near++
		}
	}
	return near >= settleProcesses
}

func row(b *bytes.Buffer, name string, ps []pair) {
	if len(ps) == 0 {
		fmt.Fprintf(b, "| %s | 0 | | | | | |\n", name)
		return
	}
	var rs []float64
	in, procs := 0, 0
	for _, p := range ps {
		rs = append(rs, p.ratio)
		if p.ratio > 1-threshold && p.ratio < 1/(1-threshold) {
			in++
		}
		procs += p.procs
	}
	slices.Sort(rs)
	q := func(f float64) float64 { return rs[int(f*float64(len(rs)-1)+0.5)] }
	fmt.Fprintf(b, "| %s | %d | %.3f | %.3f | %.3f | %d of %d | %.1f |\n", name, len(rs), q(0.05), q(0.5), q(0.95), in, len(rs), float64(procs)/float64(len(ps)))
}
