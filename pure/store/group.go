package store

import (
	"sync"
	"time"
)

// group gathers concurrent commits so they share one write and one sync.
//
// A committing transaction joins the queue. If no leader is active it
// becomes the leader; otherwise it sleeps until the leader reports its
// result, or hands it the leadership for the next round. A leader takes the
// whole queue as one group (after the gathering wait below), commits it
// with commitGroup, wakes every member with its result and, if more
// transactions queued meanwhile, wakes the first of them to lead the next
// round. Each committer therefore leads at most one round and returns as
// soon as its own group is durable.
//
// Gathering: when the last group had more than one member, writers are
// committing together, and the leader waits up to Options.GroupWait for the
// queue to reach that size before taking it. A lone writer never waits.
type group struct {
	mu      sync.Mutex
	queue   []*Tx
	spare   []*Tx
	leading bool
	recent  int           // size of the last group taken
	arrive  chan struct{} // poked when the queue grows while a leader gathers
	wait    time.Duration
}

// commit runs tx through the group commit and returns its result.
func (s *Store) commit(tx *Tx) (uint64, error) {
	g := &s.g
	tx.wake = make(chan bool, 1)
	g.mu.Lock()
	g.queue = append(g.queue, tx)
	if g.leading {
		g.mu.Unlock()
		select {
		case g.arrive <- struct{}{}:
		default:
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

// lead runs one round as leader. The leader is always the first in the
// queue it takes.
func (s *Store) lead() {
	g := &s.g
	batch := s.gather()
	s.commitGroup(batch)
	for _, tx := range batch[1:] {
		tx.wake <- false
	}
	var next *Tx
	g.mu.Lock()
	clear(batch)
	g.spare = batch[:0]
	if len(g.queue) > 0 {
		next = g.queue[0]
	} else {
		g.leading = false
	}
	g.mu.Unlock()
	s.autoCompact()
	if next != nil {
		next.wake <- true
	}
}

// gather takes the queue as the next group, first waiting for it to reach
// the recent group size if writers have been committing together.
func (s *Store) gather() []*Tx {
	g := &s.g
	g.mu.Lock()
	if g.wait > 0 && g.recent > 1 && len(g.queue) < g.recent {
		timer := time.NewTimer(g.wait)
		for expired := false; !expired && len(g.queue) < g.recent; {
			g.mu.Unlock()
			select {
			case <-g.arrive:
			case <-timer.C:
				expired = true
			}
			g.mu.Lock()
		}
		timer.Stop()
	}
	batch := g.queue
	g.queue, g.spare = g.spare, nil
	g.recent = len(batch)
	g.mu.Unlock()
	return batch
}

// queued returns the number of transactions waiting for a leader (tests).
func (s *Store) queued() int {
	s.g.mu.Lock()
	defer s.g.mu.Unlock()
	return len(s.g.queue)
}
