// Command pure-serve is Pure's HTTP/1.1 host: documents (/docs/<key>) and
// an app (/inputs/<name>, /views/<name>) over the tree store, in RAM
// (--ram) or durably in a directory (--data DIR). It prints
// "listening HOST:PORT" as its first line, then serves until SIGTERM or
// SIGINT, when it stops accepting, sends the answers in flight and closes
// the app and the store. See package workbench/pure/serve.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"syscall"
	"time"

	"workbench/pure/app"
	"workbench/pure/apps/tpcc"
	"workbench/pure/serve"
	"workbench/pure/store"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintln(os.Stderr, "pure-serve:", err)
			os.Exit(1)
		}
		os.Exit(2)
	}
}

// errUsage marks an error already explained, with the usage, on stderr.
var errUsage = errors.New("usage")

// StoreFile is the store's file name inside --data.
const storeFile = "pure.db"

// DefaultSendfileMin is --sendfile-min's default: document bodies of 64 KiB
// and more leave by sendfile(2) from the store's file (--data), so the
// server does not copy them into the socket; in experiment 050 a 1 MiB GET
// sent so cost the server 0.52-0.74 of the CPU of the write from the
// mapping, in every round, while 046 had measured it at 0.68x the write's
// 2xx per CPU-second (see pure/serve's Performance notes).
const DefaultSendfileMin = 64 << 10

const usage = `usage: pure-serve --ram | --data DIR [flags]

Serves documents (GET/PUT /docs/<key>, ETag = revision, If-Match) and an app
(POST /inputs/<name>?field=value, GET /views/<name>) over HTTP/1.1 with
keep-alive and pipelining. Prints "listening HOST:PORT" first, then serves
until SIGTERM or SIGINT. With --data it runs with at least two Ps
(GOMAXPROCS 2 even on one CPU), so connections go on while a goroutine
waits in fdatasync, and with GOGC 50, so the heap's headroom under writes
is half Go's default; set the GOMAXPROCS and GOGC environment variables to
choose.

Flags:
`

// config is the parsed command line.
type config struct {
	ram           bool
	data          string
	addr          string
	pprof         string
	app           string
	accounts      int
	tpccScale     string
	payloadBudget int64
	sendfileMin   int
	workers       int
	maxConns      int
	idle, header  time.Duration
}

