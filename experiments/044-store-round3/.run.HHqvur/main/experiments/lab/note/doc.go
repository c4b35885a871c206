// Package note writes the research note of a pairs experiment: note.md, a
// Markdown page that says whether a change made things worse and shows the
// evidence, and ratios.png, the per-pair ratios it rests on.
//
// `just pairs before=A after=B` leaves an experiment directory with
// runs.jsonl (one expdir.Run per line), meta.json (what was compared, how,
// on which controls, and where the criteria came from) and criteria (in
// judge.ParseCriteria's format). The note is generated from those files
// alone, optionally with calibration.jsonl (A/A runs of the same suite)
// and callgrind-derived pprof profiles in profiles/W.before.pb.gz and
// profiles/W.after.pb.gz; `just note exp=NNN-slug` regenerates it byte for
// byte.
//
// # Pieces
//
//   - Load (load.go, meta.go) reads the directory, judges the runs with
//     judge.Judge and compares the profiles of each workload whose
//     instruction count moved (profiles.go). It does all the I/O.
//   - Experiment.Write formats the note, section by section: write.go
//     (title, verdict, criteria), setup.go (machine and controls),
//     tables.go (pairs, medians, instruction counts) and findings.go
//     (failed runs, plot link, where the instructions moved), with the
//     number formats of format.go and the tables of mdtable.go.
//     Experiment.Plot (plot.go) draws the plot with gonum.org/v1/plot.
//     Neither reads a file.
//   - Render (render.go) does both and writes the two files into the
//     directory.
//
// # The note
//
// Its sections, in order: the title (marked A/A for an A/A run); the
// summary (summary.go: the verdict on the third line, what changed, from
// meta.json's changes, and one row per deciding metric of each workload
// with units, change, 95 % interval and threshold); what was compared;
// Verdict (the experiment's verdict and one sentence per workload, the A/A noise floor
// when there are calibration runs, and every warning); Criteria (as read,
// where they came from, and as applied); Machine and controls; Pairs (per
// workload, each pair's order, values of the deciding metrics, changes and
// status); Medians and 95 % intervals (per metric: medians, the median
// change with its interval, Wilcoxon p, noise, threshold and verdict);
// Instruction counts (with the instrument that counted them); Failed runs
// (exit status and the end of stderr); Plot; Where the instructions moved
// (per workload whose count moved, the ten functions whose flat count
// changed most, and the pprof command to look further, or one line saying
// the profiles are missing).
//
// # Reproducibility
//
// The same files give the same bytes: the note holds no time but the data's
// own, nothing is listed in map order, every number has one format
// (format.go), and Markdown tables are padded by rune count (mdtable.go,
// which says why github.com/olekukonko/tablewriter is not used). The plot
// is byte-stable too on one architecture (TestRender_Reproducible):
// gonum/plot's PNG embeds no time, and its fonts are compiled in. Across
// architectures its rasterised pixels may differ (arm64 fuses
// multiply-adds, amd64 does not), so the PNG is not compared in golden
// tests.
package note
