package tpccwork

import (
	"testing"

	"workbench/perfcount/workload"
)

// The small workload runs its transactions without a failure; the full
// one is left to pure-count (seeding takes seconds).
func TestWorkload_Small(t *testing.T) {
	w, ok := workload.Lookup("tpcc-mix-small")
	if !ok {
		t.Fatal("tpcc-mix-small is not registered")
	}
	run, cleanup, err := w.New(300)
	if err != nil {
		t.Fatal(err)
	}
	run()
	cleanup()
	if Failed != 0 {
		t.Errorf("%d of 300 transactions failed", Failed)
	}
}
