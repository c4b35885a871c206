package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"workbench/experiments/lab/httpbench"
	"workbench/pure/apps/tpcc/tpccload"
)

// The http part's sides.
const (
	sidePureServe = "pure-serve-durable"
	sideNetHTTP   = "nethttp-sqlite-wal-full"
)

// freeAddr returns a free local address for a stats listener.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// runHTTP is the http part: both servers started (loading their data),
// then each round pure-load against each in rotated order.
func runHTTP(ctx context.Context, c config, emit func(Record) error) error {
	type server struct {
		side  string
		srv   *httpbench.Server
		stats string
	}
	var servers []server
	defer func() {
		for _, s := range servers {
			s.srv.Stop(10 * time.Second)
		}
	}()
	for _, side := range []string{sidePureServe, sideNetHTTP} {
		stats, err := freeAddr()
		if err != nil {
			return err
		}
		data, err := os.MkdirTemp(c.dir, "appbench-"+side+"-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(data)
		argv := []string{"taskset", "-c", "0", filepath.Join(c.bin, "pure-serve"), "--app", "tpcc", "--data", data, "--addr", "127.0.0.1:0", "--pprof", stats}
		if side == sideNetHTTP {
			argv = []string{"taskset", "-c", "0", filepath.Join(c.bin, "pure-baseline"), "--app", "tpcc", "--mode", "wal-full", "--data", data, "--addr", "127.0.0.1:0", "--stats", stats}
		}
		t0 := time.Now()
		srv, err := httpbench.Start(ctx, exec.Command(argv[0], argv[1:]...), 10*time.Minute)
		if err != nil {
			return err
		}
		servers = append(servers, server{side, srv, "http://" + stats + "/debug/app"})
		if err := emit(Record{Series: "check", Side: side, What: "loaded", Result: fmt.Sprintf("%.1fs", time.Since(t0).Seconds())}); err != nil {
			return err
		}
	}
	for r := range c.rounds {
		for pos, s := range rotated(servers, r) {
			if err := s.srv.Alive(); err != nil {
				return fmt.Errorf("%s: %w (stderr: %s)", s.side, err, s.srv.Stderr())
			}
			argv := []string{"taskset", "-c", "1", filepath.Join(c.bin, "pure-load"), "--json", "--workload", "tpcc",
				"-c", strconv.Itoa(c.terminals), "-d", c.httpTime.String(), "--timeout", "30s",
				"--seed", strconv.Itoa(1000 * (r + 1)), "--stats", s.stats, "http://" + s.srv.Addr}
			cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
			cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			var res tpccload.Result
			if jerr := json.Unmarshal(bytes.TrimSpace(out), &res); jerr != nil || res.Tool != "tpccload" {
				return fmt.Errorf("pure-load against %s: %v, output %q (stderr: %s)", s.side, err, out, stderr.String())
			}
			if err != nil || res.Errors > 0 || res.Consistency != "ok" {
				return fmt.Errorf("pure-load against %s: %v: %d errors (first: %s), consistency %q", s.side, err, res.Errors, res.FirstError, res.Consistency)
			}
			rec := Record{Series: "http", Round: r, Position: pos, Side: s.side, Tx: res.Transactions, Seconds: res.DurationS,
				TxPerS: res.TxPerS, NewOrdersPerMin: res.NewOrdersPerMin, CPUUsPerTx: res.ServerCPUUsPerTx, Load: bytes.TrimSpace(out)}
			if err := emit(rec); err != nil {
				return err
			}
		}
	}
	return nil
}
