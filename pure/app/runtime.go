package app

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"workbench/pure/store"
)

// Options tunes a Runtime's batching. The zero value gives the defaults.
type Options struct {
	// Pause: after a saved batch the owner keeps collecting calls until
	// none has arrived for a whole Pause (default 100 µs), or as many are
	// queued as the saved batch held ...
	Pause time.Duration
	// Gather: ... or Gather has passed since the save (default 1 ms),
	// then applies what it collected. A negative Gather disables
	// collecting: every batch is what was queued when the owner looked.
	Gather time.Duration
	// Budget, if positive, is the execution budget of every turn: the
	// rows it may read and write (each record a Get, a Put or a Delete
	// touches, each record a scan visits). A turn that goes over is
	// stopped and refused with 422, its changes undone. Zero: no budget,
	// and no counting.
	Budget int64
}

// Stats are a Runtime's counters since Start.
type Stats struct {
	Batches uint64 // batches the owner took from the queue
	Saves   uint64 // store commits (one per batch that changed the table)
	Failed  uint64 // saves whose commit failed
	Inputs  uint64 // input calls applied by the owner
	Views   uint64 // view calls answered by the owner
	// Busy is the wall time the owner spent applying batches (running
	// the calls, saving, answering), not waiting for calls or gathering
	// them: over an interval, its growth divided by the interval is the
	// owner goroutine's share of a core. In durable mode it includes the
	// waits for fdatasync. Do (StartLocal) does not count it.
	Busy time.Duration
}

// Runtime runs one app: the owner goroutine that holds the app's table in
// memory and applies every call to it, and the queue that connection
// workers submit calls to.
//
// Concurrency: Submit, Stats and Close are safe for concurrent use; the
// table is touched only by the owner.
type Runtime struct {
	st     *store.Store
	app    *compiled
	opts   Options
	tables []*table // the app's tables, App.Table first
	log    []undo   // every table's changes since the last save

	mu      sync.Mutex
	queue   []*Call
	closed  bool
	wake    chan struct{} // capacity 1: the queue may have calls
	stopped chan struct{} // closed when the owner returns
	arrived atomic.Uint64 // calls queued since Start
	// While the owner gathers: the arrival count that ends the gathering
	// (all of the saved batch's callers back), else 0; and the channel
	// (capacity 1) on which the call that reaches it wakes the owner.
	gatherAt atomic.Uint64
	back     chan struct{}

	local bool // from StartLocal: no owner; the caller runs calls with Do

	// The owner's own.
	one   [1]*Call // Do's batch
	batch []*Call
	pause *time.Timer // gather's; stopped between gatherings
	turn  Turn
	epoch uint64   // saves staged: stage's epoch
	stg   stageBuf // stage's scratch

	batches, saves, failed, inputs, views atomic.Uint64
	busy                                  atomic.Int64 // nanoseconds
}

// Start loads the app's table from st and starts its owner goroutine. The
// app's records live under "a/<app.Name>/"; nothing else in st is
// touched, so documents and other apps may share the store. Close the
// Runtime before closing st.
func Start(st *store.Store, a App, opts Options) (*Runtime, error) {
	r, err := load(st, a, opts)
	if err != nil {
		return nil, err
	}
	go r.own()
	return r, nil
}

// load compiles a and loads its tables: a Runtime without its owner.
func load(st *store.Store, a App, opts Options) (*Runtime, error) {
	c, err := compile(a)
	if err != nil {
		return nil, fmt.Errorf("app: bad declaration: %w", err)
	}
	if opts.Pause == 0 {
		opts.Pause = 100 * time.Microsecond
	}
	if opts.Gather == 0 {
		opts.Gather = time.Millisecond
	}
	r := &Runtime{
		st: st, app: c, opts: opts,
		wake: make(chan struct{}, 1), stopped: make(chan struct{}), back: make(chan struct{}, 1),
		pause: time.NewTimer(time.Hour),
		stg:   stageBuf{deleted: map[undoKey]bool{}},
	}
	r.pause.Stop() // gather resets it
	sn, err := st.Snapshot()
	if err != nil {
		return nil, fmt.Errorf("app %q: loading the tables: %w", a.Name, err)
	}
	for _, t := range c.tables {
		tb := newTable(a.Name, t, &r.log)
		if err = tb.load(sn); err != nil {
			break
		}
		r.tables = append(r.tables, tb)
	}
	sn.Release()
	if err != nil {
		return nil, fmt.Errorf("app %q: loading the tables: %w", a.Name, err)
	}
	byPrefix := slices.SortedFunc(slices.Values(r.tables), func(a, b *table) int { return strings.Compare(a.prefix, b.prefix) })
	for i, tb := range byPrefix {
		tb.rank = i
	}
	for _, tb := range r.tables {
		tab := Tab{t: &r.turn, tb: tb}
		for _, ix := range tb.idx {
			tab.ix = append(tab.ix, Index{t: &r.turn, ix: ix})
		}
		r.turn.tabs = append(r.turn.tabs, tab)
	}
	r.turn.budget = opts.Budget
	return r, nil
}

