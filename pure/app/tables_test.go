package app_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"workbench/pure/app"
	"workbench/pure/store"
)

// stock is a test app of two tables: items (a category, a name and a
// quantity, indexed by category and by name) and moves (one record per
// change, so a turn writes two tables).
type stockItem struct {
	cat  int64
	name string
	qty  int64
}

// moveReq is the JSON body of the move input.
type moveReq struct {
	Moves []struct {
		Key string `json:"key"`
		Qty int64  `json:"qty"`
	} `json:"moves"`
}

var computed int // calls of the computed column "double"

func stockApp() app.App {
	items := app.Table{Name: "items", Key: "key", Columns: []app.Field{
		{Name: "cat", Type: app.Int}, {Name: "name", Type: app.Text}, {Name: "qty", Type: app.Int},
	}, Indexes: []app.IndexDef{{Name: "by_cat", Columns: []string{"cat", "qty"}}, {Name: "by_name", Columns: []string{"name"}}}}
	moves := app.Table{Name: "moves", Key: "n", Columns: []app.Field{{Name: "key", Type: app.Text}}}
	return app.App{
		Name: "stock", Table: items, Tables: []app.Table{moves},
		Inputs: []app.InputDef{
			{Name: "put", Fields: []app.Field{{Name: "key", Type: app.Text}, {Name: "cat", Type: app.Int}, {Name: "qty", Type: app.Int}, {Name: "name", Type: app.Text, Body: true}}, Run: stockPut},
			{Name: "del", Fields: []app.Field{{Name: "key", Type: app.Text}}, Run: func(t *app.Turn) error { return t.Delete(t.Text("key")) }},
			{Name: "move", Fields: []app.Field{{Name: "m", Type: app.JSON, Body: true, New: func() any { return new(moveReq) }}}, Run: stockMove},
			{Name: "scan", Run: func(t *app.Turn) error { // writes, then reads every item
				if err := logMove(t, "scan"); err != nil {
					return err
				}
				n := 0
				t.Scan(0, t.Len(), func(app.Record) bool { n++; return true })
				t.SetNumber(int64(n))
				return nil
			}},
		},
		Views: []app.ViewDef{
			{Name: "bycat", Fields: []app.Field{{Name: "cat", Type: app.Int}}, Answer: app.Rows, Run: func(t *app.Turn) error {
				n := 0
				t.Table("items").Index("by_cat").Prefix(app.K().Int(t.Int("cat")), func(r app.Record) bool {
					if n >= t.From() && n < t.From()+t.Count() {
						t.AddRow(r)
					}
					n++
					return true
				})
				return nil
			}},
			{Name: "catrange", Fields: []app.Field{{Name: "lo", Type: app.Int}, {Name: "hi", Type: app.Int}, {Name: "desc", Type: app.Int}}, Answer: app.Plain, Run: catRange},
			{Name: "named", Answer: app.Rows, MaxCount: 5000, Cols: []app.Col{
				{Name: "name"}, {Name: "key"}, {Name: "double", Int: func(t *app.Turn, r app.Record) int64 { computed++; return 2 * r.Int("qty") }},
			}, Run: func(t *app.Turn) error {
				t.Table("items").Index("by_name").Page(t.From(), t.Count(), false, func(r app.Record) bool { t.AddRow(r); return true })
				return nil
			}},
			{Name: "cats", Answer: app.Rows, Cols: []app.Col{{Name: "cat", Type: app.Int}, {Name: "items", Type: app.Int}}, Run: func(t *app.Turn) error {
				counts := map[int64]int64{}
				t.Scan(0, t.Len(), func(r app.Record) bool { counts[r.Int("cat")]++; return true })
				keys := make([]int64, 0, len(counts))
				for k := range counts {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				for _, k := range keys {
					t.Row().Int(k).Int(counts[k]).End()
				}
				return nil
			}},
			{Name: "moves", Answer: app.Number, Run: func(t *app.Turn) error { t.SetNumber(int64(t.Table("moves").Len())); return nil }},
		},
	}
}

func logMove(t *app.Turn, key string) error {
	mv := t.Table("moves")
	r := mv.New(fmt.Sprintf("%08d", mv.Len()))
	r.SetText("key", key)
	return mv.Put(r)
}

func stockPut(t *app.Turn) error {
	r, ok := t.Get(t.Text("key"))
	if !ok {
		r = t.New(t.Text("key"))
	}
	r.SetInt("cat", t.Int("cat"))
	r.SetInt("qty", t.Int("qty"))
	r.SetText("name", t.Text("name"))
	if err := t.Put(r); err != nil {
		return err
	}
	return logMove(t, r.Key)
}

// stockMove adds each move's qty to its item; an item going negative
// refuses the whole input.
func stockMove(t *app.Turn) error {
	req := t.JSON("m").(*moveReq)
	for _, m := range req.Moves {
		r, ok := t.Get(m.Key)
		if !ok {
			return app.Errorf(404, "no item %q", m.Key)
		}
		q := r.Int("qty") + m.Qty
		if q < 0 {
			return app.Errorf(409, "item %q would go below zero", m.Key)
		}
		r.SetInt("qty", q)
		if err := t.Put(r); err != nil {
			return err
		}
		if err := logMove(t, m.Key); err != nil {
			return err
		}
	}
	t.SetNumber(int64(len(req.Moves)))
	return nil
}

// catRange lists "key:cat:qty" of the items with cat in [lo, hi) by
// the by_cat index, descending if desc is 1.
func catRange(t *app.Turn) error {
	ix := t.Table("items").Index("by_cat")
	var b strings.Builder
	fn := func(r app.Record) bool { fmt.Fprintf(&b, "%s:%d:%d ", r.Key, r.Int("cat"), r.Int("qty")); return true }
	lo, hi := app.K().Int(t.Int("lo")), app.K().Int(t.Int("hi"))
	if t.Int("desc") == 1 {
		ix.RangeDesc(lo, hi, fn)
	} else {
		ix.Range(lo, hi, fn)
	}
	fmt.Fprintf(&b, "n=%d", ix.Count(lo, hi))
	t.SetText(b.String())
	return nil
}

// modelRange is catRange computed from the model.
func modelRange(m map[string]stockItem, lo, hi int64, desc bool) string {
	type kv struct {
		k string
		v stockItem
	}
	var rows []kv
	for k, v := range m {
		if v.cat >= lo && v.cat < hi {
			rows = append(rows, kv{k, v})
		}
	}
	slices.SortFunc(rows, func(a, b kv) int {
		if a.v.cat != b.v.cat {
			return int(a.v.cat - b.v.cat)
		}
		if a.v.qty != b.v.qty {
			return int(a.v.qty - b.v.qty)
		}
		return strings.Compare(a.k, b.k)
	})
	if desc {
		slices.Reverse(rows)
	}
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%s:%d:%d ", r.k, r.v.cat, r.v.qty)
	}
	fmt.Fprintf(&b, "n=%d", len(rows))
	return b.String()
}

