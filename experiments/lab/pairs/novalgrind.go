package pairs

import (
	"os/exec"
	"slices"
)

// lookPathValgrind reports whether valgrind is installed.
func lookPathValgrind() bool {
	_, err := exec.LookPath("valgrind")
	return err == nil
}

// substituteCallgrind adapts suite to a machine without valgrind. With a
// PMU, a workload's callgrind measurement becomes instructions:u counted by
// its perf measurement; without one, callgrind measurements are dropped and
// the workloads are measured for time only. It returns the one line that
// says which, for the log and the note's controls, or "" when valgrind is
// there or the suite has no callgrind measurement.
func substituteCallgrind(suite *Suite, haveValgrind func() bool, backend func() (string, error)) string {
	uses := false
	for _, w := range suite.Workloads {
		for _, m := range w.Measures {
			uses = uses || m.Backend == BackendCallgrind
		}
	}
	if !uses || haveValgrind() {
		return ""
	}
	withPMU := false
	if b, err := backend(); err == nil && b == BackendPerf {
		withPMU = true
	}
	for i := range suite.Workloads {
		w := &suite.Workloads[i]
		var kept []Measure
		hasPerf := slices.ContainsFunc(w.Measures, func(m Measure) bool { return m.Backend == BackendPerf })
		for _, m := range w.Measures {
			switch {
			case m.Backend != BackendCallgrind:
				kept = append(kept, m)
			case withPMU && !hasPerf:
				m.Backend, m.Events = BackendPerf, []string{"instructions:u"}
				kept = append(kept, m)
			}
		}
		if withPMU && hasPerf {
			for j := range kept {
				if kept[j].Backend == BackendPerf && !slices.Contains(kept[j].Events, "instructions:u") {
					kept[j].Events = append(slices.Clone(kept[j].Events), "instructions:u")
				}
			}
		}
		w.Measures = kept
	}
	suite.Workloads = slices.DeleteFunc(suite.Workloads, func(w Workload) bool { return len(w.Measures) == 0 })
	if withPMU {
		return "valgrind is not installed (apt-get install valgrind): instructions are counted with perf (instructions:u) instead of callgrind"
	}
	return "valgrind is not installed (apt-get install valgrind) and there is no PMU: instructions cannot be counted here; measuring time only"
}