// Submit hands c to the app. It parses c on the caller's goroutine: a
// call to an unknown input or view (404) or with bad fields (400) is
// answered at once; others are queued for the owner. Either way the caller
// then calls c.Wait and reads the answer.
func (r *Runtime) Submit(c *Call) {
	if r.local {
		panic("app: Submit on a Runtime from StartLocal; use Do")
	}
	if !r.resolve(c) {
		return
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		c.fail(503, "the app is shutting down; retry once the server is back")
		c.answer()
		return
	}
	r.queue = append(r.queue, c)
	n := r.arrived.Add(1)
	r.mu.Unlock()
	if n == r.gatherAt.Load() {
		select { // the owner gathers, and this call completes the batch
		case r.back <- struct{}{}:
		default:
		}
	}
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// resolve finds c's endpoint and parses c, answering it at once (and
// returning false) if it is bad.
func (r *Runtime) resolve(c *Call) bool {
	if c.done == nil && !r.local { // Do answers without it
		c.done = make(chan struct{}, 1)
	}
	c.ep = nil
	var ep *endpoint
	switch c.Kind {
	case View:
		if ep = find(r.app.views, c.Name); ep == nil {
			c.fail(404, fmt.Sprintf("no view %q; views: %s", c.Name, r.app.viewList))
		}
	case Input:
		if ep = find(r.app.inputs, c.Name); ep == nil {
			c.fail(404, fmt.Sprintf("no input %q; inputs: %s", c.Name, r.app.inputList))
		}
	default:
		c.fail(500, fmt.Sprintf("the host submitted a call of kind %d; want View or Input", c.Kind))
	}
	if ep == nil {
		c.answer()
		return false
	}
	if msg := c.parse(ep); msg != "" {
		c.fail(400, msg)
		c.answer()
		return false
	}
	c.ep = ep
	return true
}

// Stats returns the runtime's counters.
func (r *Runtime) Stats() Stats {
	return Stats{
		Batches: r.batches.Load(), Saves: r.saves.Load(), Failed: r.failed.Load(),
		Inputs: r.inputs.Load(), Views: r.views.Load(), Busy: time.Duration(r.busy.Load()),
	}
}

// Close stops the runtime: calls already queued are applied and answered,
// later ones get 503. It returns when the owner has stopped. The store is
// not closed.
func (r *Runtime) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return fmt.Errorf("app %q: runtime already closed", r.app.app.Name)
	}
	r.closed = true
	r.mu.Unlock()
	if r.local {
		return nil
	}
	select {
	case r.wake <- struct{}{}:
	default:
	}
	<-r.stopped
	return nil
}

// own is the owner goroutine: take the queue, apply it as one batch, and
// after a saved batch of more than one call collect the next one (see
// gather). A lone caller never waits: with nobody else calling, there is
// nothing to gather.
func (r *Runtime) own() {
	defer close(r.stopped)
	for {
		r.mu.Lock()
		for len(r.queue) == 0 {
			if r.closed {
				r.mu.Unlock()
				return
			}
			r.mu.Unlock()
			<-r.wake
			r.mu.Lock()
		}
		r.batch, r.queue = r.queue, r.batch[:0]
		taken := r.arrived.Load()
		r.mu.Unlock()
		r.batches.Add(1)
		t0 := time.Now()
		saved := r.apply(r.batch)
		r.busy.Add(int64(time.Since(t0)))
		size := len(r.batch)
		clear(r.batch)
		if saved && size > 1 {
			r.gather(time.Now(), taken, size)
		}
	}
}

// gather waits, after a save that ended at start, while calls keep
// arriving: until none arrived for a whole Pause, or Gather has passed, or
// as many calls as the saved batch held are queued (taken is the arrival
// count when that batch was taken). The last rule spares closed-loop
// clients the pause: once all of them are back there is nobody left to
// wait for.
//
// The owner sleeps meanwhile: the call that completes the batch wakes it
// (Submit, through back), and a timer every Pause checks whether any call
// arrived during it. So the gathering ends one to two Pauses after the
// last arrival, and in a process with nothing else to run Go's timers
// fire after about a millisecond whatever they are set to (probe 1020),
// which Gather's 1 ms bounds anyway.
//
// Why not spin: the owner yielded its thread in a loop and read the clock
// (runtime.Gosched) until then, since Go's timers could not wait 100 µs.
// On a server pinned to one CPU, where the threads of its two Ps share
// that CPU, the loop took the CPU from the connections that were to
// bring the calls it waited for. Sleeping, score POSTs from 64 closed-loop
// connections took 11 % less server CPU per answer, with 13 % more answers
// a second and p99 28 % lower (experiment 190), in saves of 28 calls
// instead of 20 (probe 1021).
func (r *Runtime) gather(start time.Time, taken uint64, size int) {
	if r.opts.Gather < 0 {
		return
	}
	target := taken + uint64(size)
	r.gatherAt.Store(target)
	defer r.gatherAt.Store(0)
	select {
	case <-r.back: // left by a call that completed an earlier gathering late
	default:
	}
	last := r.arrived.Load()
	if last >= target {
		return
	}
	r.pause.Reset(min(r.opts.Pause, r.opts.Gather-time.Since(start)))
	for {
		select {
		case <-r.back:
			r.pause.Stop()
			return
		case now := <-r.pause.C:
			n, passed := r.arrived.Load(), now.Sub(start)
			if n >= target || n == last || passed >= r.opts.Gather {
				return
			}
			last = n
			r.pause.Reset(min(r.opts.Pause, r.opts.Gather-passed))
		}
	}
}
