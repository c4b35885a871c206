//go:build !nosqlite

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"workbench/pure/apps/tpcc"
	"workbench/pure/baseline/sqlite"
	"workbench/pure/baseline/sqlitehttp"
)

// serveStats serves GET /debug/app on addr until ctx ends: {"cpu_ns":N},
// this process's user and system CPU time, the field of pure-serve's
// /debug/app that tpccload reads for CPU per transaction (from the same
// source, getrusage).
func serveStats(ctx context.Context, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--stats %s: %w (is the port taken?)", addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /debug/app", func(w http.ResponseWriter, r *http.Request) {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, "{\"cpu_ns\":%d}\n", ru.Utime.Nano()+ru.Stime.Nano())
	})
	go sqlitehttp.Serve(ctx, ln, mux)
	return nil
}

// tpccScales are the values of --tpcc-scale, as pure-serve's.
var tpccScales = map[string]tpcc.Scale{"full": tpcc.Full, "small": tpcc.Small}

// tpccLoadSeed is the seed of TPC-C's initial data, pure-serve's, so a
// driver's NURand constants fit both servers.
const tpccLoadSeed = 1

// sqliteMode resolves --mode, --ram and --data of an --app run.
func sqliteMode(c appConfig) (sqlite.Mode, error) {
	switch {
	case c.ram && c.data != "":
		return 0, errors.New("--ram with --data: --ram keeps nothing on disk; pass one")
	case c.mode == "memory" || c.mode == "" && c.data == "":
		if c.data != "" {
			return 0, fmt.Errorf("--mode memory keeps nothing on disk: drop --data %s, or pick --mode wal-full", c.data)
		}
		return sqlite.Memory, nil
	case c.ram:
		return 0, fmt.Errorf("--ram with --mode %s: --ram means --mode memory; pass one", c.mode)
	case c.mode == "wal-full" || c.mode == "":
		if c.data == "" {
			return 0, errors.New("--mode wal-full keeps its data on disk: pass --data DIR")
		}
		return sqlite.WALFull, nil
	}
	return 0, fmt.Errorf("--app %s: unknown --mode %q: use memory or wal-full (SQLite's modes)", c.app, c.mode)
}

// runApp serves --app on SQLite behind net/http.
func runApp(ctx context.Context, c appConfig, stdout, stderr io.Writer) error {
	if c.app != "tpcc" && c.app != "bank" {
		return fmt.Errorf("unknown --app %q: use tpcc or bank (or no --app for the documents and scoreboard)", c.app)
	}
	if c.impl != "nethttp" {
		return fmt.Errorf("--app %s is served by net/http only: drop --impl %s", c.app, c.impl)
	}
	scale, ok := tpccScales[c.tpccScale]
	if !ok {
		return fmt.Errorf("--tpcc-scale %q: use full or small", c.tpccScale)
	}
	if c.accounts < 1 {
		return fmt.Errorf("--accounts %d: use 1 or more", c.accounts)
	}
	mode, err := sqliteMode(c)
	if err != nil {
		return err
	}
	if mode == sqlite.WALFull {
		if err := os.MkdirAll(c.data, 0o755); err != nil {
			return fmt.Errorf("creating --data directory: %w", err)
		}
		if _, err := os.Stat(filepath.Join(c.data, c.app+".db")); err == nil {
			return fmt.Errorf("%s already holds %s.db: this baseline loads %s afresh at every start; pass an empty --data directory", c.data, c.app, c.app)
		}
	}
	db, err := sqlite.Open(mode, c.data, c.app)
	if err != nil {
		return err
	}
	defer db.Close()
	t0 := time.Now()
	var h http.Handler
	what := fmt.Sprintf("accounts=%d", c.accounts)
	if c.app == "bank" {
		sb, err := sqlite.OpenBank(db, c.accounts)
		if err != nil {
			return err
		}
		defer sb.Close()
		h = sqlitehttp.Bank(sb, c.accounts)
	} else {
		sq, err := sqlite.OpenTPCC(db, scale, tpccLoadSeed)
		if err != nil {
			return err
		}
		defer sq.Close()
		h = sqlitehttp.TPCC(sq)
		what = fmt.Sprintf("scale=%s seed=%d", c.tpccScale, tpccLoadSeed)
	}
	fmt.Fprintf(stderr, "pure-baseline: loaded %s (%s) into SQLite %s in %.1fs\n", c.app, what, mode, time.Since(t0).Seconds())
	if c.stats != "" {
		if err := serveStats(ctx, c.stats); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (is the port taken? port 0 picks a free one)", c.addr, err)
	}
	if _, err := fmt.Fprintf(stdout, "listening %s\n", ln.Addr()); err != nil {
		ln.Close()
		return err
	}
	if err := sqlitehttp.Serve(ctx, ln, h); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}
