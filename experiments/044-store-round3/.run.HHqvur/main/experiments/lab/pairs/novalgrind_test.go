package pairs

import (
	"strings"
	"testing"

	"workbench/experiments/lab/suite"
)

const twoBackends = `workload a backend=perf events=task-clock ops=10
workload a backend=callgrind ops=2
workload b backend=callgrind ops=3
`

func TestSubstituteCallgrind(t *testing.T) {
	yes := func() bool { return true }
	no := func() bool { return false }
	perf := func() (string, error) { return suite.BackendPerf, nil }
	none := func() (string, error) { return suite.BackendCallgrind, nil }

	s, _ := suite.ParseSuite("t.suite", strings.NewReader(twoBackends))
	if msg := substituteCallgrind(s, yes, none); msg != "" || len(s.Workloads[0].Measures) != 2 {
		t.Errorf("with valgrind the suite changed: %q", msg)
	}

	s, _ = suite.ParseSuite("t.suite", strings.NewReader(twoBackends))
	msg := substituteCallgrind(s, no, none)
	if !strings.Contains(msg, "valgrind is not installed") || !strings.Contains(msg, "time only") {
		t.Errorf("no valgrind, no PMU: %q", msg)
	}
	if len(s.Workloads) != 1 || s.Workloads[0].Name != "a" || len(s.Workloads[0].Measures) != 1 || s.Workloads[0].Measures[0].Backend != suite.BackendPerf {
		t.Errorf("no valgrind, no PMU: workloads %+v", s.Workloads)
	}

	s, _ = suite.ParseSuite("t.suite", strings.NewReader(twoBackends))
	msg = substituteCallgrind(s, no, perf)
	if !strings.Contains(msg, "counted with perf") {
		t.Errorf("no valgrind, a PMU: %q", msg)
	}
	a, b := s.Workloads[0], s.Workloads[1]
	if len(a.Measures) != 1 || strings.Join(a.Measures[0].Events, ",") != "task-clock,instructions:u" {
		t.Errorf("workload a: %+v", a.Measures)
	}
	if len(b.Measures) != 1 || b.Measures[0].Backend != suite.BackendPerf || b.Measures[0].Events[0] != "instructions:u" {
		t.Errorf("workload b: %+v", b.Measures)
	}
}
