package pairs

import (
	"strings"
	"testing"

	"workbench/experiments/lab/judge"
	"workbench/experiments/lab/suite"
)

// A suite that sets a default criterion replaces the default's line rather
// than setting it twice (which the criteria parser refuses), and the file
// it writes parses with the suite's value.
func TestDefaultCriteria_SuiteOverridesDefault(t *testing.T) {
	su := &suite.Suite{Name: "http", Criteria: []string{"time.metric = cpu_per_op", "time.max_worse = 5%"}}
	text := defaultCriteria(su)
	if n := strings.Count(text, "time.max_worse"); n != 1 {
		t.Fatalf("time.max_worse set %d times in:\n%s", n, text)
	}
	c, err := judge.ParseCriteria(strings.NewReader(text), "criteria")
	if err != nil {
		t.Fatalf("the written criteria do not parse: %v\n%s", err, text)
	}
	if c.TimeMaxWorse != 0.05 || c.InstructionsMaxHigher != 0.01 || c.TimeMetric != "cpu_per_op" {
		t.Fatalf("got time.max_worse %v, instructions.max_higher %v, time.metric %q from:\n%s",
			c.TimeMaxWorse, c.InstructionsMaxHigher, c.TimeMetric, text)
	}
	if got := defaultCriteria(&suite.Suite{Name: "micro"}); got != DefaultCriteria {
		t.Fatalf("a suite without criteria got %q, want the defaults", got)
	}
}
