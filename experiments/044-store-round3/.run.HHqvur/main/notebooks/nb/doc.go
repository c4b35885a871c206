// Package nb runs notebooks: Markdown files whose marked code blocks are
// executed in order, with each block's output written below it, so that a
// lesson reads well on a code host without being run and its numbers can be
// re-checked on every commit.
//
// # Format
//
// A cell is a fenced code block whose info string is
//
//	LANG run id=ID checked|varies [timeout=DURATION] [plot=FILE.png]
//
// LANG is sh (run by bash -eo pipefail) or go (a main package, run by go
// run inside the module, so it may import workbench packages). Every cell
// runs in the repository root with $NB_WORK (a scratch directory the
// notebook's cells share, removed afterwards), $NB_ASSETS (where a plotting
// cell writes FILE.png) and $NB_ROOT set. A cell is marked checked when its
// output is exact (instruction counts under callgrind, deterministic text)
// and varies when it is not (times, profiles, anything machine-dependent).
//
// Below each cell the runner writes an output region (see region.go): an
// HTML comment line, a ```text block with the cell's standard output and
// error, an image link for a plot (the file beside the notebook, in a
// directory named like it), and a closing comment line. Outputs are stored
// normalised (Normalize: no trailing spaces, no trailing blank lines).
//
// # Files
//
//   - parse.go: Parse reads a notebook into cells and raw text, kept byte
//     for byte; the Cell and Output types.
//   - region.go: the output region: reading, writing, Render and SetOutput.
//     Rendering an unchanged notebook gives back its bytes exactly.
//   - exec.go: Exec runs one cell (its own process group, killed on
//     timeout); CellError names a failed cell and shows its output's tail.
//   - notebook.go: RunFile runs a notebook's cells in order and either
//     rewrites its outputs (run) or compares the checked ones (check);
//     CheckError lists the differences.
//   - diff.go: the line diff CheckError shows.
//
// cmd/pure-notebook is the command around this package.
package nb
