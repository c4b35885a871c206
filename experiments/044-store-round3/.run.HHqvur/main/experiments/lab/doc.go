// Package lab is the home of the lab's machinery: the packages that run,
// record, judge and write up experiments. Experiment directories
// (experiments/NNN-slug, experiments/probes/NNN-slug) hold only data,
// notes and their scripts; the code is here and in cmd/.
//
// The stages, each its own package, lowest first:
//
//   - expdir: the experiment directory's files, their format and readers.
//   - suite: the .suite files.
//   - stats: the module's one median (a leaf, so pure-count can use it).
//   - judge: the statistics and the verdict (with the runner's estimators
//     and settling rules, rounds.go).
//   - build: building revisions; the options pairs and bisect share.
//   - gobench: another Go module's benchmarks as a suite: its sides'
//     test binaries (a worktree of its repository, or a copy of a module
//     version), the probe that chooses their iterations, benchfmt parsing.
//   - measure: running subject processes and parsing their output.
//   - pairs: the before/after runner (`just pairs`).
//   - bisect: the first commit where a count rose (`just bisect`).
//   - note, export: the note and the benchstat export (`just note`).
//   - kvbench: the store-against-contenders harness and its note.
//
// limits_test.go holds the lab to the project's size limits: no
// production file over 600 lines, no function over 100.
package lab