// parseFlags parses args, printing the usage for -h (errHelp) or an error.
func parseFlags(args []string, stdout, stderr io.Writer) (*config, error) {
	var c config
	fs := flag.NewFlagSet("pure-serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&c.ram, "ram", false, "keep the store in memory (nothing durable); this or --data is required")
	fs.StringVar(&c.data, "data", "", "keep the store durably in `DIR`/"+storeFile+" (created if missing); answers to writes leave after fdatasync")
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "the `HOST:PORT` to listen on; port 0 picks a free port")
	fs.StringVar(&c.pprof, "pprof", "", "serve the profiling endpoints of net/http/pprof (/debug/pprof/) and fgprof (/debug/fgprof) on `ADDR`, a separate listener")
	fs.StringVar(&c.app, "app", "scores", "the app to serve: scores, bank, tpcc, or none for documents only; bank and tpcc are seeded at their first start (in RAM: every start)")
	fs.IntVar(&c.accounts, "accounts", 10_000, "--app bank: seed this many `N` accounts (one branch per 100)")
	fs.StringVar(&c.tpccScale, "tpcc-scale", "full", "--app tpcc: seed W=1 at the specification's sizes (full) or 1/100 of them (small)")
	fs.Int64Var(&c.payloadBudget, "payload-budget", serve.DefaultPayloadBudget, "the most body `BYTES` held in memory: a larger request body gets 413 (connection closed); a body that does not fit beside the bodies other connections are receiving gets 503; a batch of answers reaching it is cut and resumed")
	fs.IntVar(&c.sendfileMin, "sendfile-min", DefaultSendfileMin, "send document bodies of at least `BYTES` from the store's file with sendfile(2) (--data only), so the server does not copy them; 0: never, write them from the mapping")
	fs.IntVar(&c.workers, "workers", runtime.GOMAXPROCS(0), "connection workers: how many connections may parse and build answers at once; the default is GOMAXPROCS as Go sets it, before --data adds a second P (one per P made no difference, experiments 184-186)")
	fs.IntVar(&c.maxConns, "max-conns", serve.DefaultMaxConns, "the most connections served at once; more wait in the listen backlog")
	fs.DurationVar(&c.idle, "idle-timeout", serve.DefaultIdleTimeout, "close a keep-alive connection idle this long (also the longest a body or an answer may stall)")
	fs.DurationVar(&c.header, "header-timeout", serve.DefaultHeaderTimeout, "the most time from a request's first byte to the end of its headers (408 after)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fs.Usage()
			return nil, flag.ErrHelp
		}
		return nil, errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return nil, errUsage
	}
	switch {
	case c.ram == (c.data != ""):
		return nil, errors.New("pass exactly one of --ram (a store in memory) and --data DIR (a durable store in DIR)")
	case c.app != "none" && apps[c.app].new == nil:
		return nil, fmt.Errorf("unknown --app %q: use scores, bank, tpcc, or none for documents only", c.app)
	case c.accounts < 1 || c.accounts > 10_000_000:
		return nil, fmt.Errorf("--accounts %d: use 1 to 10,000,000", c.accounts)
	case tpccScales[c.tpccScale] == (tpcc.Scale{}):
		return nil, fmt.Errorf("--tpcc-scale %q: use full or small", c.tpccScale)
	case c.sendfileMin < 0:
		return nil, fmt.Errorf("--sendfile-min %d: use 0 (never) or a size in bytes", c.sendfileMin)
	case c.payloadBudget <= 0 || c.workers <= 0 || c.maxConns <= 0 || c.idle <= 0 || c.header <= 0:
		return nil, errors.New("--payload-budget, --workers, --max-conns, --idle-timeout and --header-timeout must be positive")
	}
	return &c, nil
}

// durableProcs is the GOMAXPROCS pure-serve runs with: at least 2 with a
// durable store (--data), unless the GOMAXPROCS environment variable says
// otherwise. A goroutine blocked in fdatasync holds its P until the
// runtime's monitor takes it back, so with the single P that Go gives a
// process pinned to one CPU the connections stand still while the app's
// owner or the store's leader syncs, and the next group gathers almost
// nobody: durable score POSTs from 64 connections, pinned to one CPU, with
// an fdatasync of about 85 µs, saved 1.3 inputs per sync at 12,900 POSTs/s
// with one P, and 17 per sync at 49,600/s with two (by hand, one run each;
// experiment 055 measures it). The second P needs no second CPU: the
// thread in fdatasync sleeps in the kernel. The durable net/http baseline,
// which syncs per request, went from 3,600 to 4,500 POSTs/s with two Ps.
// The price is about 0.6 MB of peak RSS under small GETs (experiment 057:
// 0.52x net/http's, against 0.47x with one P); pipelined GETs gained
// nothing from the second P (perf stat, by hand), which is why it is taken
// only with --data. The connection workers stay at --workers' default,
// GOMAXPROCS as it was before the second P (one slot on one CPU): one
// per P made no difference beyond the rounds' spread in experiments
// 184-186.
func durableProcs(durable bool, env string, cur int) int {
	if !durable || env != "" || cur >= 3 {
		return cur
	}
	return 3
}

