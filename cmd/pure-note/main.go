// Command pure-note regenerates the note of a pairs experiment from its
// directory alone: runs.jsonl, meta.json, criteria, calibration.jsonl and
// profiles/ in; note.md, ratios.png and bench.txt (the runs in the Go
// benchmark format, for benchstat) out, byte for byte the same each time.
//
//	pure-note exp=NNN-slug        (the experiment under ./experiments or ./experiments/probes)
//	pure-note DIR                 (any experiment directory)
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/export"
	"workbench/experiments/lab/note"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "pure-note: "+err.Error())
		os.Exit(1)
	}
}

func run(_ context.Context, args []string, stdout, _ io.Writer) error {
	if len(args) != 1 {
		return errors.New("usage: pure-note exp=NNN-slug | pure-note DIR")
	}
	dir := args[0]
	if name, ok := strings.CutPrefix(dir, "exp="); ok {
		if name == "" || strings.ContainsRune(name, '/') {
			return fmt.Errorf("exp=%q: name an experiment directory under experiments/, e.g. exp=002-pairs-abc-def", name)
		}
		dir = filepath.Join("experiments", name)
		if _, err := os.Stat(dir); err != nil {
			// Probes have their own series, experiments/probes/.
			if _, perr := os.Stat(filepath.Join("experiments", "probes", name)); perr == nil {
				dir = filepath.Join("experiments", "probes", name)
			}
		}
	}
	exp, err := note.Render(dir)
	if err != nil {
		return err
	}
	if err := export.WriteFile(dir, exp.Name, exp.Runs); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s, %s and %s\n", filepath.Join(dir, expdir.NoteFile), filepath.Join(dir, expdir.PlotFile), filepath.Join(dir, expdir.ExportFile))
	return nil
}
