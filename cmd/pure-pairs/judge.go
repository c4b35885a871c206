package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/export"
	"workbench/experiments/lab/judge"
	"workbench/experiments/lab/note"
	"workbench/experiments/lab/pairs"
	"workbench/experiments/lab/suite"
	"workbench/perfcount"
)

// judgeAndWrite judges the experiment from its directory alone, writes its
// note, plot and benchstat export there, and prints the verdict.
func judgeAndWrite(ctx context.Context, res *pairs.Result, stdout, stderr io.Writer) error {
	fmt.Fprintf(stdout, "%s: %d runs recorded (%d failed), %d from earlier sessions, in %s\n",
		res.Experiment, res.Ran, res.Failed, res.Skipped, res.RunsPath)
	exp, err := note.Render(res.Dir)
	if err != nil {
		return fmt.Errorf("writing the note of %s: %w", res.Experiment, err)
	}
	if err := export.WriteFile(res.Dir, exp.Name, exp.Runs); err != nil {
		return fmt.Errorf("exporting %s for benchstat: %w", res.Experiment, err)
	}
	printVerdict(stdout, exp)
	fmt.Fprintf(stdout, "note: %s\nbenchstat: benchstat -col side %s\n", filepath.Join(res.Dir, expdir.NoteFile), filepath.Join(res.Dir, expdir.ExportFile))
	return nil
}

// printVerdict prints the overall verdict and one line per workload.
func printVerdict(w io.Writer, exp *note.Experiment) {
	r := exp.Report
	fmt.Fprintf(w, "verdict: %s: %s\n", r.Verdict, r.Reason)
	for _, wl := range r.Workloads {
		fmt.Fprintf(w, "  %-20s %-8s %s\n", wl.Workload, wl.Verdict, wl.Reason)
	}
}

// decideFromNote is the runner's Decider: it judges the experiment as the
// note will and returns the unknown workloads more pairs may decide, with
// the judge's reason and the backends whose measurements can still decide
// them, leaving out any whose runs failed (more pairs of a failing workload
// decide nothing).
func decideFromNote(_ context.Context, dir string) (map[string]pairs.Undecided, error) {
	e, err := note.Judge(dir)
	if err != nil {
		return nil, err
	}
	failed := map[string]bool{}
	for _, f := range e.Failures {
		failed[f.Run.Workload] = true
	}
	out := map[string]pairs.Undecided{}
	for i := range e.Report.Workloads {
		w := &e.Report.Workloads[i]
		if w.MorePairsMayDecide() && !failed[w.Workload] {
			out[w.Workload] = pairs.Undecided{Reason: w.Reason, Backends: undecidedBackends(w)}
		}
	}
	return out, nil
}

// undecidedBackends returns the backends whose measurements feed w's
// deciding metrics that are still unknown: perf for the time metric (the
// timed run), the count's source for the instruction count. It returns
// nil, every measurement, when a count's source is not one backend.
func undecidedBackends(w *judge.WorkloadResult) []string {
	var bs []string
	for i := range w.Metrics {
		m := &w.Metrics[i]
		if !m.Decides || m.Verdict != judge.Unknown {
			continue
		}
		var b string
		switch {
		case m.Metric.Class == judge.ClassTime:
			b = suite.BackendPerf
		case m.Source == perfcount.SourcePerf:
			b = suite.BackendPerf
		case m.Source == perfcount.SourceCallgrind:
			b = suite.BackendCallgrind
		default:
			return nil
		}
		if !slices.Contains(bs, b) {
			bs = append(bs, b)
		}
	}
	slices.Sort(bs)
	return bs
}
