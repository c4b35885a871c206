// Package measure runs the subject processes of an experiment and parses
// what they print; it holds process control and output parsing only. The
// estimators that turn regions and rounds into a run's time, and the rules
// for when a measurement has run enough rounds, are package judge's
// (judge/rounds.go).
//
//   - cell.go: Side, Cell and CellKey, one run of the schedule.
//   - controls.go: Controls, what is held identical for both sides: the
//     subject's path (one symlink swapped between sides, each process from
//     a fresh copy of its side's binaries), argv, environment, working
//     directory, ASLR off with setarch -R, and the CPU it is pinned to with
//     taskset.
//   - features.go: which timing flags (run --gate, --rerun) each side's
//     pure-count knows.
//   - measure.go: RunCells runs the two cells of one workload in one pair
//     together and merges pure-count's JSON lines and the children's rusage
//     into one expdir.Line per side (the merge rules are in expdir.Line's
//     doc); Invoke runs one process.
//   - gated.go: a gated round, two processes side by side whose regions
//     take turns one by one (pure-count run --gate).
//   - backend.go: DetectBackend, and PerOpCounts, the per-operation counts
//     of a `pure-count run --json` output, for bisect.
package measure
