package judge

import (
	"fmt"
	"strconv"
	"strings"
)

// Keys of a criteria file, one per Limits field.
const (
	// KeyTimeMaxWorse sets Limits.TimeMaxWorse, as a percentage ("3%").
	KeyTimeMaxWorse = "time.max_worse"
	// KeyInstructionsMaxHigher sets Limits.InstructionsMaxHigher, as a
	// percentage ("1%").
	KeyInstructionsMaxHigher = "instructions.max_higher"
	// KeyMinCleanPairs sets Limits.MinCleanPairs, a whole number.
	KeyMinCleanPairs = "min_clean_pairs"
	// KeyTimeMetric sets Limits.TimeMetric, a timed metric's name.
	KeyTimeMetric = "time.metric"
)

// keys lists the keys in the order Criteria.String writes them.
var keys = []string{KeyTimeMaxWorse, KeyInstructionsMaxHigher, KeyMinCleanPairs, KeyTimeMetric}

// Limits are the criteria that apply to one workload.
type Limits struct {
	// TimeMaxWorse is how much worse, as a fraction, the deciding time
	// metric may get: 0.03 allows throughput 3 % lower, or CPU per op 3 %
	// higher.
	TimeMaxWorse float64
	// InstructionsMaxHigher is how much higher, as a fraction, the
	// instruction count may get. The threshold actually applied is never
	// below the workload's measured noise.
	InstructionsMaxHigher float64
	// MinCleanPairs is the fewest pairs a metric needs for a verdict other
	// than unknown: clean pairs for time, pairs with usable counts for
	// counts.
	MinCleanPairs int
	// TimeMetric names the timed metric that decides the time verdict.
	// When a workload lacks it, the first present of throughput,
	// cpu_per_op and p50 decides instead.
	TimeMetric string
}

// Criteria are an experiment's criteria: limits for all workloads, and
// per-workload overrides.
type Criteria struct {
	Limits
	// Overrides replace settings of Limits for one workload each, applied
	// in order.
	Overrides []Override
}

// Override is one per-workload setting.
type Override struct {
	// Workload is the workload it applies to.
	Workload string
	// Key is one of the Key… constants.
	Key string
	// Value is the setting's value: a fraction for percentages, a count
	// for KeyMinCleanPairs; unused for KeyTimeMetric.
	Value float64
	// Text is the metric name for KeyTimeMetric.
	Text string
}

// DefaultCriteria are the criteria of an experiment that writes none: the
// time median not more than 3 % worse, instruction counts not more than 1 %
// higher, at least 5 clean pairs, time judged on the paired time where the
// runs recorded one (their regions took turns with the other side's) and
// on throughput where they did not, silently: the default chooses the
// paired time because, from the regions of the two sides that ran next to
// each other, it spread less from pair to pair than the fastest regions'
// throughput (experiment 018: 0.9 % against 1.4-3.9 % on the store
// workloads of a loaded VM).
var DefaultCriteria = Criteria{Limits: Limits{
	TimeMaxWorse:          0.03,
	InstructionsMaxHigher: 0.01,
	MinCleanPairs:         5,
	TimeMetric:            MetricPairedTime,
}}

// For returns the limits that apply to workload: c's limits with the
// workload's overrides applied in order.
func (c Criteria) For(workload string) Limits {
	l := c.Limits
	for _, o := range c.Overrides {
		if o.Workload == workload {
			l.set(o.Key, o.Value, o.Text)
		}
	}
	return l
}

// set sets the field named by key. Unknown keys are ignored; the parser
// refuses them before they get here.
func (l *Limits) set(key string, value float64, text string) {
	switch key {
	case KeyTimeMaxWorse:
		l.TimeMaxWorse = value
	case KeyInstructionsMaxHigher:
		l.InstructionsMaxHigher = value
	case KeyMinCleanPairs:
		l.MinCleanPairs = int(value)
	case KeyTimeMetric:
		l.TimeMetric = text
	}
}

// get returns the field named by key in the criteria file's notation.
func (l Limits) get(key string) string {
	switch key {
	case KeyTimeMaxWorse:
		return formatLimit(l.TimeMaxWorse)
	case KeyInstructionsMaxHigher:
		return formatLimit(l.InstructionsMaxHigher)
	case KeyMinCleanPairs:
		return strconv.Itoa(l.MinCleanPairs)
	case KeyTimeMetric:
		return l.TimeMetric
	}
	return ""
}

// String returns c in the criteria file format that ParseCriteria reads:
// every global setting, then the overrides in order.
func (c Criteria) String() string {
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s = %s\n", k, c.Limits.get(k))
	}
	for _, o := range c.Overrides {
		var l Limits
		l.set(o.Key, o.Value, o.Text)
		fmt.Fprintf(&b, "workload %s %s = %s\n", o.Workload, o.Key, l.get(o.Key))
	}
	return b.String()
}

// formatLimit writes a fraction as a percentage without spurious digits:
// 0.03 as "3%", 0.005 as "0.5%".
func formatLimit(f float64) string {
	return strconv.FormatFloat(f*100, 'g', 6, 64) + "%"
}
