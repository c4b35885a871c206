// Command pure-pairs builds two revisions of this repository and runs a suite
// of workloads on both in alternating before/after pairs, writing one JSON
// line per run to experiments/EXP/runs.jsonl; it is what `just pairs` runs.
//
// Usage:
//
//	pure-pairs run --before REV --after REV [--pairs N] [--suite NAME] [--exp NAME] [--resume]
//	pure-pairs run before=REV after=REV [pairs=N] [suite=NAME] [exp=NAME] [resume=1]
//
// The subject binaries come from the two revisions, built in git worktrees
// and cached by commit; the harness, the suite and the experiment directory
// come from the current checkout. See package workbench/experiments/pairs for
// the suite format and the controls held equal between the sides, and
// `pure-pairs help` for every flag.
package main
