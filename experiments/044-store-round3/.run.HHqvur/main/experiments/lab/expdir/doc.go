// Package expdir owns the experiment directory: the files `just pairs`
// writes, `just note` reads and the calibration store keeps. No other
// package declares or parses them.
//
// An experiment directory holds
//
//	meta.json          Meta: what was compared, how, under which controls
//	runs.jsonl         one Line per run (a Run plus the runner's fields)
//	criteria           the criteria text (package judge parses it)
//	calibration.jsonl  optional: A/A runs of the before commit and suite
//	profiles/W.S.pb.gz optional: callgrind-derived pprof profiles per side
//	note.md, ratios.png, bench.txt   what the note and export write
//
// The files of this package:
//
//   - run.go: Run, the run record (schema in docs/records.md), its
//     Metrics and Counts.
//   - line.go: Line, one line of runs.jsonl (a Run plus Measurements,
//     controls and the harness's error); ReadRuns, the strict reader a
//     resumed experiment uses; RunsWriter, which appends and fsyncs each
//     line.
//   - meta.go: Meta and the records it holds (Build, Controls,
//     CriteriaOrigin, Harness, CalibrationOrigin).
//   - dir.go: Dir, the directory with its file names and profile paths, and
//     its lenient readers (a bad line is a warning, not an error), as the
//     note reads them; WriteFileAtomic, which every whole-file write uses
//     (a temporary file, fsync, rename).
//   - calibration.go: the calibration store, data/calibration/
//     COMMIT-SUITE.jsonl, and the copy of it an experiment keeps.
package expdir
