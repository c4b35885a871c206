package kvbench

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"sync"
)

// The group ceiling. With Sync writes each writer has one commit in
// flight, and a store that lets one sync be in flight at a time (as the
// pure store's recovery rule asks, and as pebble's WAL does) cannot put a
// commit that arrives during a sync into that sync: it waits for the
// next. A writer woken by one sync's return therefore commits in the sync
// after the next one starts, so two consecutive syncs hold at most W
// commits between them, and W writers commit at most W/2 times per sync
// time however little CPU the store spends. groupWriter is that bound run
// for real: no index, no tree, no checksums, records (length, key, value)
// appended to a file preallocated with zeros, so a sync writes data pages
// only. Its rate is the most a one-sync-in-flight store can commit on
// this device with Go's wake-ups, as nginx is the ceiling of the HTTP
// servers: a store target above it cannot be met on this machine by
// cutting CPU.

// groupPrealloc is how many bytes of zeros groupWriter writes ahead of its
// records (and syncs) when it opens and each time its records reach the
// end: a 3 s cell of 64 writers appends about 10 MB.
const groupPrealloc = 64 << 20

// groupWriter is the ideal group committer (see The group ceiling): Put
// queues its record and waits; one goroutine takes everything queued,
// writes it in one call and fdatasyncs, back to back.
type groupWriter struct {
	f *os.File

	mu      sync.Mutex
	more    sync.Cond   // signalled when the queue gains its first record, and at Close
	queue   *groupBatch // the batch gathering: its members wait on done
	buf     []byte      // the gathering batch's records
	spare   []byte      // the other buffer, written by the syncer
	err     error       // sticky: the first write or sync that failed
	closing bool
	syncs   uint64

	off, end int64 // next record's offset; end of the preallocated zeros
	done     chan struct{}
}

// groupBatch is the commits of one sync: closing done wakes them all, and
// err is their result.
type groupBatch struct {
	done chan struct{}
	err  error
}

func openGroup(dir string) (Writer, error) {
	f, err := os.OpenFile(filepath.Join(dir, "group.log"), os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	g := &groupWriter{f: f, queue: &groupBatch{done: make(chan struct{})}, done: make(chan struct{})}
	g.more.L = &g.mu
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

func (g *groupWriter) Put(key, val []byte) error {
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
	b := g.queue
	if len(g.buf) == 4+len(key)+len(val) {
		g.more.Signal()
	}
	g.mu.Unlock()
	<-b.done
	return b.err
}

// syncLoop takes each gathered batch, writes it and syncs it, then wakes
// its members, until Close has been called and nothing is queued.
func (g *groupWriter) syncLoop() {
	defer close(g.done)
	for {
		g.mu.Lock()
		for len(g.buf) == 0 && !g.closing {
			g.more.Wait()
		}
		if len(g.buf) == 0 {
			g.mu.Unlock()
			return
		}
		b, recs := g.queue, g.buf
		g.queue, g.buf = &groupBatch{done: make(chan struct{})}, g.spare[:0]
		err := g.err
		g.mu.Unlock()

		if err == nil {
			err = g.write(recs)
		}
		g.spare = recs
		b.err = err
		close(b.done)
		if err != nil {
			g.mu.Lock()
			g.err = err
			g.mu.Unlock()
		}
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
	if err := fdatasync(g.f); err != nil {
		return err
	}
	g.mu.Lock()
	g.syncs++
	g.mu.Unlock()
	return nil
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
	g.more.Signal()
	g.mu.Unlock()
	<-g.done
	return g.f.Close()
}
