package main

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// The second P while durable writes come in (see durableProcs for why it
// pays), and one P while they do not: the second P costs peak RSS under
// reads (experiment 057: about 0.6 MB, pure-serve 0.52x net/http's peak
// under small GETs against 0.47x with one P, because the connections'
// allocations spread over two Ps' caches) and buys reads nothing. So a
// governor gives the process its second P as a write request is
// dispatched (serve.Config.OnWrite), before its commit waits for a sync,
// and takes it back once the store has published nothing (no synced
// group of commits, the app's saves included) for procsIdle.
//
// The first version raised the P only when it saw a publication, polling
// every 50 ms: every write burst then began with up to 50 ms on one P,
// which made the pairs runner's score-64c windows (400 ms each, more than
// procsIdle apart) differ by how much of that each one caught, and its A/A
// undecided after 20 pairs (experiment 062).
const (
	// procsEvery is how often the governor looks at the publications to
	// decide whether to take the second P back.
	procsEvery = 50 * time.Millisecond
	// procsIdle is how long without a publication before the second P is
	// taken back. Short enough that a store prepared by writes reads with
	// one P a second later (the harness rests a second after preparing).
	procsIdle = 500 * time.Millisecond
)

// procsGovernor decides the process's GOMAXPROCS from the writes and the
// store's publications. wrote is called by the connections, step by the
// governor's goroutine (governProcs) or a test with its own clock.
type procsGovernor struct {
	low, high int       // the Ps without and with writes: 1 and 2
	set       func(int) // runtime.GOMAXPROCS

	atLow atomic.Bool // cur == low: read by wrote without mu
	mu    sync.Mutex
	cur   int
	last  uint64    // publications at the previous step
	quiet time.Time // since when nothing was published (or written)
}

// newProcsGovernor starts at low Ps with pubs publications seen at now.
func newProcsGovernor(low, high int, pubs uint64, now time.Time, set func(int)) *procsGovernor {
	g := &procsGovernor{low: low, high: high, set: set, cur: low, last: pubs, quiet: now}
	g.atLow.Store(true)
	return g
}

// wrote is called as a write request is dispatched: it gives the second
// P at once if the process runs with one. Cheap when it already has it.
func (g *procsGovernor) wrote() {
	if !g.atLow.Load() {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cur != g.high {
		g.cur = g.high
		g.atLow.Store(false)
		g.quiet = time.Now() // the write's publication is yet to come
		g.set(g.cur)
	}
}

// step looks at the publications pubs seen at now: it gives the second P
// if they moved (a write that came without wrote, such as an app's
// start-up seed) and takes it back after procsIdle without any.
func (g *procsGovernor) step(pubs uint64, now time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if pubs != g.last {
		g.last, g.quiet = pubs, now
		if g.cur != g.high {
			g.cur = g.high
			g.atLow.Store(false)
			g.set(g.cur)
		}
		return
	}
	if g.cur != g.low && now.Sub(g.quiet) >= procsIdle {
		g.cur = g.low
		g.atLow.Store(true)
		g.set(g.cur)
	}
}

// governProcs runs g every procsEvery with the publications pubs returns,
// until ctx ends.
func governProcs(ctx context.Context, g *procsGovernor, pubs func() uint64) {
	t := time.NewTicker(procsEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			g.step(pubs(), now)
		}
	}
}
