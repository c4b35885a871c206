// Package bankwork registers the bank queries with pure-count: each view
// of package bank, on a bank of 10,000 or 100,000 seeded accounts in a
// RAM store, run through the app runtime on one goroutine (StartLocal and
// Do: parsing, the view's Run, the answer), so an operation's
// instructions are one query's and nothing of the scheduler's.
//
// Every one may rerun its region on the same preparation: views only
// read.
package bankwork

import (
	"fmt"

	"workbench/perfcount/workload"
	"workbench/pure/app"
	"workbench/pure/apps/bank"
	"workbench/pure/store"
)

// Query is one bank query as the workloads and the experiments run it.
type Query struct {
	View  string // the bank view
	Query string // its query string
	What  string // one line for pure-count list
}

// Queries are the bank queries, one workload each per size.
var Queries = []Query{
	{"per_branch", "count=10000", "sum of balances by branch (a scan of every account)"},
	{"in_credit", "", "count of accounts with balance > 0 (balance index)"},
	{"large", "min=400000&count=1000", "1,000 accounts with balance >= 400000, largest first (balance index)"},
	{"ranks", "count=1000", "1,000 accounts by balance with their RANK() (balance index)"},
	{"join", "count=1000", "1,000 accounts by id with their branch's name and city (a lookup each)"},
	{"field", "cols=balance&count=10000", "10,000 rows, one column (balance), by id"},
	{"found", "n=10000&step=7", "10,000 lookups by key, about half missing"},
}

// Sizes are the bank sizes the workloads seed.
var Sizes = []int{10_000, 100_000}

func init() {
	for _, n := range Sizes {
		for _, q := range Queries {
			workload.Register(workload.Workload{
				Name:        Name(q.View, n),
				Description: fmt.Sprintf("bank view %s?%s, %dk accounts: %s", q.View, q.Query, n/1000, q.What),
				DefaultOps:  5,
				New:         func(ops int) (func(), func(), error) { return prepare(q, n, ops, app.Options{}) },
				Rerun:       true,
			})
		}
	}
}

// Name is the workload name of a bank view at size n: bank-<view>-<n/1000>k.
func Name(view string, n int) string { return fmt.Sprintf("bank-%s-%dk", view, n/1000) }

// Start seeds a bank of n accounts in a RAM store and starts it locally.
// Close the runtime, then the store.
func Start(n int, opts app.Options) (*store.Store, *app.Runtime, error) {
	st, err := store.OpenRAM(nil)
	if err != nil {
		return nil, nil, err
	}
	if err := bank.Seed(st, n); err != nil {
		st.Close()
		return nil, nil, err
	}
	rt, err := app.StartLocal(st, bank.New(), opts)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st, rt, nil
}

// Sink keeps the last answer's length, so a query's work is not dropped.
var Sink int

func prepare(q Query, n, ops int, opts app.Options) (func(), func(), error) {
	if ops <= 0 {
		return nil, nil, fmt.Errorf("ops must be at least 1, got %d", ops)
	}
	st, rt, err := Start(n, opts)
	if err != nil {
		return nil, nil, err
	}
	c := &app.Call{}
	query := []byte(q.Query)
	do := func() {
		c.Reset()
		c.Kind, c.Name, c.Query = app.View, q.View, query
		rt.Do(c)
	}
	do() // warm: the answer's buffer, the view's scratch space
	if c.Status != 200 {
		rt.Close()
		st.Close()
		return nil, nil, fmt.Errorf("bank %s?%s: %d %s", q.View, q.Query, c.Status, c.Out)
	}
	run := func() {
		for range ops {
			do()
		}
		Sink = len(c.Out)
	}
	cleanup := func() { rt.Close(); st.Close() }
	return run, cleanup, nil
}
