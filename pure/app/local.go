package app

import "workbench/pure/store"

// StartLocal loads app a from st like Start, but starts no owner: the
// caller's goroutine is the owner, and runs each call with Do. It is for
// deterministic in-process work (instruction counts, one client measured
// without goroutine hand-offs): everything a call does is then on one
// goroutine. The Runtime is not safe for concurrent use; Submit panics.
func StartLocal(st *store.Store, a App, opts Options) (*Runtime, error) {
	r, err := load(st, a, opts)
	if err != nil {
		return nil, err
	}
	r.local = true
	return r, nil
}

// Do runs c as a batch of one on the caller's goroutine and returns when
// it is answered (after its save, if it changed anything): parsing, the
// app's Run and the save, as the owner would. Only for a Runtime from
// StartLocal.
func (r *Runtime) Do(c *Call) {
	if !r.local {
		panic("app: Do on a Runtime from Start; use Submit and Wait")
	}
	if r.closed {
		c.fail(503, "the app is shutting down; retry once the server is back")
		return
	}
	if r.resolve(c) {
		r.batches.Add(1)
		r.one[0] = c
		r.apply(r.one[:])
		r.one[0] = nil
	}
	if c.done != nil { // a Call submitted before: take back the answer's token
		<-c.done
	}
}