// durableGCPercent is the GOGC pure-serve runs with: 50 with a durable
// store (--data), unless the GOGC environment variable says otherwise;
// ok is false when the runtime's own setting stays. A write's body and its
// group's record are live until the group is synced, so under durable
// writes the collector's goal, twice the live heap with Go's default of
// 100, was the largest part of the peak RSS above the idle server's:
// 18,000 PUTs from 64 writers peaked 1.2 MB lower with GOGC 50 (probe
// 958), at the same PUTs per server CPU-second (experiment 111). GETs
// allocate almost nothing (two collections in 5 s of get-64c), and their
// CPU per answer on a durable store was the same (probe 959). RAM mode
// keeps Go's default.
func durableGCPercent(durable bool, env string) (percent int, ok bool) {
	if !durable || env != "" {
		return 0, false
	}
	return 50, true
}

// run is the whole command, with its arguments after the program name.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseFlags(args, stdout, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if n := durableProcs(c.data != "", os.Getenv("GOMAXPROCS"), runtime.GOMAXPROCS(0)); n != runtime.GOMAXPROCS(0) {
		runtime.GOMAXPROCS(n)
	}
	if p, ok := durableGCPercent(c.data != "", os.Getenv("GOGC")); ok {
		debug.SetGCPercent(p)
	}
	st, err := openStore(c)
	if err != nil {
		return err
	}
	var rt *app.Runtime
	cfg := serve.Config{Store: st, Workers: c.workers, MaxConns: c.maxConns, PayloadBudget: c.payloadBudget,
		SendfileMin: c.sendfileMin, IdleTimeout: c.idle, HeaderTimeout: c.header}
	if c.app != "none" {
		if err := seedIfNew(st, c.app, c, stderr); err != nil {
			st.Close()
			return err
		}
		if rt, err = app.Start(st, apps[c.app].new(), app.Options{}); err != nil {
			st.Close()
			return fmt.Errorf("starting app %s: %w", c.app, err)
		}
		cfg.Apps = rt
	}
	err = serveUntilDone(ctx, c, cfg, rt, stdout, stderr)
	if rt != nil {
		if cerr := rt.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("closing app %s: %w", c.app, cerr)
		}
	}
	// One line of the store's counters on stderr, so a run can be checked
	// from outside: commits sharing syncs show as fewer publications than
	// writes answered.
	ss := st.Stats()
	fmt.Fprintf(stderr, "pure-serve: store: %d publications (one per synced group of commits), seq %d, %d keys, %d bytes\n",
		ss.Publications, ss.Seq, ss.Keys, ss.Size)
	if cerr := st.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("closing the store: %w", cerr)
	}
	return err
}

// openStore opens the store --ram or --data names.
func openStore(c *config) (*store.Store, error) {
	if c.ram {
		return store.OpenRAM(nil)
	}
	if err := os.MkdirAll(c.data, 0o755); err != nil {
		return nil, fmt.Errorf("creating --data directory: %w", err)
	}
	st, err := store.Open(filepath.Join(c.data, storeFile), nil)
	if err != nil {
		return nil, fmt.Errorf("opening the store in %s: %w", c.data, err)
	}
	return st, nil
}

// serveUntilDone listens, prints the listening line, serves until ctx
// ends, then shuts down, letting answers in flight go out.
func serveUntilDone(ctx context.Context, c *config, cfg serve.Config, rt *app.Runtime, stdout, stderr io.Writer) error {
	srv, err := serve.New(cfg)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		srv.Shutdown(context.Background())
		return fmt.Errorf("listen on %s: %w (is the port taken? port 0 picks a free one)", c.addr, err)
	}
	if c.pprof != "" {
		stopProf, err := servePprof(c.pprof, stderr, rt)
		if err != nil {
			ln.Close()
			srv.Shutdown(context.Background())
			return err
		}
		defer stopProf()
	}
	if _, err := fmt.Fprintf(stdout, "listening %s\n", ln.Addr()); err != nil {
		ln.Close()
		srv.Shutdown(context.Background())
		return err
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err = <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = srv.Shutdown(sctx)
	if serr := <-done; err == nil {
		err = serr
	}
	return err
}
