package app_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"workbench/pure/app"
	"workbench/pure/apps/scores"
	"workbench/pure/store"
)

// startRAM starts a on a fresh RAM store, closed at cleanup.
func startRAM(t testing.TB, a app.App) *app.Runtime {
	t.Helper()
	st, err := store.OpenRAM(nil)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := app.Start(st, a, app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(); st.Close() })
	return rt
}

// do submits one call and returns its status and body.
func do(rt *app.Runtime, k app.Kind, name, query, body string) (int, string) {
	c := &app.Call{Kind: k, Name: name, Query: []byte(query), Body: []byte(body)}
	rt.Submit(c)
	c.Wait()
	return c.Status, string(c.Out)
}

// want checks one call's status and body.
func want(t *testing.T, rt *app.Runtime, k app.Kind, name, query, body string, status int, out string) {
	t.Helper()
	gs, gout := do(rt, k, name, query, body)
	if gs != status || gout != out {
		t.Errorf("%v %s?%s body %q: got %d %q, want %d %q", k, name, query, body, gs, gout, status, out)
	}
}

func TestRuntime_Scores_InputsAndViews(t *testing.T) {
	rt := startRAM(t, scores.New())
	want(t, rt, app.View, "total", "", "", 200, "0")
	want(t, rt, app.View, "leaders", "", "", 200, "[]")
	want(t, rt, app.Input, "score", "points=5", "bob", 200, "bob")
	want(t, rt, app.Input, "score", "points=7", "alice", 200, "alice")
	want(t, rt, app.Input, "score", "points=-2", "bob", 200, "bob")
	want(t, rt, app.Input, "score", "points=%2B1", "a<b>", 200, "a<b>")
	want(t, rt, app.View, "total", "", "", 200, "11")
	want(t, rt, app.View, "leaders", "", "", 200, `[{"name":"a\u003cb\u003e","score":1},{"name":"alice","score":7},{"name":"bob","score":3}]`)
	want(t, rt, app.View, "leaders", "from=1&count=1", "", 200, `[{"name":"alice","score":7}]`)
	want(t, rt, app.View, "leaders", "from=3", "", 200, `[]`)
	want(t, rt, app.View, "leaders", "count=0", "", 200, `[]`)
	want(t, rt, app.View, "leaders", "from=99999999999999", "", 200, `[]`)
}

func TestRuntime_BadCalls_Answered(t *testing.T) {
	rt := startRAM(t, scores.New())
	cases := []struct {
		k                 app.Kind
		name, query, body string
		status            int
		out               string
	}{
		{app.View, "x", "", "", 404, "not found: no view \"x\"; views: total, leaders\n"},
		{app.Input, "x", "", "", 404, "not found: no input \"x\"; inputs: score\n"},
		{app.Input, "score", "points=abc", "bob", 400, "bad request: field \"points\": \"abc\" is not an integer\n"},
		{app.Input, "score", "points=a%20c", "bob", 400, "bad request: field \"points\": \"a c\" is not an integer\n"},
		{app.Input, "score", "points=99999999999999999999", "bob", 400, "bad request: field \"points\": \"99999999999999999999\" is not an integer\n"},
		{app.Input, "score", "", "bob", 400, "bad request: field \"points\": missing; add ?points=<integer>\n"},
		{app.Input, "score", "points=1&points=2", "bob", 400, "bad request: field \"points\": given twice; give it once\n"},
		{app.Input, "score", "points=1&x=2", "bob", 400, "bad request: unknown field \"x\"; fields: points\n"},
		{app.Input, "score", "points=1&name=bob", "bob", 400, "bad request: field \"name\" is the request body, not a query field; send it as the body\n"},
		{app.Input, "score", "points=%zz", "bob", 400, "bad request: query: bad percent-encoding in \"%zz\"; write %XX with two hex digits, and '%' as %25\n"},
		{app.Input, "score", "points=1", "", 400, "bad request: field \"name\": empty; send the name as the body\n"},
		{app.Input, "score", "points=1", "\xff", 400, "bad request: field \"name\" (the body): not valid UTF-8; send UTF-8 text\n"},
		{app.Input, "score", "points=1", strings.Repeat("n", 2000), 400, "bad request: bad key: the key is 2000 bytes, longer than the table's limit of 1008; use a shorter key\n"},
		{app.View, "total", "x=1", "", 400, "bad request: unknown field \"x\"; view \"total\" takes no query fields\n"},
		{app.View, "leaders", "count=1001", "", 400, "bad request: field \"count\": 1001 is out of range; use 0 to 1000\n"},
		{app.View, "leaders", "from=-1", "", 400, "bad request: field \"from\": -1 is out of range; use 0 or more\n"},
		{app.View, "leaders", "from=", "", 400, "bad request: field \"from\": \"\" is not an integer\n"},
		{app.View, "leaders", "to=3", "", 400, "bad request: unknown field \"to\"; fields: from, count\n"},
	}
	for _, c := range cases {
		want(t, rt, c.k, c.name, c.query, c.body, c.status, c.out)
	}
	want(t, rt, app.Input, "score", "points=9223372036854775807", "max", 200, "max")
	want(t, rt, app.Input, "score", "points=1", "max", 409, "conflict: the score of \"max\" would overflow int64; send fewer points\n")
	want(t, rt, app.View, "total", "", "", 200, "9223372036854775807")
	if s := rt.Stats(); s.Saves != 1 || s.Busy <= 0 {
		t.Errorf("%d saves, want 1: refused calls must not save; owner busy %v, want > 0 after batches", s.Saves, s.Busy)
	}
}

