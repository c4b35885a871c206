package store

import (
	"sync"
	"sync/atomic"
	"time"
)

// group gathers concurrent commits so they share one write and one sync,
// and pipelines the groups: the next group gathers, is applied and written
// while the previous group's sync is in flight, and its sync starts as soon
// as that one returned.
//
// A committing transaction joins the queue. If no leader is active it
// becomes the leader; otherwise it sleeps until its group's result is
// ready, or it is handed the leadership for the next round. A leader
// (under Store.wmu) takes the queue, applies it and keeps taking and
// applying what queues while the previous group syncs. Then it closes its
// group and writes the group's records, and:
//
//   - if no sync is in flight (the disk is idle), it writes the group's
//     head, hands the leadership to the first transaction queued meanwhile,
//     syncs, publishes and wakes its members: the inline path, the only one
//     a lone writer ever takes;
//   - if a sync is in flight, it leaves the group ready (records written,
//     head not) for the syncer, hands the leadership on and sleeps like a
//     member. The syncer is a goroutine of the store: when the sync in
//     flight returns, it writes the ready group's head and syncs it at
//     once, publishes it and wakes the group's leader (which wakes the
//     members, so the syncer's next head and sync wait for one wake-up,
//     not one per member), and goes on while groups
//     keep being ready, so under load the disk is never left idle waiting
//     for a leader to be scheduled.
//
// Each committer leads at most one round and returns as soon as its own
// group is durable.
//
// At most one head is written and not yet synced at any time: a group's
// head is written only after the previous group's sync returned (by the
// goroutine that saw it return). Records written during that sync without
// their head are a torn tail if the machine crashes, exactly like an
// unsynced commit; so the file never holds more than one unsynced head, as
// without the pipeline, and recovery can tell a torn tail from damage the
// same way (doc.go).
//
// Closing a group while a sync is in flight: the members of the group
// synced before the one in flight were woken when its sync started, and
// come back to commit again during it; so once the gathering group is as
// large as that group (lastSynced), it closes and is written, ready for
// the moment the sync returns. If it does not grow that large, it closes
// when the sync returns, as on the inline path.
//
// Gathering: when the disk is idle and the last group had more than one
// member (writers are committing together), the leader waits up to
// Options.GroupWait for its group to reach that size: every writer of
// the last group comes back into this one (see Whole groups below for
// when halving them would be better). A lone writer never waits, and
// neither does a small group that gathered while a sync was in flight: it
// already holds everyone who could come (the others are in the group that
// was syncing), and waiting for them would only leave the disk idle while
// they could form the next group during this one's sync. A large one that
// holds every writer of the group synced before it merges with the group
// syncing instead (Whole groups).
type group struct {
	mu      sync.Mutex
	queue   []*txn
	spare   []*txn
	leading bool
	recent  int // size of the last group taken
	// arrive is poked when the queue grows or a sync ends, for the one
	// goroutine that may wait on it: the holder of Store.wmu (a leader
	// gathering, or Close and Compact waiting for the sync in flight).
	arrive chan struct{}
	wait   time.Duration
	// timer is the gathering wait's, reused from leader to leader (only
	// the holder of Store.wmu touches it): Reset clears a value a
	// previous gathering left unreceived.
	timer *time.Timer
	// pokeAt is the queue length at which a committer pokes arrive while
	// a leader sleeps gathering (0: at every arrival): the size its group
	// still needs to close, at most pokeChunk, so that it is woken once
	// per few arrivals rather than at each.
	pokeAt int

	// syncing: a written group's sync is in flight, or a ready group is
	// about to be synced; its owner (the inline leader or the syncer) is
	// the only goroutine that writes heads or syncs until it clears it.
	syncing    bool
	ready      *written // records written, head not: the syncer's next group
	lastSynced int      // members of the group whose sync returned last
	syncErr    error    // the first failed sync's (or head write's) error, until folded into Store.failed
	// kick wakes the syncer goroutine when the inline leader's sync returns
	// with a group ready; nil where nothing is pipelined (RAM and
	// read-only stores). Closed by Close, which ends the syncer.
	kick chan struct{}
	// syncTime is a moving average of the syncs' durations (ns), updated
	// by the goroutine that owns each sync: what a gathering wait of a
	// large group may cost at most (Whole groups).
	syncTime atomic.Int64
	// open counts the transactions with writes not yet committing or
	// rolled back: writers on their way to the queue (probe: open writers).
	open atomic.Int64
}

// commit runs tx through the group commit and returns its result. The
// committer sleeps on tx.wake, the channel its recycled state keeps: each
// message sent on it (lead, or the result is ready) is received before
// commit returns, and nobody sends on it after that.
func (s *Store) commit(tx *txn) (uint64, error) {
	g := &s.g
	g.mu.Lock()
	g.queue = append(g.queue, tx)
	if g.leading {
		poke := len(g.queue) >= g.pokeAt
		g.mu.Unlock()
		if poke {
			g.poke()
		}
		if lead := <-tx.wake; !lead {
			return tx.rev, tx.err
		}
	} else {
		g.leading = true
		g.mu.Unlock()
	}
	s.lead()
	return tx.rev, tx.err
}

