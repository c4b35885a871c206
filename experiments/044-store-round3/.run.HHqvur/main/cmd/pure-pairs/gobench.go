package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"workbench/experiments/lab/build"
	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/gobench"
	"workbench/experiments/lab/pairs"
)

// goBenchFlags defines the flags that make run or bisect judge another
// module's Go benchmarks; *s is set when any of them is given.
func goBenchFlags(fs *flag.FlagSet, s **gobench.Subject) {
	set := func(f func(*gobench.Subject, string)) func(string) error {
		return func(v string) error {
			if *s == nil {
				*s = &gobench.Subject{}
			}
			f(*s, v)
			return nil
		}
	}
	fs.Func("repo", "judge the Go benchmarks of the git repository at `path` (its revisions are before and after)",
		set(func(s *gobench.Subject, v string) { s.Repo = v }))
	fs.Func("module", "judge the Go benchmarks of the module `path` from the module proxy (before and after are versions)",
		set(func(s *gobench.Subject, v string) { s.Module = v }))
	fs.Func("pkg", "with repo or module: the `packages` whose benchmarks run, as go list takes them (default ./...)",
		set(func(s *gobench.Subject, v string) { s.Pkg = v }))
	fs.Func("bench", "with repo or module: the benchmarks to run, a -test.bench `regexp` (default: all)",
		set(func(s *gobench.Subject, v string) { s.Bench = v }))
}

// checkGoBench refuses pkg= or bench= without a subject.
func checkGoBench(s *gobench.Subject) error {
	if s != nil && s.Repo == "" && s.Module == "" {
		return errors.New("pkg= and bench= choose the benchmarks of repo=PATH or module=PATH: name one")
	}
	return nil
}

const criteriaUsage = `usage: pure-pairs criteria exp=NAME [experiments=DIR]

Writes the default criteria to EXPERIMENTS/NAME/criteria, creating the
directory, and stops: edit it, then run pure-pairs run ... exp=NAME, which
judges by it (criteria are fixed before the change is measured). A
repository or module of someone else's carries none of this project's
criteria files. An existing file is left alone.
`

// runCriteria runs the criteria subcommand.
func runCriteria(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("pure-pairs criteria", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), criteriaUsage) }
	var exp, dir string
	fs.StringVar(&exp, "exp", "", "experiment directory `name`")
	fs.StringVar(&dir, "experiments", "", "experiments `directory` (default: CHECKOUT/experiments)")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	if exp == "" || filepath.Base(exp) != exp || exp == "." || exp == ".." {
		fmt.Fprintln(stderr, "name the experiment: exp=NNN-slug (one directory name)")
		fs.Usage()
		return errUsage
	}
	if dir == "" {
		root, err := build.RepoRoot(ctx, ".")
		if err != nil {
			return err
		}
		dir = filepath.Join(root, "experiments")
	}
	d := expdir.Dir(filepath.Join(dir, exp))
	path := d.Path(expdir.CriteriaFile)
	if _, err := os.Stat(path); err == nil {
		fmt.Fprintf(stdout, "%s already exists: left as it is\n", path)
		return nil
	}
	if err := os.MkdirAll(string(d), 0o755); err != nil {
		return err
	}
	if err := expdir.WriteFileAtomic(path, []byte(pairs.DefaultCriteria)); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote the default criteria to %s: edit it, then run with exp=%s\n", path, exp)
	return nil
}
