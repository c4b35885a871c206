//go:build !purenobudget

package app_test

import (
	"fmt"
	"testing"

	"workbench/pure/app"
	"workbench/pure/store"
)

// TestBudget_OverBudgetChangesNothing: with a budget of 10 rows, a turn
// that writes and then reads more than that is refused with 422 and
// leaves every table as it was; turns within the budget run as without.
func TestBudget_OverBudgetChangesNothing(t *testing.T) {
	st, _ := store.OpenRAM(nil)
	defer st.Close()
	rt, err := app.Start(st, stockApp(), app.Options{Budget: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	for i := range 4 { // each put: a Get, two Puts = 3 rows
		want(t, rt, app.Input, "put", fmt.Sprintf("key=k%d&cat=1&qty=%d", i, i), "x", 200, "")
	}
	// scan: one Put (1), then 4 rows read = 5: within 10.
	want(t, rt, app.Input, "scan", "", "", 200, "4")
	for i := 4; i < 9; i++ {
		want(t, rt, app.Input, "put", fmt.Sprintf("key=k%d&cat=1&qty=%d", i, i), "x", 200, "")
	}
	// Now 9 items: 1 + 9 = 10 rows, still within.
	want(t, rt, app.Input, "scan", "", "", 200, "9")
	want(t, rt, app.Input, "put", "key=k9&cat=1&qty=9", "x", 200, "")
	before := mustDo(t, rt, "named", "count=10")
	movesBefore := mustDo(t, rt, "moves", "")
	// 1 + 10 = 11 rows: refused, and its Put to moves undone.
	want(t, rt, app.Input, "scan", "", "", 422, "unprocessable content: over budget: input \"scan\" read and wrote more than its budget of 10 rows, so it was stopped and nothing was changed; ask for less (a smaller page or range), or run the server with a larger budget\n")
	if got := mustDo(t, rt, "moves", ""); got != movesBefore {
		t.Errorf("moves %s after the refused scan, %s before", got, movesBefore)
	}
	if got := mustDo(t, rt, "named", "count=10"); got != before {
		t.Errorf("items changed by the refused scan:\n%s\n%s", got, before)
	}
	// A view over budget (11 rows) is refused too; the runtime goes on serving.
	want(t, rt, app.Input, "put", "key=k10&cat=1&qty=10", "x", 200, "")
	movesBefore = mustDo(t, rt, "moves", "")
	want(t, rt, app.View, "cats", "", "", 422, "unprocessable content: over budget: view \"cats\" read and wrote more than its budget of 10 rows, so it was stopped and nothing was changed; ask for less (a smaller page or range), or run the server with a larger budget\n")
	want(t, rt, app.View, "named", "cols=key&count=3", "", 200, `[{"key":"k0"},{"key":"k1"},{"key":"k10"}]`)
	// Restarted from the store, the refused turn left no trace.
	rt.Close()
	rt2, err := app.Start(st, stockApp(), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt2.Close()
	if got := mustDo(t, rt2, "moves", ""); got != movesBefore {
		t.Errorf("moves %s in the store, want %s", got, movesBefore)
	}
}