func (g *group) poke() {
	select {
	case g.arrive <- struct{}{}:
	default:
	}
}

// lead runs one round as leader: write a group, hand the leadership on,
// then sync it (inline) or wait for the syncer to have synced it
// (pipelined). The leader is always the first of the group it writes.
func (s *Store) lead() {
	s.wmu.Lock()
	w := s.writeGroup()
	s.wmu.Unlock()

	g := &s.g
	var next *txn
	g.mu.Lock()
	if len(g.queue) > 0 {
		next = g.queue[0]
	} else {
		g.leading = false
	}
	g.mu.Unlock()
	if next != nil {
		next.wake <- true
	}

	switch {
	case w.queued:
		<-w.batch[0].wake // the syncer is done with the batch: wake the members
		for _, tx := range w.batch[1:] {
			tx.wake <- false
		}
	case w.v != nil:
		s.syncInline(w) // wakes the members
	default:
		for _, tx := range w.batch[1:] {
			tx.wake <- false
		}
	}
	g.mu.Lock()
	if g.spare == nil {
		clear(w.batch)
		g.spare = w.batch[:0]
	}
	g.mu.Unlock()
	s.autoCompact()
}

// take removes the queue and appends it to batch.
func (g *group) take(batch []*txn) []*txn {
	if batch == nil {
		batch, g.queue, g.spare = g.queue, g.spare, nil
		return batch
	}
	batch = append(batch, g.queue...)
	clear(g.queue)
	g.queue = g.queue[:0]
	return batch
}

// gathering is a leader's state while its group gathers.
type gathering struct {
	timer      *time.Timer
	expired    bool
	duringIO   bool // the last look found a sync in flight
	overlapped bool // some look found a sync in flight
	// merged is the group's size when, during a sync, it held every
	// writer of the group synced before (so they came back in less than
	// a sync): from then on it waits for the sync to return and for that
	// group's writers too, merging the two into one (0: not merging).
	merged int
}

// gatherMore appends to batch what queued while the previous group syncs
// and during the gathering wait, blocking until something queues, the sync
// ends or the syncer takes the ready group. It returns false, adding
// nothing, once the group is closed: no sync is in flight and the
// gathering wait does not apply (inline), or a sync is in flight, no group
// is ready and this one is as large as the group synced last (pipelined)
// and too small to merge (see Whole groups).
func (s *Store) gatherMore(batch []*txn, gs *gathering) ([]*txn, bool) {
	g := &s.g
	g.mu.Lock()
	defer g.mu.Unlock()
	for {
		gs.overlapped = gs.overlapped || g.syncing
		target := g.recent // whole groups (see Whole groups)
		if !g.syncing && g.kick != nil {
			// Writers with a transaction open are on their way: where
			// they make a large group, wait for them too (capped).
			if all := len(batch) + len(g.queue) + int(g.open.Load()); all >= wholeGroups && all > target {
				target = all
			}
		}
		if gs.merged > 0 {
			// Once the sync returned, lastSynced is its group's size.
			target = gs.merged + g.lastSynced
		}
		waiting := (!gs.overlapped || gs.merged > 0) && g.wait > 0 && target > 1 && len(batch) < target && !gs.expired
		if len(g.queue) > 0 && (g.syncing || gs.duringIO || waiting) {
			gs.duringIO = g.syncing
			return g.take(batch), true
		}
		gs.duringIO = g.syncing
		if !g.syncing && !waiting {
			if gs.timer != nil {
				gs.timer.Stop()
			}
			return batch, false
		}
		if g.syncing && g.kick != nil && g.ready == nil && gs.merged == 0 && len(batch) >= max(g.lastSynced, 1) {
			if len(batch)+g.lastSynced < wholeGroups {
				return batch, false
			}
			gs.merged = len(batch)
		}
		var expire <-chan time.Time
		need := target - len(batch) // the gathering wait's size
		switch {
		case !g.syncing:
			if gs.timer == nil {
				d := g.gatherWait(target)
				if g.timer == nil {
					g.timer = time.NewTimer(d)
				} else {
					g.timer.Reset(d)
				}
				gs.timer = g.timer
			}
			expire = gs.timer.C
		case gs.merged > 0:
			need = 1 // the sync's return wakes it
		default:
			need = max(g.lastSynced, 1) - len(batch) // the pipelined group's size
		}
		// Woken by the syncer when the sync returns, by the timer, or by
		// the committer that brings the queue to pokeAt.
		g.pokeAt = min(max(need, 1), pokeChunk)
		g.mu.Unlock()
		select {
		case <-g.arrive:
		case <-expire:
			gs.expired = true
		}
		g.mu.Lock()
		g.pokeAt = 0
	}
}

