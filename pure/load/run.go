package load

import (
	"context"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// runner is what the connections of one run share: read-only settings,
// the request budget in count mode and the stop flag.
type runner struct {
	cfg    Config
	t      target
	base   time.Time
	end    int64        // clock reading at which duration mode stops; 0 in count mode
	budget atomic.Int64 // requests left to claim in count mode
	total  int64        // the count mode's budget at the start
	stop   atomic.Bool  // set on cancellation: stop now, count nothing in flight
	addr   sockAddr     // the target, resolved once
	// interval is, with a rate, the nanoseconds between one connection's
	// batches; 0 without.
	interval int64
	quit     chan struct{} // closed by halt: wakes workers waiting for their turn
}

// clock returns the nanoseconds since the run started (monotonic).
func (r *runner) clock() int64 { return int64(time.Since(r.base)) }

// claim takes up to d requests from the count mode's budget and returns
// how many it took and the run-wide number of the first.
func (r *runner) claim(d int) (int, int64) {
	for {
		left := r.budget.Load()
		if left <= 0 {
			return 0, 0
		}
		k := min(int64(d), left)
		if r.budget.CompareAndSwap(left, left-k) {
			return int(k), r.total - left
		}
	}
}

// Run runs the load described by c against its target until the duration
// passes, the count is sent, or ctx is cancelled, and returns the result.
// On cancellation the requests in flight are dropped, not counted, and
// Run returns what was counted with ctx's error. An invalid Config is
// reported before anything is sent.
func Run(ctx context.Context, c Config) (Result, error) {
	t, err := c.check()
	if err != nil {
		return Result{}, err
	}
	if c.Workload == WorkloadSeed {
		c.Duration, c.Count = 0, seedCount
		c.Connections = min(c.Connections, seedCount)
	}
	r := &runner{cfg: c, t: t, quit: make(chan struct{})}
	if c.Rate > 0 {
		r.interval = max(int64(float64(c.Connections*c.Pipeline)/c.Rate*1e9), 1)
	}
	if r.addr, err = resolve(t.addr); err != nil {
		return Result{}, err
	}
	r.total = c.Count
	r.budget.Store(c.Count)
	shared := prebuilt(c.Workload, &c, t)
	workers := make([]*worker, c.Connections)
	for i := range workers {
		workers[i] = newWorker(r, i, newSource(c.Workload, i, shared, &c, t))
	}

	cpu0 := cpuSeconds()
	r.base = time.Now()
	if c.Duration > 0 {
		r.end = int64(c.Duration)
	}
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() { defer wg.Done(); w.loop() }()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	cancelled := watch(ctx, r, workers, done)
	elapsed := time.Since(r.base)
	cpu := cpuSeconds() - cpu0

	res := Result{Tool: "pure-load", Workload: string(c.Workload), Target: c.Target,
		Connections: c.Connections, Pipeline: c.Pipeline, KeepAlive: !c.Close, Rate: c.Rate,
		DurationS: elapsed.Seconds(), ClientCPUS: cpu}
	var h Histogram
	for _, w := range workers {
		res.Requests += w.requests
		res.OK += w.ok
		res.Non2xx += w.non2xx
		res.Errors.add(w.errs)
		res.Connects += w.connects
		h.Merge(&w.hist)
	}
	if res.DurationS > 0 {
		res.OKPerS = float64(res.OK) / res.DurationS
	}
	res.LatencyUS = LatencyOf(&h)
	if cancelled {
		return res, ctx.Err()
	}
	return res, nil
}

// watch waits for the workers to finish. On cancellation, or when a
// duration run's workers are still waiting for answers a grace period
// after the end (the timeout, or 1 s without one), it stops them: the
// stop flag is set and every open connection's deadline is moved to the
// past, which wakes its blocked read or write. It reports whether ctx was
// cancelled.
func watch(ctx context.Context, r *runner, workers []*worker, done <-chan struct{}) bool {
	var grace <-chan time.Time
	if r.end > 0 {
		g := r.cfg.Timeout
		if g == 0 {
			g = time.Second
		}
		tm := time.NewTimer(time.Duration(r.end) + g)
		defer tm.Stop()
		grace = tm.C
	}
	select {
	case <-done:
		return false
	case <-ctx.Done():
		halt(r, workers)
		<-done
		return true
	case <-grace:
		halt(r, workers)
		<-done
		return false
	}
}

func halt(r *runner, workers []*worker) {
	r.stop.Store(true)
	close(r.quit)
	for _, w := range workers {
		w.mu.Lock()
		if w.conn != nil {
			w.conn.SetDeadline(time.Unix(1, 0))
		}
		w.mu.Unlock()
	}
}

// cpuSeconds returns this process's user+system CPU time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}
