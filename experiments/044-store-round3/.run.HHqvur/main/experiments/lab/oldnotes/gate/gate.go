// Package gate writes the note of experiment 018-gate from its
// runs.jsonl: `go run ./cmd/pure-expnote experiments/018-gate`.
package gate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/stats"
)

// pair is one simulated A/A pair: both sides ran the same binary; each
// side's processes are lists of their regions' wall time per op.
type pair struct {
	Batch    string      `json:"batch"`
	Workload string      `json:"workload"`
	Pair     int         `json:"pair"`
	Design   string      `json:"design"`
	Elapsed  float64     `json:"elapsed_s"`
	A        [][]float64 `json:"a_ns_per_op"`
	B        [][]float64 `json:"b_ns_per_op"`
}

// key is one row: a design measured on a workload in a batch.
type key struct{ batch, workload, design string }

// threshold is the default time criterion of the pairs runner.
const threshold = 3.0 // percent

// Write writes dir/note.md from dir/runs.jsonl.
func Write(dir string) error {
	f, err := os.Open(expdir.Dir(dir).Path(expdir.RunsFile))
	if err != nil {
		return err
	}
	defer f.Close()
	groups := map[key][]pair{}
	var order []key
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var p pair
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return fmt.Errorf("runs.jsonl line %d: %w", n, err)
		}
		k := key{p.Batch, p.Workload, p.Design}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], p)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(header)
	batch := ""
	for _, k := range order {
		if k.batch != batch {
			batch = k.batch
			fmt.Fprintf(&b, "\n## Batch %q\n\n", batch)
			b.WriteString("| workload | design | pairs | regions per side | s per pair | sd of change | largest change | within ±3 % | changes, pair by pair |\n")
			b.WriteString("|:--|:--|--:|--:|--:|--:|--:|--:|:--|\n")
		}
		ps := groups[k]
		var changes []float64
		var secs float64
		regions := 0
		for _, p := range ps {
			changes = append(changes, 100*(floor(p.B)/floor(p.A)-1))
			secs += p.Elapsed
			regions = count(p.A)
		}
		within, largest := 0, 0.0
		list := ""
		for i, c := range changes {
			if math.Abs(c) <= threshold {
				within++
			}
			largest = max(largest, math.Abs(c))
			if i > 0 {
				list += " "
			}
			list += fmt.Sprintf("%+.1f", c)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %.1f | %.2f %% | %.1f %% | %d of %d | %s |\n", k.workload, k.design, len(ps),
			regions, secs/float64(len(ps)), sd(changes), largest, within, len(ps), list)
	}
	writeEstimators(&b, order, groups)
	b.WriteString(footer)
	return expdir.WriteFileAtomic(expdir.Dir(dir).Path(expdir.NoteFile), b.Bytes())
}

// writeEstimators compares, on the gated designs, the runner's estimator
// (the ratio of the two sides' fastest regions) with estimators that pair
// each region with the other side's region next to it in time: in a gated
// round, region k of one process ran right before or after region k of the
// other.
func writeEstimators(b *bytes.Buffer, order []key, groups map[key][]pair) {
	b.WriteString("\n## Estimators on the gated designs\n\n")
	b.WriteString("The same pairs, other ways of turning a pair's regions into its change: *fastest* is B's fastest region over A's (what the runner does); *paired median* is the median over all region pairs of B's region k over A's region k of the same round; *paired IQ mean* is the geometric mean of the middle half of those ratios.\n\n")
	b.WriteString("| workload | design | estimator | sd of change | largest change | within ±3 % |\n")
	b.WriteString("|:--|:--|:--|--:|--:|--:|\n")
	for _, k := range order {
		workload, design := k.workload, k.design
		if !strings.HasPrefix(design, "gated") {
			continue
		}
		ests := map[string][]float64{}
		names := []string{"fastest", "paired median", "paired IQ mean"}
		for _, p := range groups[k] {
			var logs []float64
			for r := range min(len(p.A), len(p.B)) {
				for i := range min(len(p.A[r]), len(p.B[r])) {
					logs = append(logs, math.Log(p.B[r][i]/p.A[r][i]))
				}
			}
			slices.Sort(logs)
			q := len(logs) / 4
			mid := logs[q : len(logs)-q]
			var sum float64
			for _, x := range mid {
				sum += x
			}
			ests["fastest"] = append(ests["fastest"], 100*(floor(p.B)/floor(p.A)-1))
			ests["paired median"] = append(ests["paired median"], 100*(math.Exp(stats.Median(logs))-1))
			ests["paired IQ mean"] = append(ests["paired IQ mean"], 100*(math.Exp(sum/float64(len(mid)))-1))
		}
		for _, n := range names {
			xs := ests[n]
			within, largest := 0, 0.0
			for _, x := range xs {
				if math.Abs(x) <= threshold {
					within++
				}
				largest = max(largest, math.Abs(x))
			}
			fmt.Fprintf(b, "| %s | %s | %s | %.2f %% | %.1f %% | %d of %d |\n", workload, design, n, sd(xs), largest, within, len(xs))
		}
	}
}

