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
//   - measure.go: runs one cell, invoking the subject once per measurement,
//     and merges pure-count's JSON lines and the child's rusage into a Line.
//   - Line (line.go): one run, a record.Run plus the fields this runner
//     adds, appended and fsync'd to runs.jsonl as each run finishes, and
//     read back on resume.
//   - experiment.go: the experiment directory, its meta.json and criteria.
//   - Progress (progress.go): one updating line on a terminal, plain lines
//     elsewhere.
//
// Nothing here interprets the numbers beyond copying them into the record.
package pairs
