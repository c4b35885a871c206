package serve

import (
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// Memory after outsized requests. A request body over the largest pooled
// read buffer (1 MiB) gets a buffer of its own size, and the store copies
// the value once or twice more while committing it; all of it is garbage
// once the answer has left. But the steady load that may follow (document
// GETs, pipelined or not) allocates nothing, so the collector never runs
// again (the runtime forces a collection only every 2 minutes) and those
// megabytes stay resident: after the harness's seed (one 1 MiB PUT) they
// were half of pure-serve's anonymous memory under GET loads. So when a
// connection drops such a buffer, the trimmer collects twice and returns
// the freed pages to the system (debug.FreeOSMemory), at once and at most
// once per trimEvery; steady loads, whose buffers are pooled, never
// trigger it.

// trimEvery is the least time between two trims.
const trimEvery = time.Second

// trimmer runs the trims on a goroutine of its own, so the connection that
// asked goes on at once.
type trimmer struct {
	kick  chan struct{} // capacity 1: a trim is wanted
	trims atomic.Int64  // trims done, for tests
	stop  chan struct{}
	done  chan struct{}
}

func newTrimmer() *trimmer {
	return &trimmer{kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
}

// want asks for a trim without waiting.
func (t *trimmer) want() {
	select {
	case t.kick <- struct{}{}:
	default:
	}
}

// run trims each time one is wanted, then rests trimEvery, until stopped.
func (t *trimmer) run() {
	defer close(t.done)
	for {
		select {
		case <-t.kick:
			// Two collections, not FreeOSMemory's one: an object put in
			// a sync.Pool (read buffers here, the store's transaction
			// memory) survives the first collection after its Put in the
			// pool's victim cache and is freed by the second. With one,
			// 5 of 10 servers kept 1.0-3.2 MB more anonymous memory after
			// the harness's seed (its 1 MiB PUT); with two, none of 12
			// did (2.44-2.90 MB), by hand on this machine. Over about
			// 100 later runs 4 still peaked near 9.5 MB under GETs after
			// the seed, for a reason not found (see doc.go, Memory).
			runtime.GC()
			debug.FreeOSMemory()
			t.trims.Add(1)
			select {
			case <-time.After(trimEvery):
			case <-t.stop:
				return
			}
		case <-t.stop:
			return
		}
	}
}
