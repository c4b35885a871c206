package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"workbench/experiments/lab/httpbench"
	"workbench/experiments/lab/kvbench"
	"workbench/perfcount"
	"workbench/pure/baseline/nginx"
	"workbench/pure/load"
)

// probeSyncs is how many 4 KiB append+fdatasync calls the fsync probe
// times before each write workload.
const probeSyncs = 200

// options are one series' settings.
type options struct {
	Rounds    int
	Duration  time.Duration
	Servers   []serverSpec
	Works     []workloadSpec
	ExpDir    string // experiments/NNN-slug
	DataRoot  string // fresh data directories are made under it
	Repo      string // the checkout the binaries are built from
	ServerCPU string // taskset CPU list of the servers ("" = not pinned)
	LoadCPU   string // taskset CPU list of pure-load
	Before    string // a commit to build pure-serve-before from ("" = none)
	Profile   bool   // take a CPU profile of every pure-serve run
	// Listen is the address the servers listen on (a port is picked):
	// 127.0.0.1, or an address of this host that a load host reaches.
	Listen string
	// LoadVia, when set, is the command prefix through which pure-load
	// runs on a load host (ssh HOST); LoadBin is pure-load's path there
	// ("" = the one built here).
	LoadVia []string
	LoadBin string
	Log     io.Writer

	bins         binaries
	commit       string
	beforeCommit string
	host         string
}

// binaries are the built programs.
type binaries struct {
	serve, serveBefore, load, nginx string
	// nethttp and fasthttp are pure-baseline built with one
	// implementation each (see goBuild).
	nethttp, fasthttp string
}

// baseline returns the pure-baseline binary that serves impl.
func (b *binaries) baseline(impl string) string {
	if impl == "fasthttp" {
		return b.fasthttp
	}
	return b.nethttp
}

// build compiles the programs the series needs from o.Repo into dir.
func build(ctx context.Context, o *options, dir string) error {
	need := map[string]*string{"pure-load": &o.bins.load}
	for _, s := range o.Servers {
		switch s.Server {
		case "pure-serve":
			need["pure-serve"] = &o.bins.serve
		case "nethttp":
			need["pure-baseline-nethttp"] = &o.bins.nethttp
		case "fasthttp":
			need["pure-baseline-fasthttp"] = &o.bins.fasthttp
		case "nginx":
			o.bins.nginx = nginx.Binary
			if _, err := os.Stat(nginx.Binary); err != nil {
				return fmt.Errorf("nginx: %w (apt-get install nginx-light, or leave nginx out of servers=)", err)
			}
		}
	}
	for name, dst := range need {
		*dst = filepath.Join(dir, name)
		cmd := goBuild(ctx, name, *dst)
		cmd.Dir = o.Repo
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build ./cmd/%s in %s: %v\n%s", name, o.Repo, err, out)
		}
	}
	if o.Before != "" {
		if err := buildBefore(ctx, o, dir); err != nil {
			return err
		}
	}
	o.host = httpbench.HostInfo()
	out, err := exec.CommandContext(ctx, "git", "-C", o.Repo, "rev-parse", "HEAD").Output()
	if err == nil {
		o.commit = strings.TrimSpace(string(out))
		if st, _ := exec.CommandContext(ctx, "git", "-C", o.Repo, "status", "--porcelain", "--untracked-files=no").Output(); len(bytes.TrimSpace(st)) > 0 {
			o.commit += "+dirty"
		}
	}
	return nil
}

// prepSettle is how long a server rests between the preparation of its
// store and the reset of its peak RSS.
const prepSettle = time.Second

// staticBuild describes how goBuild builds the servers, for the records.
const staticBuild = "static: CGO_ENABLED=0, pure-baseline with -tags nosqlite, one binary per implementation"

