// Command pure-index writes experiments/README.md, the index of the
// experiments (package workbench/experiments/lab/index): `just index`.
//
//	pure-index [--experiments DIR]
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/index"
)

func main() {
	err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, errUsage):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "pure-index:", err)
		os.Exit(1)
	}
}

// errUsage marks an error whose explanation, with the usage, is printed.
var errUsage = errors.New("usage")

// run is the whole command, with its arguments after the program name.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("pure-index", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("experiments", "experiments", "the experiments `directory` to index; the index is written there as README.md")
	printUsage := func(w io.Writer) {
		fmt.Fprint(w, "usage: pure-index [--experiments DIR]\n\nWrites DIR/README.md: one line per experiment (number, date, what it compared,\nsuite, A/A, verdict, note), the same bytes for the same files and history.\n\nflags:\n")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout)
			return nil
		}
		fmt.Fprintln(stderr, err)
		printUsage(stderr)
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "unexpected operand %q\n", fs.Arg(0))
		printUsage(stderr)
		return errUsage
	}
	entries, err := index.Collect(*dir, gitLog{ctx: ctx, dir: *dir})
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := index.Write(&b, entries); err != nil {
		return err
	}
	path := filepath.Join(*dir, index.File)
	if err := expdir.WriteFileAtomic(path, b.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %d experiments\n", path, len(entries))
	return nil
}

// gitLog answers index.Git from the repository holding dir.
type gitLog struct {
	ctx context.Context
	dir string
}

func (g gitLog) out(args ...string) string {
	b, err := exec.CommandContext(g.ctx, "git", append([]string{"-C", g.dir}, args...)...).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// Subject returns commit's subject line, "" if git does not know it.
func (g gitLog) Subject(commit string) string {
	return g.out("log", "-1", "--format=%s", commit, "--")
}

// Added returns the date of the oldest commit that added a file under path.
func (g gitLog) Added(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(g.out("log", "--diff-filter=A", "--format=%cs", "--", abs), "\n")
	return lines[len(lines)-1]
}
