package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"workbench/pure/app"
	"workbench/pure/store"
)

// Defaults of Config.
const (
	// DefaultMaxConns is the default Config.MaxConns.
	DefaultMaxConns = 4096
	// DefaultPayloadBudget is the default Config.PayloadBudget, 64 MiB:
	// the seeds found 4 MiB too small for eight 1 MiB reads.
	DefaultPayloadBudget = 64 << 20
	// DefaultIdleTimeout is the default Config.IdleTimeout.
	DefaultIdleTimeout = 60 * time.Second
	// DefaultHeaderTimeout is the default Config.HeaderTimeout.
	DefaultHeaderTimeout = 10 * time.Second
	// DefaultMaxHeaderBytes is the default Config.MaxHeaderBytes.
	DefaultMaxHeaderBytes = 8 << 10
	// DefaultDocPrefix is the default Config.DocPrefix.
	DefaultDocPrefix = "d/"
)

// Apps is what the host needs of an app runtime: *app.Runtime. The host
// fills a Call, Submits it, later calls its Wait, sends its answer, then
// Resets it (the contract in workbench/pure/app's call.go). Submit must not
// wait for the call's work: a batch submits all its calls before waiting
// for the first, so many inputs share one save.
type Apps interface {
	Submit(c *app.Call)
}

// Config configures a Server. Only Store is required; zero values mean
// the defaults.
type Config struct {
	// Store holds the documents (under DocPrefix) and, shared, the apps'
	// state. The server never closes it.
	Store *store.Store
	// Apps runs the app calls of /inputs/ and /views/; nil serves
	// documents only.
	Apps Apps
	// Workers is how many connections may parse and build answers at once
	// (connection workers); 0 means GOMAXPROCS. A connection gives its
	// worker slot up while it waits for a commit, an app or the network.
	Workers int
	// MaxConns is the most connections served at once; 0 means
	// DefaultMaxConns. Further connections wait in the listen backlog.
	MaxConns int
	// PayloadBudget bounds the body bytes held in memory; 0 means
	// DefaultPayloadBudget. A request whose body alone exceeds it gets 413
	// and the connection is closed without reading the body. The read
	// buffers all connections grow for request bodies share it: a body
	// that does not fit beside the others gets 503 (retry later), and the
	// connection is closed. And it bounds one batch: a batch whose request
	// and answer bodies reach it is cut, and the requests after the cut
	// are answered in the next batch (answers lent from the store cost no
	// memory, so they are paced rather than refused).
	PayloadBudget int64
	// SendfileMin, when positive, sends document bodies of at least this
	// many bytes from the store's file with sendfile(2) (durable mode, raw
	// sockets; RAM mode has no file) instead of writing them from the
	// mapping; 0 never does. Whether it pays depends on what the copy
	// costs: pure-serve turns it on for 64 KiB and more (its
	// --sendfile-min); see Performance in the package doc.
	SendfileMin int
	// IdleTimeout closes a keep-alive connection with nothing to do, and
	// bounds how long a body or an answer may stall; 0 means
	// DefaultIdleTimeout. It is enforced to about a second.
	IdleTimeout time.Duration
	// HeaderTimeout is the most time from a request's first byte to the end
	// of its headers (slow-request defence); 0 means DefaultHeaderTimeout.
	HeaderTimeout time.Duration
	// MaxHeaderBytes bounds a request line with its headers; 0 means
	// DefaultMaxHeaderBytes. A longer head gets 431.
	MaxHeaderBytes int
	// DocPrefix is prepended to document keys in the store; "" means
	// DefaultDocPrefix.
	DocPrefix string
}

// Server is the HTTP/1.1 host. Create it with New, run it with Serve, stop
// it with Shutdown.
//
// Concurrency: Serve runs once; Shutdown may be called from any goroutine.
type Server struct {
	st       *store.Store
	apps     Apps
	prefix   string
	budget   int64
	idle     int64 // nanoseconds
	header   int64 // nanoseconds
	maxHead  int
	maxConns int
	sendfile int // Config.SendfileMin: 0 never

	clock *dateClock
	trim  *trimmer      // returns outsized requests' memory (trim.go)
	work  chan struct{} // worker slots: a connection holds one while it computes
	slots chan struct{} // connection slots: one per served connection

	held      atomic.Int64 // bytes of grown read buffers, bounded by budget
	closing   atomic.Bool
	quit      chan struct{} // closed by Shutdown
	mu        sync.Mutex    // guards ln, conns, free
	ln        net.Listener
	conns     map[*conn]struct{}
	free      []*conn // pooled connection state
	wg        sync.WaitGroup
	served    atomic.Bool
	stopped   sync.Once
	clockOnce sync.Once
}

// poolMax is the most closed connections' state kept for reuse, about
// 10 KiB each (read and answer buffers, slices): enough for the
// connections that come and go at once under load, while a burst of
// thousands of connections does not hold its memory (40 MiB after 4,096)
// for the life of the server.
const poolMax = 256

// errTooManyFiles is Accept's error when the process is out of descriptors.
var errTooManyFiles = syscall.EMFILE

