package serve

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
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

// Stranded pages (experiment 105). A forced scavenge (FreeOSMemory) can
// miss freed pages, and then nothing returns them while the heap stays
// still. The runtime (Go 1.26, runtime/mgcscavenge.go) marks a 4 MiB chunk
// of the heap as having nothing to scavenge (scavengeIndex.setEmpty) when
// a search of it from a start page downwards finds nothing. The background
// scavenger searches from a position raised only once per collection (to
// the highest page freed in the cycle before), so when a collection's
// sweep frees the seed's buffers above that position in the same chunk and
// the background scavenger runs before the next collection ends, it marks
// the chunk empty with the freed pages above its search: the forced
// scavenge then skips the chunk, and so does every later one, until some
// other free into the chunk clears the mark. With the trims collecting
// twice, the background scavenger woke at the second collection's start
// and did just that: 3 MiB free and not returned at rest, 4 to 6 % of runs
// after the harness's seed (peaks near 9.4 MB instead of 6.3). An
// instrumented runtime showed it each time: "setEmpty bg=true ...
// free-unscavenged pages above=388".
//
// So a trim holds the background scavenger off: with GOGC raised to
// holdScavenger its goal (about 1.1x the heap in use, scaled by the heap
// goal's growth) is far above what is retained, so it scavenges nothing,
// and each collection is followed at once by the forced scavenge, which
// searches from the highest page freed. Seed-only runs, interleaved: 6 of
// 100 stranded before, 1 of 100 with the hold (experiment 105). The one
// left was not examined; the hold cannot cover pages stranded before the
// trim (by an automatic collection during the seed and a background
// scavenge after it), nor a search already in flight when the GOGC
// changes.

// Metadata huge pages (probe 1019). The Go runtime (1.26, malloc.go
// minHeapForMetadataHugePages) marks its heap metadata (the arena index,
// 32 MiB reserved on amd64, and the page allocator's chunks) eligible for
// transparent huge pages, for good, at the end of a collection whose heap
// goal is over 1 GiB. The goal counts GOGC even when the heap is tiny (it
// is at least 4 MiB x GOGC/100), so the hold at GOGC 1<<20 that the trims
// used until probe 1019 crossed it at the first trim; where THP is
// "madvise" (this machine's setting, and many distributions' default)
// khugepaged then collapsed the touched part of the index into one
// resident 2 MiB page within its 10 s scan, and pure-serve's peak RSS
// under small GETs read 8,452-8,848 KiB instead of about 6,600
// (experiments 187, 188). So the hold keeps the goal at most half that
// threshold.

// metadataHugePagesGoal is the heap goal above which the runtime makes
// its metadata eligible for huge pages (see Metadata huge pages).
const metadataHugePagesGoal = 1 << 30

// holdScavenger is the highest GOGC a trim runs with, so that the
// background scavenger's goal (the heap in use scaled by the heap goal's
// growth) is far above the memory retained and it stays off while the
// trim frees and returns memory (see Stranded pages above): 12,800 makes
// the least heap goal (4 MiB x GOGC/100) 512 MiB, over a hundred times a
// small server's goal at GOGC 50, and half of metadataHugePagesGoal. No
// collection is paced by it: the trim's are forced and take a millisecond.
const holdScavenger = 100 * (metadataHugePagesGoal / 2) / (4 << 20)

// holdPercent is the GOGC a trim runs with for a live heap of live bytes
// when GOGC was old: holdScavenger, lowered so that the heap goal, live
// x (1 + GOGC/100), stays under half of metadataHugePagesGoal, but never
// below old (a heap that large is past the stranded pages' concern, and
// its goal is the runtime's own).
func holdPercent(live uint64, old int) int {
	p := uint64(holdScavenger)
	if live > 0 {
		if q := 100 * (metadataHugePagesGoal / 2 / live); q < p+100 {
			p = max(q, 100) - 100
		}
	}
	return max(int(p), old)
}

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
			trim()
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

// trim collects twice, each time returning at once what the collection
// freed (FreeOSMemory is a collection, then a forced scavenge), with the
// background scavenger held off. Twice, because an object put in a
// sync.Pool (read buffers here, the store's transaction memory) survives
// the first collection after its Put in the pool's victim cache and is
// freed by the second: with one, 5 of 10 servers kept 1.0-3.2 MB more
// anonymous memory after the harness's seed.
func trim() {
	live, gogc := heapAndGOGC()
	old := debug.SetGCPercent(holdPercent(live, gogc))
	defer debug.SetGCPercent(old)
	debug.FreeOSMemory()
	debug.FreeOSMemory()
}

// heapAndGOGC returns the heap marked live by the last collection, in
// bytes (0 if the runtime does not say), and the GOGC in force (-1: off).
func heapAndGOGC() (live uint64, gogc int) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = s[0].Value.Uint64()
	}
	gogc = 100
	if s[1].Value.Kind() == metrics.KindUint64 {
		if v := s[1].Value.Uint64(); v > math.MaxInt32 {
			gogc = -1 // off: the runtime reports it as the largest uint64
		} else {
			gogc = int(v)
		}
	}
	return live, gogc
}
