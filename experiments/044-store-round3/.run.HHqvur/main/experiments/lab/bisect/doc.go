// Package bisect finds the first commit between a good and a bad one where a
// workload's instruction count rises: Run builds each commit with the
// build.Builder pairs uses, measures it under the same measure.Controls,
// takes the median count (stats.Median) against a threshold no lower than
// the spread measured at good (judge.Spread), and halves the range like git
// bisect. Its suite is read from EXPERIMENTS/suites (build.Options).
package bisect
