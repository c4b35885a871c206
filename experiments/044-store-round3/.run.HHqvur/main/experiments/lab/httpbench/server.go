package httpbench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ListeningPrefix starts the first line a server prints on stdout, before
// its address: "listening 127.0.0.1:41234". pure-serve and the baselines
// print it once they accept connections.
const ListeningPrefix = "listening "

// A Server is a started server process. Its methods may be called from one
// goroutine at a time.
type Server struct {
	// Cmd is the running command.
	Cmd *exec.Cmd
	// Addr is the HOST:PORT the server said it listens on; empty for a
	// server started with Launch.
	Addr string
	// Started is when the process started.
	Started time.Time

	stderr *tail
	waited chan error // receives the exit, then is closed
	exit   error
	ended  bool
}

// tail keeps the last bytes a process wrote, safe for the process's
// copying goroutines and a reader.
type tail struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *tail) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() > 1<<16 {
		l.b.Next(l.b.Len() - 1<<15)
	}
	return l.b.Write(p)
}

func (l *tail) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.TrimSpace(l.b.String())
}

// Start starts cmd, which must not have been started and whose Stdout and
// Stderr must be unset, and waits up to timeout for its first line on
// stdout: ListeningPrefix and the address. What it writes on stderr is
// kept (Stderr). A server that exits, prints another line, or says nothing
// in time is stopped, and the error says which, with its stderr.
func Start(ctx context.Context, cmd *exec.Cmd, timeout time.Duration) (*Server, error) {
	s := &Server{Cmd: cmd, stderr: &tail{}, waited: make(chan error, 1)}
	cmd.Stderr = s.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := s.start(); err != nil {
		return nil, err
	}
	lines := make(chan string, 1)
	go func() {
		br := bufio.NewReader(out)
		line, _ := br.ReadString('\n')
		lines <- line
		io.Copy(io.Discard, br)
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case line := <-lines:
		addr, ok := strings.CutPrefix(strings.TrimSpace(line), ListeningPrefix)
		if ok && addr != "" {
			s.Addr = addr
			return s, nil
		}
		s.Kill()
		if line == "" {
			return nil, fmt.Errorf("%s exited before it printed \"%sHOST:PORT\": %v (stderr: %s)", cmd.Path, ListeningPrefix, s.exit, s.Stderr())
		}
		return nil, fmt.Errorf("%s printed %q first, want \"%sHOST:PORT\" (stderr: %s)", cmd.Path, strings.TrimSpace(line), ListeningPrefix, s.Stderr())
	case <-t.C:
	case <-ctx.Done():
		s.Kill()
		return nil, ctx.Err()
	}
	s.Kill()
	return nil, fmt.Errorf("%s printed no \"%sHOST:PORT\" line within %s (stderr: %s)", cmd.Path, ListeningPrefix, timeout, s.Stderr())
}

// Launch starts cmd without waiting for a line: its stdout and stderr
// both go to the kept tail. For servers that print no address (nginx).
func Launch(cmd *exec.Cmd) (*Server, error) {
	s := &Server{Cmd: cmd, stderr: &tail{}, waited: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = s.stderr, s.stderr
	if err := s.start(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Server) start() error {
	if s.Cmd.WaitDelay == 0 {
		// A child that outlives the server and holds its stderr must not
		// hold up Wait.
		s.Cmd.WaitDelay = time.Second
	}
	if err := s.Cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", s.Cmd.Path, err)
	}
	s.Started = time.Now()
	go func() { s.waited <- s.Cmd.Wait(); close(s.waited) }()
	return nil
}

// Pid is the server's process id.
func (s *Server) Pid() int { return s.Cmd.Process.Pid }

// Stderr returns the end of what the server wrote on stderr (Launch: and
// stdout), trimmed.
func (s *Server) Stderr() string { return s.stderr.String() }

// Alive returns nil while the server runs, or how it ended.
func (s *Server) Alive() error {
	if !s.ended {
		select {
		case err := <-s.waited:
			s.ended, s.exit = true, err
		default:
			return nil
		}
	}
	if s.exit == nil {
		return errors.New("the server has exited")
	}
	return fmt.Errorf("the server exited: %v (stderr: %s)", s.exit, s.Stderr())
}

// wait waits up to d for the process to end and reports whether it did.
func (s *Server) wait(d time.Duration) bool {
	if s.ended {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case err := <-s.waited:
		s.ended, s.exit = true, err
		return true
	case <-t.C:
		return false
	}
}

// Stop sends SIGTERM and waits up to grace for the server to end, then
// kills it. An exit other than a clean one (status 0, or death by the
// SIGTERM itself) is returned as an error, as is having to kill it.
func (s *Server) Stop(grace time.Duration) error {
	if s.Cmd.Process == nil {
		return nil
	}
	if !s.ended {
		s.Cmd.Process.Signal(syscall.SIGTERM)
	}
	if !s.wait(grace) {
		s.Kill()
		return fmt.Errorf("did not stop within %s of SIGTERM; killed (stderr: %s)", grace, s.Stderr())
	}
	var ee *exec.ExitError
	if errors.As(s.exit, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGTERM {
			return nil // taskset or a server that simply dies on SIGTERM
		}
	}
	if s.exit != nil {
		return fmt.Errorf("ended with %v (stderr: %s)", s.exit, s.Stderr())
	}
	return nil
}

// Kill kills the server (its whole process group when it was started in
// its own, SysProcAttr.Setpgid) and waits for it to end.
func (s *Server) Kill() {
	if s.Cmd.Process == nil || s.ended {
		return
	}
	if a := s.Cmd.SysProcAttr; a != nil && a.Setpgid {
		syscall.Kill(-s.Cmd.Process.Pid, syscall.SIGKILL)
	} else {
		s.Cmd.Process.Kill()
	}
	s.wait(time.Minute)
}

// ExitCode returns the server's exit status once it has ended: -1 when a
// signal ended it or it has not ended.
func (s *Server) ExitCode() int {
	if !s.ended || s.Cmd.ProcessState == nil {
		return -1
	}
	return s.Cmd.ProcessState.ExitCode()
}
