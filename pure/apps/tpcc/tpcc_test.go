package tpcc_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"workbench/pure/app"
	"workbench/pure/apps/tpcc"
	"workbench/pure/store"
)

func view(t *testing.T, submit func(*app.Call), name, query string) string {
	t.Helper()
	c := &app.Call{Kind: app.View, Name: name, Query: []byte(query)}
	submit(c)
	if c.Status != 200 {
		t.Fatalf("%s?%s: %d %s", name, query, c.Status, c.Out)
	}
	return string(c.Out)
}

// snapshot is what a few views answer: it must survive a restart.
func snapshot(t *testing.T, submit func(*app.Call)) string {
	var b strings.Builder
	for d := 1; d <= 10; d++ {
		fmt.Fprintf(&b, "%s|%s|", view(t, submit, "stock_level", fmt.Sprintf("w=1&d=%d&threshold=50", d)),
			view(t, submit, "order_status", fmt.Sprintf("w=1&d=%d&c=%d&last=", d, d)))
	}
	return b.String()
}

// TestTPCC_Durable_ConsistentAfterRestart: eight goroutines run the mix
// on a durable store through the owner (batched saves); the consistency
// conditions hold, and after closing and reopening the store the app
// answers the same and the conditions still hold.
func TestTPCC_Durable_ConsistentAfterRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tpcc.pure")
	st, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := tpcc.Seed(st, tpcc.Small, 1); err != nil {
		t.Fatal(err)
	}
	rt, err := app.Start(st, tpcc.New(), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	submit := func(c *app.Call) { rt.Submit(c); c.Wait() }
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mix := tpcc.NewMix(tpcc.Small, 1, uint64(100+g))
			c := &app.Call{}
			for range 150 {
				x := mix.Next()
				c.Reset()
				c.Kind, c.Name, c.Query, c.Body = x.Call()
				submit(c)
				if c.Status != 200 && !(x.Kind == tpcc.NewOrder && c.Status == 404) {
					t.Errorf("%s: %d %s", x.Kind, c.Status, c.Out)
				}
			}
		}()
	}
	wg.Wait()
	if got := view(t, submit, "consistency", ""); got != "ok" {
		t.Fatalf("consistency: %s", got)
	}
	if s := rt.Stats(); s.Saves >= s.Inputs {
		t.Logf("no batching: %d saves for %d inputs", s.Saves, s.Inputs)
	}
	before := snapshot(t, submit)
	rt.Close()
	st.Close()
	if st, err = store.Open(path, nil); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if rt, err = app.Start(st, tpcc.New(), app.Options{}); err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if got := view(t, submit, "consistency", ""); got != "ok" {
		t.Fatalf("consistency after restart: %s", got)
	}
	if after := snapshot(t, submit); after != before {
		t.Errorf("answers changed across the restart:\n%s\n%s", before, after)
	}
}

// TestConsistency_FindsBrokenConditions: the check is not always "ok":
// an order line loaded without its order breaks condition 4 of its
// district and of no other.
func TestConsistency_FindsBrokenConditions(t *testing.T) {
	st, _ := store.OpenRAM(nil)
	defer st.Close()
	if err := tpcc.Seed(st, tpcc.Small, 1); err != nil {
		t.Fatal(err)
	}
	err := app.Load(st, tpcc.New(), func(l *app.Loader) error {
		r := l.New("order_line", "00010300000001"+"99")
		r.SetIntAt(0, 1)
		r.SetIntAt(1, 3)
		return l.Put(r)
	})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := app.StartLocal(st, tpcc.New(), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	got := view(t, rt.Do, "consistency", "")
	if !strings.Contains(got, "condition 4: district 1/3") || strings.Contains(got, "district 1/4") {
		t.Errorf("consistency: %q, want condition 4 for district 1/3 only", got)
	}
}

// TestBadCreditData: c_data after a bad-credit payment is the
// specification's "ids and amount, then the old data" cut to 500
// characters, for old data short, long and empty, and negative ids.
func TestBadCreditData(t *testing.T) {
	for _, old := range []string{"", "short", strings.Repeat("x", 480), strings.Repeat("y", 500), strings.Repeat("z", 700)} {
		for _, ids := range [][6]int64{{1, 2, 3, 4, 5, 6}, {2999, 10, 1, 10, 1, 500000}, {-1, 0, 0, -7, 1, 123456789012}} {
			want := fmt.Sprintf("%d %d %d %d %d %d|%s", ids[0], ids[1], ids[2], ids[3], ids[4], ids[5], old)
			want = want[:min(len(want), 500)]
			if got := tpcc.BadCreditData(ids[0], ids[1], ids[2], ids[3], ids[4], ids[5], old); got != want {
				t.Errorf("BadCreditData(%v, %d bytes of old data) = %q..., want %q...", ids, len(old), got[:min(len(got), 40)], want[:min(len(want), 40)])
			}
		}
	}
}
