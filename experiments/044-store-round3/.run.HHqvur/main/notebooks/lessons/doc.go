// Package lessons holds the small helpers the notebooks' go cells share, so
// that a cell shows its idea in a few lines: reading pure-count's JSON lines
// (runs.go), medians and spreads (runs.go), and a strip plot of runs
// against their median (plot.go).
//
// The programs beside it are run by the notebooks' sh cells: table and
// spread (runs of pure-count as tables), aa (an A/A comparison), preempt (a
// region counted without pure-count's quiet start, lesson 02), storeload
// (the store under concurrent writers, profiled, lesson 03) and elfinfo
// (what a binary was built for, lesson 05). qcount, in its own directory,
// counts instructions under qemu-user (lesson 05).
package lessons
