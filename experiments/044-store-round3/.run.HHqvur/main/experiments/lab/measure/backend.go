package measure

import (
	"fmt"

	"workbench/experiments/lab/suite"
	"workbench/perfcount"
)

// DetectBackend returns the backend with the least noisy instruction
// counts this machine offers: BackendPerf when perf_event can count
// instructions:u on this thread, else BackendCallgrind with the reason perf
// cannot (typically no hardware PMU, as on most virtual machines).
func DetectBackend() (string, error) {
	evs, err := perfcount.ParseEvents("instructions:u")
	if err != nil {
		return suite.BackendCallgrind, err
	}
	r, err := perfcount.NewRegion(perfcount.BackendPerf, evs)
	if err != nil {
		return suite.BackendCallgrind, err
	}
	r.Close()
	return suite.BackendPerf, nil
}

// PerOpCounts returns the per-operation count of each repeat in pure-count's
// --json output for workload, in repeat order, and the event counted. The
// output must hold one unmultiplexed count per repeat, from backend.
func PerOpCounts(stdout []byte, workload, backend string) ([]float64, string, error) {
	var (
		counts []float64
		event  string
	)
	lines, err := runLines(stdout, workload)
	if err != nil {
		return nil, "", err
	}
	for _, rl := range lines {
		n, cl := rl.n, rl.countLine
		switch {
		case event != "" && cl.Event != event:
			return nil, "", fmt.Errorf("%s stdout line %d: a second event %s (after %s)", workload, n, cl.Event, event)
		case cl.Ops <= 0:
			return nil, "", fmt.Errorf("%s stdout line %d: ops is %d", workload, n, cl.Ops)
		case string(cl.Source) != backend:
			return nil, "", fmt.Errorf("%s stdout line %d: counted by %s, not %s", workload, n, cl.Source, backend)
		case cl.Multiplexed:
			return nil, "", fmt.Errorf("%s stdout line %d: %s was multiplexed (counted part of the time)", workload, n, cl.Event)
		}
		event = cl.Event
		counts = append(counts, cl.Value/float64(cl.Ops))
	}
	if len(counts) == 0 {
		return nil, "", fmt.Errorf("pure-count printed no run line for %s", workload)
	}
	return counts, event, nil
}
