package nb

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Options say how RunFile runs a notebook.
type Options struct {
	// Check re-runs the cells and compares checked outputs with the stored
	// ones instead of rewriting the notebook; plots go to a scratch
	// directory, so check changes no file.
	Check bool
	// Root is the repository root (the module's directory): cells run there.
	Root string
	// Log receives one line per cell as it finishes (nil: none).
	Log io.Writer
}

// Report is what a run of one notebook did.
type Report struct {
	Name       string
	Cells      []CellRun
	Mismatches []Mismatch // check mode: checked outputs that differ
	Rewritten  bool       // run mode: the notebook file changed
	Took       time.Duration
}

// CellRun is one cell's run.
type CellRun struct {
	Cell *Cell
	Took time.Duration
}

// Mismatch is a checked cell whose output differs from the stored one.
type Mismatch struct {
	Cell *Cell
	Diff string // line diff, stored (-) against now (+)
}

// CheckError is returned by a check whose checked outputs differ.
type CheckError struct {
	Notebook   string
	Mismatches []Mismatch
}

func (e *CheckError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d checked output(s) differ from the notebook:", e.Notebook, len(e.Mismatches))
	for _, m := range e.Mismatches {
		fmt.Fprintf(&b, "\ncell %s (line %d): - stored, + now\n%s", m.Cell.ID, m.Cell.Line, indent(m.Diff, "  "))
	}
	b.WriteString("\nIf the change is intended, run `go run ./cmd/pure-notebook run " + e.Notebook + "` and commit the new outputs.")
	return b.String()
}

// Name is a notebook's name: its file name without ".md".
func Name(file string) string { return strings.TrimSuffix(filepath.Base(file), ".md") }

// RunFile runs the cells of the notebook in file in order. A failing cell
// stops the notebook with a *CellError and leaves the file as it was. In
// run mode the outputs are then written into the file (only if something
// changed); in check mode every cell runs and checked outputs that differ
// are returned as a *CheckError.
func RunFile(ctx context.Context, file string, opt Options) (*Report, error) {
	name := Name(file)
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read notebook: %w", err)
	}
	nb, err := Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	env := Env{Root: opt.Root, Work: filepath.Join(opt.Root, "notebooks", ".work", name)}
	env.Assets = filepath.Join(filepath.Dir(file), name)
	if opt.Check {
		env.Assets = filepath.Join(env.Work, "assets")
	}
	os.RemoveAll(env.Work)
	if err := os.MkdirAll(env.Work, 0o755); err != nil {
		return nil, err
	}
	defer os.RemoveAll(env.Work)

	rep := &Report{Name: name}
	start := time.Now()
	for _, c := range nb.Cells {
		t0 := time.Now()
		out, err := Exec(ctx, c, env)
		took := time.Since(t0)
		if err != nil {
			return rep, &CellError{Notebook: name, Cell: c, Err: err, Tail: tail(out.Text, TailLines)}
		}
		if c.Plot != "" {
			out.Image = name + "/" + c.Plot
		}
		rep.Cells = append(rep.Cells, CellRun{Cell: c, Took: took})
		verdict := ""
		if opt.Check && c.Kind == Checked {
			if m, ok := compare(c, out); !ok {
				rep.Mismatches = append(rep.Mismatches, m)
				verdict = " DIFFERS"
			} else {
				verdict = " same"
			}
		}
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "%s: cell %s (%s) %.1fs%s\n", name, c.ID, c.Kind, took.Seconds(), verdict)
		}
		if !opt.Check {
			c.SetOutput(out)
		}
	}
	rep.Took = time.Since(start)
	if opt.Check {
		if len(rep.Mismatches) > 0 {
			return rep, &CheckError{Notebook: name, Mismatches: rep.Mismatches}
		}
		return rep, nil
	}
	if text := nb.Render(); text != string(src) {
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			return rep, fmt.Errorf("write notebook: %w", err)
		}
		rep.Rewritten = true
	}
	return rep, nil
}

// compare checks a checked cell's new output against the stored one.
func compare(c *Cell, now Output) (Mismatch, bool) {
	if c.Output == nil {
		return Mismatch{Cell: c, Diff: "(the notebook stores no output for this cell: run the notebook and commit it)"}, false
	}
	old := *c.Output
	if old == now {
		return Mismatch{}, true
	}
	d := Diff(old.Text, now.Text)
	if old.Image != now.Image {
		d += fmt.Sprintf("\n-image %s\n+image %s", old.Image, now.Image)
	}
	return Mismatch{Cell: c, Diff: d}, false
}
