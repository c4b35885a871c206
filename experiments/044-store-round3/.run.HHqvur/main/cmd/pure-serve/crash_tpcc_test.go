package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"workbench/pure/apps/tpcc"
	"workbench/pure/apps/tpcc/tpccload"
	"workbench/pure/store"
)

// TestCrash_TPCC_KillDuringTransactions builds pure-serve, serves
// --app tpcc --tpcc-scale small --data from a temp directory, and
// SERVE_CRASH_CYCLES times (default 3) lets 16 terminals (tpccload) run
// the mix over HTTP, kills the server with SIGKILL at a random moment,
// restarts it on the same data and checks, before any new transaction:
//
//   - the consistency view (conditions 1 to 4) of the restarted server
//     answers "ok";
//   - every New-Order the server acknowledged (answered 200, so synced)
//     is in the store: the server is stopped with SIGTERM and the store
//     file opened directly, so no later order can take a lost one's id.
//
// A New-Order in flight at the kill may or may not be there; nothing else
// may be missing. It prints "N cycles, A acknowledged, L lost".
func TestCrash_TPCC_KillDuringTransactions(t *testing.T) {
	if testing.Short() {
		t.Skip("kill -9 cycles of pure-serve --app tpcc take about 10 s; run without -short")
	}
	cycles, seed, rng, dir, bin := crashSetup(t, 2)
	data := filepath.Join(dir, "data")
	flags := []string{"--app", "tpcc", "--tpcc-scale", "small"}
	acked, lost, done := 0, 0, 0
	defer func() { fmt.Printf("%d cycles, %d acknowledged, %d lost\n", done, acked, lost) }()
	for cycle := 1; cycle <= cycles; cycle++ {
		srv := startServe(t, bin, data, flags...)
		var mu sync.Mutex
		var orders [][2]int64
		ctx, cancel := context.WithCancel(context.Background())
		ran := make(chan tpccload.Result, 1)
		go func() {
			res, _ := tpccload.Run(ctx, tpccload.Config{ // its error: the consistency view of a killed server
				Target: "http://" + srv.addr, Terminals: 16, Duration: time.Minute,
				Scale: tpcc.Small, LoadSeed: tpccLoadSeed, Seed: seed + uint64(cycle)*1000,
				Timeout: 2 * time.Second,
				OnNewOrder: func(d, o int64) {
					mu.Lock()
					orders = append(orders, [2]int64{d, o})
					mu.Unlock()
				},
			})
			ran <- res
		}()
		// The kill comes at a random moment after the first acknowledged
		// New-Order (a loaded machine may take a while to answer one).
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			mu.Lock()
			n := len(orders)
			mu.Unlock()
			if n > 0 {
				break
			}
		}
		time.Sleep(time.Duration(100+rng.IntN(700)) * time.Millisecond)
		srv.kill(t)
		cancel()
		res := <-ran
		mu.Lock()
		got := orders
		mu.Unlock()
		if len(got) == 0 {
			t.Fatalf("cycle %d: no New-Order was acknowledged before the kill (%d transactions, first error %q): the cycle checked nothing; pure-serve's stderr:\n%s", cycle, res.Transactions, res.FirstError, srv.stderr.String())
		}
		acked += len(got)

		srv = startServe(t, bin, data, flags...)
		if c := tpccConsistency(t, srv.addr); c != "ok" {
			t.Errorf("cycle %d: consistency after kill -9 and restart: %s", cycle, c)
		}
		if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if err := srv.wait(); err != nil {
			t.Fatalf("cycle %d: pure-serve did not stop cleanly on SIGTERM: %v\n%s", cycle, err, srv.stderr.String())
		}
		n := missingOrders(t, filepath.Join(data, storeFile), got)
		lost += n
		t.Logf("cycle %d: %d transactions (%v), %d New-Orders acknowledged, %d of them lost", cycle, res.Transactions, res.ByKind, len(got), n)
		done = cycle
	}
	if lost > 0 {
		t.Errorf("%d acknowledged New-Orders lost", lost)
	}
}

// tpccConsistency asks the server's consistency view.
func tpccConsistency(t *testing.T, addr string) string {
	t.Helper()
	client := &http.Client{Timeout: time.Minute}
	resp, err := client.Get("http://" + addr + "/views/consistency")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("consistency view: %d %q %v", resp.StatusCode, body, err)
	}
	return string(body)
}

// missingOrders opens the store at path and counts the orders (district,
// order id) it lacks, reporting each.
func missingOrders(t *testing.T, path string, orders [][2]int64) int {
	t.Helper()
	st, err := store.Open(path, nil)
	if err != nil {
		t.Fatalf("opening the store after the restart: %v", err)
	}
	defer st.Close()
	sn, err := st.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer sn.Release()
	n := 0
	for _, a := range orders {
		key := fmt.Sprintf("a/tpcc/orders/0001%02d%08d", a[0], a[1])
		if _, _, ok := sn.Get([]byte(key)); !ok {
			n++
			t.Errorf("acknowledged order %d of district %d is lost (no key %s)", a[1], a[0], key)
		}
	}
	return n
}
