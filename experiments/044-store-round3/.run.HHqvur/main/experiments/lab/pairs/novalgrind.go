package pairs

import (
	"os/exec"
	"slices"

	"workbench/experiments/lab/suite"
)

// lookPathValgrind reports whether valgrind is installed.
func lookPathValgrind() bool {
	_, err := exec.LookPath("valgrind")
	return err == nil
}

// substituteCallgrind adapts suite to a machine without valgrind. With a
// PMU, a workload's callgrind measurement becomes instructions:u counted by
// its perf measurement; without one, callgrind measurements are dropped and
// the workloads are measured for time only. Servers under load (load=)
// are counted only under callgrind: without valgrind they are timed only.
// It returns the one line that
// says which, for the log and the note's controls, or "" when valgrind is
// there or the suite has no callgrind measurement.
func substituteCallgrind(su *suite.Suite, haveValgrind func() bool, backend func() (string, error)) string {
	uses := false
	for _, w := range su.Workloads {
		for _, m := range w.Measures {
			uses = uses || m.Backend == suite.BackendCallgrind
		}
	}
	if !uses || haveValgrind() {
		return ""
	}
	withPMU := false
	if b, err := backend(); err == nil && b == suite.BackendPerf {
		withPMU = true
	}
	for i := range su.Workloads {
		w := &su.Workloads[i]
		var kept []suite.Measure
		hasPerf := slices.ContainsFunc(w.Measures, func(m suite.Measure) bool { return m.Backend == suite.BackendPerf })
		for _, m := range w.Measures {
			switch {
			case m.Backend != suite.BackendCallgrind:
				kept = append(kept, m)
			case withPMU && !hasPerf && m.HTTP == nil:
				m.Backend, m.Events = suite.BackendPerf, []string{"instructions:u"}
				kept = append(kept, m)
			}
		}
		if withPMU && hasPerf {
			for j := range kept {
				if kept[j].Backend == suite.BackendPerf && kept[j].HTTP == nil && !slices.Contains(kept[j].Events, "instructions:u") {
					kept[j].Events = append(slices.Clone(kept[j].Events), "instructions:u")
				}
			}
		}
		w.Measures = kept
	}
	su.Workloads = slices.DeleteFunc(su.Workloads, func(w suite.Workload) bool { return len(w.Measures) == 0 })
	if withPMU {
		return "valgrind is not installed (apt-get install valgrind): instructions are counted with perf (instructions:u) instead of callgrind"
	}
	return "valgrind is not installed (apt-get install valgrind) and there is no PMU: instructions cannot be counted here; measuring time only"
}
