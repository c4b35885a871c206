// Package judge decides whether a change made things worse, from the runs of
// a before/after experiment (`just pairs`).
//
// # Pipeline
//
// Judge takes the experiment's runs (expdir.Run), its criteria and,
// optionally, A/A calibration runs, and for each workload:
//
//  1. Pairs the runs: each pair has one before and one after run, run in
//     ABBA order. A pair that lacks a side is incomplete; one with a run
//     that exited with a non-zero status has failed. Both are listed and
//     used for nothing.
//  2. Finds disturbed runs (DisturbanceRule): a run whose CPU share or CPU
//     per operation departs from the median of all runs of the same side by
//     more than 3.5 robust standard deviations (1.4826 × MAD), and by at
//     least 3 %. A pair with a disturbed run is disturbed when its two runs
//     did not depart alike (their departures differ by more than 3 %): it
//     is listed with the reason, left out of every timed metric, and the
//     verdict says which pairs it used. A pair whose runs departed alike
//     (the runner interleaves the sides, so a burst of load often slows
//     both) is listed as "disturbed alike" and used: its ratio compares
//     like with like. Callgrind counts are simulated, so disturbance does
//     not touch them; perf counts of a disturbed pair are left out too.
//  3. For every metric (timed metrics from the run, and every counted
//     event, from per-operation counts): the median of each side, the
//     per-pair ratio after/before, the median of those ratios with a 95 %
//     confidence interval, and a Wilcoxon signed-rank test of the log
//     ratios against no change. Perf and callgrind counts are never mixed:
//     a workload whose runs mix them gets no count verdict. Multiplexed
//     perf counts cover only part of a run and are left out.
//  4. Measures the noise of each count: the spread, (max-min)/median, of
//     the A/A calibration ratios when there are at least three calibration
//     pairs, and of each side's values in this experiment; the larger
//     counts. The threshold for a count is the larger of its criterion and
//     its noise: a change is never called for less than the noise the same
//     build shows against itself. For timed metrics the threshold is the
//     criterion; noisy timings widen the interval instead.
//  5. Applies the significance rule to the deciding metrics (the time
//     metric, by default the paired time where the runs recorded it and
//     throughput where they did not, and the instruction count) and
//     combines their verdicts.
//
// # The significance rule
//
// The change of a metric is the median of its per-pair ratios after/before.
// Its confidence interval comes from order statistics and assumes nothing
// about the distribution of the ratios beyond independent pairs: the number
// of ratios below the true median is Binomial(n, 1/2), and the interval
// between the k-th smallest and the k-th largest ratio covers the true
// median with probability 1 − 2·P(B < k), the largest k that reaches 95 %
// being chosen. With six pairs it is the whole range of the ratios (96.9 %);
// with five or fewer, 95 % is out of reach and the whole range is reported
// with its actual confidence and a warning.
//
// A metric is worse when the whole interval lies beyond the threshold on the
// bad side (for throughput, lower; for CPU per op, latencies, memory and
// counts, higher); better when the whole interval lies beyond the threshold
// on the good side; unknown when the interval reaches past the threshold on
// the bad side without lying wholly beyond it, or when fewer pairs than the
// criteria's min_clean_pairs could be used; and the same otherwise. "The
// same" therefore means the criterion holds with 95 % confidence, not
// merely that no change was detected. min_clean_pairs is 5 by default, so
// that one disturbed pair out of the default six still leaves a verdict, at
// 93.8 % confidence and with a warning saying so. When every count of
// each side is identical (exact counts, no noise), the interval is the
// ratio itself, and a change beyond the criterion counts only if every pair
// shows it.
//
// # More pairs for the undecided
//
// An experiment may give a workload that the rule leaves unknown, and that
// more pairs may decide (an interval straddling the threshold, too few
// clean pairs), two more pairs at a time, up to a bound (Options.Looks;
// the pairs runner's max-pairs, 20 by default). Looking again raises the
// chance of a false verdict unless each look is stricter, so a ratio of
// more pairs than the first look's is bounded by the order statistics of
// the sequential rule in sequential.go: the first look is exactly the
// fixed rule above; later ones narrow the interval only as far as keeps the
// chance of any false crossing, over all looks, within the nominal
// one-sided error (2.5 % at 95 %), whatever the bound. It is computed
// exactly from the sign random walk, so it assumes
// nothing more than MedianCI; TestLooks_FalseWorse checks it by
// simulation, and TestLooks_AA_DecidesMore shows A/A workloads with 2 %
// noise left unknown 2.3 % of the time instead of 35 %, at 8.2 pairs on
// average.
//
// The signed-rank test (exact null distribution up to 25 pairs, normal
// approximation with tie correction above) does not move a verdict; it
// words a change within the threshold: "a real change" when the test
// (p ≤ 0.05) and the interval (excluding no change) agree that the metric
// moved, "no significant change" when neither does, nothing when they
// disagree.
//
// # Verdicts
//
// A workload is worse if its time or its instruction count is worse;
// otherwise unknown if either is unknown; otherwise better if either is
// better; otherwise the same. A class a workload does not measure is left
// out. The experiment is worse if any workload is worse, then unknown, then
// better, then the same, in that order. Each verdict carries its reason as
// one plain sentence, for example "instructions:u 1.8 % higher (95 % CI
// [+1.7 %, +1.9 %]), above the 1 % criterion and the 0.1 % noise". Every
// interval, in sentences and tables, is written the same way: signed
// changes in brackets, low end first.
//
// # Why this rule
//
// benchstat compares two unpaired samples with a Mann-Whitney U test and
// prints "~" when it finds no difference. Here runs are paired in ABBA
// order, so slow drift of the machine cancels in each ratio, and "same" is
// a claim with a stated confidence (the interval lies within the
// criterion), not an absence of evidence. rustc-perf calls a change
// significant when it exceeds a fence computed from the history of that
// benchmark's changes; here the noise floor is measured for each workload,
// from A/A calibration or from the experiment itself, and needs no history.
// Tools that compare simulated instruction counts from one run per side
// (iai-callgrind, CodSpeed's CPU simulation) report any difference; here
// counts that vary are treated as noisy, and exact counts must change in
// every pair. Disturbed runs are named and set aside instead of widening
// every interval or being dropped silently.
//
// # Files
//
// Each statistical assumption has its own file: anothing.go (the
// distribution-free median interval), aexact.go (exact counts),
// wilcoxon.go, wilcoxon_exact.go and wilcoxon_normal.go (the signed-rank
// test), noise.go (the noise floor) and disturbed.go (the disturbance rule).
// criteria.go and criteria_parse.go hold the criteria and their file format,
// options.go the statistical settings, pairs.go the grouping of runs,
// metric.go the metrics and their directions, calibration.go the A/A
// ratios, verdict.go the decision, reason.go its wording, judge.go the
// pipeline and report.go the results. The module's one median is
// stats.Median (NaN values left out, NaN for none), and rounds.go
// the runner's estimators and settling rules: the interquartile mean of a
// round's region ratios, the median of couples of rounds (PairedLog), and
// Rounds.Another, when a native measurement has run enough rounds; package
// measure applies them while it measures. Judge is deterministic:
// everything is sorted and nothing is random, so a note generated from a
// Report is reproducible byte for byte.
package judge
