package app

import (
	"testing"

	"workbench/pure/store"
)

// counter is a one-column app for the batch tests (package scores cannot
// be imported here: it imports app).
func counter() App {
	return App{
		Name:  "counter",
		Table: Table{Name: "c", Key: "k", Columns: []Field{{Name: "n", Type: Int}}},
		Inputs: []InputDef{{
			Name:   "add",
			Fields: []Field{{Name: "n", Type: Int}},
			Run: func(t *Turn) error {
				if t.Int("n") < 0 {
					return Errorf(400, "negative")
				}
				r, ok := t.Get("k")
				if !ok {
					r = t.New("k")
				}
				r.SetInt("n", r.Int("n")+t.Int("n"))
				return t.Put(r)
			},
		}},
		Views: []ViewDef{{Name: "sum", Answer: Number, Run: func(t *Turn) error { t.SetNumber(t.Sum("n")); return nil }}},
	}
}

// batchOf parses calls for r as Submit would, without queueing them.
func batchOf(t *testing.T, r *Runtime, calls ...*Call) []*Call {
	for _, c := range calls {
		c.done = make(chan struct{}, 1)
		if c.Kind == View {
			c.ep = find(r.app.views, c.Name)
		} else {
			c.ep = find(r.app.inputs, c.Name)
		}
		if msg := c.parse(c.ep); msg != "" {
			t.Fatal(msg)
		}
	}
	return calls
}

func view() *Call        { return &Call{Kind: View, Name: "sum"} }
func add(q string) *Call { return &Call{Kind: Input, Name: "add", Query: []byte(q)} }

// TestBatch_ViewsSeeTheirPosition applies one batch by hand: each view
// sees the inputs before it, a failing input changes nothing, the batch
// saves once, and calls before the first change are answered before the
// save.
func TestBatch_ViewsSeeTheirPosition(t *testing.T) {
	st, _ := store.OpenRAM(nil)
	defer st.Close()
	r, err := Start(st, counter(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b := batchOf(t, r, view(), add("n=5"), view(), add("n=-1"), view(), add("n=2"), view())
	if !r.apply(b) {
		t.Fatal("batch with inputs did not save")
	}
	want := []string{"0", "", "5", "bad request: negative\n", "5", "", "7"}
	for i, c := range b {
		select {
		case <-c.done:
		default:
			t.Fatalf("call %d not answered", i)
		}
		if string(c.Out) != want[i] {
			t.Errorf("call %d: %q, want %q", i, c.Out, want[i])
		}
	}
	if s := r.Stats(); s.Saves != 1 {
		t.Errorf("%d saves, want 1", s.Saves)
	}
	if r.apply(batchOf(t, r, view(), view())) {
		t.Error("a read-only batch saved")
	}
}

// TestBatch_FailedCommit_RollsBackEveryCall: a failed commit answers 503
// to every call from the first change on (their answers rested on unsaved
// state) and leaves the table as last saved.
func TestBatch_FailedCommit_RollsBackEveryCall(t *testing.T) {
	st, _ := store.OpenRAM(nil)
	r, err := Start(st, counter(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.apply(batchOf(t, r, add("n=3")))
	st.Close() // every later commit fails with ErrClosed
	b := batchOf(t, r, view(), add("n=5"), view())
	r.apply(b)
	if string(b[0].Out) != "3" || b[1].Status != 503 || b[2].Status != 503 {
		t.Errorf("answers %d %q, %d %q, %d %q", b[0].Status, b[0].Out, b[1].Status, b[1].Out, b[2].Status, b[2].Out)
	}
	c := batchOf(t, r, view())
	r.apply(c)
	if string(c[0].Out) != "3" {
		t.Errorf("sum after the failed save: %q, want 3", c[0].Out)
	}
}
