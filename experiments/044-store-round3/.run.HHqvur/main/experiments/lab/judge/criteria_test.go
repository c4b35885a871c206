package judge

import (
	"errors"
	"strings"
	"testing"
)

func TestParseCriteria(t *testing.T) {
	const file = `# criteria for note 111
time.max_worse = 3%
instructions.max_higher = 1.5 %   # perf counts
min_clean_pairs = 4
time.metric = cpu_per_op

workload store-get instructions.max_higher = 0.5%
workload tpcc time.max_worse = 5%
workload store-get min_clean_pairs = 6
`
	c, err := ParseCriteria(strings.NewReader(file), "criteria")
	if err != nil {
		t.Fatal(err)
	}
	want := Limits{TimeMaxWorse: 0.03, InstructionsMaxHigher: 0.015, MinCleanPairs: 4, TimeMetric: MetricCPUPerOp}
	if c.Limits != want {
		t.Errorf("limits %+v, want %+v", c.Limits, want)
	}
	sg := want
	sg.InstructionsMaxHigher, sg.MinCleanPairs = 0.005, 6
	if got := c.For("store-get"); got != sg {
		t.Errorf("store-get %+v, want %+v", got, sg)
	}
	tp := want
	tp.TimeMaxWorse = 0.05
	if got := c.For("tpcc"); got != tp {
		t.Errorf("tpcc %+v, want %+v", got, tp)
	}
	// String writes the format back; reading it gives the same criteria.
	again, err := ParseCriteria(strings.NewReader(c.String()), "again")
	if err != nil || again.String() != c.String() {
		t.Errorf("round trip: %v\n%s\nwant\n%s", err, again.String(), c.String())
	}
}

func TestParseCriteria_Empty(t *testing.T) {
	c, err := ParseCriteria(strings.NewReader("\n# nothing\n"), "criteria")
	if err != nil || c.String() != DefaultCriteria.String() {
		t.Errorf("empty file: %v\n%s", err, c.String())
	}
}

func TestParseCriteria_Errors(t *testing.T) {
	const file = `time.max_worse = 0.03
instructions.max_higher = 1%
min_clean_pairs = four
time.metric = wall
instructions.max_higher = 2%
speed = 3%
workload instructions.max_higher = 1%
time.max_worse 3%
workload a time.max_worse = -1%
`
	c, err := ParseCriteria(strings.NewReader(file), "exp/criteria")
	want := []string{
		`exp/criteria:1: time.max_worse = 0.03: expected a percentage such as 3%, got "0.03"`,
		`exp/criteria:3: min_clean_pairs = four: expected a whole number of pairs, at least 1, got "four"`,
		`exp/criteria:4: time.metric = wall: expected one of throughput, cpu_per_op, p50, p99, peak_rss, got "wall"`,
		`exp/criteria:5: instructions.max_higher = 2%: instructions.max_higher is already set on line 2`,
		`exp/criteria:6: speed = 3%: unknown key "speed": expected time.max_worse, instructions.max_higher, min_clean_pairs, time.metric`,
		"exp/criteria:7: workload instructions.max_higher = 1%: expected `key = value` or `workload NAME key = value` before the =",
		"exp/criteria:8: time.max_worse 3%: expected `key = value` or `workload NAME key = value`",
		`exp/criteria:9: workload a time.max_worse = -1%: expected a percentage such as 3%, got "-1%"`,
	}
	if err == nil {
		t.Fatal("no error")
	}
	if got := strings.Split(err.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", err, strings.Join(want, "\n"))
	}
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 1 {
		t.Errorf("errors.As *ParseError: %v", pe)
	}
	// The good line still counts; the bad ones leave the defaults.
	if c.InstructionsMaxHigher != 0.01 || c.TimeMaxWorse != DefaultCriteria.TimeMaxWorse {
		t.Errorf("limits after errors: %+v", c.Limits)
	}
}