// gatherWait is the longest a leader gathering with the disk idle waits
// for its group to reach target: GroupWait, or for a large group at most
// the syncs' time but at least gatherCapFloor (Whole groups).
func (g *group) gatherWait(target int) time.Duration {
	d := g.wait
	if sync := time.Duration(g.syncTime.Load()); target >= wholeGroups && sync > 0 {
		d = min(d, max(sync, gatherCapFloor))
	}
	return d
}

// Whole groups. A leader gathering while the disk is idle waits for the
// last group's size (g.recent), so that writers committing together
// share each sync. With one sync in flight, a commit that arrives during
// a sync waits for the next, so groups whose syncs run back to back hold
// at most W/2 of W writers each; whole groups carry all W but leave the
// disk idle while the writers come back. With T the time a group's
// writers take to come back and S a sync's, whole groups commit W per
// S+T and halves alternating back to back W/2 per S: whole groups win
// when T < S. So for groups of wholeGroups writers or more:
//   - a group gathering during a sync that comes to hold every writer of
//     the group synced before it (they came back within the sync: T < S)
//     does not close and wait to be synced back to back; it waits for the
//     sync to return and that group's writers too, and the two become one
//     (gatherMore's merged);
//   - a leader gathering with the disk idle waits for the whole last
//     group at most as long as a sync takes (syncTime), so that where the
//     writers take longer than a sync to come back the group closes
//     without them and they form the next group during its sync: halves
//     back to back, the better choice there;
//   - but at least gatherCapFloor: a sync much shorter than the writers'
//     return (tmpfs, a fast device) has no room for the next group to
//     form during it, so a group closed early saves no device time and
//     only leaves fewer writers in each sync, every later group gathering
//     on an idle disk again.
//
// From experiment 065 until probe 1009 a file's last group of 16 or more
// was halved while the disk was idle so that two groups alternated (065:
// 1.06x the 64-writer rate, on a store whose leader then spent more per
// commit). On the AMD machine of probes 1008-1010 (syncs of 0.12-0.25 ms)
// whole groups commit 1.27x that rate at 0.66x the CPU per commit; see
// experiment 162 for pebble beside them.

// gatherCapFloor is the least a large group's idle gather is capped at
// (Whole groups). On tmpfs, whose syncs take 3 µs, the cap at the syncs'
// time closed groups of 32 writers on two CPUs with 3.5 of them on
// average, at 0.72x the rate of the halving groups before whole groups
// (experiments 169, 170, 172); capped at 100 µs they held 27 and ran
// 1.11-1.21x that rate (experiments 172, 174). Where syncs take longer
// (the AMD machine's disk, 0.12-0.24 ms) the cap is the syncs' time as
// before (experiment 173). No cap at all ran 1.17x on tmpfs but
// 0.93-0.96x on that disk (experiment 171): the cap lets stragglers form
// the next group there. On a device that fast groups, once split, do
// not grow back: each waits for its own last size, so cohorts of a few
// writers can take turns for hundreds of groups (probe 1014).
const gatherCapFloor = 100 * time.Microsecond

// wholeGroups is the least group (or pair of groups about to merge) whose
// gathering wait is capped at syncTime and that merges with the group
// syncing (see Whole groups): smaller groups, as from 8 writers, gather
// as they always did (whole, for up to Options.GroupWait).
const wholeGroups = 16

// pokeChunk is the most arrivals a gathering leader sleeps through: it
// takes and applies what queued in chunks of up to this many, during the
// sync in flight, instead of being woken at each.
const pokeChunk = 8

// drainLocked waits until no sync is in flight and no group is ready (the
// syncer is idle) and makes a failed sync the store's failure. The caller
// holds wmu, so no group can become ready meanwhile.
func (s *Store) drainLocked() {
	g := &s.g
	g.mu.Lock()
	for g.syncing {
		g.mu.Unlock()
		<-g.arrive
		g.mu.Lock()
	}
	if g.syncErr != nil && s.failed == nil {
		s.failed = g.syncErr
	}
	g.mu.Unlock()
}

// foldSyncErrLocked makes a failed sync (or head write) the store's
// failure, without waiting for the sync in flight. The caller holds wmu.
func (s *Store) foldSyncErrLocked() {
	g := &s.g
	g.mu.Lock()
	if g.syncErr != nil && s.failed == nil {
		s.failed = g.syncErr
	}
	g.mu.Unlock()
}

// queued returns the number of transactions waiting for a leader (tests).
func (s *Store) queued() int {
	s.g.mu.Lock()
	defer s.g.mu.Unlock()
	return len(s.g.queue)
}

// noteSync folds a sync's duration into syncTime (an average over about
// the last 8 syncs). Syncs run one at a time, so one goroutine updates it
// at a time.
func (g *group) noteSync(d time.Duration) {
	old := g.syncTime.Load()
	if old == 0 {
		g.syncTime.Store(int64(d))
		return
	}
	g.syncTime.Store(old + (int64(d)-old)/8)
}
