package kvbench

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Bare group commits. With Sync writes each writer has one commit in
// flight, and a store that lets one sync be in flight at a time (as the
// pure store's recovery rule asks, and as pebble's WAL does) cannot put a
// commit that arrives during a sync into that sync: it waits for the
// next. So a store whose syncs run back to back commits at most W/2
// times per sync with W writers (a writer woken by one sync's return
// joins the sync after the next one starts), and one that gathers bigger
// groups leaves the device idle while they gather, which pays only when
// the writers' own CPU per commit, spread over the CPUs, is short beside a
// sync. groupWriter is both disciplines run with as little CPU as a store
// can spend: no index, no tree, no checksums, records (length, key,
// value) appended to a file preallocated with zeros, so a sync writes data
// pages only. Their rates are what a one-sync-in-flight store can reach
// on this device with Go's wake-ups, as nginx is for the HTTP servers: a
// store target above both is beyond cutting CPU on that machine.

// groupPrealloc is how many bytes of zeros groupWriter writes ahead of its
// records (and syncs) when it opens and each time its records reach the
// end: a 3 s cell of 64 writers appends about 10 MB.
const groupPrealloc = 64 << 20

// groupGather is the longest a waiting groupWriter holds a group open for
// writers that have not come back (as the pure store's Options.GroupWait).
const groupGather = 2 * time.Millisecond

// groupWriter is a bare group commit (see Bare group commits): Put queues
// its record and waits; one goroutine takes everything queued, writes it
// in one call and fdatasyncs. With waitAll false it syncs back to back,
// taking whatever queued during the last sync; with waitAll true it first
// waits (at most groupGather) until every writer of the group just synced
// has queued again, so each sync carries all the writers.
type groupWriter struct {
	f       *os.File
	waitAll bool

	mu      sync.Mutex
	queue   *groupBatch // the batch gathering: its members wait on done
	queued  int         // members of queue
	want    int         // waitAll: members the gathering batch waits for
	buf     []byte      // the gathering batch's records
	spare   []byte      // the other buffer, written by the syncer
	err     error       // sticky: the first write or sync that failed
	closing bool
	syncs   uint64 // syncs that succeeded

	kick     chan struct{} // capacity 1: the syncer may have something to do
	off, end int64         // next record's offset; end of the preallocated zeros
	done     chan struct{}
}

// groupBatch is the commits of one sync: closing done wakes them all, and
// err is their result.
type groupBatch struct {
	done chan struct{}
	err  error
}

func openGroup(dir string, waitAll bool) (Writer, error) {
	f, err := os.OpenFile(filepath.Join(dir, "group.log"), os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	g := &groupWriter{f: f, waitAll: waitAll, queue: &groupBatch{done: make(chan struct{})},
		kick: make(chan struct{}, 1), done: make(chan struct{})}
	if err := g.prealloc(); err != nil {
		f.Close()
		return nil, err
	}
	go g.syncLoop()
	return g, nil
}

// prealloc writes groupPrealloc bytes of zeros at g.end and syncs them, so
// that later syncs write data pages and no file size or extent.
func (g *groupWriter) prealloc() error {
	zeros := make([]byte, 1<<20)
	for n := int64(0); n < groupPrealloc; n += int64(len(zeros)) {
		if _, err := g.f.WriteAt(zeros, g.end+n); err != nil {
			return err
		}
	}
	if err := fdatasync(g.f); err != nil {
		return err
	}
	g.end += groupPrealloc
	return nil
}

// Put queues key and val as one record (a 4-byte header holding the key's
// length in its top 16 bits and the value's below) and waits for its sync.
func (g *groupWriter) Put(key, val []byte) error {
	if len(key) > 0xffff || len(val) > 0xffff {
		return errors.New("group writer: key or value over 64 KiB")
	}
	g.mu.Lock()
	if g.err != nil || g.closing {
		err := g.err
		g.mu.Unlock()
		if err == nil {
			err = errors.New("group writer closed")
		}
		return err
	}
	g.buf = binary.LittleEndian.AppendUint32(g.buf, uint32(len(key)<<16|len(val)))
	g.buf = append(append(g.buf, key...), val...)
	g.queued++
	b := g.queue
	if g.queued == 1 || g.queued == g.want {
		g.poke()
	}
	g.mu.Unlock()
	<-b.done
	return b.err
}

// poke tells the syncer to look again, without waiting.
func (g *groupWriter) poke() {
	select {
	case g.kick <- struct{}{}:
	default:
	}
}

// syncLoop takes each batch once it is ready, writes it and syncs it, then
// wakes its members, until Close has been called and nothing is queued.
func (g *groupWriter) syncLoop() {
	defer close(g.done)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		g.mu.Lock()
		var deadline time.Time
		for !(g.queued > 0 && (!g.waitAll || g.queued >= g.want || g.closing)) {
			if g.queued == 0 && g.closing {
				g.mu.Unlock()
				return
			}
			if g.queued > 0 {
				// Waiting for the group's writers to come back.
				if deadline.IsZero() {
					deadline = time.Now().Add(groupGather)
				}
				left := time.Until(deadline)
				if left <= 0 {
					break
				}
				g.mu.Unlock()
				timer.Reset(left)
				select {
				case <-g.kick:
				case <-timer.C:
				}
				timer.Stop()
			} else {
				g.mu.Unlock()
				<-g.kick
			}
			g.mu.Lock()
		}
		b, recs, n := g.queue, g.buf, g.queued
		g.queue, g.buf, g.queued = &groupBatch{done: make(chan struct{})}, g.spare[:0], 0
		err := g.err
		g.mu.Unlock()

		if err == nil {
			err = g.write(recs)
		}
		g.spare = recs
		g.mu.Lock()
		if err != nil {
			g.err = err
		} else {
			g.syncs++
		}
		// The n members woken now will queue again, beside those that
		// queued during the sync.
		g.want = n + g.queued
		g.mu.Unlock()
		b.err = err
		close(b.done)
	}
}

// write appends recs at g.off, preallocating more zeros first if they
// would pass the end, and fdatasyncs.
func (g *groupWriter) write(recs []byte) error {
	if g.off+int64(len(recs)) > g.end {
		if err := g.prealloc(); err != nil {
			return err
		}
	}
	if _, err := g.f.WriteAt(recs, g.off); err != nil {
		return err
	}
	g.off += int64(len(recs))
	return fdatasync(g.f)
}

func (g *groupWriter) Syncs() (uint64, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.syncs, true
}

// Close stops the sync loop once what is queued is synced, and closes the
// file.
func (g *groupWriter) Close() error {
	g.mu.Lock()
	g.closing = true
	g.mu.Unlock()
	g.poke()
	<-g.done
	return g.f.Close()
}
