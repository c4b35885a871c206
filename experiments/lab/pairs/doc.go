// Package pairs runs a suite of workloads on two revisions of the project in
// alternating before/after pairs and writes one JSON line per run.
//
// It is the execution half of `just pairs`: statistics (package judge) and the
// note are computed later, from the JSONL alone.
//
// The pieces, in the order Run uses them:
//
//   - Suite (suite.go): the declarative list of workloads and their
//     measurements (typically one native for time, one under callgrind for
//     instructions), parsed from a line-based .suite file with line-numbered
//     errors.
//   - Builder (build.go): resolves each revision to a commit, checks it out in
//     a temporary git worktree under the cache directory, builds the subject
//     binaries with `go build -trimpath`, and caches them by commit hash. The
//     user's checkout is never touched; the harness itself always comes from
//     the current checkout.
//   - Controls (controls.go): what is held identical for both sides: the
//     subject's path (one symlink swapped between sides), argv, environment,
//     working directory, ASLR off with setarch -R, and the CPU it is pinned to
//     with taskset.
//   - Schedule (schedule.go): the cells of the experiment, one per pair,
//     side and workload, pair by pair in ABBA order (pair 1 before then
//     after, pair 2 after then before, ...).
//   - measure.go: runs the two cells of one workload in one pair together
//     (runCells) and merges pure-count's JSON lines and the children's
//     rusage into one Line per side. A callgrind measurement is one
//     invocation per side. A native (perf) measurement is several fresh
//     processes per side, each timing many short regions, alternating
//     between the sides A B B A A B ..., at least repeat of them and, up to
//     max-repeat, more until both sides' floors settle (two processes
//     within 2 % of the side's fastest region, which is itself within 2 %
//     of the side's median floor in earlier pairs); a run's time is its
//     fastest region. Experiment 012 shows why: on a shared VM whole processes can
//     run up to twice as slow, while the floor of many regions holds.
//   - Line (line.go): one run, a record.Run plus the fields this runner
//     adds, appended and fsync'd to runs.jsonl as each run finishes, and
//     read back on resume.
//   - experiment.go: the experiment directory, its meta.json and criteria.
//   - Progress (progress.go): one updating line on a terminal, plain lines
//     elsewhere.
//   - calibration.go: A/A calibration, below.
//   - Bisect (bisect.go): the first commit between a good and a bad one
//     where a workload's instruction count rises, built by the same Builder
//     and measured under the same Controls.
//
// Nothing here interprets the numbers beyond copying them into the record,
// except Bisect, which compares medians of counts against a threshold.
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
// note need (judge.Judge takes ReadCalibration's runs as its calib
// argument, the noise floor of counts), and a later A/A run of the same
// commit does not change an experiment already started. An A/A experiment
// takes no calibration: it is one.
package pairs
