//go:build linux

package perfcount

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// CountCommand runs cmd, which must not have been started, and counts events
// over the whole of it, like perf stat.
//
// With BackendPerf the counters are opened on the child before it executes
// the command, with enable_on_exec and inherit: counting starts at the
// command's first instruction and covers every thread and process it starts.
// To get there the child first runs /bin/sh, which waits on a pipe until the
// counters are open and then execs the command; so the command's argv[0] is
// cmd.Path. The counts are read after the child has been reaped.
//
// With BackendCallgrind the command runs under valgrind --tool=callgrind and
// the count is callgrind's total Ir for the whole run; the only event is
// "instructions".
//
// The Result carries the wall time, the child's rusage and its exit code; a
// command that exits non-zero is not an error of CountCommand.
func CountCommand(backend Backend, events []Event, cmd *exec.Cmd) (*Result, error) {
	if cmd.Process != nil {
		return nil, errors.New("CountCommand: the command was already started")
	}
	if cmd.Path == "" {
		return nil, errors.New("CountCommand: empty command")
	}
	if cmd.Err != nil {
		return nil, fmt.Errorf("command %q: %w", cmd.Path, cmd.Err)
	}
	if _, err := exec.LookPath(cmd.Path); err != nil {
		return nil, fmt.Errorf("command %q cannot be run: %w", cmd.Path, err)
	}
	switch backend {
	case BackendPerf:
		return countPerf(events, cmd)
	case BackendCallgrind:
		return countCallgrind(events, cmd)
	}
	return nil, fmt.Errorf("unknown backend %q: use perf or callgrind", backend)
}

// waitScript makes /bin/sh wait for the parent's go-ahead on fd 3, close it,
// and replace itself with the command.
const waitScript = `read _ <&3 || exit 126; exec 3<&-; %sexec "$@"`

func countPerf(events []Event, cmd *exec.Cmd) (*Result, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	defer w.Close()
	unset := ""
	if !hasEnv(cmd.Environ(), "PWD") {
		unset = "unset PWD; "
	}
	target := cmd.Path
	cmd.Args = append([]string{"sh", "-c", fmt.Sprintf(waitScript, unset), "sh", target}, cmd.Args[1:]...)
	cmd.Path = "/bin/sh"
	cmd.ExtraFiles = append([]*os.File{r}, cmd.ExtraFiles...)
	if len(cmd.ExtraFiles) > 1 {
		return nil, errors.New("CountCommand: cmd.ExtraFiles is not supported with the perf backend")
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", target, err)
	}
	r.Close()
	g, err := openGroup(events, cmd.Process.Pid, modeExec)
	if err != nil {
		w.Close()
		cmd.Process.Kill()
		cmd.Wait()
		return nil, err
	}
	defer g.close()
	start := time.Now()
	if _, err := w.Write([]byte("go\n")); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("releasing %s: %w", target, err)
	}
	w.Close()
	werr := cmd.Wait()
	wall := time.Since(start)
	res, err := finish(cmd, werr, wall)
	if err != nil {
		return nil, err
	}
	if err := g.read(); err != nil {
		return nil, fmt.Errorf("reading counters of %s: %w", target, err)
	}
	res.Counts = append([]Count(nil), g.counts...)
	return res, nil
}

func countCallgrind(events []Event, cmd *exec.Cmd) (*Result, error) {
	if len(events) != 1 || !isInstructions(events[0]) {
		return nil, fmt.Errorf("the callgrind backend counts instructions only (callgrind's Ir), not %q", eventNames(events))
	}
	vg, err := ValgrindPath()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "purecount-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "callgrind.out")
	target := cmd.Path
	env := cmd.Environ()
	// The same settings that keep Go programs alive under this valgrind;
	// the whole command is counted, so no marker toggles collection.
	env = append(env, CallgrindEnv(out)[:3]...) // not the region toggle
	cmd.Env = env
	cmd.Args = append([]string{"valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, "--log-file=" + filepath.Join(dir, "valgrind.log"), target}, cmd.Args[1:]...)
	cmd.Path = vg
	start := time.Now()
	werr := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		return nil, fmt.Errorf("starting valgrind for %s: %w", target, werr)
	}
	res, err := finish(cmd, werr, wall)
	if err != nil {
		return nil, err
	}
	ir, err := readCallgrindTotal(out)
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "valgrind.log"))
		return nil, fmt.Errorf("callgrind wrote no count for %s: %v; valgrind said: %s", target, err, lastLines(string(log), 5))
	}
	res.Counts = []Count{{Event: events[0].Name, Value: ir, Source: SourceCallgrind}}
	return res, nil
}

func finish(cmd *exec.Cmd, werr error, wall time.Duration) (*Result, error) {
	var exitErr *exec.ExitError
	if werr != nil && !errors.As(werr, &exitErr) {
		return nil, werr
	}
	res := &Result{Machine: ThisMachine(), Wall: wall, ExitCode: cmd.ProcessState.ExitCode()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.Rusage = &Rusage{
			User:   time.Duration(ru.Utime.Nano()),
			System: time.Duration(ru.Stime.Nano()),
			MaxRSS: ru.Maxrss * 1024,
		}
	}
	return res, nil
}

func hasEnv(env []string, key string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, key+"=") {
			return true
		}
	}
	return false
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
