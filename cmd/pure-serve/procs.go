package main

import (
	"context"
	"time"
)

// The second P while durable writes come in (see durableProcs for why it
// pays), and one P while they do not: the second P costs peak RSS under
// reads (experiment 057: about 0.6 MB, pure-serve 0.52x net/http's peak
// under small GETs against 0.47x with one P, because the connections'
// allocations spread over two Ps' caches) and buys reads nothing. So a
// governor watches the store's publications (one per synced group of
// commits, the app's saves included) and gives the process its second P
// at the first publication it sees, and takes it back once none has come
// for procsIdle.
const (
	// procsEvery is how often the governor looks at the publications: the
	// longest a write burst runs with one P before the second is given.
	procsEvery = 50 * time.Millisecond
	// procsIdle is how long without a publication before the second P is
	// taken back. Short enough that a store prepared by writes reads with
	// one P a second later (the harness rests a second after preparing).
	procsIdle = 500 * time.Millisecond
)

// procsGovernor decides the process's GOMAXPROCS from the store's
// publications. It is a value driven by step, so tests run it without a
// clock or a store.
type procsGovernor struct {
	low, high int // the Ps without and with writes: 1 and 2
	cur       int
	last      uint64    // publications at the previous step
	lastPub   time.Time // when they last changed
	set       func(int) // runtime.GOMAXPROCS
}

// step looks at the publications pubs seen at now and sets the Ps if they
// must change.
func (g *procsGovernor) step(pubs uint64, now time.Time) {
	if pubs != g.last {
		g.last, g.lastPub = pubs, now
		if g.cur != g.high {
			g.cur = g.high
			g.set(g.cur)
		}
		return
	}
	if g.cur != g.low && now.Sub(g.lastPub) >= procsIdle {
		g.cur = g.low
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
