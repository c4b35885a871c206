package judge

import (
	"workbench/perfcount"
)

// calibrationRatios returns the A/A ratios after/before of metric m in the
// calibration runs cal, from complete, successful, unmultiplexed pairs whose
// counts come from source src; mismatched counts pairs left out because
// their source differs. Calibration is not checked for disturbance: a
// disturbed A/A pair can only make the noise look larger.
func calibrationRatios(cal *workloadRuns, m Metric, src perfcount.Source) (ratios []float64, mismatched int) {
	if cal == nil {
		return nil, 0
	}
	for _, p := range cal.pairs {
		if p.before == nil || p.after == nil || p.before.ExitCode != 0 || p.after.ExitCode != 0 {
			continue
		}
		var vb, va float64
		if m.Class == ClassTime {
			vb, va = timedValue(p.before, m.Name), timedValue(p.after, m.Name)
		} else {
			b, cb, okb := countValue(p.before, m.Name)
			a, ca, oka := countValue(p.after, m.Name)
			if !okb || !oka || cb.Multiplexed || ca.Multiplexed {
				continue
			}
			if cb.Source != src || ca.Source != src {
				mismatched++
				continue
			}
			vb, va = b, a
		}
		if vb > 0 && va > 0 {
			ratios = append(ratios, va/vb)
		}
	}
	return ratios, mismatched
}
