package judge

// Options are the statistical settings of a judgement: the thresholds of the
// statistics themselves, as opposed to Criteria, which say how large a change
// the experiment tolerates. A zero field takes its value from DefaultOptions.
type Options struct {
	// Confidence is the level of the confidence intervals, 0.95 by default.
	Confidence float64
	// Alpha is the significance level of the signed-rank test, 0.05 by
	// default. The test's p-value qualifies the wording of a reason
	// ("a real change within the criterion"); the verdict itself rests on
	// the confidence interval.
	Alpha float64
	// Disturbance is the rule that flags disturbed runs.
	Disturbance DisturbanceRule
	// InstructionEvents are the count events that measure instructions, in
	// order of preference: the first one a workload's runs carry is its
	// instruction metric.
	InstructionEvents []string
	// MinCalibrationPairs is the fewest A/A pairs a workload's calibration
	// must have for its noise to count.
	MinCalibrationPairs int
	// Looks, when sequential, says that undecided workloads were given
	// more pairs than the first look's, up to Looks.Last: a ratio of more
	// than Looks.First pairs is then judged with the order statistics of
	// the sequential rule (sequential.go). The zero Looks is the fixed rule.
	Looks Looks
}

// DefaultOptions are the settings Judge uses for zero fields of Options.
// Treat it as read-only.
var DefaultOptions = Options{
	Confidence:          0.95,
	Alpha:               0.05,
	Disturbance:         DefaultDisturbance,
	InstructionEvents:   []string{"instructions:u", "instructions", "Ir"},
	MinCalibrationPairs: 3,
}

// withDefaults returns o with every zero field set from DefaultOptions.
func (o Options) withDefaults() Options {
	d := DefaultOptions
	if o.Confidence == 0 {
		o.Confidence = d.Confidence
	}
	if o.Alpha == 0 {
		o.Alpha = d.Alpha
	}
	if o.Disturbance.K == 0 {
		o.Disturbance.K = d.Disturbance.K
	}
	if o.Disturbance.Floor == 0 {
		o.Disturbance.Floor = d.Disturbance.Floor
	}
	if o.Disturbance.MinRuns == 0 {
		o.Disturbance.MinRuns = d.Disturbance.MinRuns
	}
	if len(o.InstructionEvents) == 0 {
		o.InstructionEvents = append([]string(nil), d.InstructionEvents...)
	}
	if o.MinCalibrationPairs == 0 {
		o.MinCalibrationPairs = d.MinCalibrationPairs
	}
	return o
}
