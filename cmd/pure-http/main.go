package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintln(os.Stderr, "pure-http:", err)
			os.Exit(1)
		}
		os.Exit(2)
	}
}

// errUsage marks an error already explained, with the usage, on stderr.
var errUsage = errors.New("usage")

const usage = `usage: pure-http [run] [rounds=3] [duration=10s] [servers=ID,...] [work=W,...] [exp=NNN-slug] [data=DIR] [cpus=0,1] [before=REV] [profile=1]
                [listen=IP load-via='ssh HOST' load-bin=PATH]
       pure-http note DIR

run (also implied by any key) builds pure-serve, pure-baseline and pure-load from the
current checkout, then for each round, for each workload, starts each server
that serves it with a fresh data directory, pinned to CPU 0 (taskset), and
drives it with pure-load pinned to CPU 1 (GOMAXPROCS=1). The servers' order
is rotated each round. Before each durable-write workload it probes the
device's fsync latency (4 KiB append + fdatasync, 200 times, in data=).
Each run appends one JSON line to experiments/EXP/runs.jsonl: 2xx/s, p50,
p99, errors, the server's CPU seconds (all threads, from /proc; nginx with
its worker), 2xx per server CPU-second, peak RSS (VmHWM) and the client's
CPU. Then it writes experiments/EXP/note.md from runs.jsonl alone.

note DIR writes DIR/note.md from DIR/runs.jsonl (and DIR/findings.md, a
hand-written analysis quoted when present).

keys:
  rounds=N       rounds (default 3)
  duration=D     each run's load, like 10s (default 10s)
  servers=LIST   comma-separated, or all (default: every one but pure-serve-ram,
                 pure-serve-sendfile and pure-serve-write):
                 ` + "%s" + `
  work=LIST      comma-separated workloads, or all (default all):
                 ` + "%s" + `
  exp=NNN-slug   the experiment directory under experiments/ (default: the
                 next free number, NNN-http-servers), or probes/NNNN-slug
                 for a probe (probes/NNNN-slug/RUN for one of its runs); it
                 must not hold runs yet
  data=DIR       where fresh data directories are made (default the system's
                 temporary directory); durable results need a real disk there
  cpus=S,L       taskset CPU of the servers and of the load (default 0,1;
                 cpus=none runs unpinned)
  before=REV     also build pure-serve from commit REV and run it as
                 pure-serve-before beside pure-serve, in the same rotation,
                 so the note's targets show the ratios before and after a
                 change measured in one run
  profile=1      start each pure-serve with --pprof and take a CPU profile of
                 its load (all of it but the last second) into
                 EXP/profiles/; the profiler's sampling (100 Hz) costs
                 pure-serve about 1 %%, the others are not profiled
  listen=IP      the address the servers listen on (default 127.0.0.1); with
                 a load host, an address of this host that it reaches
  load-via=CMD   run pure-load through the command prefix CMD instead of
                 here, like load-via='ssh bench@10.0.0.2' (pinned there with
                 load-via='ssh bench@10.0.0.2 taskset -c 1'): a client on
                 another host, so the server's CPU no longer includes the
                 loopback's receive work of the client; cpus= then names the
                 servers' CPU alone (cpus=0), and the note counts no client
                 CPU on this machine
  load-bin=PATH  pure-load's path where it runs (default the one built here;
                 with ssh, build it on the load host: go build ./cmd/pure-load)
`

func printUsage(w io.Writer) {
	fmt.Fprintf(w, usage, names(servers, func(s serverSpec) string { return s.ID }),
		names(workloads, func(w workloadSpec) string { return w.Name }))
}

// run is the whole command, with its arguments after the program name.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		// A whole run starts over a hundred servers and takes about half an
		// hour: it starts only when asked for.
		fmt.Fprintln(stderr, "pure-http: say run (or give keys) to measure every server and workload, about half an hour with the defaults; note DIR only writes a note")
		printUsage(stderr)
		return errUsage
	}
	switch args[0] {
	case "note":
		if len(args) != 2 || strings.HasPrefix(args[1], "-") {
			fmt.Fprintln(stderr, "note takes one experiment directory: pure-http note experiments/NNN-slug")
			printUsage(stderr)
			return errUsage
		}
		return writeNote(args[1])
	case "run":
		args = args[1:]
	}
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" || a == "help" {
			printUsage(stdout)
			return nil
		}
	}
	o, err := parseOptions(args, stderr)
	if err != nil {
		return err
	}
	o.Log = stdout
	if err := os.MkdirAll(o.ExpDir, 0o755); err != nil {
		return err
	}
	bin, err := os.MkdirTemp("", "pure-http-bin-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(bin)
	fmt.Fprintf(stdout, "building from %s\n", o.Repo)
	if err := build(ctx, o, bin); err != nil {
		return err
	}
	start := time.Now()
	ran, failed, err := series(ctx, o)
	fmt.Fprintf(stdout, "%d runs (%d failed) in %s, recorded in %s\n", ran, failed, time.Since(start).Round(time.Second), filepath.Join(o.ExpDir, "runs.jsonl"))
	if err != nil {
		return err
	}
	if err := writeNote(o.ExpDir); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "note: %s\n", filepath.Join(o.ExpDir, "note.md"))
	if failed > 0 {
		return fmt.Errorf("%d of %d runs failed: their records say why (\"failure\")", failed, ran)
	}
	return nil
}

var expName = regexp.MustCompile(`^([0-9]{3}-[a-z0-9][a-z0-9.-]*|probes/[0-9]{3,4}-[a-z0-9][a-z0-9.-]*(/[a-z0-9][a-z0-9.-]*)?)$`)