// goBuild returns the command that builds program name into dst. Every
// program is built with CGO_ENABLED=0, so statically linked: a cgo build
// (Go's default where a C compiler is found, for the net package's
// resolver) loads libc and the dynamic loader, about 1.5 MB of resident
// pages that would count in every server's peak RSS. The baselines are
// ./cmd/pure-baseline built once per implementation, as a developer's own
// server would be: pure-baseline-nethttp with -tags nosqlite,nofasthttp and
// pure-baseline-fasthttp with -tags nosqlite,nonethttp. nosqlite leaves out
// the SQLite baselines (the only part that needs cgo, and not served here);
// the other tag leaves out the other implementation, whose pages (about
// 1 MB at rest for fasthttp's in the net/http server, 0.7 MB of it the
// binary's) the server's peak RSS would count though it never runs them
// (experiment 156).
func goBuild(ctx context.Context, name, dst string) *exec.Cmd {
	args := []string{"build", "-o", dst}
	pkg := "./cmd/" + name
	switch name {
	case "pure-baseline-nethttp":
		args, pkg = append(args, "-tags", "nosqlite,nofasthttp"), "./cmd/pure-baseline"
	case "pure-baseline-fasthttp":
		args, pkg = append(args, "-tags", "nosqlite,nonethttp"), "./cmd/pure-baseline"
	}
	cmd := exec.CommandContext(ctx, "go", append(args, pkg)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	return cmd
}

// buildBefore builds pure-serve from commit o.Before into dir, through a
// temporary git worktree of o.Repo.
func buildBefore(ctx context.Context, o *options, dir string) error {
	out, err := exec.CommandContext(ctx, "git", "-C", o.Repo, "rev-parse", "--verify", o.Before+"^{commit}").Output()
	if err != nil {
		return fmt.Errorf("before=%s: not a commit of %s (%v)", o.Before, o.Repo, err)
	}
	o.beforeCommit = strings.TrimSpace(string(out))
	src := filepath.Join(dir, "before-src")
	if out, err := exec.CommandContext(ctx, "git", "-C", o.Repo, "worktree", "add", "--detach", src, o.beforeCommit).CombinedOutput(); err != nil {
		return fmt.Errorf("before=%s: git worktree add: %v\n%s", o.Before, err, out)
	}
	defer exec.Command("git", "-C", o.Repo, "worktree", "remove", "--force", src).Run()
	o.bins.serveBefore = filepath.Join(dir, beforeID)
	cmd := goBuild(ctx, "pure-serve", o.bins.serveBefore)
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("before=%s: go build ./cmd/pure-serve: %v\n%s", o.Before, err, out)
	}
	return nil
}

