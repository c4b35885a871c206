// Package export writes an experiment's runs in the Go benchmark format, so
// that benchstat (and anything else that reads golang.org/x/perf/benchfmt)
// can compare the two sides:
//
//	benchstat -col side experiments/NNN-slug/bench.txt
//
// Each run becomes one result line, named after its workload, with its
// operations as the iteration count: time (sec/op from the run's fastest
// region; the paired time, unit "paired-time", the deciding time metric
// where the runs recorded it; CPU sec/op) and every count per op. Each side
// is a block with its own configuration line (side) after a comment naming
// its revision and commit, and each source of counts its own unit:
// callgrind's instruction counts are "instructions/op", perf's are
// "perf-instructions/op", so the two are never compared. A count is
// declared assume=exact only when it was exact in the experiment (see
// Write). Failed runs are left out; the note lists them.
package export

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/perfcount"
)

// File is the name of the export in an experiment directory.
const File = expdir.ExportFile

// PairedUnit is the unit of the paired time, the deciding time metric
// where the runs recorded it: each side's time per operation over the
// geometric mean of both sides' in the same pair, so 1 is their mean and
// after over before is the pair's ratio. benchstat compares it like any
// lower-is-better unit.
const PairedUnit = "paired-time"

// Write writes runs in the Go benchmark format: before first, then after,
// each in pair order. Every unit is declared once, before the first
// result: better=lower, and assume=exact only for a count that was exact in
// this experiment (every run of each workload and side counted the same),
// so that benchstat summarises a count that varies by its median, as the
// note does, not by its mode.
func Write(w io.Writer, experiment string, runs []expdir.Run) error {
	var b strings.Builder
	fmt.Fprintf(&b, "experiment: %s\n", experiment)
	var ok []expdir.Run
	for _, r := range runs {
		if r.ExitCode == 0 && r.Ops > 0 {
			ok = append(ok, r)
		}
	}
	declared := false
	for _, side := range []string{"before", "after"} {
		var rs []expdir.Run
		for _, r := range ok {
			if r.Side == side {
				rs = append(rs, r)
			}
		}
		if len(rs) == 0 {
			continue
		}
		slices.SortStableFunc(rs, func(a, b expdir.Run) int {
			if a.Pair != b.Pair {
				return a.Pair - b.Pair
			}
			return strings.Compare(a.Workload, b.Workload)
		})
		// Only side varies as configuration, so that benchstat -col side
		// compares the two; the revision is a line benchfmt skips.
		fmt.Fprintf(&b, "\n# %s: %s, commit %s\nside: %s\n", side, rs[0].Revision, rs[0].Commit, side)
		if !declared {
			declareUnits(&b, ok)
			declared = true
		}
		for _, r := range rs {
			b.WriteString(result(r))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// declareUnits writes one Unit line per unit the runs use, in the order of
// first use.
func declareUnits(b *strings.Builder, runs []expdir.Run) {
	type key struct{ workload, side, unit string }
	first := map[key]float64{}
	exact := map[string]bool{}
	var units []string
	see := func(r expdir.Run, unit string, v float64, counted bool) {
		if _, ok := exact[unit]; !ok {
			exact[unit] = counted
			units = append(units, unit)
		}
		k := key{r.Workload, r.Side, unit}
		if f, ok := first[k]; !ok {
			first[k] = v
		} else if f != v {
			exact[unit] = false
		}
	}
	for _, r := range runs {
		if r.Metrics.PairedTime > 0 {
			see(r, PairedUnit, r.Metrics.PairedTime, false)
		}
		if r.Metrics.CPUPerOp > 0 {
			see(r, "cpu-sec/op", r.Metrics.CPUPerOp, false)
		}
		for _, c := range r.Counts {
			if !c.Multiplexed {
				see(r, Unit(c), c.PerOp, true)
			}
		}
	}
	for _, u := range units {
		decl := u + " better=lower"
		if exact[u] {
			decl += " assume=exact"
		}
		fmt.Fprintf(b, "Unit %s\n", decl)
	}
}

// result formats one run as a benchmark result line.
func result(r expdir.Run) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Benchmark%s %d", Name(r.Workload), r.Ops)
	if r.Metrics.Throughput > 0 {
		fmt.Fprintf(&b, " %.6g sec/op", 1/r.Metrics.Throughput)
	}
	if r.Metrics.PairedTime > 0 {
		fmt.Fprintf(&b, " %.10g %s", r.Metrics.PairedTime, PairedUnit)
	}
	if r.Metrics.CPUPerOp > 0 {
		fmt.Fprintf(&b, " %.6g cpu-sec/op", r.Metrics.CPUPerOp)
	}
	if v := r.Metrics.BytesPerOp; v != nil {
		fmt.Fprintf(&b, " %.6g B/op", *v)
	}
	if v := r.Metrics.AllocsPerOp; v != nil {
		fmt.Fprintf(&b, " %.6g allocs/op", *v)
	}
	for _, c := range r.Counts {
		if c.Multiplexed {
			continue // counted for part of the run only; the note shows it
		}
		fmt.Fprintf(&b, " %.10g %s", c.PerOp, Unit(c))
	}
	b.WriteByte('\n')
	return b.String()
}

// Unit names a count's benchmark unit: callgrind's instructions are
// "instructions/op"; counts from perf carry the prefix "perf-".
func Unit(c expdir.Count) string {
	u := strings.ReplaceAll(c.Event, " ", "_") + "/op"
	if c.Source != perfcount.SourceCallgrind {
		u = "perf-" + u
	}
	return u
}

// Name turns a workload name into a benchmark name: "store-get" becomes
// "StoreGet", "sort-ints-10k" "SortInts10k". A Go benchmark's workload
// (gobench: "Parse/small") is already one and is kept, but for spaces.
func Name(workload string) string {
	if !projectName.MatchString(workload) {
		return strings.ReplaceAll(workload, " ", "_")
	}
	var b strings.Builder
	up := true
	for _, r := range workload {
		if r == '-' || r == '_' || r == ' ' || r == '/' {
			up = true
			continue
		}
		if up && 'a' <= r && r <= 'z' {
			r -= 'a' - 'A'
		}
		up = false
		b.WriteRune(r)
	}
	return b.String()
}

// projectName is how the project's own workloads are named (the bank's
// views keep their underscores: bank-in_credit-10k).
var projectName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// WriteFile writes the export of runs into dir/bench.txt, atomically.
func WriteFile(dir, experiment string, runs []expdir.Run) error {
	var b bytes.Buffer
	if err := Write(&b, experiment, runs); err != nil {
		return err
	}
	return expdir.WriteFileAtomic(expdir.Dir(dir).Path(File), b.Bytes())
}
