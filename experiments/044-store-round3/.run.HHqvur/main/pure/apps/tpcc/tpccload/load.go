package tpccload

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"workbench/pure/apps/tpcc"
)

// Config is one run.
type Config struct {
	// Target is the server's base URL, like http://127.0.0.1:8080.
	Target string
	// Terminals is the number of terminals, each one connection (default 64).
	Terminals int
	// Duration is how long the terminals send (default 10 s).
	Duration time.Duration
	// Scale and LoadSeed are those of the server's data (pure-serve
	// --tpcc-scale, and its load seed 1): the Mix draws ids within them.
	Scale    tpcc.Scale
	LoadSeed uint64
	// Seed is terminal 0's Mix seed; terminal i uses Seed+i.
	Seed uint64
	// Stats, if set, is the URL of the server's stats (pure-serve
	// --pprof ADDR: http://ADDR/debug/app), read before and after the run.
	Stats string
	// Timeout bounds a connect and each answer (default 10 s).
	Timeout time.Duration
	// OnNewOrder, if set, is called (from the terminals' goroutines, one
	// at a time) with the district and order id of every New-Order
	// answered 200: the orders the server acknowledged.
	OnNewOrder func(d, o int64)
}

// Result is what a run measured. Its JSON form is one line.
type Result struct {
	Tool      string  `json:"tool"` // "tpccload"
	Target    string  `json:"target"`
	Terminals int     `json:"terminals"`
	DurationS float64 `json:"duration_s"`
	// Transactions answered: 200, or 404 for a New-Order the
	// specification rolls back.
	Transactions int64            `json:"transactions"`
	ByKind       map[string]int64 `json:"by_kind"`
	RolledBack   int64            `json:"rolled_back"`
	// Errors are answers of any other status and failed connections
	// (their transaction counted here, the connection reopened).
	Errors     int64   `json:"errors"`
	FirstError string  `json:"first_error,omitempty"`
	TxPerS     float64 `json:"tx_per_s"`
	// NewOrdersPerMin counts committed New-Orders (tpmC's numerator).
	NewOrdersPerMin float64 `json:"new_orders_per_min"`
	LatencyUs       struct {
		P50 float64 `json:"p50"`
		P99 float64 `json:"p99"`
		Max float64 `json:"max"`
	} `json:"latency_us"`
	// ServerCPUUsPerTx is the server process's user+system CPU over the
	// run per transaction; OwnerShare the app owner's busy time over the
	// run's wall time (0 when the server reports none). Both need Stats.
	ServerCPUUsPerTx float64 `json:"server_cpu_us_per_tx,omitempty"`
	OwnerShare       float64 `json:"owner_share,omitempty"`
	ClientCPUS       float64 `json:"client_cpu_s"`
	// Consistency is the server's consistency view after the run: "ok",
	// or each failed condition.
	Consistency string `json:"consistency"`
}

// serverStats is the part of pure-serve's /debug/app this driver reads.
type serverStats struct {
	CPUNs     int64 `json:"cpu_ns"`
	OwnerBusy int64 `json:"owner_busy_ns"`
}

// terminal is one terminal's counts.
type terminal struct {
	byKind     [6]int64
	rolledBack int64
	errors     int64
	firstError string
	lat        []int32 // microseconds
}

// Run runs the terminals for the duration, then reads the stats and the
// consistency view. An error means the run could not start or its
// results could not be read; failed transactions are counted, not errors.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Terminals == 0 {
		cfg.Terminals = 64
	}
	if cfg.Duration == 0 {
		cfg.Duration = 10 * time.Second
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Second
	}
	res := Result{Tool: "tpccload", Target: cfg.Target, Terminals: cfg.Terminals, ByKind: map[string]int64{}}
	u, err := url.Parse(cfg.Target)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return res, fmt.Errorf("target %q: give the server's base URL, like http://127.0.0.1:8080", cfg.Target)
	}
	if cfg.Terminals < 1 || cfg.Scale.Districts < 1 {
		return res, errors.New("terminals must be at least 1 and the scale that of the server's data (tpcc.Full or tpcc.Small)")
	}
	var before serverStats
	if cfg.Stats != "" {
		if before, err = fetchStats(cfg.Stats, cfg.Timeout); err != nil {
			return res, err
		}
	}
	cpu0 := clientCPU()
	base := time.Now().UnixMicro() * 100
	terms := make([]terminal, cfg.Terminals)
	var mu sync.Mutex
	var stop atomic.Bool
	var wg sync.WaitGroup
	start := time.Now()
	for i := range terms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			drive(u.Host, &cfg, i, base, &terms[i], &stop, &mu)
		}()
	}
	t := time.NewTimer(cfg.Duration)
	select {
	case <-t.C:
	case <-ctx.Done():
		t.Stop()
	}
	stop.Store(true)
	wg.Wait()
	wall := time.Since(start)
	res.DurationS = wall.Seconds()
	res.ClientCPUS = (clientCPU() - cpu0).Seconds()
	merge(&res, terms, wall)
	if cfg.Stats != "" {
		after, err := fetchStats(cfg.Stats, cfg.Timeout)
		if err != nil {
			return res, err
		}
		if res.Transactions > 0 {
			res.ServerCPUUsPerTx = float64(after.CPUNs-before.CPUNs) / 1e3 / float64(res.Transactions)
		}
		res.OwnerShare = float64(after.OwnerBusy-before.OwnerBusy) / float64(wall)
	}
	c, err := dial(u.Host, cfg.Timeout)
	if err != nil {
		return res, fmt.Errorf("asking for consistency: %w", err)
	}
	defer c.close()
	status, body, err := c.get("/views/consistency", 5*time.Minute)
	if err != nil || status != 200 {
		return res, fmt.Errorf("asking for consistency: %d %q %v", status, body, err)
	}
	res.Consistency = string(body)
	return res, ctx.Err()
}

