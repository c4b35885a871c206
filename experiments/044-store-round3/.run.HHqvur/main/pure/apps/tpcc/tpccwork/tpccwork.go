// Package tpccwork registers TPC-C with pure-count: N transactions of the
// specification's mix from a fixed seed, run through the app runtime on
// one goroutine (StartLocal and Do) on a RAM store, so an operation's
// instructions are one transaction's, nothing of the scheduler's. The
// calls (queries, JSON bodies) are made before the region; parsing them
// is in it, as a server's would be.
package tpccwork

import (
	"fmt"

	"workbench/perfcount/workload"
	"workbench/pure/app"
	"workbench/pure/apps/tpcc"
	"workbench/pure/store"
)

// Seeds of the data and of the mix.
const (
	LoadSeed = 1
	MixSeed  = 2
)

func init() {
	workload.Register(workload.Workload{
		Name:        "tpcc-mix",
		Description: "TPC-C W=1 at the specification's sizes, RAM: one op is one transaction of the mix (fixed seed)",
		DefaultOps:  1000,
		New:         func(ops int) (func(), func(), error) { return prepare(tpcc.Full, ops) },
	})
	workload.Register(workload.Workload{
		Name:        "tpcc-mix-small",
		Description: "tpcc-mix on a database 1/100 of the specification's size (300 customers, 1,000 items)",
		DefaultOps:  1000,
		New:         func(ops int) (func(), func(), error) { return prepare(tpcc.Small, ops) },
	})
}

// Start seeds TPC-C at scale s in a RAM store and starts it locally.
func Start(s tpcc.Scale) (*store.Store, *app.Runtime, error) {
	st, err := store.OpenRAM(nil)
	if err != nil {
		return nil, nil, err
	}
	if err := tpcc.Seed(st, s, LoadSeed); err != nil {
		st.Close()
		return nil, nil, err
	}
	rt, err := app.StartLocal(st, tpcc.New(), app.Options{})
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st, rt, nil
}

// Calls returns the first n transactions of the mix as app calls.
func Calls(s tpcc.Scale, n int) []*app.Call {
	mix := tpcc.NewMix(s, LoadSeed, MixSeed)
	calls := make([]*app.Call, n)
	for i := range calls {
		c := &app.Call{}
		c.Kind, c.Name, c.Query, c.Body = mix.Next().Call()
		calls[i] = c
	}
	return calls
}

// Failed counts the calls of the last run that were neither answered 200
// nor a New-Order rolled back (404): it must stay 0.
var Failed int

func prepare(s tpcc.Scale, ops int) (func(), func(), error) {
	if ops <= 0 {
		return nil, nil, fmt.Errorf("ops must be at least 1, got %d", ops)
	}
	st, rt, err := Start(s)
	if err != nil {
		return nil, nil, err
	}
	calls := Calls(s, ops)
	run := func() {
		Failed = 0
		for _, c := range calls {
			rt.Do(c)
			if c.Status != 200 && !(c.Name == "new_order" && c.Status == 404) {
				Failed++
			}
		}
	}
	return run, func() { rt.Close(); st.Close() }, nil
}
