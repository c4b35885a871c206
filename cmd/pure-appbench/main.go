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
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"

	"workbench/perfcount"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pure-appbench:", err)
		os.Exit(1)
	}
}

// config is the flags.
type config struct {
	parts     []string
	rounds    int
	tx        int
	warmupTx  int
	bankTime  time.Duration
	httpTime  time.Duration
	terminals int
	bin, dir  string
}

// Record is one JSON line: a measured cell, or the run's meta line.
type Record struct {
	Series   string `json:"series"` // meta, tpcc, bank, http, check
	Round    int    `json:"round"`
	Position int    `json:"position"` // the side's place in its round
	Side     string `json:"side,omitempty"`

	// tpcc and http
	Tx              int64   `json:"tx,omitempty"`
	Seconds         float64 `json:"seconds,omitempty"`
	TxPerS          float64 `json:"tx_per_s,omitempty"`
	NewOrdersPerMin float64 `json:"new_orders_per_min,omitempty"`
	CPUUsPerTx      float64 `json:"cpu_us_per_tx,omitempty"`
	// bank
	Accounts int     `json:"accounts,omitempty"`
	View     string  `json:"view,omitempty"`
	Query    string  `json:"query,omitempty"`
	Ops      int     `json:"ops,omitempty"`
	NsPerOp  float64 `json:"ns_per_op,omitempty"`
	// http: pure-load's own result line
	Load json.RawMessage `json:"load,omitempty"`
	// check and meta
	What   string `json:"what,omitempty"`
	Result string `json:"result,omitempty"`
	Rev    string `json:"rev,omitempty"`
	Load1  string `json:"load1,omitempty"`
	Config string `json:"config,omitempty"`
	Go     string `json:"go,omitempty"`
	CPUs   int    `json:"cpus,omitempty"`
	// CPUModel is the machine's CPU as /proc/cpuinfo names it, recorded
	// with the runs so that a note regenerated elsewhere names the machine
	// that measured.
	CPUModel string `json:"cpu_model,omitempty"`
}

var allParts = []string{"tpcc", "bank", "http"}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("pure-appbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	parts := fs.String("parts", strings.Join(allParts, ","), "the parts to run, in this order: tpcc, bank, http")
	fs.IntVar(&c.rounds, "rounds", 5, "rounds; the sides' order rotates every round")
	fs.IntVar(&c.tx, "tx", 20000, "tpcc: transactions per side per round")
	fs.IntVar(&c.warmupTx, "warmup-tx", 0, "tpcc: transactions run on each side before round 0 and not measured (TPC-C's ramp-up); 0: none")
	fs.DurationVar(&c.bankTime, "bank-time", 300*time.Millisecond, "bank: how long each query repeats per side per round")
	fs.DurationVar(&c.httpTime, "http-time", 8*time.Second, "http: pure-load's duration per side per round")
	fs.IntVar(&c.terminals, "terminals", 64, "http: TPC-C terminals (pure-load -c)")
	fs.StringVar(&c.bin, "bin", "", "http: the directory holding pure-serve, pure-baseline and pure-load")
	fs.StringVar(&c.dir, "dir", os.TempDir(), "http: where the durable servers keep their data")
	rev := fs.String("rev", "", "the commit measured, for the meta line")
	out := fs.String("out", "", "write the JSON lines to FILE (default stdout)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to FILE (for go tool pprof)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	for _, p := range strings.Split(*parts, ",") {
		if !slices.Contains(allParts, p) {
			return fmt.Errorf("--parts: unknown part %q: use tpcc, bank and http, comma-separated", p)
		}
		c.parts = append(c.parts, p)
	}
	if c.warmupTx < 0 {
		return errors.New("--warmup-tx must not be negative")
	}
	if c.rounds < 1 || c.tx < 1 || c.terminals < 1 {
		return errors.New("--rounds, --tx and --terminals must be at least 1")
	}
	if slices.Contains(c.parts, "http") && c.bin == "" {
		return errors.New("the http part needs --bin DIR holding pure-serve, pure-baseline and pure-load (go build -o DIR ./cmd/pure-serve ./cmd/pure-baseline ./cmd/pure-load)")
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	enc := json.NewEncoder(w)
	emit := func(r Record) error {
		fmt.Fprintf(stderr, "%s round %d %s %s %s\n", r.Series, r.Round, r.Side, r.View, summary(r))
		return enc.Encode(r)
	}
	load1, _ := os.ReadFile("/proc/loadavg")
	if err := emit(Record{Series: "meta", Rev: *rev, Load1: strings.Fields(string(load1) + " ?")[0], Go: runtime.Version(), CPUs: runtime.NumCPU(), CPUModel: perfcount.ThisMachine().CPUModel,
		Config: fmt.Sprintf("parts=%s rounds=%d tx=%d warmup-tx=%d bank-time=%s http-time=%s terminals=%d", *parts, c.rounds, c.tx, c.warmupTx, c.bankTime, c.httpTime, c.terminals)}); err != nil {
		return err
	}
	for _, p := range c.parts {
		var err error
		switch p {
		case "tpcc":
			err = runTPCC(ctx, c, emit)
		case "bank":
			err = runBank(ctx, c, emit)
		case "http":
			err = runHTTP(ctx, c, emit)
		}
		if err != nil {
			return fmt.Errorf("part %s: %w", p, err)
		}
	}
	return nil
}

// summary is a cell's figure for the progress lines on stderr.
func summary(r Record) string {
	switch {
	case r.TxPerS > 0:
		return fmt.Sprintf("%.0f tx/s, %.1f us CPU/tx", r.TxPerS, r.CPUUsPerTx)
	case r.NsPerOp > 0:
		return fmt.Sprintf("%.0f ns/query", r.NsPerOp)
	}
	return r.What + " " + r.Result
}

// rotated returns sides in the order of round r: rotated by r.
func rotated[T any](sides []T, r int) []T {
	k := r % len(sides)
	return append(slices.Clone(sides[k:]), sides[:k]...)
}

// processCPU is this process's user+system CPU time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