// drive is terminal i's loop: send the next transaction of its Mix as
// soon as the last is answered, until stop.
func drive(addr string, cfg *Config, i int, base int64, t *terminal, stop *atomic.Bool, mu *sync.Mutex) {
	mix := tpcc.NewMix(cfg.Scale, cfg.LoadSeed, cfg.Seed+uint64(i))
	var c *conn
	defer func() {
		if c != nil {
			c.close()
		}
	}()
	fail := func(what string) {
		t.errors++
		if t.firstError == "" {
			t.firstError = what
		}
	}
	for k := int64(0); !stop.Load(); k++ {
		x := mix.Next()
		x.Now = base + k*int64(cfg.Terminals) + int64(i)
		if c == nil {
			var err error
			if c, err = dial(addr, cfg.Timeout); err != nil {
				fail(err.Error())
				time.Sleep(10 * time.Millisecond)
				continue
			}
		}
		t0 := time.Now()
		status, body, err := c.do(x, cfg.Timeout)
		if err != nil {
			fail(err.Error())
			c.close()
			c = nil
			continue
		}
		t.lat = append(t.lat, int32(min(time.Since(t0).Microseconds(), 1<<31-1)))
		switch {
		case status == 200:
			t.byKind[x.Kind]++
			if x.Kind == tpcc.NewOrder && cfg.OnNewOrder != nil {
				var o, total int64
				fmt.Sscan(string(body), &o, &total)
				mu.Lock()
				cfg.OnNewOrder(x.D, o)
				mu.Unlock()
			}
		case status == 404 && x.Kind == tpcc.NewOrder:
			t.byKind[x.Kind]++
			t.rolledBack++
		default:
			fail(fmt.Sprintf("%s: %d %s", x.Kind, status, body))
		}
	}
}

// merge sums the terminals' counts into res.
func merge(res *Result, terms []terminal, wall time.Duration) {
	var lat []int32
	for i := range terms {
		t := &terms[i]
		for _, k := range tpcc.Kinds {
			res.ByKind[k.String()] += t.byKind[k]
			res.Transactions += t.byKind[k]
		}
		res.RolledBack += t.rolledBack
		res.Errors += t.errors
		if res.FirstError == "" {
			res.FirstError = t.firstError
		}
		lat = append(lat, t.lat...)
	}
	res.TxPerS = float64(res.Transactions) / wall.Seconds()
	res.NewOrdersPerMin = float64(res.ByKind["new_order"]-res.RolledBack) / wall.Minutes()
	if len(lat) > 0 {
		slices.Sort(lat)
		q := func(p float64) float64 { return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))]) }
		res.LatencyUs.P50, res.LatencyUs.P99, res.LatencyUs.Max = q(0.5), q(0.99), float64(lat[len(lat)-1])
	}
}

// fetchStats reads the server's stats JSON.
func fetchStats(statsURL string, timeout time.Duration) (serverStats, error) {
	var s serverStats
	u, err := url.Parse(statsURL)
	if err != nil || u.Host == "" {
		return s, fmt.Errorf("stats %q: give a URL like http://127.0.0.1:6060/debug/app", statsURL)
	}
	c, err := dial(u.Host, timeout)
	if err != nil {
		return s, fmt.Errorf("reading the server's stats: %w", err)
	}
	defer c.close()
	c.c.Write([]byte("GET " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host + "\r\nConnection: close\r\n\r\n"))
	c.c.SetDeadline(time.Now().Add(timeout))
	status, body, err := c.read()
	if err != nil || status != 200 {
		return s, fmt.Errorf("reading the server's stats at %s: %d %q %v", statsURL, status, body, err)
	}
	if err := json.Unmarshal(body, &s); err != nil {
		return s, fmt.Errorf("reading the server's stats at %s: %w", statsURL, err)
	}
	return s, nil
}

// clientCPU is this process's user+system CPU time.
func clientCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
