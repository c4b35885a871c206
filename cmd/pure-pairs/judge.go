package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/export"
	"workbench/experiments/lab/note"
	"workbench/experiments/lab/pairs"
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