// TestRuntime_FailingInput_ChangesNothing: an input that fails (error or
// panic) after writing two records leaves neither; then a Plain view with
// Text and Int query fields.
func TestRuntime_FailingInput_ChangesNothing(t *testing.T) {
	a := app.App{
		Name:  "pairs",
		Table: app.Table{Name: "kv", Key: "k", Columns: []app.Field{{Name: "v", Type: app.Int}, {Name: "note", Type: app.Text}}},
		Inputs: []app.InputDef{{
			Name:   "set",
			Fields: []app.Field{{Name: "v", Type: app.Int}, {Name: "fail", Type: app.Text}, {Name: "key", Type: app.Text, Body: true}},
			Run: func(t *app.Turn) error {
				for _, k := range []string{t.Text("key"), t.Text("key") + "2"} {
					r := t.New(k)
					r.SetInt("v", t.Int("v"))
					r.SetText("note", "n")
					if err := t.Put(r); err != nil {
						return err
					}
				}
				switch t.Text("fail") {
				case "error":
					return app.Errorf(409, "asked to fail")
				case "panic":
					var m map[string]int
					//lint:ignore SA5000 the panic is the point: a handler that panics
					m["x"] = 1
				}
				return nil
			},
		}},
		Views: []app.ViewDef{
			{Name: "all", Answer: app.Rows, Run: app.KeyOrder},
			{Name: "note", Answer: app.Plain, Fields: []app.Field{{Name: "k", Type: app.Text}, {Name: "times", Type: app.Int}},
				Run: func(t *app.Turn) error {
					r, ok := t.Get(t.Text("k"))
					if !ok {
						return app.Errorf(404, "no record %q", t.Text("k"))
					}
					t.SetText(strings.Repeat(r.Text("note"), int(t.Int("times"))))
					return nil
				}},
		},
	}
	rt := startRAM(t, a)
	want(t, rt, app.Input, "set", "v=1&fail=no", "a", 200, "")
	want(t, rt, app.Input, "set", "v=2&fail=error", "a", 409, "conflict: asked to fail\n")
	want(t, rt, app.Input, "set", "v=2&fail=error", "b", 409, "conflict: asked to fail\n")
	st, out := do(rt, app.Input, "set", "v=3&fail=panic", "a")
	if st != 500 || !strings.Contains(out, "panicked") {
		t.Errorf("panicking input: %d %q", st, out)
	}
	want(t, rt, app.View, "all", "", "", 200, `[{"k":"a","v":1,"note":"n"},{"k":"a2","v":1,"note":"n"}]`)
	want(t, rt, app.View, "note", "times=3&k=a%32", "", 200, "nnn")
	want(t, rt, app.View, "note", "times=3&k=b", "", 404, "not found: no record \"b\"\n")
	want(t, rt, app.View, "note", "k=a", "", 400, "bad request: field \"times\": missing; add ?times=<integer>\n")
	want(t, rt, app.View, "note", "times=1", "", 400, "bad request: field \"k\": missing; add ?k=<text>\n")
	want(t, rt, app.View, "note", "times=1&k=%FF", "", 400, "bad request: field \"k\": not valid UTF-8; percent-encode UTF-8 text\n")
	want(t, rt, app.View, "note", "times=1&q=1", "", 400, "bad request: unknown field \"q\"; fields: k, times\n")
	want(t, rt, app.Input, "set", "v=1&fail=no", "", 400, "bad request: bad key: the key is empty; give a non-empty key\n")
}