// series runs every step, appending one record per run to
// ExpDir/runs.jsonl (synced as each run ends). A failed run is recorded
// with its failure and the others go on.
func series(ctx context.Context, o *options) (ran, failed int, err error) {
	steps, err := plan(o.Rounds, o.Servers, o.Works)
	if err != nil {
		return 0, 0, err
	}
	f, err := os.OpenFile(filepath.Join(o.ExpDir, "runs.jsonl"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	var probe kvbench.ProbeResult
	probed := ""
	for i, st := range steps {
		if ctx.Err() != nil {
			return ran, failed, ctx.Err()
		}
		rec := newRecord(o, st)
		if st.Work.Write {
			key := fmt.Sprint(st.Round, st.Work.Name)
			if probed != key {
				if probe, err = kvbench.Probe(o.DataRoot, probeSyncs); err != nil {
					return ran, failed, err
				}
				probed = key
				fmt.Fprintf(o.Log, "round %d %s: fsync probe p50 %s p99 %s\n", st.Round, st.Work.Name, probe.P50, probe.P99)
				if fs := perfcount.FSType(o.DataRoot); fs == "tmpfs" {
					fmt.Fprintf(o.Log, "warning: data=%s is on tmpfs, where fdatasync costs nothing: durable writes measure no disk (pass data=DIR on a real disk)\n", o.DataRoot)
				}
			}
			rec.FsyncP50us = float64(probe.P50) / 1e3
			rec.FsyncP99us = float64(probe.P99) / 1e3
			rec.FSType = perfcount.FSType(o.DataRoot)
		}
		fmt.Fprintf(o.Log, "[%d/%d] round %d, %s, %s (#%d): ", i+1, len(steps), st.Round, st.Work.Name, st.Server.ID, st.Order)
		if err := runOne(ctx, o, st, &rec); err != nil {
			rec.Failure = err.Error()
			failed++
			fmt.Fprintf(o.Log, "FAILED: %v\n", err)
		} else {
			fmt.Fprintf(o.Log, "%.0f 2xx/s, %.0f per server CPU-s, p99 %.0f us, peak RSS %d KiB\n", rec.OKPerS, rec.OKPerServerCPU, rec.P99us, rec.PeakRSSKiB)
		}
		line, _ := json.Marshal(rec)
		if _, err := f.Write(append(line, '\n')); err != nil {
			return ran, failed, err
		}
		if err := f.Sync(); err != nil {
			return ran, failed, err
		}
		ran++
	}
	return ran, failed, nil
}

func newRecord(o *options, st step) Record {
	commit := o.commit
	if st.Server.Before {
		commit = o.beforeCommit
	}
	return Record{
		Schema: recordSchema, Server: st.Server.Server, Mode: st.Server.Mode, ID: st.Server.ID,
		Workload: st.Work.Name, Load: st.Work.Load, Connections: st.Work.Conns,
		Pipeline: st.Work.Pipeline, KeepAlive: !st.Work.Close, DurationS: o.Duration.Seconds(), Count: st.Work.Count,
		Round: st.Round, Order: st.Order, CPUServer: o.ServerCPU, CPULoad: o.LoadCPU,
		LoadVia: strings.Join(o.LoadVia, " "), Listen: o.Listen,
		Commit: commit, Go: runtime.Version(), Build: staticBuild, Host: o.host, LoadAvg1: httpbench.LoadAvg1(),
	}
}

// runOne runs one step with a fresh data directory and a fresh server,
// filling rec.
func runOne(ctx context.Context, o *options, st step, rec *Record) (err error) {
	dir, err := os.MkdirTemp(o.DataRoot, st.Server.ID+"-"+st.Work.Name+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	srv, err := startServer(ctx, o, st.Server, dir)
	if err != nil {
		return err
	}
	defer func() {
		if serr := srv.stop(); serr != nil && err == nil {
			err = serr
		}
		rec.Publications = publications(srv.Stderr())
	}()
	url := "http://" + srv.addr
	// 1. Prepare the store (not measured): documents, or a scoreboard.
	if !st.Server.Static {
		if _, err := o.loader().PrepareFor(ctx, url, st.Work.Load); err != nil {
			return err
		}
	}
	// Let the preparation's after-effects end before the peak is reset
	// (every server alike): the seed's 1 MiB document makes pure-serve's
	// trimmer collect and return its garbage, and with two Ps that ran on
	// after the seed's last answer, so a peak reset at once held the
	// seed's garbage: 8.5-9.6 MB against 6.2-6.4 MB after a second's rest
	// (get-64c, by hand).
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(prepSettle):
	}
	rec.SettleS = prepSettle.Seconds()
	rec.RSSReset = srv.resetPeak()
	if rec.RestRSSKiB, err = srv.rss(); err != nil {
		return err
	}
	// 2. Measure: the server's CPU around the load, then its peak RSS.
	cpu0, err := srv.cpu()
	if err != nil {
		return err
	}
	busy0, busyErr := httpbench.MachineBusy()
	length := []string{"-d", o.Duration.String()}
	if st.Work.Count > 0 {
		length = []string{"-n", strconv.Itoa(st.Work.Count)}
	}
	args := append([]string{"--workload", st.Work.Load, "-c", strconv.Itoa(st.Work.Conns), "--pipeline", strconv.Itoa(st.Work.Pipeline)}, length...)
	if st.Work.Close {
		args = append(args, "--close")
	}
	prof := startProfile(ctx, o, srv, st)
	res, lerr := runLoad(ctx, o, append(args, url)...)
	if rec.Profile, err = prof.wait(); err != nil {
		return err
	}
	cpu1, err := srv.cpu()
	if err != nil {
		return fmt.Errorf("after the load: %w (%v)", err, srv.alive())
	}
	busy1, busyErr1 := httpbench.MachineBusy()
	if rec.PeakRSSKiB, err = srv.peakRSS(); err != nil {
		return err
	}
	if err := srv.alive(); err != nil {
		return err
	}
	if lerr != nil {
		return lerr
	}
	rec.Requests, rec.OK, rec.Non2xx, rec.Errors = res.Requests, res.OK, res.Non2xx, res.Errors.Total()
	rec.OKPerS, rec.P50us, rec.P99us, rec.ClientCPU = res.OKPerS, res.LatencyUS.P50, res.LatencyUS.P99, res.ClientCPUS
	rec.DurationS = res.DurationS
	rec.ServerCPU = cpu1 - cpu0
	if rec.ServerCPU > 0 {
		rec.OKPerServerCPU = float64(rec.OK) / rec.ServerCPU
	}
	if busyErr == nil && busyErr1 == nil {
		client := rec.ClientCPU
		if len(o.LoadVia) > 0 {
			client = 0 // pure-load's CPU was another host's
		}
		other := max(0, busy1-busy0-rec.ServerCPU-client)
		rec.OtherCPU = &other
	}
	return nil
}

// storeLine is the start of pure-serve's last line on stderr, its store's
// counters (cmd/pure-serve).
var storeLine = regexp.MustCompile(`pure-serve: store: ([0-9]+) publications`)

// publications reads the store's publication count from pure-serve's
// stderr, or 0 when it has none (another server, or a run cut short).
func publications(stderr string) int64 {
	m := storeLine.FindAllStringSubmatch(stderr, -1)
	if len(m) == 0 {
		return 0
	}
	n, _ := strconv.ParseInt(m[len(m)-1][1], 10, 64)
	return n
}

// profiling is a CPU profile being taken during one run's load.
type profiling struct {
	done chan error
	rel  string // the profile's path under the experiment directory
}

// startProfile asks srv's --pprof endpoint for a CPU profile of the load
// (its length less one second, at least one), written to
// EXP/profiles/rROUND-WORKLOAD-ID.pprof; nil when srv is not profiled.
func startProfile(ctx context.Context, o *options, srv *server, st step) *profiling {
	if srv.pprof == "" || st.Work.Count > 0 {
		return nil // a counted load's length is not known ahead
	}
	secs := max(1, int(o.Duration.Seconds())-1)
	p := &profiling{done: make(chan error, 1), rel: filepath.Join("profiles", fmt.Sprintf("r%d-%s-%s.pprof", st.Round, st.Work.Name, st.Server.ID))}
	go func() {
		p.done <- fetchProfile(ctx, fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", srv.pprof, secs), filepath.Join(o.ExpDir, p.rel))
	}()
	return p
}

// wait returns the profile's relative path once it is written.
func (p *profiling) wait() (string, error) {
	if p == nil {
		return "", nil
	}
	if err := <-p.done; err != nil {
		return "", fmt.Errorf("CPU profile: %w", err)
	}
	return p.rel, nil
}

// fetchProfile GETs url and writes its body to path (synced).
func fetchProfile(ctx context.Context, url, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("%s: %s: %s", url, resp.Status, bytes.TrimSpace(msg))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// loader runs pure-load pinned to o.LoadCPU with GOMAXPROCS=1, here or
// through o.LoadVia.
func (o *options) loader() httpbench.Loader {
	l := httpbench.Loader{Path: o.bins.load, CPU: o.LoadCPU, Via: o.LoadVia}
	if o.LoadBin != "" {
		l.Path = o.LoadBin
	}
	return l
}

// runLoad runs pure-load --json and returns its result; a run that
// answered nothing is an error.
func runLoad(ctx context.Context, o *options, args ...string) (load.Result, error) {
	return o.loader().Run(ctx, args...)
}
