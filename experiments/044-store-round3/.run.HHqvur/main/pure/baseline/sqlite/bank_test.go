package sqlite_test

import (
	"fmt"
	"strings"
	"testing"

	"workbench/pure/app"
	"workbench/pure/apps/bank"
	"workbench/pure/baseline/sqlite"
	"workbench/pure/store"
)

// bankAccounts is the size the equivalence test seeds: small enough for
// go test, large enough for 20 branches, ties in balance and several
// chunks of every table and index.
const bankAccounts = 3000

// startBank seeds a bank of n accounts into a RAM store and starts it
// locally (calls run on the test's goroutine).
func startBank(t testing.TB, n int) *app.Runtime {
	t.Helper()
	st, err := store.OpenRAM(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := bank.Seed(st, n); err != nil {
		t.Fatal(err)
	}
	rt, err := app.StartLocal(st, bank.New(), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(); st.Close() })
	return rt
}

func view(t *testing.T, rt *app.Runtime, name, query string) string {
	t.Helper()
	c := &app.Call{Kind: app.View, Name: name, Query: []byte(query)}
	rt.Do(c)
	if c.Status != 200 {
		t.Fatalf("%s?%s: %d %s", name, query, c.Status, c.Out)
	}
	return string(c.Out)
}

// TestBank_SameAnswersAsSQLite: every bank view, at several pages and
// parameters, answers byte for byte what the equivalent SQL answers on
// SQLite over the same seeded data.
func TestBank_SameAnswersAsSQLite(t *testing.T) {
	needCgo(t)
	rt := startBank(t, bankAccounts)
	db, err := sqlite.Open(sqlite.Memory, "", "banktest")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sb, err := sqlite.OpenBank(db, bankAccounts)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	type check struct {
		view, query string
		sql         func() ([]byte, error)
	}
	var checks []check
	for _, p := range [][2]int{{0, 20}, {5, 3}, {0, 10000}, {29, 5}, {40, 5}} {
		checks = append(checks, check{"per_branch", fmt.Sprintf("from=%d&count=%d", p[0], p[1]), func() ([]byte, error) { return sb.PerBranch(p[0], p[1]) }})
		checks = append(checks, check{"ranks", fmt.Sprintf("from=%d&count=%d", p[0]*70, p[1]), func() ([]byte, error) { return sb.Ranks(p[0]*70, p[1]) }})
		checks = append(checks, check{"join", fmt.Sprintf("from=%d&count=%d", p[0]*70, p[1]), func() ([]byte, error) { return sb.Join(p[0]*70, p[1]) }})
		for _, m := range []int64{-1_000_000_000, 0, 400_000, 1_000_000_000} {
			checks = append(checks, check{"large", fmt.Sprintf("min=%d&from=%d&count=%d", m, p[0], p[1]), func() ([]byte, error) { return sb.Large(m, p[0], p[1]) }})
		}
	}
	checks = append(checks, check{"ranks", "from=2990&count=20", func() ([]byte, error) { return sb.Ranks(2990, 20) }})
	checks = append(checks, check{"in_credit", "", sb.InCredit})
	for _, f := range [][2]int64{{10000, 7}, {0, 5}, {100, 13}, {5000, 1}, {3, 0}} {
		checks = append(checks, check{"found", fmt.Sprintf("n=%d&step=%d", f[0], f[1]), func() ([]byte, error) { return sb.Found(f[0], f[1], bankAccounts) }})
	}
	for _, f := range []struct {
		cols        string
		from, count int
	}{{"balance", 0, 10000}, {"id,name", 10, 5}, {"opened,kind,branch,id", 2995, 20}, {"", 0, 20}} {
		q := fmt.Sprintf("from=%d&count=%d", f.from, f.count)
		cols := []string{"id", "branch", "balance", "name", "kind", "opened"}
		if f.cols != "" {
			q += "&cols=" + f.cols
			cols = strings.Split(f.cols, ",")
		}
		checks = append(checks, check{"field", q, func() ([]byte, error) { return sb.Field(cols, f.from, f.count) }})
	}
	empty := 0
	for _, c := range checks {
		got := view(t, rt, c.view, c.query)
		w, err := c.sql()
		if err != nil {
			t.Fatalf("%s?%s on SQLite: %v", c.view, c.query, err)
		}
		if got != string(w) {
			t.Errorf("%s?%s:\n pure   %.300s\n sqlite %.300s", c.view, c.query, got, w)
		}
		if got == "[]" || got == "0" {
			empty++
		}
	}
	if empty > len(checks)/4 {
		t.Errorf("%d of %d answers are empty: the seeded data no longer exercises the queries", empty, len(checks))
	}
}
