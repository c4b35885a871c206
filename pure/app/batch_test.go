package app

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
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

// opsApp's input "ops" applies its body's words in turn: "pK.N" puts key K
// with n = N, "dK" deletes K, "x" fails the input after the changes before
// it (so they are undone). The view "all" answers every record.
func opsApp() App {
	return App{
		Name:  "ops",
		Table: Table{Name: "c", Key: "k", Columns: []Field{{Name: "n", Type: Int}}},
		Inputs: []InputDef{{
			Name:   "ops",
			Fields: []Field{{Name: "b", Type: Text, Body: true}},
			Run: func(t *Turn) error {
				for _, w := range strings.Fields(t.Text("b")) {
					switch w[0] {
					case 'p':
						k, n, _ := strings.Cut(w[1:], ".")
						r := t.New(k)
						v, _ := strconv.ParseInt(n, 10, 64)
						r.SetInt("n", v)
						if err := t.Put(r); err != nil {
							return err
						}
					case 'd':
						if err := t.Delete(w[1:]); err != nil {
							return err
						}
					case 'x':
						return Errorf(409, "failed on purpose")
					}
				}
				return nil
			},
		}},
		Views: []ViewDef{{Name: "all", Answer: Rows, Run: KeyOrder}},
	}
}

// TestStage_NewestChangeOfEachKey: batches of inputs that put and delete a
// few keys many times (some inputs failing, so undone) save each key's
// last state: after every batch, the app restarted from the store holds
// what a model holds.
func TestStage_NewestChangeOfEachKey(t *testing.T) {
	seed := uint64(3)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	st, _ := store.OpenRAM(nil)
	defer st.Close()
	model := map[string]int64{}
	for batch := range 200 {
		r, err := Start(st, opsApp(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var calls []*Call
		next := maps.Clone(model)
		for range 1 + rng.IntN(4) {
			var words []string
			m := maps.Clone(next)
			fail := rng.IntN(4) == 0
			for range 1 + rng.IntN(8) {
				k := fmt.Sprintf("k%d", rng.IntN(5))
				if rng.IntN(3) == 0 {
					words = append(words, "d"+k)
					delete(m, k)
				} else {
					n := rng.Int64N(1000)
					words = append(words, fmt.Sprintf("p%s.%d", k, n))
					m[k] = n
				}
			}
			if fail {
				words = append(words, "x")
			} else {
				next = m
			}
			calls = append(calls, &Call{Kind: Input, Name: "ops", Body: []byte(strings.Join(words, " "))})
		}
		r.apply(batchOf(t, r, calls...))
		model = next
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		r, err = Start(st, opsApp(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := batchOf(t, r, &Call{Kind: View, Name: "all"})
		r.apply(c)
		var want []string
		for _, k := range slices.Sorted(maps.Keys(model)) {
			want = append(want, fmt.Sprintf(`{"k":"%s","n":%d}`, k, model[k]))
		}
		if got, w := string(c[0].Out), "["+strings.Join(want, ",")+"]"; got != w {
			t.Fatalf("batch %d: restarted, the app holds\n%s\nwant\n%s", batch, got, w)
		}
		r.Close()
	}
}

// TestPut_RecordChangedAfterPut: Put adopts a new or changed record's
// values without copying them, yet changing the record after Put changes
// the table only at its next Put, and an input failing after its Puts
// leaves the table as it was.
func TestPut_RecordChangedAfterPut(t *testing.T) {
	a := App{Name: "adopt", Table: Table{Name: "c", Key: "k", Columns: []Field{{Name: "n", Type: Int}}},
		Inputs: []InputDef{{Name: "go", Fields: []Field{{Name: "fail", Type: Int}}, Run: func(t *Turn) error {
			r := t.New("a")
			r.SetInt("n", 1)
			if err := t.Put(r); err != nil {
				return err
			}
			r.SetInt("n", 2) // not put: "a" stays 1
			b := t.New("b")
			b.SetInt("n", 5)
			t.Put(b)
			t.Put(b)
			b.SetInt("n", 6)
			t.Put(b)
			b.SetInt("n", 7) // not put: "b" stays 6
			if got, _ := t.Get("a"); got.Int("n") != 1 {
				return Errorf(500, "a is %d after Put, want 1", got.Int("n"))
			}
			if t.Int("fail") != 0 {
				return Errorf(409, "failed on purpose")
			}
			return nil
		}}},
		Views: []ViewDef{{Name: "all", Answer: Rows, Run: KeyOrder}}}
	st, _ := store.OpenRAM(nil)
	defer st.Close()
	r, err := Start(st, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, c := range []struct {
		kind          Kind
		name, q, want string
	}{
		{Input, "go", "fail=1", "conflict: failed on purpose\n"},
		{View, "all", "", "[]"},
		{Input, "go", "fail=0", ""},
		{View, "all", "", `[{"k":"a","n":1},{"k":"b","n":6}]`},
	} {
		b := batchOf(t, r, &Call{Kind: c.kind, Name: c.name, Query: []byte(c.q)})
		r.apply(b)
		if string(b[0].Out) != c.want {
			t.Errorf("%s?%s: %q, want %q", c.name, c.q, b[0].Out, c.want)
		}
	}
}

// TestTurn_TableByBuiltName: Table finds a table by a name built at run
// time (other bytes than the declaration's string) as by the declared one.
func TestTurn_TableByBuiltName(t *testing.T) {
	st, _ := store.OpenRAM(nil)
	defer st.Close()
	r, err := Start(st, counter(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	built := string([]byte{'c'})
	if a, b := r.turn.Table("c"), r.turn.Table(built); a != b || a.Name() != "c" {
		t.Errorf("Table(%q) = %p, Table(built %q) = %p", "c", a, built, b)
	}
	defer func() {
		if recover() == nil {
			t.Error("Table of an unknown name did not panic")
		}
	}()
	r.turn.Table(string([]byte("nope")))
}

// TestStage_StoreKeyOrder: stage's order of rows (sortStaged and
// cmpStaged, with the tables' ranks set by load) is the order of their
// store keys, with tables of few rows and of more than insertionMax, for
// tables whose names are prefixes of each other or differ in '-' and '_',
// and keys that are prefixes of each other, share their first 16 bytes
// or are shorter than 8.
func TestStage_StoreKeyOrder(t *testing.T) {
	seed := uint64(11)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	st, _ := store.OpenRAM(nil)
	defer st.Close()
	tab := func(name string) Table {
		return Table{Name: name, Key: "k", Columns: []Field{{Name: "n", Type: Int}}}
	}
	a := App{Name: "o", Table: tab("ab"), Tables: []Table{tab("a"), tab("a-b"), tab("a_b"), tab("b"), tab("a0")}}
	r, err := load(st, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	stems := []string{"", "x", "0123456789abcdef", "0123456789abcdefg", "0123456789abcdeg"}
	for round := range 50 {
		var rows []staged
		for range 1 + rng.IntN(40) + round%2*rng.IntN(300) { // some rounds over insertionMax rows a table
			k := stems[rng.IntN(len(stems))]
			for range rng.IntN(4) {
				k += string(rune('a' + rng.IntN(3)))
			}
			if k == "" {
				k = "z"
			}
			h, tl := heads(k)
			rows = append(rows, staged{tb: r.tables[rng.IntN(len(r.tables))], r: &row{key: k}, h: h, t: tl})
		}
		sb := stageBuf{rows: slices.Clone(rows)}
		got := sb.sortStaged()
		want := slices.Clone(rows)
		slices.SortStableFunc(want, func(x, y staged) int {
			return strings.Compare(x.tb.prefix+x.r.key, y.tb.prefix+y.r.key)
		})
		for i := range got {
			if gk, wk := got[i].tb.prefix+got[i].r.key, want[i].tb.prefix+want[i].r.key; gk != wk {
				t.Fatalf("round %d: row %d is %q, want %q", round, i, gk, wk)
			}
		}
	}
}
