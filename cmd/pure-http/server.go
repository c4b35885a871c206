package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"workbench/experiments/lab/httpbench"
	"workbench/pure/baseline/nginx"
)

// startTimeout bounds a server's start: its "listening" line, or for
// nginx its first accepted connection.
const startTimeout = 15 * time.Second

// server is a started server process.
type server struct {
	*httpbench.Server
	spec  serverSpec
	addr  string
	pprof string // pure-serve's --pprof address with profile=1, else ""
}

// freeAddr returns a free port of host, closed again.
func freeAddr(host string) (string, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// pinned prefixes argv with taskset on cpu, when cpu is set.
func pinned(cpu string, argv ...string) []string {
	if cpu == "" {
		return argv
	}
	return append([]string{"taskset", "-c", cpu}, argv...)
}

// startServer starts spec's server pinned to o.ServerCPU on a free port
// of o.Listen, with dir as its fresh data (or nginx prefix) directory.
func startServer(ctx context.Context, o *options, spec serverSpec, dir string) (*server, error) {
	var argv []string
	pprof := ""
	switch spec.Server {
	case "pure-serve":
		bin := o.bins.serve
		if spec.Before {
			bin = o.bins.serveBefore
		}
		argv = []string{bin, "--addr", net.JoinHostPort(o.Listen, "0")}
		if o.Profile {
			var err error
			if pprof, err = freeAddr("127.0.0.1"); err != nil {
				return nil, err
			}
			argv = append(argv, "--pprof", pprof)
		}
		if spec.Mode == "ram" {
			argv = append(argv, "--ram")
		} else {
			argv = append(argv, "--data", dir)
		}
		argv = append(argv, spec.Args...)
	case "nethttp", "fasthttp":
		argv = []string{o.bins.baseline(spec.Server), "--impl", spec.Server, "--mode", spec.Mode, "--addr", net.JoinHostPort(o.Listen, "0")}
		if spec.Mode != "memory" {
			argv = append(argv, "--data", dir)
		}
	case "nginx":
		return startNginx(ctx, o, spec, dir)
	default:
		return nil, fmt.Errorf("no way to start server %q", spec.Server)
	}
	argv = pinned(o.ServerCPU, argv...)
	s, err := httpbench.Start(ctx, exec.Command(argv[0], argv[1:]...), startTimeout)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", spec.ID, err)
	}
	return &server{Server: s, spec: spec, addr: s.Addr, pprof: pprof}, nil
}

// startNginx prepares dir as nginx's prefix on a free port and starts it.
func startNginx(ctx context.Context, o *options, spec serverSpec, dir string) (*server, error) {
	addr, err := freeAddr(o.Listen)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return nil, err
	}
	if _, err := nginx.Prepare(dir, addr); err != nil {
		return nil, err
	}
	argv := pinned(o.ServerCPU, append([]string{o.bins.nginx}, nginx.Args(dir)...)...)
	hs, err := httpbench.Launch(exec.Command(argv[0], argv[1:]...))
	if err != nil {
		return nil, fmt.Errorf("start nginx: %w", err)
	}
	s := &server{Server: hs, spec: spec, addr: addr}
	for deadline := time.Now().Add(startTimeout); ; time.Sleep(20 * time.Millisecond) {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			// The worker is forked after the listen: wait for it too.
			if kids, _ := httpbench.Children(s.Pid()); len(kids) > 0 {
				return s, nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			s.stop()
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			return nil, fmt.Errorf("start nginx: not serving on %s within %s: %v (stderr: %s; error.log: %s)", addr, startTimeout, err, s.Stderr(), log)
		}
	}
}

// pids returns the processes whose CPU counts: the server, and for nginx
// its workers too.
func (s *server) pids() []int {
	ps := []int{s.Pid()}
	if s.spec.Server == "nginx" {
		kids, _ := httpbench.Children(s.Pid())
		ps = append(ps, kids...)
	}
	return ps
}

// rssPids returns the processes whose peak RSS counts: nginx's workers,
// or the server itself.
func (s *server) rssPids() []int {
	if s.spec.Server == "nginx" {
		if kids, _ := httpbench.Children(s.Pid()); len(kids) > 0 {
			return kids
		}
	}
	return []int{s.Pid()}
}

// cpu returns the server's CPU seconds so far (all threads; nginx: master
// and workers).
func (s *server) cpu() (float64, error) {
	var sum float64
	for _, p := range s.pids() {
		c, err := httpbench.ProcCPU(p)
		if err != nil {
			return 0, err
		}
		sum += c
	}
	return sum, nil
}

// peakRSS returns the largest VmHWM of rssPids, in KiB.
func (s *server) peakRSS() (int64, error) { return s.largestStatus("VmHWM") }

// rss returns the largest VmRSS of rssPids, in KiB: the resident memory
// now.
func (s *server) rss() (int64, error) { return s.largestStatus("VmRSS") }

// largestStatus returns the largest of a kB field of /proc/PID/status
// over rssPids.
func (s *server) largestStatus(field string) (int64, error) {
	var most int64
	for _, p := range s.rssPids() {
		v, err := httpbench.StatusKiB(p, field)
		if err != nil {
			return 0, err
		}
		most = max(most, v)
	}
	return most, nil
}

// resetPeak resets the peak RSS of rssPids; false if any failed.
func (s *server) resetPeak() bool {
	ok := true
	for _, p := range s.rssPids() {
		if httpbench.ResetPeakRSS(p) != nil {
			ok = false
		}
	}
	return ok
}

// alive returns nil while the server runs, or how it ended.
func (s *server) alive() error { return s.Alive() }

// stop sends SIGTERM and waits up to 10 s, then SIGKILL. An exit other
// than by SIGTERM's clean stop is returned as an error.
func (s *server) stop() error {
	if err := s.Stop(10 * time.Second); err != nil {
		return fmt.Errorf("%s %w", s.spec.ID, err)
	}
	return nil
}
