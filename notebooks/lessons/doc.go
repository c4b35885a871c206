// Package lessons holds the small helpers the notebooks' go cells share, so
// that a cell shows its idea in a few lines: reading pure-count's JSON lines
// (runs.go), medians and spreads (runs.go), and a strip plot of runs
// against their median (plot.go).
//
// The programs beside it are run by the notebooks' sh cells: preempt (a
// region that another goroutine interrupts, lesson 02). qcount, in its own
// directory, counts instructions under qemu-user (lesson 05).
package lessons
