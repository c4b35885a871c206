package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"workbench/pure/apps/tpcc"
	"workbench/pure/apps/tpcc/tpccload"
	"workbench/pure/load"
)

// tpccLoadSeed is pure-serve's seed of TPC-C's data (its tpccLoadSeed):
// the terminals' NURand constants come from it.
const tpccLoadSeed = 1

// runTPCC runs the tpcc workload: cfg's connections are the terminals.
func runTPCC(ctx context.Context, cfg load.Config, opt options, stdout io.Writer) error {
	scale, ok := map[string]tpcc.Scale{"full": tpcc.Full, "small": tpcc.Small}[opt.tpccScale]
	if !ok {
		return usageError{msg: fmt.Sprintf("--tpcc-scale %q: use full or small, as the server was started", opt.tpccScale)}
	}
	if cfg.Rate != 0 {
		return usageError{msg: "--rate paces the document and scoreboard workloads; tpcc's terminals run without one: drop --rate"}
	}
	res, err := tpccload.Run(ctx, tpccload.Config{
		Target: cfg.Target, Terminals: cfg.Connections, Duration: cfg.Duration,
		Scale: scale, LoadSeed: tpccLoadSeed, Seed: opt.seed, Stats: opt.stats, Timeout: cfg.Timeout,
	})
	if res.Tool == "" {
		return err
	}
	if opt.json {
		line, jerr := json.Marshal(res)
		if jerr != nil {
			return jerr
		}
		fmt.Fprintf(stdout, "%s\n", line)
	} else {
		fmt.Fprintf(stdout, "%d terminals, %.1fs: %d transactions (%.0f/s), %.0f New-Orders/min, %d rolled back, %d errors\n",
			res.Terminals, res.DurationS, res.Transactions, res.TxPerS, res.NewOrdersPerMin, res.RolledBack, res.Errors)
		fmt.Fprintf(stdout, "latency p50 %.0f us, p99 %.0f us, max %.0f us; by kind %v\n", res.LatencyUs.P50, res.LatencyUs.P99, res.LatencyUs.Max, res.ByKind)
		if opt.stats != "" {
			fmt.Fprintf(stdout, "server CPU %.1f us per transaction, owner busy %.2f of a core\n", res.ServerCPUUsPerTx, res.OwnerShare)
		}
		fmt.Fprintf(stdout, "consistency: %s\n", res.Consistency)
		if res.FirstError != "" {
			fmt.Fprintf(stdout, "first error: %s\n", res.FirstError)
		}
	}
	if err != nil {
		return err
	}
	if res.Consistency != "ok" {
		return errors.New("the server's consistency conditions failed after the run: " + res.Consistency)
	}
	return nil
}
