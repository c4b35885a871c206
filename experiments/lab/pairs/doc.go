// Package pairs runs a suite of workloads on two revisions of the project in
// alternating before/after pairs and writes one JSON line per run.
//
// It is the execution half of `just pairs`: statistics (package judge) and
// the note (package note) are computed later, from the experiment directory
// alone (package expdir). Run is the thin sequence of the stages, each its
// own package:
//
//  1. suite.LoadSuite reads the suite from EXPERIMENTS/suites.
//  2. build.Builder resolves and builds both revisions (cached by commit).
//  3. measure.DetectControls sets what is held identical for both sides;
//     experiment.go names the directory, writes meta.json and the
//     criteria (through expdir), and calibration is copied in.
//  4. Schedule (schedule.go) orders the cells, pair by pair in ABBA order
//     (pair 1 before then after, pair 2 after then before, ...);
//     measure.RunCells runs the two sides of one workload in one pair
//     together (cells.go), and each line is appended to runs.jsonl and
//     fsync'd (expdir.RunsWriter) as it finishes; extend.go adds pairs
//     for the part of a workload the judge left unknown. history.go keeps each side's
//     floors for the settling rule's reference (judge.Rounds).
//  5. profiles.go converts pair 1's callgrind dumps into pprof profiles;
//     a completed A/A experiment becomes its commit's calibration.
//
// Progress (progress.go) is one updating line on a terminal, plain lines
// elsewhere.
//
// With Options.GoBench the subject is another module's Go benchmarks
// (gobench.go): stage 1 is skipped, stage 2 builds each side's test
// binaries in a worktree of that repository (or a copy of the module
// version) with gobench.Builder, and gobench.Plan makes the suite from the
// benchmarks both sides have, probed once both are built; the stages after
// it are the same.
//
// # Calibration
//
// An experiment whose two sides resolve to the same commit is an A/A
// experiment: it measures what the same build shows against itself, the
// noise floor of each workload. Its meta.json says "aa": true, and once
// every cell is recorded its runs.jsonl is stored whole as the calibration
// of that commit and suite:
//
//	Options.CalibrationDir/<commit>-<suite>.jsonl   (default data/calibration/)
//
// replacing an older calibration of the same commit and suite only then, by
// a rename, so an interrupted A/A experiment never replaces a good
// calibration with a partial one. A later experiment whose before commit
// has a calibration for its suite copies it into its own directory as
// calibration.jsonl when it starts, and records where it came from in
// meta.json ("calibration": path, commit, suite, the A/A experiment, runs).
// The experiment directory alone then holds everything the judge and the
// note need (judge.Judge takes expdir.ReadCalibration's runs as its calib
// argument, the noise floor of counts), and a later A/A run of the same
// commit does not change an experiment already started. An A/A experiment
// takes no calibration: it is one.
package pairs
