package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"workbench/experiments/lab/kvbench"
	"workbench/perfcount"
)

// experimentName is the default -experiment: the directory run.sh lives in.
const experimentName = "002-store-against-bbolt-and-pebble"

const usage = `usage:
  pure-kvbench [flags]
      measure the contenders; one JSON line per measurement to -out
  pure-kvbench note DIR
      write DIR/note.md from DIR/runs.jsonl

flags:
`

// config is the parsed command line of a measuring run.
type config struct {
	dir        string
	out        string
	experiment string
	rounds     int
	duration   time.Duration
	writers    []int
	keys       int
	contenders []kvbench.Contender
	only       kvbench.Only
	probe      int
	seed       uint64
	cpuprofile string
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "note" {
		if len(args) != 2 {
			return errors.New("usage: pure-kvbench note DIR (reads DIR/runs.jsonl, writes DIR/note.md)")
		}
		return kvbench.WriteNote(args[1])
	}
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if cfg.cpuprofile != "" {
		f, err := os.Create(cfg.cpuprofile)
		if err != nil {
			return fmt.Errorf("-cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return fmt.Errorf("-cpuprofile: %w", err)
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	return bench(ctx, cfg, stdout, stderr)
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	var writers, contenders, only string
	var seed uint64
	fs := flag.NewFlagSet("pure-kvbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "\ncontenders:")
		for _, c := range kvbench.All() {
			fmt.Fprintf(stderr, "  %-13s %s\n", c.Name, c.About)
		}
	}
	fs.StringVar(&cfg.dir, "dir", "", "directory for the stores, on the disk under study (default: beside -out, or the temporary directory when -out is -)")
	fs.StringVar(&cfg.out, "out", "runs.jsonl", "file for the JSON lines (truncated), or - for stdout")
	fs.StringVar(&cfg.experiment, "experiment", experimentName, "experiment name recorded in every line")
	fs.IntVar(&cfg.rounds, "rounds", 3, "rounds; each rotates the contenders' order by one")
	fs.DurationVar(&cfg.duration, "duration", 3*time.Second, "length of each measurement")
	fs.StringVar(&writers, "writers", "1,8,64", "comma-separated counts of concurrent writers")
	fs.IntVar(&cfg.keys, "keys", 1000000, "keys loaded before the read measurements")
	fs.StringVar(&contenders, "contenders", contenderNames(kvbench.All()), "comma-separated contenders, in round 0's order")
	fs.StringVar(&only, "only", "", "run only the writes or only the reads (default both)")
	fs.IntVar(&cfg.probe, "probe", 200, "append+fdatasync calls of the device probe at the start of each round")
	fs.Uint64Var(&seed, "seed", 1, "seed of the keys read (the same for every contender of a round)")
	fs.StringVar(&cfg.cpuprofile, "cpuprofile", "", "write a CPU profile of the whole run to this file (for go tool pprof)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q (flags only, or the note subcommand)", fs.Arg(0))
	}
	cfg.seed = seed
	var err error
	if cfg.writers, err = parseInts(writers); err != nil {
		return cfg, fmt.Errorf("-writers: %w", err)
	}
	if cfg.contenders, err = kvbench.Parse(contenders); err != nil {
		return cfg, fmt.Errorf("-contenders: %w", err)
	}
	switch kvbench.Only(only) {
	case kvbench.OnlyAll, kvbench.OnlyWrites, kvbench.OnlyReads:
		cfg.only = kvbench.Only(only)
	default:
		return cfg, fmt.Errorf("-only %q: want writes or reads (or nothing for both)", only)
	}
	switch {
	case cfg.rounds < 1:
		return cfg, fmt.Errorf("-rounds %d: need at least 1", cfg.rounds)
	case cfg.duration <= 0:
		return cfg, fmt.Errorf("-duration %v: need a positive duration", cfg.duration)
	case cfg.keys < kvbench.ScanLen && cfg.only != kvbench.OnlyWrites:
		return cfg, fmt.Errorf("-keys %d: need at least %d for range scans", cfg.keys, kvbench.ScanLen)
	case cfg.probe < 1:
		return cfg, fmt.Errorf("-probe %d: need at least 1", cfg.probe)
	}
	return cfg, nil
}

func parseInts(list string) ([]int, error) {
	var out []int
	for _, s := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive count", s)
		}
		out = append(out, n)
	}
	return out, nil
}

func contenderNames(cs []kvbench.Contender) string {
	var ns []string
	for _, c := range cs {
		ns = append(ns, c.Name)
	}
	return strings.Join(ns, ",")
}

