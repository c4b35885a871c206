// Command pure-pairs builds two revisions of this repository and runs a suite
// of workloads on both in alternating before/after pairs, writing one JSON
// line per run to experiments/EXP/runs.jsonl; it is what `just pairs` runs.
// Its bisect subcommand, behind `just bisect`, finds the commit that made a
// workload's instruction count rise.
//
// Usage:
//
//	pure-pairs run --before REV --after REV [--pairs N] [--suite NAME] [--exp NAME] [--resume]
//	pure-pairs run before=REV after=REV [pairs=N] [suite=NAME] [exp=NAME] [resume=1]
//	pure-pairs bisect good=REV bad=REV workload=W [threshold=1%] [repeat=3] [suite=apps]
//	pure-pairs run repo=PATH before=REV after=REV [pkg=./...] [bench=REGEXP]
//	pure-pairs run module=PATH before=VERSION after=VERSION [pkg=...] [bench=...]
//	pure-pairs bisect repo=PATH good=REV bad=REV bench=Name
//	pure-pairs criteria exp=NAME
//
// With repo= or module= the subject is another Go module's own benchmarks
// (package workbench/experiments/lab/gobench; docs/guide-gomod.md). The
// checkout the harness runs from is --checkout (default: the one holding
// the working directory).
//
// The subject binaries come from the revisions, built in git worktrees and
// cached by commit; the harness, the suite and the experiment directory come
// from the current checkout. See package workbench/experiments/lab (its
// stages: suite for the suite format, measure for the controls held equal
// between the sides, pairs and bisect) and `pure-pairs help` for every flag;
// the flags the two subcommands share are one definition (build.Options).
//
// # Calibration
//
// A run whose before and after are the same commit is an A/A experiment
// (meta.json: "aa": true). Once all its runs are recorded, they are stored as
// the calibration of that commit and suite, data/calibration/COMMIT-SUITE.jsonl
// (--calibration moves the directory), replacing an older one. A later
// experiment whose before commit has a calibration for its suite copies it
// into its own directory as calibration.jsonl, records where it came from in
// meta.json, and is judged with it as the noise floor of its counts:
//
//	just pairs before=main after=main     # A/A: calibrates main
//	just pairs before=main after=HEAD     # judged against main's noise
//
// # Bisect
//
// bisect measures good and bad, then halves the first-parent path between
// them, building and counting each commit it tries (median of repeat
// measurements, under callgrind where the machine has no PMU, else perf's
// instructions:u). A commit is bad when its count per operation exceeds
// good's by more than the threshold, or by more than the spread of good's
// own measurements if that is larger. It prints each commit tried, then the
// first bad commit, its subject line and its ratio to good; commits that do
// not build are skipped, as by git bisect skip.
package main
