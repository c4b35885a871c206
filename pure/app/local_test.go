package app

import (
	"testing"

	"workbench/pure/store"
)

// TestDo_Channel: Do answers a fresh Call without making it a channel
// (its caller is the owner and waits on none), and a Call submitted
// before, then run with Do, has the answer's token taken back, so a
// later Submit's Wait waits for that Submit's own answer.
func TestDo_Channel(t *testing.T) {
	a := App{
		Name:  "count",
		Table: Table{Name: "n", Key: "k", Columns: []Field{{Name: "v", Type: Int}}},
		Inputs: []InputDef{{Name: "add", Fields: []Field{{Name: "by", Type: Int}}, Run: func(t *Turn) error {
			r, ok := t.Get("n")
			if !ok {
				r = t.New("n")
			}
			r.SetIntAt(0, r.IntAt(0)+t.Int("by"))
			t.SetNumber(r.IntAt(0))
			return t.Put(r)
		}}},
	}
	open := func() *store.Store {
		st, err := store.OpenRAM(nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	owned, err := Start(open(), a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { owned.Close() })
	local, err := StartLocal(open(), a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { local.Close() })

	c := &Call{Kind: Input, Name: "add", Query: []byte("by=2")}
	local.Do(c)
	if c.Status != 200 || string(c.Out) != "2" || c.done != nil {
		t.Fatalf("Do of a fresh Call: %d %q, channel %v; want 200 \"2\" and no channel", c.Status, c.Out, c.done)
	}

	c.Reset()
	c.Kind, c.Name, c.Query = Input, "add", []byte("by=5")
	owned.Submit(c)
	c.Wait()
	c.Reset()
	c.Kind, c.Name, c.Query = Input, "add", []byte("by=1")
	local.Do(c) // c has a channel now: Do must leave no token in it
	if c.Status != 200 || string(c.Out) != "3" || len(c.done) != 0 {
		t.Fatalf("Do of a submitted Call: %d %q, %d tokens left; want 200 \"3\" and none", c.Status, c.Out, len(c.done))
	}
	c.Reset()
	c.Kind, c.Name, c.Query = Input, "add", []byte("by=10")
	owned.Submit(c)
	c.Wait()
	if c.Status != 200 || string(c.Out) != "15" {
		t.Fatalf("Submit after Do: %d %q, want 200 \"15\"", c.Status, c.Out)
	}
}
