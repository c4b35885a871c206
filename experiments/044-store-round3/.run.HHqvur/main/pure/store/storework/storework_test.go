package storework

import (
	"testing"

	"workbench/perfcount/workload"
)

// Every store workload prepares, runs a few operations and cleans up
// without error or panic.
func TestWorkloads_Run(t *testing.T) {
	for _, name := range []string{"store-get", "store-put", "store-range-100", "store-tx100-commit"} {
		w, ok := workload.Lookup(name)
		if !ok {
			t.Fatalf("%s is not registered", name)
		}
		run, cleanup, err := w.New(3)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		run()
		if cleanup != nil {
			cleanup()
		}
	}
	if _, _, err := workload.All()[0].New(0); err == nil {
		t.Error("ops 0 accepted")
	}
}