// TestTables_IndexesFollowChanges: random puts, deletes and moves (some
// refused, so undone) against a model; the index scans, both directions,
// and counts match the model after every step, and again after the app is
// restarted from the store (indexes rebuilt).
func TestTables_IndexesFollowChanges(t *testing.T) {
	seed := uint64(11)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	st, err := store.OpenRAM(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rt, err := app.Start(st, stockApp(), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	model := map[string]stockItem{}
	moves := 0
	check := func(step int) {
		t.Helper()
		for _, desc := range []bool{false, true} {
			lo, hi := int64(rng.IntN(6)), int64(rng.IntN(8))
			d := 0
			if desc {
				d = 1
			}
			s, out := do(rt, app.View, "catrange", fmt.Sprintf("lo=%d&hi=%d&desc=%d", lo, hi, d), "")
			if w := modelRange(model, lo, hi, desc); s != 200 || out != w {
				t.Fatalf("step %d: catrange %d..%d desc %v:\n got %d %s\nwant %s", step, lo, hi, desc, s, out, w)
			}
		}
		if _, out := do(rt, app.View, "moves", "", ""); out != fmt.Sprint(moves) {
			t.Fatalf("step %d: %s moves, want %d", step, out, moves)
		}
	}
	for step := range 1500 {
		key := fmt.Sprintf("i%03d", rng.IntN(300))
		switch rng.IntN(4) {
		case 0, 1:
			it := stockItem{int64(rng.IntN(6)), fmt.Sprintf("n%d", rng.IntN(50)), int64(rng.IntN(10))}
			want(t, rt, app.Input, "put", fmt.Sprintf("key=%s&cat=%d&qty=%d", key, it.cat, it.qty), it.name, 200, "")
			model[key] = it
			moves++
		case 2:
			want(t, rt, app.Input, "del", "key="+key, "", 200, "")
			delete(model, key)
		case 3:
			var req moveReq
			ok := true
			next := maps(model)
			for range 1 + rng.IntN(3) {
				k := fmt.Sprintf("i%03d", rng.IntN(300))
				q := int64(rng.IntN(7) - 4)
				req.Moves = append(req.Moves, struct {
					Key string `json:"key"`
					Qty int64  `json:"qty"`
				}{k, q})
				it, found := next[k]
				if !found || it.qty+q < 0 {
					ok = false
				}
				it.qty += q
				next[k] = it
			}
			body, _ := json.Marshal(req)
			s, _ := do(rt, app.Input, "move", "", string(body))
			if ok != (s == 200) {
				t.Fatalf("step %d: move %s answered %d, model says ok=%v", step, body, s, ok)
			}
			if ok {
				model = next
				moves += len(req.Moves)
			}
		}
		if step%10 == 0 {
			check(step)
		}
	}
	check(-1)
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	if rt, err = app.Start(st, stockApp(), app.Options{}); err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	check(-2)
}

func maps(m map[string]stockItem) map[string]stockItem {
	c := make(map[string]stockItem, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// TestTables_ColsAndRows: ?cols= picks columns, and a computed column
// nobody asked for is not computed; Row writes the requested cells of rows
// that are no record; bad cols and bad JSON are refused with 400.
func TestTables_ColsAndRows(t *testing.T) {
	rt := startRAM(t, stockApp())
	want(t, rt, app.Input, "put", "key=a&cat=2&qty=5", "zed", 200, "")
	want(t, rt, app.Input, "put", "key=b&cat=1&qty=3", "amy", 200, "")
	want(t, rt, app.Input, "put", "key=c&cat=2&qty=1", "bob", 200, "")
	computed = 0
	want(t, rt, app.View, "named", "", "", 200, `[{"name":"amy","key":"b","double":6},{"name":"bob","key":"c","double":2},{"name":"zed","key":"a","double":10}]`)
	if computed != 3 {
		t.Errorf("double computed %d times for 3 rows", computed)
	}
	computed = 0
	want(t, rt, app.View, "named", "cols=key&from=1&count=1", "", 200, `[{"key":"c"}]`)
	want(t, rt, app.View, "named", "cols=double,name&count=1", "", 200, `[{"name":"amy","double":6}]`)
	if computed != 1 {
		t.Errorf("double computed %d times, want once (only the second call asks for it)", computed)
	}
	want(t, rt, app.View, "named", "count=5001", "", 400, "bad request: field \"count\": 5001 is out of range; use 0 to 5000\n")
	want(t, rt, app.View, "named", "cols=key,size", "", 400, "bad request: field \"cols\": no column \"size\"; columns: name, key, double\n")
	want(t, rt, app.View, "named", "colz=key", "", 400, "bad request: unknown field \"colz\"; fields: from, count, cols\n")
	want(t, rt, app.View, "bycat", "cat=2&cols=key", "", 400, "bad request: unknown field \"cols\"; fields: cat, from, count\n")
	want(t, rt, app.View, "bycat", "cat=2", "", 200, `[{"key":"c","cat":2,"name":"bob","qty":1},{"key":"a","cat":2,"name":"zed","qty":5}]`)
	want(t, rt, app.View, "cats", "", "", 200, `[{"cat":1,"items":1},{"cat":2,"items":2}]`)
	want(t, rt, app.View, "cats", "cols=items", "", 200, `[{"items":1},{"items":2}]`)
	want(t, rt, app.Input, "move", "", `{"moves":[{"key":"a","qty":-2},{"key":"b","qty":1}]}`, 200, "2")
	want(t, rt, app.Input, "move", "", `{"moves":[{"key":"a","qty":-1},{"key":"b","qty":-9}]}`, 409, "conflict: item \"b\" would go below zero\n")
	want(t, rt, app.View, "bycat", "cat=2", "", 200, `[{"key":"c","cat":2,"name":"bob","qty":1},{"key":"a","cat":2,"name":"zed","qty":3}]`)
	want(t, rt, app.Input, "move", "", `{"moves":[`, 400, "bad request: field \"m\" (the body): unexpected end of JSON input; send a JSON body of the input's shape\n")
	want(t, rt, app.Input, "move", "", `{"moves":7}`, 400, "bad request: field \"m\" (the body): json: cannot unmarshal number into Go struct field moveReq.moves of type []struct { Key string \"json:\\\"key\\\"\"; Qty int64 \"json:\\\"qty\\\"\" }; send a JSON body of the input's shape\n")
}

func mustDo(t *testing.T, rt *app.Runtime, view, query string) string {
	t.Helper()
	s, out := do(rt, app.View, view, query, "")
	if s != 200 {
		t.Fatalf("%s?%s: %d %s", view, query, s, out)
	}
	return out
}

// TestTurn_TableAt: TableAt(i) is the table declared i-th (App.Table,
// then App.Tables), the same Tab as Table(name); SetTextBytes answers
// the bytes given.
func TestTurn_TableAt(t *testing.T) {
	a := stockApp()
	a.Views = append(a.Views, app.ViewDef{Name: "places", Answer: app.Plain, Run: func(t *app.Turn) error {
		var b []byte
		for i, name := range []string{"items", "moves"} {
			if tab := t.TableAt(i); tab != t.Table(name) || tab.Name() != name {
				return fmt.Errorf("TableAt(%d) is %q, want %q", i, tab.Name(), name)
			}
			b = append(append(b, name...), ' ')
		}
		t.SetTextBytes(b)
		return nil
	}})
	rt := startRAM(t, a)
	want(t, rt, app.View, "places", "", "", 200, "items moves ")
}
