package tpccwork

import (
	"testing"

	"workbench/perfcount/workload"
	"workbench/pure/app"
	"workbench/pure/apps/tpcc"
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

// TestStockLevel_ZeroAllocs: a warm Stock-Level call, reused, is
// answered through Do without allocating: its range's bounds are built in
// the app's scratch buffers and do not escape, its items collected in a
// reused slice. (Order-Status still allocates for its index key: each
// step of app.K().Int(w).Int(d).Int(c) copies the key so far, and a Text
// field's value is a new string; inputs allocate the changed rows'
// values and the store's commit.)
func TestStockLevel_ZeroAllocs(t *testing.T) {
	st, rt, err := Start(tpcc.Small)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	defer rt.Close()
	c := &app.Call{}
	query := []byte("w=1&d=3&threshold=15")
	allocs := testing.AllocsPerRun(100, func() {
		c.Reset()
		c.Kind, c.Name, c.Query = app.View, "stock_level", query
		rt.Do(c)
	})
	if c.Status != 200 {
		t.Fatalf("stock_level: %d %s", c.Status, c.Out)
	}
	if allocs != 0 {
		t.Errorf("stock_level: %.1f allocations per call, want 0", allocs)
	}
}
