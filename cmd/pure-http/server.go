package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"workbench/pure/baseline/nginx"
)

// startTimeout bounds a server's start: its "listening" line, or for
// nginx its first accepted connection.
const startTimeout = 15 * time.Second

// server is a started server process.
type server struct {
	spec   serverSpec
	cmd    *exec.Cmd
	addr   string
	stderr *lockedBuffer
	waited chan error // closed with the exit once the process ends
}

// lockedBuffer keeps the last bytes a process wrote to stderr.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() > 1<<16 {
		l.b.Next(l.b.Len() - 1<<15)
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.TrimSpace(l.b.String())
}

// pinned prefixes argv with taskset on cpu, when cpu is set.
func pinned(cpu string, argv ...string) []string {
	if cpu == "" {
		return argv
	}
	return append([]string{"taskset", "-c", cpu}, argv...)
}

// startServer starts spec's server pinned to o.ServerCPU on a free port
// of 127.0.0.1, with dir as its fresh data (or nginx prefix) directory.
func startServer(ctx context.Context, o *options, spec serverSpec, dir string) (*server, error) {
	var argv []string
	switch spec.Server {
	case "pure-serve":
		bin := o.bins.serve
		if spec.Before {
			bin = o.bins.serveBefore
		}
		argv = []string{bin, "--addr", "127.0.0.1:0"}
		if spec.Mode == "ram" {
			argv = append(argv, "--ram")
		} else {
			argv = append(argv, "--data", dir)
		}
	case "nethttp", "fasthttp":
		argv = []string{o.bins.baseline, "--impl", spec.Server, "--mode", spec.Mode, "--addr", "127.0.0.1:0"}
		if spec.Mode != "memory" {
			argv = append(argv, "--data", dir)
		}
	case "nginx":
		return startNginx(ctx, o, spec, dir)
	default:
		return nil, fmt.Errorf("no way to start server %q", spec.Server)
	}
	argv = pinned(o.ServerCPU, argv...)
	s := &server{spec: spec, stderr: &lockedBuffer{}, waited: make(chan error, 1)}
	s.cmd = exec.Command(argv[0], argv[1:]...)
	s.cmd.Stderr = s.stderr
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", spec.ID, err)
	}
	go func() { s.waited <- s.cmd.Wait(); close(s.waited) }()
	lines := make(chan string, 1)
	go func() {
		br := bufio.NewReader(out)
		line, _ := br.ReadString('\n')
		lines <- line
		io.Copy(io.Discard, br)
	}()
	select {
	case line := <-lines:
		addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
		if !ok {
			s.stop()
			return nil, fmt.Errorf("start %s: first line %q, want \"listening HOST:PORT\" (stderr: %s)", spec.ID, line, s.stderr)
		}
		s.addr = addr
		return s, nil
	case <-time.After(startTimeout):
	case <-ctx.Done():
	}
	s.stop()
	return nil, fmt.Errorf("start %s: no \"listening\" line within %s (stderr: %s)", spec.ID, startTimeout, s.stderr)
}

// startNginx prepares dir as nginx's prefix on a free port and starts it.
func startNginx(ctx context.Context, o *options, spec serverSpec, dir string) (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	if err := os.Chmod(dir, 0o755); err != nil {
		return nil, err
	}
	if _, err := nginx.Prepare(dir, addr); err != nil {
		return nil, err
	}
	argv := pinned(o.ServerCPU, append([]string{o.bins.nginx}, nginx.Args(dir)...)...)
	s := &server{spec: spec, addr: addr, stderr: &lockedBuffer{}, waited: make(chan error, 1)}
	s.cmd = exec.Command(argv[0], argv[1:]...)
	s.cmd.Stderr = s.stderr
	s.cmd.Stdout = s.stderr
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start nginx: %w", err)
	}
	go func() { s.waited <- s.cmd.Wait(); close(s.waited) }()
	for deadline := time.Now().Add(startTimeout); ; time.Sleep(20 * time.Millisecond) {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			// The worker is forked after the listen: wait for it too.
			if kids, _ := procChildren(s.cmd.Process.Pid); len(kids) > 0 {
				return s, nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			s.stop()
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			return nil, fmt.Errorf("start nginx: not serving on %s within %s: %v (stderr: %s; error.log: %s)", addr, startTimeout, err, s.stderr, log)
		}
	}
}

// pids returns the processes whose CPU counts: the server, and for nginx
// its workers too.
func (s *server) pids() []int {
	ps := []int{s.cmd.Process.Pid}
	if s.spec.Server == "nginx" {
		kids, _ := procChildren(s.cmd.Process.Pid)
		ps = append(ps, kids...)
	}
	return ps
}

// rssPids returns the processes whose peak RSS counts: nginx's workers,
// or the server itself.
func (s *server) rssPids() []int {
	if s.spec.Server == "nginx" {
		if kids, _ := procChildren(s.cmd.Process.Pid); len(kids) > 0 {
			return kids
		}
	}
	return []int{s.cmd.Process.Pid}
}

// cpu returns the server's CPU seconds so far (all threads; nginx: master
// and workers).
func (s *server) cpu() (float64, error) {
	var sum float64
	for _, p := range s.pids() {
		c, err := procCPU(p)
		if err != nil {
			return 0, err
		}
		sum += c
	}
	return sum, nil
}

// peakRSS returns the largest VmHWM of rssPids, in KiB.
func (s *server) peakRSS() (int64, error) {
	var peak int64
	for _, p := range s.rssPids() {
		v, err := procStatusKiB(p, "VmHWM")
		if err != nil {
			return 0, err
		}
		peak = max(peak, v)
	}
	return peak, nil
}

// resetPeak resets the peak RSS of rssPids; false if any failed.
func (s *server) resetPeak() bool {
	ok := true
	for _, p := range s.rssPids() {
		if resetPeakRSS(p) != nil {
			ok = false
		}
	}
	return ok
}

// alive returns nil while the server runs, or how it ended.
func (s *server) alive() error {
	select {
	case err, ok := <-s.waited:
		if !ok {
			return errors.New("the server has exited")
		}
		return fmt.Errorf("the server exited: %v (stderr: %s)", err, s.stderr)
	default:
		return nil
	}
}

// stop sends SIGTERM and waits up to 10 s, then SIGKILL. An exit other
// than by SIGTERM's clean stop is returned as an error.
func (s *server) stop() error {
	if s.cmd.Process == nil {
		return nil
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err, ok := <-s.waited:
		if !ok {
			return nil
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signaled() && ee.Sys().(syscall.WaitStatus).Signal() == syscall.SIGTERM {
			return nil // taskset or a server that simply dies on SIGTERM
		}
		if err != nil {
			return fmt.Errorf("%s ended with %v (stderr: %s)", s.spec.ID, err, s.stderr)
		}
		return nil
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.waited
		return fmt.Errorf("%s did not stop within 10 s of SIGTERM; killed", s.spec.ID)
	}
}
