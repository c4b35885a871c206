package main

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"workbench/perfcount"
	"workbench/perfcount/qemutrace"
	"workbench/perfcount/quiet"
)

// run --arch ARCH counts a workload's instructions on another instruction
// set: a pure-count built for ARCH runs the workload's region between
// qemutrace's marker functions under qemu-user, and the host reads qemu's
// execution log (perfcount/qemutrace). The counts' source is "qemu-ARCH":
// a third instrument, never compared with perf's or callgrind's.

// emulatedQuietDelay is the quiet start's idle time under qemu: longer than
// quietDelay because the emulated runtime is slower to go idle (the same as
// notebooks/qcount's).
const emulatedQuietDelay = 500 * time.Millisecond

// checkArchFlags rejects the run flags that do not apply to --arch.
func checkArchFlags(arch string, c common, f runFlags, set map[string]bool) error {
	if !slices.Contains(qemutrace.Arches, arch) {
		return usageError(fmt.Sprintf("--arch %s: pure-count counts emulated instructions for %s (under qemu-user); leave --arch out to count natively", arch, strings.Join(qemutrace.Arches, " or ")))
	}
	if set["backend"] {
		return usageError(fmt.Sprintf("--arch %s counts with qemu's execution log (source qemu-%s): drop --backend", arch, arch))
	}
	if c.events != "" && c.events != "instructions" {
		return usageError(fmt.Sprintf("-e %s: --arch counts instructions only; drop -e", c.events))
	}
	if *f.regions != 1 || *f.rerun || *f.gate || *f.dumpDir != "" {
		return usageError("--regions, --rerun, --gate and --dump-dir do not apply to --arch: it counts one region per emulated process")
	}
	return nil
}

// elfMachines are the ELF machines of the architectures qemutrace knows.
var elfMachines = map[string]elf.Machine{"arm64": elf.EM_AARCH64, "amd64": elf.EM_X86_64}

// guestBinary returns a pure-count for arch: the one named by --guest,
// after checking its architecture, or one cross-built from the workbench
// module the working directory is in, into dir.
func guestBinary(ctx context.Context, guest, arch, dir string) (string, error) {
	if guest == "" {
		guest = filepath.Join(dir, "pure-count-"+arch)
		cmd := exec.CommandContext(ctx, "go", "build", "-o", guest, "workbench/cmd/pure-count")
		cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+arch, "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("--arch %s: cross-building pure-count (go build workbench/cmd/pure-count, from the workbench checkout): %v: %s; run from the checkout, or build it there (GOOS=linux GOARCH=%s go build ./cmd/pure-count) and pass --guest PATH",
				arch, err, lastLines(string(out), 3), arch)
		}
	}
	f, err := elf.Open(guest)
	if err != nil {
		return "", fmt.Errorf("--guest %s: %v: pass a pure-count built with GOOS=linux GOARCH=%s", guest, err, arch)
	}
	defer f.Close()
	if f.Machine != elfMachines[arch] {
		return "", fmt.Errorf("--guest %s is built for %v, not %s: build it with GOOS=linux GOARCH=%s go build ./cmd/pure-count", guest, f.Machine, arch, arch)
	}
	return guest, nil
}

// measureEmulated counts one workload once: the guest pure-count runs
// __measure --qemu under qemu with its log on a pipe (fd 5), after the
// quiet start (fd 3 and 4), and the log's region count is the result.
func measureEmulated(ctx context.Context, qemu, guest, arch, name string, ops int) ([]measured, error) {
	args := append(qemutrace.LogArgs(5), guest, measureCmd, "--qemu", "-n", strconv.Itoa(ops), "--quiet-start", name)
	cmd := exec.CommandContext(ctx, qemu, args...)
	cmd.Env = append(os.Environ(), qemutrace.GuestEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	after, cleanup, err := quiet.Parent(cmd, emulatedQuietDelay)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	cmd.ExtraFiles = append(cmd.ExtraFiles, pw) // fd 5
	err = cmd.Start()
	pw.Close()
	if err != nil {
		return nil, fmt.Errorf("workload %s: starting %s: %w", name, qemu, err)
	}
	herr := make(chan error, 1)
	go func() {
		err := after()
		if err != nil {
			cmd.Process.Kill() // a guest left waiting for the go-ahead would never end the log
		}
		herr <- err
	}()
	t, rerr := qemutrace.Read(pr, qemutrace.Options{})
	io.Copy(io.Discard, pr) // let qemu finish writing if the read stopped early
	werr := cmd.Wait()
	if werr != nil {
		msg := strings.TrimPrefix(lastLines(errb.String(), 3), "pure-count: ")
		var ee *exec.ExitError
		if errors.As(werr, &ee) {
			return nil, fmt.Errorf("workload %s under %s: %s (guest %v)", name, filepath.Base(qemu), msg, ee.ProcessState)
		}
		return nil, fmt.Errorf("workload %s under %s: %w", name, filepath.Base(qemu), werr)
	}
	if err := <-herr; err != nil {
		return nil, fmt.Errorf("workload %s: quiet start: %w", name, err)
	}
	if rerr != nil {
		return nil, fmt.Errorf("workload %s: %w", name, rerr)
	}
	if err := t.Err(); err != nil {
		return nil, fmt.Errorf("workload %s: %w", name, err)
	}
	var m measured
	if err := json.NewDecoder(&out).Decode(&m); err != nil {
		return nil, fmt.Errorf("workload %s: the guest printed no result (%v); stderr: %s", name, err, lastLines(errb.String(), 3))
	}
	m.Counts = []perfcount.Count{{Event: "instructions", Value: t.Region, Source: perfcount.SourceQemu(arch)}}
	return []measured{m}, nil
}

// measureQemuGuest is __measure --qemu, in the emulated guest: after the
// quiet start it runs the region between qemutrace's markers and prints a
// result without counts, which the host fills in from qemu's log. It
// reports no times: they would be the emulator's.
func measureQemuGuest(name string, ops int, runFn func(), quietStart bool, stdout io.Writer) error {
	if quietStart {
		quiet.SettleHeap()
		quiet.GrowStack(stackReserve)
		if err := quiet.Child(); err != nil {
			return err
		}
	}
	qemutrace.Region(runFn)
	// After the region, as in cmdMeasure: reading the machine's facts
	// makes system calls.
	return json.NewEncoder(stdout).Encode(measured{Workload: name, Ops: ops, Machine: perfcount.ThisMachine()})
}
