package main

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"time"

	"workbench/pure/app"
	"workbench/pure/apps/bank/bankwork"
	"workbench/pure/apps/tpcc"
	"workbench/pure/apps/tpcc/tpccwork"
	"workbench/pure/baseline/sqlite"
)

// The sides' names as records give them.
const (
	sidePure   = "pure-ram"
	sideSQLite = "sqlite-memory"
)

// runTPCC is the tpcc part.
func runTPCC(ctx context.Context, c config, emit func(Record) error) error {
	t0 := time.Now()
	st, rt, err := tpccwork.Start(tpcc.Full)
	if err != nil {
		return err
	}
	defer st.Close()
	defer rt.Close()
	t1 := time.Now()
	db, err := sqlite.Open(sqlite.Memory, "", "appbench-tpcc")
	if err != nil {
		return err
	}
	defer db.Close()
	sq, err := sqlite.OpenTPCC(db, tpcc.Full, tpccwork.LoadSeed)
	if err != nil {
		return err
	}
	defer sq.Close()
	if err := emit(Record{Series: "check", What: "loaded", Result: fmt.Sprintf("pure %.1fs, sqlite %.1fs", t1.Sub(t0).Seconds(), time.Since(t1).Seconds())}); err != nil {
		return err
	}
	// mixOf returns n transactions of the mix from seed, stamped from now
	// on, and Pure's calls for them.
	mixOf := func(seed uint64, n int, now int64) ([]tpcc.Tx, []*app.Call) {
		mix := tpcc.NewMix(tpcc.Full, tpccwork.LoadSeed, seed)
		txs := make([]tpcc.Tx, n)
		calls := make([]*app.Call, n)
		for i := range txs {
			txs[i] = mix.Next()
			txs[i].Now = now + int64(i)
			calls[i] = &app.Call{}
			calls[i].Kind, calls[i].Name, calls[i].Query, calls[i].Body = txs[i].Call()
		}
		return txs, calls
	}
	// runSide runs txs on one side and counts its committed New-Orders.
	runSide := func(side string, txs []tpcc.Tx, calls []*app.Call, what string) (newOrders int64, err error) {
		if side == sidePure {
			for i, call := range calls {
				rt.Do(call)
				switch {
				case call.Status == 200 && txs[i].Kind == tpcc.NewOrder:
					newOrders++
				case call.Status == 200, call.Status == 404 && txs[i].Kind == tpcc.NewOrder:
				default:
					return 0, fmt.Errorf("%s: pure %s: %d %s", what, txs[i].Kind, call.Status, call.Out)
				}
			}
			return newOrders, nil
		}
		for _, x := range txs {
			status, _, err := sq.Run(x)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", what, err)
			}
			if status == 200 && x.Kind == tpcc.NewOrder {
				newOrders++
			}
		}
		return newOrders, nil
	}
	sides := []string{sidePure, sideSQLite}
	if c.warmupTx > 0 {
		// TPC-C measures after a ramp-up (clause 5.5: the measurement
		// interval starts once the system is steady); here the first
		// transactions after the load touch the stores' fresh memory. Both
		// sides run the same transactions first, unmeasured.
		txs, calls := mixOf(999, c.warmupTx, 0)
		for _, side := range sides {
			if _, err := runSide(side, txs, calls, "warm-up"); err != nil {
				return err
			}
		}
		if err := emit(Record{Series: "check", What: "warm-up", Result: fmt.Sprintf("%d transactions per side before round 0, not measured", c.warmupTx)}); err != nil {
			return err
		}
	}
	for r := range c.rounds {
		txs, calls := mixOf(uint64(1000+r), c.tx, int64(r+1)*100_000_000)
		for pos, side := range rotated(sides, r) {
			if err := ctx.Err(); err != nil {
				return err
			}
			runtime.GC()
			cpu0, w0 := processCPU(), time.Now()
			newOrders, err := runSide(side, txs, calls, fmt.Sprintf("round %d", r))
			if err != nil {
				return err
			}
			wall, cpu := time.Since(w0), processCPU()-cpu0
			err = emit(Record{Series: "tpcc", Round: r, Position: pos, Side: side, Tx: int64(c.tx), Seconds: wall.Seconds(),
				TxPerS: float64(c.tx) / wall.Seconds(), NewOrdersPerMin: float64(newOrders) / wall.Minutes(),
				CPUUsPerTx: float64(cpu.Microseconds()) / float64(c.tx)})
			if err != nil {
				return err
			}
		}
	}
	call := &app.Call{Kind: app.View, Name: "consistency"}
	rt.Do(call)
	if err := emit(Record{Series: "check", Side: sidePure, What: "consistency", Result: string(call.Out)}); err != nil {
		return err
	}
	got, err := sq.Check()
	if err != nil {
		return err
	}
	if err := emit(Record{Series: "check", Side: sideSQLite, What: "consistency", Result: got}); err != nil {
		return err
	}
	if string(call.Out) != "ok" || got != "ok" {
		return fmt.Errorf("consistency after the rounds: pure %q, sqlite %q", call.Out, got)
	}
	return nil
}

