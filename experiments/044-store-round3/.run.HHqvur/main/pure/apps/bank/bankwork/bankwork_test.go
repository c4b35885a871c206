package bankwork

import (
	"testing"

	"workbench/perfcount/workload"
)

// Every 10k bank workload prepares, runs and cleans up; the 100k ones are
// left to pure-count (seeding 100,000 accounts takes seconds).
func TestWorkloads_Run(t *testing.T) {
	for _, q := range Queries {
		w, ok := workload.Lookup(Name(q.View, 10_000))
		if !ok {
			t.Fatalf("%s is not registered", Name(q.View, 10_000))
		}
		run, cleanup, err := w.New(2)
		if err != nil {
			t.Fatalf("%s: %v", w.Name, err)
		}
		run()
		if Sink == 0 {
			t.Errorf("%s answered nothing", w.Name)
		}
		cleanup()
	}
}
