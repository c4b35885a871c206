package judge

import "math"

// This file holds the noise assumption: a change smaller than what the same
// build shows against itself cannot be told from noise, however many pairs
// agree. It is applied to counts, whose criteria are tight (1 %) and whose
// noise is small but not always zero.

// Noise is the measured noise of one metric of one workload, as relative
// spreads, (max-min)/median, the way pure-count reports spread.
type Noise struct {
	// Spread is the noise the verdict uses: the larger of Calibration
	// (when there are enough calibration pairs) and WithinSide. It is 0 for
	// exact counts.
	Spread float64
	// Calibration is the spread of the per-pair ratios after/before of the
	// A/A calibration runs, over CalibrationPairs pairs; CalibrationPairs
	// is 0 when there were none for this workload, metric and source.
	Calibration      float64
	CalibrationPairs int
	// WithinSide is the larger of the two sides' spreads of this
	// experiment's values, over the pairs the metric used.
	WithinSide float64
}

// Exact reports whether no noise was measured at all: every value of each
// side equal, and every calibration ratio equal.
func (n Noise) Exact() bool { return n.Spread == 0 }

// measureNoise returns the noise of one metric from this experiment's values
// on each side and the A/A calibration ratios (nil when there are none).
// Calibration counts only with at least minCalibration pairs.
func measureNoise(before, after, calibration []float64, minCalibration int) Noise {
	n := Noise{WithinSide: math.Max(Spread(before), Spread(after))}
	n.Spread = n.WithinSide
	if len(calibration) >= minCalibration && len(calibration) > 0 {
		n.Calibration, n.CalibrationPairs = Spread(calibration), len(calibration)
		n.Spread = math.Max(n.Spread, n.Calibration)
	}
	return n
}