// bankSQL is each bank query's SQLite call (bankwork.Queries' parameters).
func bankSQL(sb *sqlite.Bank, view string, n int) func() ([]byte, error) {
	switch view {
	case "per_branch":
		return func() ([]byte, error) { return sb.PerBranch(0, 10000) }
	case "in_credit":
		return sb.InCredit
	case "large":
		return func() ([]byte, error) { return sb.Large(400000, 0, 1000) }
	case "ranks":
		return func() ([]byte, error) { return sb.Ranks(0, 1000) }
	case "join":
		return func() ([]byte, error) { return sb.Join(0, 1000) }
	case "field":
		return func() ([]byte, error) { return sb.Field([]string{"balance"}, 0, 10000) }
	case "found":
		return func() ([]byte, error) { return sb.Found(10000, 7, n) }
	}
	return nil
}

// runBank is the bank part.
func runBank(ctx context.Context, c config, emit func(Record) error) error {
	for _, n := range bankwork.Sizes {
		if err := bankSize(ctx, c, n, emit); err != nil {
			return fmt.Errorf("%d accounts: %w", n, err)
		}
	}
	return nil
}

func bankSize(ctx context.Context, c config, n int, emit func(Record) error) error {
	st, rt, err := bankwork.Start(n, app.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	defer rt.Close()
	db, err := sqlite.Open(sqlite.Memory, "", fmt.Sprintf("appbench-bank-%d", n))
	if err != nil {
		return err
	}
	defer db.Close()
	sb, err := sqlite.OpenBank(db, n)
	if err != nil {
		return err
	}
	defer sb.Close()
	pure := func(q bankwork.Query) func() ([]byte, error) {
		call, query := &app.Call{}, []byte(q.Query)
		return func() ([]byte, error) {
			call.Reset()
			call.Kind, call.Name, call.Query = app.View, q.View, query
			rt.Do(call)
			if call.Status != 200 {
				return nil, fmt.Errorf("pure %s?%s: %d %s", q.View, q.Query, call.Status, call.Out)
			}
			return call.Out, nil
		}
	}
	// The answers, once: the same bytes, or the comparison is void.
	for _, q := range bankwork.Queries {
		a, err := pure(q)()
		if err != nil {
			return err
		}
		b, err := bankSQL(sb, q.View, n)()
		if err != nil {
			return fmt.Errorf("sqlite %s: %w", q.View, err)
		}
		if !bytes.Equal(a, b) {
			return fmt.Errorf("%s?%s: pure and SQLite answer differently (%d and %d bytes)", q.View, q.Query, len(a), len(b))
		}
	}
	if err := emit(Record{Series: "check", Accounts: n, What: "answers", Result: fmt.Sprintf("the same bytes for all %d queries", len(bankwork.Queries))}); err != nil {
		return err
	}
	sides := []string{sidePure, sideSQLite}
	for r := range c.rounds {
		for _, q := range bankwork.Queries {
			for pos, side := range rotated(sides, r) {
				if err := ctx.Err(); err != nil {
					return err
				}
				f := pure(q)
				if side == sideSQLite {
					f = bankSQL(sb, q.View, n)
				}
				if _, err := f(); err != nil { // warm
					return err
				}
				runtime.GC()
				ops, w0 := 0, time.Now()
				for time.Since(w0) < c.bankTime || ops < 3 {
					if _, err := f(); err != nil {
						return err
					}
					ops++
				}
				wall := time.Since(w0)
				err := emit(Record{Series: "bank", Round: r, Position: pos, Side: side, Accounts: n, View: q.View, Query: q.Query,
					Ops: ops, Seconds: wall.Seconds(), NsPerOp: float64(wall.Nanoseconds()) / float64(ops)})
				if err != nil {
					return err
				}
			}
		}
	}
	return nil
}
