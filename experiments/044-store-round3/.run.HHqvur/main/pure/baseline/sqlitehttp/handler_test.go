package sqlitehttp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"workbench/pure/apps/tpcc"
	"workbench/pure/apps/tpcc/tpccload"
	"workbench/pure/baseline/sqlite"
	"workbench/pure/baseline/sqlitehttp"
)

// startTPCC serves TPC-C at the small scale on SQLite in mode.
func startTPCC(t *testing.T, mode sqlite.Mode) *httptest.Server {
	t.Helper()
	if !cgoEnabled {
		t.Skip("the SQLite baseline needs cgo and this test binary was built without it (no C compiler found): install gcc (apt-get install -y gcc libc6-dev) and run again")
	}
	db, err := sqlite.Open(mode, t.TempDir(), "tpcc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	sq, err := sqlite.OpenTPCC(db, tpcc.Small, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sq.Close)
	srv := httptest.NewServer(sqlitehttp.TPCC(sq))
	t.Cleanup(srv.Close)
	return srv
}

// TestTPCC_Driven: 8 tpccload terminals run the mix for a second against
// the handler, in memory and in WAL with synchronous=FULL, without
// errors; every kind of transaction is answered; the consistency view
// answers ok afterwards.
func TestTPCC_Driven(t *testing.T) {
	for _, mode := range []sqlite.Mode{sqlite.Memory, sqlite.WALFull} {
		t.Run(mode.String(), func(t *testing.T) {
			srv := startTPCC(t, mode)
			res, err := tpccload.Run(context.Background(), tpccload.Config{Target: srv.URL, Terminals: 8,
				Duration: time.Second, Scale: tpcc.Small, LoadSeed: 1, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			if res.Errors != 0 || res.Transactions < 50 {
				t.Fatalf("%d errors (first: %s), %d transactions %v", res.Errors, res.FirstError, res.Transactions, res.ByKind)
			}
			for _, k := range tpcc.Kinds {
				if res.ByKind[k.String()] == 0 && res.Transactions > 1000 {
					t.Errorf("no %s in %d transactions: %v", k, res.Transactions, res.ByKind)
				}
			}
			if res.Consistency != "ok" {
				t.Fatalf("consistency after the run: %s", res.Consistency)
			}
		})
	}
}

// TestTPCC_BadRequests: requests that do not parse are refused with 400
// and say what was wrong; a customer who is not there is 404.
func TestTPCC_BadRequests(t *testing.T) {
	srv := startTPCC(t, sqlite.Memory)
	for _, c := range []struct {
		method, path, body string
		status             int
		says               string
	}{
		{"POST", "/inputs/new_order", "{not json", 400, "not the JSON of a New-Order"},
		{"POST", "/inputs/payment?w=1&d=x", "", 400, "field d=\"x\" is not an integer"},
		{"GET", "/views/stock_level?w=1&d=1&threshold=ten", "", 400, "threshold"},
		{"GET", "/views/order_status?w=1&d=1&c=99999", "", 404, "no such row"},
		{"GET", "/inputs/new_order", "", 405, ""},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || !strings.Contains(string(body), c.says) {
			t.Errorf("%s %s: %d %q, want %d saying %q", c.method, c.path, resp.StatusCode, body, c.status, c.says)
		}
	}
}