// New checks cfg and returns a Server ready to Serve. Its Date clock runs
// from now until Shutdown, so call Shutdown even if Serve never runs.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("serve: Config.Store is nil; open a store with store.Open or store.OpenRAM")
	}
	if cfg.Workers < 0 || cfg.MaxConns < 0 || cfg.PayloadBudget < 0 || cfg.SendfileMin < 0 || cfg.IdleTimeout < 0 ||
		cfg.HeaderTimeout < 0 || cfg.MaxHeaderBytes < 0 {
		return nil, fmt.Errorf("serve: negative limit in %+v; use 0 for the default", cfg)
	}
	s := &Server{
		st:       cfg.Store,
		apps:     cfg.Apps,
		prefix:   or(cfg.DocPrefix, DefaultDocPrefix),
		budget:   or(cfg.PayloadBudget, DefaultPayloadBudget),
		sendfile: cfg.SendfileMin,
		idle:     int64(or(cfg.IdleTimeout, DefaultIdleTimeout)),
		header:   int64(or(cfg.HeaderTimeout, DefaultHeaderTimeout)),
		maxHead:  or(cfg.MaxHeaderBytes, DefaultMaxHeaderBytes),
		maxConns: or(cfg.MaxConns, DefaultMaxConns),
		clock:    newDateClock(),
		trim:     newTrimmer(),
		quit:     make(chan struct{}),
		conns:    make(map[*conn]struct{}),
	}
	s.work = make(chan struct{}, or(cfg.Workers, runtime.GOMAXPROCS(0)))
	s.slots = make(chan struct{}, s.maxConns)
	go s.clock.run()
	go s.trim.run()
	return s, nil
}

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// Serve accepts connections on ln and serves each on its own goroutine
// until Shutdown; it then returns nil. It returns an error if Accept fails
// for another reason than the shutdown, after shutting down.
func (s *Server) Serve(ln net.Listener) error {
	if !s.served.CompareAndSwap(false, true) {
		return errors.New("serve: Serve called twice; a Server serves one listener once")
	}
	s.mu.Lock()
	s.ln = ln
	closing := s.closing.Load()
	s.mu.Unlock()
	if closing {
		ln.Close()
		return nil
	}
	delay := 5 * time.Millisecond
	for {
		select {
		case s.slots <- struct{}{}:
		case <-s.quit:
			return nil
		}
		nc, err := ln.Accept()
		if err != nil {
			<-s.slots
			if s.closing.Load() {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, errTooManyFiles) {
				time.Sleep(delay) // out of descriptors: let connections finish
				delay = min(2*delay, time.Second)
				continue
			}
			s.Shutdown(context.Background())
			return fmt.Errorf("serve: accepting connections on %s: %w", ln.Addr(), err)
		}
		delay = 5 * time.Millisecond
		c := s.getConn(nc)
		if c == nil { // shutting down
			nc.Close()
			<-s.slots
			return nil
		}
		go c.serve()
	}
}

// getConn takes pooled connection state for nc and tracks it, or returns
// nil once the server is shutting down.
func (s *Server) getConn(nc net.Conn) *conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing.Load() {
		return nil
	}
	var c *conn
	if n := len(s.free); n > 0 {
		c, s.free = s.free[n-1], s.free[:n-1]
	} else {
		c = newConn(s)
	}
	c.nc = nc
	c.rawOK = c.raw.attach(nc)
	s.conns[c] = struct{}{}
	s.wg.Add(1)
	return c
}

// putConn closes c's connection, forgets it and pools its state.
func (s *Server) putConn(c *conn) {
	s.mu.Lock()
	delete(s.conns, c) // first: Shutdown reaches tracked connections' nc
	c.nc.Close()
	c.recycle()
	if len(s.free) < min(s.maxConns, poolMax) {
		s.free = append(s.free, c)
	}
	s.mu.Unlock()
	<-s.slots
	s.wg.Done()
}

// Shutdown stops accepting, wakes idle connections so they close, lets
// every batch in progress finish and send its answers, and returns when
// all connections are closed or ctx ends (then it closes the rest). It does
// not close the store or the apps: close them after Shutdown returns.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stopped.Do(func() {
		s.mu.Lock()
		s.closing.Store(true)
		close(s.quit)
		if s.ln != nil {
			s.ln.Close()
		}
		for c := range s.conns {
			c.nc.SetReadDeadline(time.Now()) // wakes a reader; the loop sees closing
		}
		s.mu.Unlock()
	})
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		s.mu.Lock()
		for c := range s.conns {
			c.nc.Close()
		}
		s.mu.Unlock()
		<-done
		err = fmt.Errorf("serve: shutdown cut connections short: %w", ctx.Err())
	}
	s.clockOnce.Do(func() {
		close(s.clock.stop)
		close(s.trim.stop)
		<-s.clock.done
		<-s.trim.done
	})
	return err
}

// Conns returns the number of connections being served.
func (s *Server) Conns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// acquireWorker and releaseWorker take and give back a worker slot.
func (s *Server) acquireWorker() { s.work <- struct{}{} }
func (s *Server) releaseWorker() { <-s.work }
