// Package export writes an experiment's runs in the Go benchmark format, so
// that benchstat (and anything else that reads golang.org/x/perf/benchfmt)
// can compare the two sides:
//
//	benchstat -col side experiments/NNN-slug/bench.txt
//
// Each run becomes one result line, named after its workload, with its
// operations as the iteration count: time (sec/op from the run's
// throughput, CPU sec/op) and every count per op. Each side is a block with
// its own configuration line (side) after a comment naming its revision and
// commit, and each source of
// counts its own unit: callgrind's instruction counts are
// "instructions/op" (assume=exact: the same work gives the same count),
// perf's are "perf-instructions/op", so the two are never compared. Failed
// runs are left out; the note lists them.
package export

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/perfcount"
)

// File is the name of the export in an experiment directory.
const File = expdir.ExportFile

// Write writes runs in the Go benchmark format: before first, then after,
// each in pair order.
func Write(w io.Writer, experiment string, runs []expdir.Run) error {
	var b strings.Builder
	fmt.Fprintf(&b, "experiment: %s\n", experiment)
	units := map[string]bool{}
	for _, side := range []string{"before", "after"} {
		var rs []expdir.Run
		for _, r := range runs {
			if r.Side == side && r.ExitCode == 0 && r.Ops > 0 {
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
		for _, r := range rs {
			line, us := result(r)
			for _, u := range us {
				if !units[u] {
					units[u] = true
					fmt.Fprintf(&b, "Unit %s\n", u)
				}
			}
			b.WriteString(line)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// result formats one run as a benchmark result line and returns the unit
// declarations its units need.
func result(r expdir.Run) (string, []string) {
	var b strings.Builder
	fmt.Fprintf(&b, "Benchmark%s %d", Name(r.Workload), r.Ops)
	var units []string
	if r.Metrics.Throughput > 0 {
		fmt.Fprintf(&b, " %.6g sec/op", 1/r.Metrics.Throughput)
	}
	if r.Metrics.CPUPerOp > 0 {
		fmt.Fprintf(&b, " %.6g cpu-sec/op", r.Metrics.CPUPerOp)
		units = append(units, "cpu-sec/op better=lower")
	}
	for _, c := range r.Counts {
		if c.Multiplexed {
			continue // counted for part of the run only; the note shows it
		}
		u := Unit(c)
		fmt.Fprintf(&b, " %.10g %s", c.PerOp, u)
		decl := u + " better=lower"
		if c.Source == perfcount.SourceCallgrind {
			decl += " assume=exact"
		}
		units = append(units, decl)
	}
	b.WriteByte('\n')
	return b.String(), units
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
// "StoreGet", "sort-ints-10k" "SortInts10k".
func Name(workload string) string {
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

// WriteFile writes the export of runs into dir/bench.txt, atomically.
func WriteFile(dir, experiment string, runs []expdir.Run) error {
	var b bytes.Buffer
	if err := Write(&b, experiment, runs); err != nil {
		return err
	}
	return expdir.WriteFileAtomic(expdir.Dir(dir).Path(File), b.Bytes())
}