// openFile opens a durable store in dir, closed at cleanup.
func openFile(t testing.TB, dir string, opts *store.Options) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(dir, "pure.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestRuntime_ConcurrentInputs_ShareSaves sends N inputs at once to a
// durable store: every one is acknowledged and kept, in fewer saves than
// inputs (batches share one commit and one sync).
func TestRuntime_ConcurrentInputs_ShareSaves(t *testing.T) {
	const n = 200
	dir := t.TempDir()
	st := openFile(t, dir, nil)
	rt, err := app.Start(st, scores.New(), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pub0 := st.Stats().Publications
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		wg.Go(func() {
			name := fmt.Sprintf("p%d", i%10)
			if s, out := do(rt, app.Input, "score", fmt.Sprint("points=", i), name); s != 200 || out != name {
				errs <- fmt.Sprintf("input %d: %d %q", i, s, out)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	stats, pubs := rt.Stats(), st.Stats().Publications-pub0
	t.Logf("%d concurrent inputs: %d batches, %d saves, %d store publications", n, stats.Batches, stats.Saves, pubs)
	if stats.Inputs != n || stats.Saves >= n || pubs != stats.Saves {
		t.Errorf("%d inputs applied in %d saves (%d publications); want %d inputs in fewer than %d saves, one publication each", stats.Inputs, stats.Saves, pubs, n, n)
	}

	// Closed loop: 32 callers each send 20 inputs one after another.
	before := rt.Stats()
	for g := range 32 {
		wg.Go(func() {
			for range 20 {
				do(rt, app.Input, "score", "points=0", fmt.Sprint("p", g%10))
			}
		})
	}
	wg.Wait()
	loop := rt.Stats()
	inputs, saves := loop.Inputs-before.Inputs, loop.Saves-before.Saves
	t.Logf("32 callers x 20 inputs in a closed loop: %d saves, %.1f inputs per save", saves, float64(inputs)/float64(saves))
	if inputs != 640 || saves >= inputs/2 {
		t.Errorf("closed loop: %d inputs in %d saves; want 640 in fewer than 320", inputs, saves)
	}
	rt.Close()
	st.Close()

	// Everything acknowledged is in the file.
	st = openFile(t, dir, nil)
	defer st.Close()
	rt, err = app.Start(st, scores.New(), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	want(t, rt, app.View, "total", "", "", 200, fmt.Sprint(n*(n-1)/2))
	_, rows := do(rt, app.View, "leaders", "", "")
	if !strings.HasPrefix(rows, `[{"name":"p0","score":1900},{"name":"p1","score":1920},`) {
		t.Errorf("leaders after restart: %s", rows)
	}
}

// failFile fails every Sync once armed.
type failFile struct {
	store.File
	mu    sync.Mutex
	armed bool
}

func (f *failFile) Sync() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.armed {
		return fmt.Errorf("injected sync failure")
	}
	return f.File.Sync()
}

// TestRuntime_FailedSave_RollsBack fails the store's sync: the inputs of
// that batch get 503, the table in memory goes back to the last saved
// state, and a reopened store holds every acknowledged input.
func TestRuntime_FailedSave_RollsBack(t *testing.T) {
	dir := t.TempDir()
	var ff *failFile
	st := openFile(t, dir, &store.Options{WrapFile: func(f store.File) store.File { ff = &failFile{File: f}; return ff }})
	rt, err := app.Start(st, scores.New(), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want(t, rt, app.Input, "score", "points=5", "kept", 200, "kept")
	ff.mu.Lock()
	ff.armed = true
	ff.mu.Unlock()
	s, out := do(rt, app.Input, "score", "points=7", "lost")
	if s != 503 || !strings.HasPrefix(out, "service unavailable: saving failed (") || !strings.Contains(out, "injected sync failure") {
		t.Errorf("input during a failed save: %d %q", s, out)
	}
	want(t, rt, app.View, "total", "", "", 200, "5")
	want(t, rt, app.View, "leaders", "", "", 200, `[{"name":"kept","score":5}]`)
	// The store refuses writes from now on; the runtime keeps answering.
	if s, _ := do(rt, app.Input, "score", "points=1", "kept"); s != 503 {
		t.Errorf("input after a failed save: %d, want 503", s)
	}
	want(t, rt, app.View, "total", "", "", 200, "5")
	if f := rt.Stats().Failed; f != 2 {
		t.Errorf("%d failed saves, want 2", f)
	}
	rt.Close()
	st.Close()

	st = openFile(t, dir, nil)
	defer st.Close()
	rt, err = app.Start(st, scores.New(), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	// The unacknowledged input may be there or not (the store's contract
	// for a failed sync: its bytes may have reached the file anyway).
	_, rows := do(rt, app.View, "leaders", "", "")
	if rows != `[{"name":"kept","score":5}]` && rows != `[{"name":"kept","score":5},{"name":"lost","score":7}]` {
		t.Errorf("leaders after reopening: %s", rows)
	}
}

// TestRuntime_Close_AnswersLater: calls after Close get 503.
func TestRuntime_Close_AnswersLater(t *testing.T) {
	st, _ := store.OpenRAM(nil)
	defer st.Close()
	rt, err := app.Start(st, scores.New(), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want(t, rt, app.Input, "score", "points=1", "a", 200, "a")
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	want(t, rt, app.View, "total", "", "", 503, "service unavailable: the app is shutting down; retry once the server is back\n")
	if err := rt.Close(); err == nil {
		t.Error("second Close returned no error")
	}
}

func TestStart_BadDeclaration_Refused(t *testing.T) {
	st, _ := store.OpenRAM(nil)
	defer st.Close()
	bad := scores.New()
	bad.Views = append(bad.Views, app.ViewDef{Name: "total", Answer: app.Number, Run: app.KeyOrder})
	if _, err := app.Start(st, bad, app.Options{}); err == nil || !strings.Contains(err.Error(), `view "total" is declared twice`) {
		t.Errorf("duplicate view: %v", err)
	}
}

// TestRuntime_Views_ZeroAllocs: a warm Call answers the total view and a
// page of leaders through Submit and Wait without allocating, owner
// included (AllocsPerRun counts every goroutine's allocations).
func TestRuntime_Views_ZeroAllocs(t *testing.T) {
	rt := startRAM(t, scores.New())
	for i := range 100 {
		do(rt, app.Input, "score", "points=3", fmt.Sprint("n", i))
	}
	for _, v := range []struct{ name, query, out string }{
		{"total", "", "300"},
		{"leaders", "from=10&count=2", `[{"name":"n18","score":3},{"name":"n19","score":3}]`},
	} {
		c := &app.Call{}
		query := []byte(v.query)
		allocs := testing.AllocsPerRun(1000, func() {
			c.Reset()
			c.Kind, c.Name, c.Query = app.View, v.name, query
			rt.Submit(c)
			c.Wait()
		})
		if c.Status != 200 || string(c.Out) != v.out {
			t.Fatalf("%s: %d %q, want %q", v.name, c.Status, c.Out, v.out)
		}
		if allocs != 0 {
			t.Errorf("%.1f allocations per %s view, want 0", allocs, v.name)
		}
	}
}

// BenchmarkRuntime_Score_RAM: score inputs from 32 callers per CPU on a
// RAM store, batched by the owner.
func BenchmarkRuntime_Score_RAM(b *testing.B) {
	rt := startRAM(b, scores.New())
	query := []byte("points=3")
	b.ReportAllocs()
	b.SetParallelism(32) // 64 callers on 2 CPUs, like 64 connections
	b.RunParallel(func(pb *testing.PB) {
		c := &app.Call{}
		body := []byte("somebody")
		for pb.Next() {
			c.Reset()
			c.Kind, c.Name, c.Query, c.Body = app.Input, "score", query, body
			rt.Submit(c)
			c.Wait()
			if c.Status != 200 {
				b.Fatal(string(c.Out))
			}
		}
	})
	s := rt.Stats()
	b.ReportMetric(float64(s.Inputs)/float64(max(s.Saves, 1)), "inputs/save")
}

// BenchmarkRuntime_Total: the total view from a warm Call.
func BenchmarkRuntime_Total(b *testing.B) {
	rt := startRAM(b, scores.New())
	c := &app.Call{}
	b.ReportAllocs()
	for b.Loop() {
		c.Reset()
		c.Kind, c.Name = app.View, "total"
		rt.Submit(c)
		c.Wait()
	}
}
