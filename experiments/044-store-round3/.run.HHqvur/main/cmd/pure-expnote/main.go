// Command pure-expnote regenerates the hand-built notes of the experiments
// that predate the pairs note, each from its own runs.jsonl:
//
//	pure-expnote experiments/001-callgrind-noise
//	pure-expnote experiments/012-region-floor
//	pure-expnote experiments/018-gate
//
// The experiment is recognised by its directory's name; the writers live in
// experiments/lab/oldnotes.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/oldnotes/callgrindnoise"
	"workbench/experiments/lab/oldnotes/gate"
	"workbench/experiments/lab/oldnotes/regionfloor"
)

// writers are the note writers, by experiment name.
var writers = map[string]func(dir string) error{
	"001-callgrind-noise": callgrindnoise.Write,
	"012-region-floor":    regionfloor.Write,
	"018-gate":            gate.Write,
}

func main() {
	err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, errUsage) {
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pure-expnote:", err)
		os.Exit(1)
	}
}

// errUsage marks an error whose explanation, with the usage, is printed.
var errUsage = errors.New("usage")

func usage() string {
	names := make([]string, 0, len(writers))
	for n := range writers {
		names = append(names, n)
	}
	slices.Sort(names)
	return "usage: pure-expnote EXPERIMENT-DIR\n\nRegenerates note.md of an experiment whose note predates the pairs note\n(" +
		strings.Join(names, ", ") + ") from its runs.jsonl. It takes no flags;\n`just note` regenerates the notes of pairs experiments.\n"
}

// run is the whole command, with its arguments after the program name.
func run(_ context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprint(stdout, usage())
		return nil
	}
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprint(stderr, usage())
		return errUsage
	}
	dir := args[0]
	name := filepath.Base(filepath.Clean(dir))
	write, ok := writers[name]
	if !ok {
		return fmt.Errorf("%s: no hand-built note for %q; for a pairs experiment run `just note exp=%s`", dir, name, name)
	}
	if err := write(dir); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", expdir.Dir(dir).Path(expdir.NoteFile))
	return nil
}
