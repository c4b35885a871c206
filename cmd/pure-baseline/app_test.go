//go:build !nosqlite

package main

import (
	"context"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"workbench/pure/apps/tpcc"
	"workbench/pure/apps/tpcc/tpccload"
)

// TestBaseline_TPCC: --app tpcc --tpcc-scale small, in memory and in WAL
// with synchronous=FULL, serves the mix to 8 terminals for a second
// without errors and answers consistency ok afterwards; --stats serves
// the CPU time tpccload reads.
func TestBaseline_TPCC(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	statsAddr := ln.Addr().String()
	ln.Close()
	for _, args := range [][]string{
		{"--app", "tpcc", "--tpcc-scale", "small", "--mode", "memory", "--stats", statsAddr},
		{"--app", "tpcc", "--tpcc-scale", "small", "--mode", "wal-full", "--data", t.TempDir()},
	} {
		t.Run(args[5], func(t *testing.T) {
			srv := start(t, args...)
			stats := ""
			if slices.Contains(args, "--stats") {
				stats = "http://" + statsAddr + "/debug/app"
			}
			res, err := tpccload.Run(context.Background(), tpccload.Config{Target: srv.url, Terminals: 8,
				Duration: time.Second, Scale: tpcc.Small, LoadSeed: tpccLoadSeed, Seed: 3, Stats: stats})
			if err != nil {
				t.Fatal(err)
			}
			if res.Errors != 0 || res.Transactions < 50 || res.Consistency != "ok" {
				t.Fatalf("%d errors (first: %s), %d transactions %v, consistency %s", res.Errors, res.FirstError, res.Transactions, res.ByKind, res.Consistency)
			}
			if stats != "" && res.ServerCPUUsPerTx <= 0 {
				t.Errorf("--stats: server CPU per transaction %v, want > 0", res.ServerCPUUsPerTx)
			}
			if err := srv.stop(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestBaseline_TPCC_Flags: --app's flag errors say what to do.
func TestBaseline_TPCC_Flags(t *testing.T) {
	used := t.TempDir()
	if err := start(t, "--app", "tpcc", "--tpcc-scale", "small", "--data", used).stop(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--app", "shop"}, "use tpcc or bank"},
		{[]string{"--app", "bank", "--accounts", "0"}, "use 1 or more"},
		{[]string{"--app", "tpcc", "--impl", "fasthttp"}, "net/http only"},
		{[]string{"--app", "tpcc", "--tpcc-scale", "huge"}, "use full or small"},
		{[]string{"--app", "tpcc", "--mode", "fdatasync", "--data", "x"}, "use memory or wal-full"},
		{[]string{"--app", "tpcc", "--mode", "wal-full"}, "pass --data DIR"},
		{[]string{"--app", "tpcc", "--mode", "memory", "--data", "x"}, "drop --data"},
		{[]string{"--app", "tpcc", "--ram", "--data", "x"}, "pass one"},
		{[]string{"--app", "tpcc", "--tpcc-scale", "small", "--data", used}, "pass an empty --data directory"},
	} {
		err := run(context.Background(), c.args, &strings.Builder{}, &strings.Builder{})
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%v: %v, want an error saying %q", c.args, err, c.says)
		}
	}
}

// TestBaseline_Bank: --app bank --accounts 500 serves the bank's views.
func TestBaseline_Bank(t *testing.T) {
	srv := start(t, "--app", "bank", "--accounts", "500")
	if code, _, body := srv.do(t, "GET", "/views/in_credit", ""); code != 200 || body == "" || body == "0" {
		t.Fatalf("in_credit: %d %q", code, body)
	}
	if code, _, body := srv.do(t, "GET", "/views/ranks?from=0&count=3", ""); code != 200 || strings.Count(body, `"rank"`) != 3 {
		t.Fatalf("ranks: %d %q", code, body)
	}
}
