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
	err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, errUsage) {
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pure-note: "+err.Error())
		os.Exit(1)
	}
}

// errUsage marks an error whose explanation, with the usage, is printed.
var errUsage = errors.New("usage")

const usage = `usage: pure-note exp=NNN-slug | pure-note DIR

Regenerates the note of a pairs experiment from its directory alone:
runs.jsonl, meta.json, criteria, calibration.jsonl and profiles/ in; note.md,
ratios.png and bench.txt (for benchstat -col side) out, byte for byte the
same each time. exp=NAME names a directory under experiments/ (or
experiments/probes/); DIR is any experiment directory. It takes no flags
but -h.
`

// run is the whole command, with its arguments after the program name.
func run(_ context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprint(stdout, usage)
		return nil
	}
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && strings.HasPrefix(args[0], "-") {
			fmt.Fprintf(stderr, "unknown flag %s\n", args[0])
		}
		fmt.Fprint(stderr, usage)
		return errUsage
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
