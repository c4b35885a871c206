// Command pure-notebook runs the workbench's notebooks: Markdown lessons in
// notebooks/NN-slug.md whose marked code blocks run in order, each with its
// output written below it.
//
//	pure-notebook run   [--dir DIR] [NAME...]   run cells, rewrite outputs
//	pure-notebook check [--dir DIR] [NAME...]   re-run, compare checked outputs
//	pure-notebook list  [--dir DIR]             the notebooks and their cells
//
// The format is described in notebooks/README.md and package
// workbench/notebooks/nb.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"

	"workbench/notebooks/nb"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pure-notebook: "+err.Error())
		if _, ok := err.(usageError); ok {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

const usage = `usage:
  pure-notebook run [--dir DIR] [NAME...]
      run each notebook's cells in order and write their outputs into it
      (plots beside it, in a directory named like the notebook)
  pure-notebook check [--dir DIR] [NAME...]
      re-run the cells; fail with a diff when a checked output differs from
      the stored one (varying outputs need only succeed); changes no file
  pure-notebook list [--dir DIR]
      the notebooks and their cells

NAME is a notebook's file name with or without .md, or its number (01);
without NAME, every notebooks/NN-*.md runs, in order. A failing cell stops
its notebook and is reported with its id and the tail of its output.
`

type usageError string

func (e usageError) Error() string { return string(e) }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageError("no subcommand: use run, check or list")
	}
	sub := args[0]
	switch sub {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	case "run", "check", "list":
	default:
		fmt.Fprint(stderr, usage)
		return usageError(fmt.Sprintf("unknown subcommand %q: use run, check or list", sub))
	}
	fs := flag.NewFlagSet("pure-notebook "+sub, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("dir", "", "the notebooks directory (default: notebooks/ of the module around the working directory)")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage+"\nflags:\n")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return nil
		}
		fmt.Fprint(stderr, usage)
		return usageError(err.Error())
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	if *dir == "" {
		*dir = filepath.Join(root, "notebooks")
	}
	files, err := pick(*dir, fs.Args())
	if err != nil {
		return err
	}
	if sub == "list" {
		return list(files, stdout)
	}
	opt := nb.Options{Check: sub == "check", Root: root, Log: stderr}
	for _, f := range files {
		rep, err := nb.RunFile(ctx, f, opt)
		if err != nil {
			return err
		}
		what := "outputs unchanged"
		switch {
		case opt.Check:
			what = "checked outputs same"
		case rep.Rewritten:
			what = "outputs rewritten"
		}
		fmt.Fprintf(stdout, "%s: %d cells, %s, %s\n", rep.Name, len(rep.Cells), what, rep.Took.Round(100e6))
	}
	return nil
}

// moduleRoot finds the directory of go.mod at or above the working
// directory: cells run there.
func moduleRoot() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", errors.New("no go.mod at or above the working directory: run pure-notebook inside the workbench repository")
		}
		d = up
	}
}

// pick resolves notebook names to files; no names means every NN-*.md.
func pick(dir string, names []string) ([]string, error) {
	all, err := filepath.Glob(filepath.Join(dir, "[0-9][0-9]-*.md"))
	if err != nil {
		return nil, err
	}
	sort.Strings(all)
	if len(all) == 0 {
		return nil, fmt.Errorf("no notebooks (NN-slug.md) in %s", dir)
	}
	if len(names) == 0 {
		return all, nil
	}
	var out []string
	for _, n := range names {
		n = strings.TrimSuffix(filepath.Base(n), ".md")
		var hit []string
		for _, f := range all {
			if b := nb.Name(f); b == n || strings.HasPrefix(b, n+"-") {
				hit = append(hit, f)
			}
		}
		if len(hit) != 1 {
			var known []string
			for _, f := range all {
				known = append(known, nb.Name(f))
			}
			return nil, usageError(fmt.Sprintf("notebook %q matches %d notebooks: use one of %s", n, len(hit), strings.Join(known, ", ")))
		}
		out = append(out, hit[0])
	}
	return out, nil
}

func list(files []string, w io.Writer) error {
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		book, err := nb.Parse(string(src))
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		fmt.Fprintf(w, "%s\n", nb.Name(f))
		for _, c := range book.Cells {
			fmt.Fprintf(w, "  %-24s %-3s %s\n", c.ID, c.Lang, c.Kind)
		}
	}
	return nil
}