// bench runs the rounds and writes the lines.
func bench(ctx context.Context, cfg config, stdout, stderr io.Writer) (err error) {
	var out io.Writer = stdout
	if cfg.out != "-" {
		f, err := os.Create(cfg.out)
		if err != nil {
			return fmt.Errorf("-out: %w", err)
		}
		defer func() {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}()
		out = f
	}
	parent := cfg.dir
	if parent == "" {
		parent = os.TempDir()
		if cfg.out != "-" {
			parent = filepath.Dir(cfg.out)
		}
	}
	work, err := os.MkdirTemp(parent, ".pure-kvbench-")
	if err != nil {
		return fmt.Errorf("store directory: %w (choose one on the disk under study with -dir)", err)
	}
	defer os.RemoveAll(work)

	fst := perfcount.FSType(work)
	if fst == "tmpfs" {
		fmt.Fprintf(stderr, "warning: %s is on tmpfs, where fdatasync does nothing: durable-commit rates say nothing about a disk; use -dir on the disk under study\n", work)
	}
	base := kvbench.Record{
		Experiment: cfg.experiment,
		FSType:     fst,
		GoVersion:  runtime.Version(),
		Machine:    perfcount.ThisMachine(),
	}
	hum := bufio.NewWriter(stdout)
	defer hum.Flush()
	fmt.Fprintf(hum, "stores in %s (%s); %d rounds\n", work, fst, cfg.rounds)
	hum.Flush()

	for round := range cfg.rounds {
		if err := ctx.Err(); err != nil {
			return err
		}
		probe, err := kvbench.Probe(work, cfg.probe)
		if err != nil {
			return err
		}
		fmt.Fprintf(hum, "round %d: fsync probe p50 %s, p99 %s (%d × 4 KiB append+fdatasync)\n",
			round, fmtDur(probe.P50), fmtDur(probe.P99), probe.N)
		hum.Flush()
		for i, cell := range kvbench.Plan(cfg.contenders, cfg.writers, round, cfg.only) {
			if err := ctx.Err(); err != nil {
				return err
			}
			rec := base
			rec.Round, rec.Cell, rec.Position = round, i, cell.Position
			rec.Contender = cell.Contender.Name
			rec.SetProbe(probe)
			recs, err := runCell(ctx, cfg, work, cell, rec)
			for _, r := range recs {
				if werr := writeLine(out, r); werr != nil {
					return werr
				}
				fmt.Fprintln(hum, humanLine(r))
			}
			hum.Flush()
			if err != nil {
				return fmt.Errorf("round %d, %s %s: %w", round, cell.Contender.Name, cell.Kind, err)
			}
		}
	}
	return nil
}

// runCell runs one cell in a fresh directory and returns its records.
func runCell(ctx context.Context, cfg config, work string, cell kvbench.Cell, rec kvbench.Record) (recs []kvbench.Record, err error) {
	dir, err := os.MkdirTemp(work, cell.Contender.Name+"-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	w, err := cell.Contender.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	defer func() {
		if cerr := w.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("close: %w", cerr)
		}
		runtime.GC() // this cell's garbage is not the next one's work
	}()
	runtime.GC()

	if cell.Kind == kvbench.CellWrites {
		rec.Workload = kvbench.WorkloadCommit(cell.Writers)
		rec.Writers = cell.Writers
		rec.ValueBytes = len(kvbench.Value)
		if cell.Contender.Name == kvbench.NameRaw {
			rec.ValueBytes = kvbench.RawBlockSize
		}
		rec.Start = startStamp()
		r, err := kvbench.Writes(ctx, w, kvbench.WriteOptions{Writers: cell.Writers, Duration: cfg.duration})
		if err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err // cut short: no line for a partial measurement
		}
		rec.SetResult(r)
		return []kvbench.Record{rec}, nil
	}

	s, ok := w.(kvbench.Store)
	if !ok {
		return nil, fmt.Errorf("%s cannot read", cell.Contender.Name)
	}
	t0 := time.Now()
	if err := kvbench.Load(s, cfg.keys); err != nil {
		return nil, err
	}
	rec.LoadS = time.Since(t0).Seconds()
	rec.Readers, rec.Keys, rec.ValueBytes = 1, cfg.keys, len(kvbench.Value)
	o := kvbench.ReadOptions{Keys: cfg.keys, Duration: cfg.duration, Seed: cfg.seed + uint64(rec.Round), ScanLen: kvbench.ScanLen}
	for _, m := range []struct {
		workload string
		measure  func(context.Context, kvbench.Store, kvbench.ReadOptions) (kvbench.Result, error)
	}{
		{kvbench.WorkloadPointGet, kvbench.PointGets},
		{kvbench.WorkloadRange100, kvbench.Ranges},
	} {
		runtime.GC()
		rec.Start = startStamp()
		r, err := m.measure(ctx, s, o)
		if err != nil {
			return recs, fmt.Errorf("%s: %w", m.workload, err)
		}
		if err := ctx.Err(); err != nil {
			return recs, err // cut short: no line for a partial measurement
		}
		rec.Workload = m.workload
		rec.SetResult(r)
		recs = append(recs, rec)
	}
	return recs, nil
}

func writeLine(w io.Writer, rec kvbench.Record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// humanLine summarises a record for the terminal.
func humanLine(r kvbench.Record) string {
	s := fmt.Sprintf("  %-13s %-18s %12s ops/s", r.Contender, r.Workload, kvbench.FormatInt(r.OpsPerS))
	if r.P50S != nil {
		s += fmt.Sprintf("  p50 %-9s p99 %-9s", fmtDur(secs(*r.P50S)), fmtDur(secs(*r.P99S)))
	}
	s += fmt.Sprintf("  cpu %s/op", fmtDur(secs(r.CPUPerOpS)))
	if r.SyncsPerOp != nil && r.Writers > 0 {
		s += fmt.Sprintf("  syncs/op %.3f", *r.SyncsPerOp)
	}
	if r.Readers > 0 {
		s += fmt.Sprintf("  allocs/op %.2f  (load %.1fs)", r.AllocsPerOp, r.LoadS)
	}
	return s
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// fmtDur prints a duration with three significant digits.
func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.3gs", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.3gms", float64(d)/1e6)
	case d >= time.Microsecond:
		return fmt.Sprintf("%.3gµs", float64(d)/1e3)
	}
	return fmt.Sprintf("%dns", d.Nanoseconds())
}

// startStamp is a record's Start: now, in UTC, to the second.
func startStamp() string { return time.Now().UTC().Format(time.RFC3339) }
