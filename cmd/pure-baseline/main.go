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
	"slices"
	"syscall"

	"workbench/pure/baseline/kv"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintln(os.Stderr, "pure-baseline:", err)
			os.Exit(1)
		}
		os.Exit(2)
	}
}

// errUsage marks an error already explained, with the usage, on stderr.
var errUsage = errors.New("usage")

// impls maps --impl to its server. impl_nethttp.go and impl_fasthttp.go
// fill it, each unless its build tag (nonethttp, nofasthttp) leaves it out:
// cmd/pure-http builds one binary per implementation, as a developer's own
// server would be, so that neither carries the other's code into the
// pages its peak RSS counts.
var impls = map[string]func(context.Context, net.Listener, *kv.Store) error{}

// knownImpls are the implementations a build without those tags serves.
var knownImpls = []string{"nethttp", "fasthttp"}

const usage = `usage: pure-baseline --impl nethttp|fasthttp --mode memory|fdatasync|crashsafe [--data DIR] [--addr HOST:PORT]
       pure-baseline --app tpcc|bank --mode memory|wal-full [--data DIR] [--tpcc-scale full|small] [--accounts N] [--stats ADDR] [--addr HOST:PORT]

Serves the HTTP contract's documents (/docs/<key>) and scoreboard
(/inputs/score, /views/total, /views/leaders) the way a Go developer writes
them by hand, for measuring pure-serve against. With --app tpcc or bank it
serves that app's routes instead (those of pure-serve --app tpcc or bank)
from net/http and SQLite, in memory or in WAL mode with synchronous=FULL in
DIR/tpcc.db or DIR/bank.db.
Prints "listening HOST:PORT" first, then serves until SIGTERM or SIGINT.

Flags:
`

// run is the whole command, with its arguments after the program name.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("pure-baseline", flag.ContinueOnError)
	fs.SetOutput(stderr)
	impl := fs.String("impl", "nethttp", "the implementation: nethttp or fasthttp")
	mode := fs.String("mode", "", "where data lives: memory (a map), fdatasync (a log synced per write) or crashsafe (a file per key, replaced by rename); default memory, or fdatasync with --data")
	ram := fs.Bool("ram", false, "the same as --mode memory")
	data := fs.String("data", "", "the data directory of the durable modes")
	addr := fs.String("addr", "127.0.0.1:8080", "the address to listen on; port 0 picks a free port")
	appName := fs.String("app", "", "serve an app's routes on SQLite instead of the contract: tpcc or bank")
	accounts := fs.Int("accounts", 10000, "--app bank: seed this many accounts (bank.Data, as pure-serve --accounts)")
	stats := fs.String("stats", "", "--app: serve GET /debug/app (the process's CPU time as {\"cpu_ns\":N}, as pure-serve --pprof does) on `ADDR`, a separate listener, for pure-load --stats")
	tpccScale := fs.String("tpcc-scale", "full", "--app tpcc: load W=1 at the specification's sizes (full) or 1/100 of them (small)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fs.Usage()
			return nil
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return errUsage
	}
	if *appName != "" {
		return runApp(ctx, appConfig{app: *appName, impl: *impl, mode: *mode, ram: *ram, data: *data, addr: *addr, stats: *stats, tpccScale: *tpccScale, accounts: *accounts}, stdout, stderr)
	}
	serve, ok := impls[*impl]
	if !ok {
		if slices.Contains(knownImpls, *impl) {
			return fmt.Errorf("--impl %s: this pure-baseline was built with -tags no%s, without it; build it without that tag to serve it", *impl, *impl)
		}
		return fmt.Errorf("unknown --impl %q: use nethttp or fasthttp", *impl)
	}
	m, err := chooseMode(*mode, *ram, *data)
	if err != nil {
		return err
	}
	store, err := kv.Open(m, *data)
	if err != nil {
		return err
	}
	defer store.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (is the port taken? port 0 picks a free one)", *addr, err)
	}
	if _, err := fmt.Fprintf(stdout, "listening %s\n", ln.Addr()); err != nil {
		ln.Close()
		return err
	}
	if err := serve(ctx, ln, store); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return store.Close()
}

// appConfig is the flags of an --app run.
type appConfig struct {
	app, impl, mode string
	ram             bool
	data, addr      string
	stats           string
	tpccScale       string
	accounts        int
}

// chooseMode resolves --mode, --ram and --data into one mode.
func chooseMode(mode string, ram bool, data string) (kv.Mode, error) {
	switch {
	case ram && mode != "" && mode != string(kv.Memory):
		return "", fmt.Errorf("--ram with --mode %s: --ram means --mode memory; pass one", mode)
	case ram && data != "":
		return "", fmt.Errorf("--ram with --data: --ram keeps nothing on disk; pass one")
	case ram:
		return kv.Memory, nil
	case mode == "" && data != "":
		return kv.Fdatasync, nil
	case mode == "":
		return kv.Memory, nil
	}
	m, err := kv.ParseMode(mode)
	if err != nil {
		return "", err
	}
	if m.Durable() && data == "" {
		return "", fmt.Errorf("--mode %s keeps its data on disk: pass --data DIR", m)
	}
	if !m.Durable() && data != "" {
		return "", fmt.Errorf("--mode memory keeps nothing on disk: drop --data %s, or pick fdatasync or crashsafe", data)
	}
	return m, nil
}
