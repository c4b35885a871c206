package sqlitehttp_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"workbench/pure/app"
	"workbench/pure/apps/bank/bankwork"
	"workbench/pure/baseline/sqlite"
	"workbench/pure/baseline/sqlitehttp"
)

// TestBank_SameAnswersAsTheApp: over HTTP, each bank query (bankwork's,
// and a few pages) answers the app's bytes, from 8 clients at once (the
// handler is safe for concurrent use); bad fields are 400 saying which.
func TestBank_SameAnswersAsTheApp(t *testing.T) {
	if !cgoEnabled {
		t.Skip("the SQLite baseline needs cgo and this test binary was built without it (no C compiler found): install gcc (apt-get install -y gcc libc6-dev) and run again")
	}
	const n = 2000
	st, rt, err := bankwork.Start(n, app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	defer rt.Close()
	db, err := sqlite.Open(sqlite.Memory, "", "bankhttp")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sb, err := sqlite.OpenBank(db, n)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	srv := httptest.NewServer(sqlitehttp.Bank(sb, n))
	defer srv.Close()
	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Error(err)
			return 0, ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	queries := []bankwork.Query{{View: "ranks", Query: "from=1990&count=20"}, {View: "large", Query: "min=0&from=3"},
		{View: "field", Query: "cols=name,id&from=5&count=7"}, {View: "per_branch"}}
	queries = append(queries, bankwork.Queries...)
	want := make([]string, len(queries))
	for i, q := range queries {
		c := &app.Call{Kind: app.View, Name: q.View, Query: []byte(q.Query)}
		rt.Do(c)
		if c.Status != 200 {
			t.Fatalf("app %s?%s: %d %s", q.View, q.Query, c.Status, c.Out)
		}
		want[i] = string(c.Out)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i, q := range queries {
				code, body := get("/views/" + q.View + "?" + q.Query)
				if code != 200 || body != want[i] {
					t.Errorf("%s?%s: app %d bytes, SQLite over HTTP %d (%d bytes) %.80q", q.View, q.Query, len(want[i]), code, len(body), body)
				}
			}
		})
	}
	wg.Wait()
	for path, says := range map[string]string{
		"/views/large?min=lots":           `min="lots" is not an integer`,
		"/views/ranks?count=10001":        "use 0 to 10000",
		"/views/field?cols=balance,money": `no column "money"`,
		"/views/found?n=-1":               "n must be 0 to 1,000,000",
	} {
		if code, body := get(path); code != 400 || !strings.Contains(body, says) {
			t.Errorf("%s: %d %q, want 400 saying %q", path, code, body, says)
		}
	}
}
