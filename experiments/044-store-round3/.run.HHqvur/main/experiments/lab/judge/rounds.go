package judge

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"workbench/experiments/lab/stats"
)

// The estimators of the runner's native measurements and its rules for
// when a measurement has run enough rounds. The runner (package measure)
// applies them while it measures; they live here, with the rest of the
// statistics, because they decide what a run's time is.

// SettleTolerance and SettleProcesses define when a side's floor is
// settled: when at least SettleProcesses of its fresh processes had a
// fastest region within SettleTolerance of the fastest region of all of
// them. A floor that only one process reached may be that process's luck,
// and a side whose processes all stayed above the machine's floor (on a
// shared VM, whole processes can run in a burst of outside load) shows it by
// never settling. Simulated as A/A pairs on streams of itoa-strconv-10k
// processes measured while the VM was heavily loaded (experiment 012, whose
// note has the figures): with a fixed four processes per side, 3 pair
// ratios in 20 fell outside 3 % of 1 (one at 1.75 with two processes); with
// the settle rule, 1 in 16, at about five processes per side.
const (
	SettleTolerance = 0.02
	SettleProcesses = 2
)

// Settled reports whether the floors of a side's processes are settled
// (see SettleTolerance).
func Settled(floors []float64) bool {
	if len(floors) == 0 {
		return false
	}
	least := slices.Min(floors)
	near := 0
	for _, f := range floors {
		if f <= least*(1+SettleTolerance) {
			near++
		}
	}
	return near >= SettleProcesses
}

// PairedSettleSE is when a gated measurement has run enough rounds: when
// the standard error of its couples' paired times (see Couples) is at most
// 0.8 %. Each round is a fresh process per side, each from a fresh copy of
// its binaries, and rounds differ by more than regions do: in A/A probes on
// a 2-core VM (experiments/probes/903-probe-rounds-a and 904-probe-rounds-b), the
// rounds' own paired times spread by 1.5-3 % (standard deviation) for
// itoa-fmt-10k and itoa-strconv-10k, with now and then a round 10-18 %
// off, and 1-1.6 % for sort-ints-10k; four rounds left a pair's paired time
// some 1-1.5 % from 1, and one pair in six could land beyond the 3 %
// criterion (experiment 023-aa-2).
const PairedSettleSE = 0.008

// Couples returns the mean of each couple of rounds, rounds 1 and 2, 3 and
// 4, and so on, of a gated measurement's round log ratios (NaN: a round
// without a paired time; its couple is left out). The two rounds of a
// couple start the sides in opposite orders, and the process started
// second ran some 1-1.5 % faster in the probes (experiments 903 and 904,
// SE 0.2-0.4 %), so a couple's mean holds no such bias.
func Couples(roundLogs []float64) []float64 {
	var cs []float64
	for i := 0; i+1 < len(roundLogs); i += 2 {
		a, b := roundLogs[i], roundLogs[i+1]
		if !math.IsNaN(a) && !math.IsNaN(b) {
			cs = append(cs, (a+b)/2)
		}
	}
	return cs
}

// PairedLog is a measurement's log paired ratio, second cell's over first's:
// the median of its couples' (see Couples), or, without a couple, the
// interquartile mean of all its region log ratios (at least
// MinPairedRegions). The median, because now and then one round runs
// 10-18 % apart from the rest (a fresh process from a fresh copy that
// runs slow throughout; 903, 904, 024-aa-1), where the rest agree within
// a few percent: over the 60 A/A pairs of those experiments, the median
// of couples strayed from 1 by at most 1.95 % (RMS 0.70 %), the
// interquartile mean of all regions pooled by up to 4.2 % (RMS 0.87 %).
// Within a round, the interquartile mean of its regions already sets
// aside the regions a burst of load hit on one side (experiment 018).
func PairedLog(roundLogs, pooled []float64) (float64, bool) {
	if cs := Couples(roundLogs); len(cs) > 0 {
		return stats.Median(cs), true
	}
	if len(pooled) >= MinPairedRegions {
		return InterquartileMean(pooled), true
	}
	return 0, false
}

// StandardError is the standard error of the mean of xs (at least two).
func StandardError(xs []float64) float64 {
	return stat.StdDev(xs, nil) / math.Sqrt(float64(len(xs)))
}

// MinPairedRegions is the fewest region pairs from which a paired time is
// recorded.
const MinPairedRegions = 8

// InterquartileMean is the mean of the middle half of xs (which it sorts):
// a quarter is dropped at each end, so regions a burst of load hit on one
// side only do not move it, while it uses far more of the regions than a
// median or a minimum (experiment 018: over region pairs of gated rounds,
// its pair-to-pair spread was 0.9 % where the ratio of fastest regions
// spread 1.4-3.9 %).
func InterquartileMean(xs []float64) float64 {
	slices.Sort(xs)
	q := len(xs) / 4
	mid := xs[q : len(xs)-q]
	var sum float64
	for _, x := range mid {
		sum += x
	}
	return sum / float64(len(mid))
}

// Rounds is the state of an interleaved measurement between two rounds:
// what Another decides from.
type Rounds struct {
	// Repeat and MaxRepeat are the measurement's least and most rounds
	// (a MaxRepeat below Repeat is Repeat).
	Repeat, MaxRepeat int
	// Done is how many rounds have run.
	Done int
	// Floors are each side's processes' fastest regions, wall
	// nanoseconds per op; Failed says which side has failed.
	Floors [][]float64
	Failed []bool
	// Refs are each side's reference floor, the median floor of the same
	// side in the experiment's earlier pairs (0: none).
	Refs []float64
	// Logs are each gated round's own log paired ratio, second side's
	// over first's (NaN: a round without one); nil when not gated.
	Logs []float64
}

// Another reports whether an interleaved measurement, having run r.Done
// rounds, runs another: always up to Repeat rounds, never past MaxRepeat
// or once a side has failed, and always to an even number of
// rounds, so each side's process starts first in as many rounds as the
// other's (see Couples). Past that:
//
//   - When the rounds were gated (Logs holds each one's own log
//     paired ratio, second cell's over first's) and make at least two
//     couples, while the standard error of the couples' mean is above
//     PairedSettleSE: the paired time decides, and what varies it is the
//     rounds.
//   - Otherwise while either side is unsettled. A side is unsettled while
//     its floors are not settled, or while its fastest region is more
//     than SettleTolerance above its reference, the median floor of the
//     same side in the experiment's earlier pairs: a side whose processes
//     all ran inside a long burst of load settles on the burst's level
//     (seen in experiment 013-aa-1, itoa-fmt-10k pair 5: 0.85 against
//     0.55 ms per op), and only its own history shows it. Each side is
//     held to its own history, never to the other side's, so a real
//     change is not pulled towards no change; and more processes can
//     only lower a side's fastest region, never drop one.
func (rs Rounds) Another() bool {
	r := rs.Done
	switch {
	case r < rs.Repeat:
		return true
	case r >= max(rs.MaxRepeat, rs.Repeat) || rs.Failed[0] || rs.Failed[1]:
		return false
	case r%2 == 1:
		return true
	}
	if cs := Couples(rs.Logs); len(cs) >= 2 {
		return StandardError(cs) > PairedSettleSE
	}
	for i, f := range rs.Floors {
		if !Settled(f) {
			return true
		}
		if i < len(rs.Refs) && rs.Refs[i] > 0 && slices.Min(f) > rs.Refs[i]*(1+SettleTolerance) {
			return true
		}
	}
	return false
}