// floor is the fastest region of all of a side's processes.
func floor(procs [][]float64) float64 {
	least := math.Inf(1)
	for _, p := range procs {
		if len(p) > 0 {
			least = min(least, slices.Min(p))
		}
	}
	return least
}

func count(procs [][]float64) int {
	n := 0
	for _, p := range procs {
		n += len(p)
	}
	return n
}

// sd is the sample standard deviation.
func sd(xs []float64) float64 {
	if len(xs) < 2 {
		return math.NaN()
	}
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}

const header = `# Experiment 018: regions taking turns between the sides, and regions rerun on one preparation

Generated from runs.jsonl by ` + "`go run ./cmd/pure-expnote experiments/018-gate`" + `;
edits are lost when it runs again. How the runs were made: README.md.

Question: on this loaded 2-core VM, the store workloads' time verdicts in A/A experiments
were "unknown" about half the time (experiments 014-aa-1..5), because the fastest region of
a side moved by several % from pair to pair. Does it move less when (a) the two sides'
processes take turns region by region instead of process by process, and (b) the regions
of a process rerun on one preparation instead of loading a fresh 20,000-key store (30-50
ms) before each 15 ms region?

Each row simulates A/A pairs: both sides ran the same binary, so every change is noise.
A pair is four rounds of one process per side (A B, then B A, ...); a side's time is the
fastest region of its four processes, as in the pairs runner; the change is
B's / A's − 1. Designs:

- *processes, fresh, 10 regions*: the runner before this experiment: whole processes take
  turns, each region prepared afresh.
- *processes, rerun, 30 regions*: the same, but each process loads the store once and
  reruns its region 30 times.
- *gated, fresh, 10 regions*: the two processes of a round live side by side and take
  turns region by region (A B B A ...), one running at a time; regions prepared afresh.
- *gated, rerun, 30 regions*: both.

Within a batch the designs took turns pair by pair, so each met the same hours of load.
`

const footer = `
## Reading

- Rerun alone (batch "rerun-only") did not help: with whole processes taking turns, both
  designs had pairs 20-36 % off, so three times the regions per process is not enough
  when the two sides' processes meet different stretches of load.
- Taking turns region by region (batch "gate") cut the spread of store-get's changes
  several-fold, and rerunning on one preparation (three times the regions in the same
  time) cut it further; for store-put the two gated designs were alike, both far better
  than whole processes.
- The pairs runner now does this (pure-count run --gate and --rerun; suite key
  prepare=once); the A/A experiments 019-aa-* measure it end to end.
- With regions taking turns, the regions of the two sides come in pairs close in time,
  and an estimator that uses that pairing (the IQ mean of region-by-region ratios)
  spread less than the fastest-region ratio here, on store-put most of all. The runner
  does not use it yet: its judge compares per-side values pair by pair, and a paired
  ratio would have to be recorded and judged as such.
`
