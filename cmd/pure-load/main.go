// Command pure-load is a wrk-like HTTP/1.1 load generator for Pure's
// servers and their baselines: N connections, keep-alive or a new
// connection per request, pipelining, a duration or a request count, the
// workloads of the HTTP contract, and one JSON line per run.
//
//	pure-load -c 64 -d 10s --workload get http://127.0.0.1:8080
//	pure-load --workload seed http://127.0.0.1:8080
//	pure-load -c 64 -n 100000 --pipeline 16 --json http://127.0.0.1:8080
//	pure-load -c 64 -d 10s --workload tpcc --stats http://127.0.0.1:6060/debug/app http://127.0.0.1:8080
//
// The library is workbench/pure/load; its doc lists the workloads and the
// JSON fields. The tpcc workload is TPC-C's terminals (package
// workbench/pure/apps/tpcc/tpccload), with a JSON line of its own.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"workbench/pure/load"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var u usageError
		if !errors.As(err, &u) || !u.reported {
			fmt.Fprintln(os.Stderr, "pure-load: "+err.Error())
		}
		if errors.As(err, &u) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

const usage = `usage: pure-load [flags] URL

Drive the HTTP/1.1 server at URL (its base, like http://127.0.0.1:8080)
with one of the workloads and report requests, errors and latencies.

flags:
  -c N            connections, one goroutine each (default 64)
  -d DURATION     run this long, like 10s (default 10s unless -n is given)
  -n COUNT        send this many requests in all instead of running for -d
  --pipeline D    write D requests together, then read their D answers (default 1)
  --close         a new connection per request, with "Connection: close"
  --workload W    seed, get, big, put, score, total, leaders or tpcc (default get)
  --prefix PATH   path before document keys (default /docs/)
  --timeout T     limit for a connect and for each batch's answers (default 5s; 0: none)
  --rate R        at most R requests a second in all, each connection paced on its own
                  schedule; one behind it sends at once without catching up, so answers
                  slower than c/R seconds keep the rate below R (default 0: as fast as
                  answers come)
  --json          print exactly one JSON line (fields: see go doc workbench/pure/load.Result,
                  for tpcc workbench/pure/apps/tpcc/tpccload.Result)
  --tpcc-scale S  tpcc: the server's data, full or small (pure-serve --tpcc-scale; default full)
  --stats URL     tpcc: the server's stats, for CPU per transaction and the owner's share
                  of a core (pure-serve --pprof ADDR serves http://ADDR/debug/app)
  --seed N        tpcc: terminal i draws its transactions from seed N+i (default 1000)
  --cpuprofile F  write a CPU profile of the run to F (for go tool pprof)
  -h, --help      print this help

workloads:
  seed     PUT d00..d63 (64 B each) and big (1 MiB) once, then exit
  get      GET the 64 small documents round-robin
  big      GET /docs/big
  put      writer i PUTs w<i>, 16 B prepended each time, If-Match from the last ETag
  score    POST /inputs/score?points=1 with a name from a fixed set
  total    GET /views/total
  leaders  GET /views/leaders?from=0&count=20
  tpcc     -c terminals run TPC-C's mix (pure-serve --app tpcc), each with no keying
           or think time; -d only; after the run the server's consistency view is read
           and a failed condition makes pure-load exit 1
`

// usageError is a mistake in the command line; reported says the message
// and the usage were already printed.
type usageError struct {
	msg      string
	reported bool
}

func (e usageError) Error() string { return e.msg }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, opt, err := parseArgs(args)
	if errors.Is(err, flag.ErrHelp) {
		_, err := io.WriteString(stdout, usage)
		return err
	}
	if err != nil {
		fmt.Fprintf(stderr, "pure-load: %v\n\n%s", err, usage)
		return usageError{msg: err.Error(), reported: true}
	}
	if opt.cpuProfile != "" {
		f, err := os.Create(opt.cpuProfile)
		if err != nil {
			return fmt.Errorf("creating the CPU profile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("starting the CPU profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	if cfg.Workload == "tpcc" {
		return runTPCC(ctx, cfg, opt, stdout)
	}
	res, err := load.Run(ctx, cfg)
	if err != nil && res.Tool == "" {
		return err // the configuration was refused before anything was sent
	}
	if opt.json {
		line, jerr := json.Marshal(res)
		if jerr != nil {
			return fmt.Errorf("encoding the result: %w", jerr)
		}
		if _, werr := fmt.Fprintf(stdout, "%s\n", line); werr != nil {
			return werr
		}
	} else if werr := res.WriteSummary(stdout); werr != nil {
		return werr
	}
	if err != nil {
		return fmt.Errorf("run interrupted after %.1fs (the result above counts what finished): %w", res.DurationS, err)
	}
	return nil
}

// options are the command's own flags, beside the load's Config.
type options struct {
	json       bool
	cpuProfile string
	tpccScale  string
	stats      string
	seed       uint64
}

// parseArgs reads the flags and the one URL, which may stand before,
// between or after the flags.
func parseArgs(args []string) (load.Config, options, error) {
	cfg := load.DefaultConfig()
	fs := flag.NewFlagSet("pure-load", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var workload string
	var opt options
	var count int64
	fs.IntVar(&cfg.Connections, "c", cfg.Connections, "connections")
	fs.DurationVar(&cfg.Duration, "d", 0, "duration")
	fs.Int64Var(&count, "n", 0, "request count")
	fs.IntVar(&cfg.Pipeline, "pipeline", cfg.Pipeline, "pipeline depth")
	fs.BoolVar(&cfg.Close, "close", false, "a new connection per request")
	fs.StringVar(&workload, "workload", string(cfg.Workload), "workload")
	fs.StringVar(&cfg.Prefix, "prefix", cfg.Prefix, "document path prefix")
	fs.DurationVar(&cfg.Timeout, "timeout", cfg.Timeout, "timeout")
	fs.Float64Var(&cfg.Rate, "rate", 0, "requests a second in all")
	fs.BoolVar(&opt.json, "json", false, "one JSON line")
	fs.StringVar(&opt.cpuProfile, "cpuprofile", "", "CPU profile file")
	fs.StringVar(&opt.tpccScale, "tpcc-scale", "full", "tpcc data scale")
	fs.StringVar(&opt.stats, "stats", "", "tpcc server stats URL")
	fs.Uint64Var(&opt.seed, "seed", 1000, "tpcc seed")

	var urls []string
	for {
		if err := fs.Parse(args); err != nil {
			return cfg, opt, err
		}
		if fs.NArg() == 0 {
			break
		}
		urls = append(urls, fs.Arg(0))
		args = fs.Args()[1:]
	}
	cfg.Workload = load.Workload(workload)
	cfg.Count = count
	switch {
	case len(urls) == 0:
		return cfg, opt, errors.New("no target: give the server's base URL, like http://127.0.0.1:8080")
	case len(urls) > 1:
		return cfg, opt, fmt.Errorf("%d targets (%s): give exactly one base URL", len(urls), strings.Join(urls, " "))
	case cfg.Workload == "tpcc" && count > 0:
		return cfg, opt, errors.New("-n with --workload tpcc: the terminals run for a duration; give -d")
	case count > 0 && cfg.Duration > 0:
		return cfg, opt, errors.New("both -d and -n: give a duration or a request count, not both")
	case count == 0 && cfg.Duration == 0:
		cfg.Duration = 10 * time.Second
	}
	cfg.Target = urls[0]
	return cfg, opt, nil
}
