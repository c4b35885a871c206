package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"workbench/pure/apps/tpcc"
	"workbench/pure/apps/tpcc/tpccload"
)

// TestServe_TPCC_OverHTTP: pure-serve --app tpcc (small, RAM) seeds the
// data; 8 terminals run the mix over HTTP for a second without errors;
// the consistency view answers ok; /debug/app reports the process's CPU.
func TestServe_TPCC_OverHTTP(t *testing.T) {
	addr, _ := startRun(t, "--ram", "--app", "tpcc", "--tpcc-scale", "small", "--addr", "127.0.0.1:0")
	res, err := tpccload.Run(context.Background(), tpccload.Config{Target: "http://" + addr, Terminals: 8,
		Duration: time.Second, Scale: tpcc.Small, LoadSeed: tpccLoadSeed, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if res.Errors != 0 || res.Transactions < 100 || res.ByKind["payment"] == 0 || res.ByKind["delivery"] == 0 {
		t.Fatalf("%d errors (first: %s), %d transactions %v", res.Errors, res.FirstError, res.Transactions, res.ByKind)
	}
	if res.Consistency != "ok" {
		t.Fatalf("consistency after the run: %s", res.Consistency)
	}
	if s := string(appStats(nil)); !strings.Contains(s, `"cpu_ns":`) || strings.Contains(s, `"cpu_ns":0,`) {
		t.Errorf("/debug/app: %s", s)
	}
}

// TestServe_Bank_Views: pure-serve --app bank seeds 1,000 accounts and
// serves its views over HTTP.
func TestServe_Bank_Views(t *testing.T) {
	addr, _ := startRun(t, "--ram", "--app", "bank", "--accounts", "1000", "--addr", "127.0.0.1:0")
	code, body, _ := do(t, "GET", "http://"+addr+"/views/in_credit", "")
	if code != 200 || body == "" || body == "0" {
		t.Fatalf("in_credit: %d %q", code, body)
	}
	code, body, _ = do(t, "GET", "http://"+addr+"/views/ranks?from=0&count=3", "")
	if code != 200 || strings.Count(body, `"rank"`) != 3 {
		t.Fatalf("ranks: %d %q", code, body)
	}
}
