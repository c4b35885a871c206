package measure

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"time"

	"workbench/experiments/lab/build"
	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/suite"
)

// gateArgs returns args (a Measure's, ending -r N --json NAME) with --gate
// before -r.
func gateArgs(args []string) []string {
	i := slices.Index(args, "-r")
	if i < 0 {
		i = len(args)
	}
	return slices.Concat(args[:i], []string{"--gate"}, args[i:])
}

// gatedResult is what one side's gated process did.
type gatedResult struct {
	ms     expdir.Measurement
	stdout []byte
	tail   string
}

// gatedProc is one side's process in a gated round: the runner writes a
// byte on goW to let it count a region and reads one from doneR when the
// region is done (the protocol is in cmd/pure-count/gate.go and
// docs/pure-count-json.md).
type gatedProc struct {
	cmd    *exec.Cmd
	cancel context.CancelFunc
	runCtx context.Context
	goW    *os.File
	doneR  *os.File
	out    bytes.Buffer
	stderr *tailBuffer
	ms     expdir.Measurement
	alive  bool
}

// invokeGated runs one process per side, side by side under the controls,
// and alternates their regions one by one: order[0] counts the first
// region, then order[1] the next two, order[0] the next two, and so on
// (A B B A A B ...), so neither side always goes first. Only one process
// runs at a time; the other waits in a read. The processes start one after
// the other, each once RunDir/bin points at its side's fresh copy and until
// it reports ready, so both are invoked through the same path with the same
// argv.
// A process that fails leaves the other to count its regions alone. The
// error is non-nil only when ctx was cancelled or the harness failed.
func invokeGated(ctx context.Context, c *Controls, timeout time.Duration, m suite.Measure, builds []expdir.Build, args []string, order []int, regions int) ([]gatedResult, error) {
	if m.Timeout > 0 {
		timeout = m.Timeout
	}
	procs := make([]*gatedProc, len(builds))
	defer func() {
		for _, p := range procs {
			if p != nil && p.cmd.ProcessState == nil && p.cmd.Process != nil {
				p.cmd.Cancel()
				p.cmd.Wait()
			}
		}
	}()
	// Both sides' copies are made before either process starts, and both
	// stay until the round is over, so the two processes meet the same
	// files' history: none of theirs is written while the other runs, or
	// removed under it.
	dirs := make([]string, len(builds))
	for _, i := range order {
		dir, err := c.copyBuild(builds[i])
		if err != nil {
			return nil, err
		}
		dirs[i] = dir
	}
	for _, i := range order {
		if err := c.point(dirs[i]); err != nil {
			return nil, err
		}
		procs[i] = startGated(ctx, c, timeout, m, args)
		procs[i].step(false) // ready: it has started and prepared
	}
	for k := range regions {
		turn := order
		if k%2 == 1 {
			turn = []int{order[1], order[0]}
		}
		for _, i := range turn {
			procs[i].step(true)
		}
	}
	res := make([]gatedResult, len(procs))
	for i, p := range procs {
		res[i] = p.finish(timeout)
	}
	c.tidy() // on an early return, the next Use removes them
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%w: %w", ErrInterrupted, ctx.Err())
	}
	return res, nil
}

// startGated starts one gated process; one that cannot start is not alive,
// and its Measurement says why.
func startGated(ctx context.Context, c *Controls, timeout time.Duration, m suite.Measure, args []string) *gatedProc {
	p := &gatedProc{ms: expdir.Measurement{Backend: m.Backend, Args: args, ExitCode: -1}, stderr: &tailBuffer{max: stderrKeep}}
	argv := append(c.Prefix(), c.Program(m.Tool))
	argv = append(argv, args...)
	p.runCtx, p.cancel = context.WithTimeout(ctx, timeout)
	cmd := exec.CommandContext(p.runCtx, argv[0], argv[1:]...)
	p.cmd = cmd
	cmd.Dir = c.RunDir
	cmd.Env = c.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	cmd.Stdout, cmd.Stderr = &p.out, p.stderr
	goR, goW, err := os.Pipe()
	if err != nil {
		p.ms.Error = fmt.Sprintf("making the gate's pipes: %v", err)
		return p
	}
	doneR, doneW, err := os.Pipe()
	if err != nil {
		goR.Close()
		goW.Close()
		p.ms.Error = fmt.Sprintf("making the gate's pipes: %v", err)
		return p
	}
	cmd.ExtraFiles = []*os.File{goR, doneW} // fd 3 and 4 in the subject
	p.goW, p.doneR = goW, doneR
	p.ms.Start = time.Now().UTC()
	err = cmd.Start()
	goR.Close()
	doneW.Close()
	if err != nil {
		p.ms.Error = fmt.Sprintf("could not start %s: %v", argv[0], err)
		return p
	}
	p.alive = true
	return p
}

// step lets p count its next region (when signal) and waits until it says
// it is done; without signal it only waits (for the first, "ready"). A
// process that has ended, or ends meanwhile, is no longer alive: the pipe
// reads as ended once every copy of its write end is closed, which a crash
// or a kill on timeout does.
func (p *gatedProc) step(signal bool) {
	if !p.alive {
		return
	}
	if signal {
		if _, err := p.goW.Write([]byte{1}); err != nil {
			p.alive = false
			return
		}
	}
	var b [1]byte
	if n, _ := p.doneR.Read(b[:]); n != 1 {
		p.alive = false
	}
}

// finish closes p's gate (a process still waiting on it ends), waits for
// it and describes what it did, as invoke does.
func (p *gatedProc) finish(timeout time.Duration) gatedResult {
	defer p.cancel()
	if p.goW != nil {
		p.goW.Close()
		defer p.doneR.Close()
	}
	if p.cmd.Process == nil {
		return gatedResult{ms: p.ms}
	}
	p.cmd.Wait()
	p.ms.Wall = time.Since(p.ms.Start)
	if ps := p.cmd.ProcessState; ps != nil {
		p.ms.ExitCode = ps.ExitCode()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			p.ms.PeakRSS = ru.Maxrss * 1024
		}
	}
	if errors.Is(p.runCtx.Err(), context.DeadlineExceeded) {
		p.ms.Error = fmt.Sprintf("killed after its timeout of %v", timeout)
	}
	return gatedResult{ms: p.ms, stdout: p.out.Bytes(), tail: build.Tail(p.stderr.Bytes(), 20, 2000)}
}