// parseOptions reads key=value arguments.
func parseOptions(args []string, stderr io.Writer) (*options, error) {
	o := &options{Rounds: 3, Duration: 10 * time.Second, ServerCPU: "0", LoadCPU: "1"}
	kv := map[string]string{}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || !slices.Contains([]string{"rounds", "duration", "servers", "work", "exp", "data", "cpus", "before", "profile", "listen", "load-via", "load-bin"}, k) {
			fmt.Fprintf(stderr, "argument %q: want one of the keys below, as key=value\n", a)
			printUsage(stderr)
			return nil, errUsage
		}
		kv[k] = v
	}
	var err error
	if v, ok := kv["rounds"]; ok {
		if o.Rounds, err = strconv.Atoi(v); err != nil || o.Rounds < 1 {
			return nil, fmt.Errorf("rounds=%s: want a whole number of at least 1", v)
		}
	}
	if v, ok := kv["duration"]; ok {
		if o.Duration, err = time.ParseDuration(v); err != nil || o.Duration < time.Second {
			return nil, fmt.Errorf("duration=%s: want a duration of at least 1s, like 10s", v)
		}
	}
	switch v := kv["profile"]; v {
	case "", "0":
	case "1":
		o.Profile = true
	default:
		return nil, fmt.Errorf("profile=%s: want 1 (a CPU profile of each pure-serve run) or 0", v)
	}
	o.Before = kv["before"]
	if v, ok := kv["before"]; ok && v == "" {
		return nil, errors.New("before=: name a commit, like before=HEAD~1")
	}
	if o.Servers, err = pickServers(kv["servers"], o.Before != ""); err != nil {
		return nil, err
	}
	if o.Works, err = pickWorkloads(kv["work"]); err != nil {
		return nil, err
	}
	if _, err := plan(1, o.Servers, o.Works); err != nil {
		return nil, err
	}
	if v, ok := kv["load-via"]; ok {
		if o.LoadVia = strings.Fields(v); len(o.LoadVia) == 0 {
			return nil, errors.New("load-via=: name a command prefix that runs pure-load on the load host, like load-via='ssh bench@10.0.0.2'")
		}
		o.LoadCPU = ""
	}
	if v, ok := kv["load-bin"]; ok {
		if o.LoadBin = v; v == "" {
			return nil, errors.New("load-bin=: name pure-load's path on the load host, like load-bin=/home/bench/pure-load")
		}
	}
	if v, ok := kv["cpus"]; ok && v != "none" {
		s, l, ok := strings.Cut(v, ",")
		switch {
		case len(o.LoadVia) > 0 && ok:
			return nil, fmt.Errorf("cpus=%s with load-via: pure-load runs on the load host, pinned there by load-via itself (like load-via='ssh HOST taskset -c 1'); give the servers' CPU alone, like cpus=0", v)
		case len(o.LoadVia) > 0:
			o.ServerCPU = s
		case !ok || s == "" || l == "":
			return nil, fmt.Errorf("cpus=%s: want SERVER,LOAD like 0,1, or none", v)
		default:
			o.ServerCPU, o.LoadCPU = s, l
		}
	} else if ok {
		o.ServerCPU, o.LoadCPU = "", ""
	}
	o.Listen = "127.0.0.1"
	if v, ok := kv["listen"]; ok {
		if net.ParseIP(v) == nil {
			return nil, fmt.Errorf("listen=%s: want an IP address of this host, like 10.0.0.1", v)
		}
		if _, err := freeAddr(v); err != nil {
			return nil, fmt.Errorf("listen=%s: cannot listen there (%v): give an address of this host", v, err)
		}
		o.Listen = v
	}
	if ip := net.ParseIP(o.Listen); len(o.LoadVia) > 0 && ip.IsLoopback() {
		fmt.Fprintf(stderr, "warning: load-via=%q with listen=%s: a load on another host cannot reach a loopback address (give listen= an address it reaches)\n", strings.Join(o.LoadVia, " "), o.Listen)
	}
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return nil, fmt.Errorf("finding the checkout (git rev-parse --show-toplevel): %v; run from inside the repository", err)
	}
	o.Repo = strings.TrimSpace(string(out))
	exp := kv["exp"]
	if exp == "" {
		if exp, err = nextExperiment(filepath.Join(o.Repo, "experiments"), "http-servers"); err != nil {
			return nil, err
		}
	} else if !expName.MatchString(exp) {
		return nil, fmt.Errorf("exp=%s: want NNN-slug, like 027-http-servers, or probes/NNNN-slug", exp)
	}
	o.ExpDir = filepath.Join(o.Repo, "experiments", exp)
	if _, err := os.Stat(filepath.Join(o.ExpDir, "runs.jsonl")); err == nil {
		return nil, fmt.Errorf("exp=%s already holds runs.jsonl: pick another exp= or move it away", exp)
	}
	o.DataRoot = kv["data"]
	if o.DataRoot == "" {
		o.DataRoot = os.TempDir()
	}
	if fi, err := os.Stat(o.DataRoot); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("data=%s: not a directory (%v)", o.DataRoot, err)
	}
	return o, nil
}

// nextExperiment returns the next free NNN-slug below 900 (numbers from
// 900 are probes).
func nextExperiment(dir, slug string) (string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("experiments directory: %w", err)
	}
	next := 1
	for _, e := range ents {
		if n, err := strconv.Atoi(strings.SplitN(e.Name(), "-", 2)[0]); err == nil && n < 900 && n >= next {
			next = n + 1
		}
	}
	return fmt.Sprintf("%03d-%s", next, slug), nil
}
