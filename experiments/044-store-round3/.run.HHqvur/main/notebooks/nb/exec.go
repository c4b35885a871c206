package nb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Env is where a notebook's cells run.
type Env struct {
	// Root is the repository root: every cell runs there.
	Root string
	// Work is a scratch directory the notebook's cells share ($NB_WORK):
	// one cell writes a file, a later one reads it. It lies inside the module
	// (under notebooks/.work), so go cells can import the workbench packages.
	Work string
	// Assets is where plotting cells write their PNG files ($NB_ASSETS).
	Assets string
}

// CellError is a cell that failed: it exited non-zero, ran past its
// timeout, or did not write the plot it declares.
type CellError struct {
	Notebook string
	Cell     *Cell
	Err      error
	Tail     string // the last lines of its output
}

// TailLines is how many of a failed cell's last output lines a CellError
// shows.
const TailLines = 20

func (e *CellError) Error() string {
	msg := fmt.Sprintf("%s: cell %s (line %d) failed: %v", e.Notebook, e.Cell.ID, e.Cell.Line, e.Err)
	if e.Tail == "" {
		return msg + " (it printed nothing)"
	}
	return msg + fmt.Sprintf("\nlast %d lines of its output:\n%s", TailLines, indent(e.Tail, "  | "))
}

func (e *CellError) Unwrap() error { return e.Err }

// Exec runs one cell and returns its normalised output. A cell's standard
// output and error go to one stream, in the order it wrote them.
func Exec(ctx context.Context, c *Cell, env Env) (Output, error) {
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	if c.Plot != "" { // the directory beside the notebook exists only for plots
		if err := os.MkdirAll(env.Assets, 0o755); err != nil {
			return Output{}, err
		}
	}
	cmd, cleanup, err := command(ctx, c, env)
	if err != nil {
		return Output{}, err
	}
	defer cleanup()
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	cmd.Dir = env.Root
	cmd.Env = append(os.Environ(), "NB_WORK="+env.Work, "NB_ASSETS="+env.Assets, "NB_ROOT="+env.Root)
	// The cell and everything it starts form one process group, which a
	// timeout ends as a whole.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err = cmd.Run()
	text := Normalize(buf.String())
	if ctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("ran past its timeout of %v: make it faster or give the cell a larger timeout=", c.Timeout)
	}
	if err != nil {
		return Output{Text: text}, err
	}
	out := Output{Text: text}
	if c.Plot != "" {
		if _, err := os.Stat(filepath.Join(env.Assets, c.Plot)); err != nil {
			return out, fmt.Errorf("it declares plot=%s but wrote no $NB_ASSETS/%s", c.Plot, c.Plot)
		}
	}
	return out, nil
}

// command builds the process for a cell: bash for sh cells, go run of a
// main package written under env.Work for go cells.
func command(ctx context.Context, c *Cell, env Env) (*exec.Cmd, func(), error) {
	dir := filepath.Join(env.Work, "cell-"+c.ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	switch c.Lang {
	case "sh":
		file := filepath.Join(dir, "cell.sh")
		if err := os.WriteFile(file, []byte(c.Code), 0o644); err != nil {
			return nil, cleanup, err
		}
		return exec.CommandContext(ctx, "bash", "-eo", "pipefail", file), cleanup, nil
	case "go":
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(c.Code), 0o644); err != nil {
			return nil, cleanup, err
		}
		rel, err := filepath.Rel(env.Root, dir)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, cleanup, fmt.Errorf("go cells need their scratch directory %s inside the module at %s", dir, env.Root)
		}
		return exec.CommandContext(ctx, "go", "run", "./"+filepath.ToSlash(rel)), cleanup, nil
	}
	return nil, cleanup, errors.New("unknown language " + c.Lang)
}

func tail(text string, n int) string {
	lines := strings.Split(text, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
