package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The quiet start, as in cmd/pure-count (quiet.go there explains it): the
// runtime's monitor thread (sysmon) preempts a goroutine that has run for
// 10 ms of wall time, and under an emulator the region runs for seconds, so
// it would be preempted hundreds of times, each time running scheduler code
// on the counted thread (measured: about 3 % more instructions in
// sort-ints-10k under qemu, varying by 0.5 %). So the guest, once prepared,
// parks on a pipe through the network poller (its P idle, so sysmon falls
// into a deep sleep), the host waits quietDelay and writes one byte, and
// the guest wakes without a system call and runs the region at once.

// quietDelay is how long the host lets the guest idle; longer than
// pure-count's 150 ms because the emulated runtime is slower to go idle.
const quietDelay = 500 * time.Millisecond

// quietHost passes the handshake pipes as the guest's fds 3 (go) and 4
// (ready) and returns the function to call after Start.
func quietHost(cmd *exec.Cmd) (after func() error, cleanup func(), err error) {
	goR, goW, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	readyR, readyW, err := os.Pipe()
	if err != nil {
		goR.Close()
		goW.Close()
		return nil, nil, err
	}
	cmd.ExtraFiles = append([]*os.File{goR, readyW}, cmd.ExtraFiles...)
	cleanup = func() { goR.Close(); goW.Close(); readyR.Close(); readyW.Close() }
	after = func() error {
		goR.Close()
		readyW.Close()
		b := make([]byte, 1)
		if n, _ := readyR.Read(b); n != 1 {
			return fmt.Errorf("the guest ended before it was ready")
		}
		time.Sleep(quietDelay)
		_, err := goW.Write(b)
		return err
	}
	return after, cleanup, nil
}

// quietGuest announces readiness on fd 4 and parks on fd 3 until the
// host's byte arrives, reading it with a raw system call.
func quietGuest() error {
	ballast = make([]byte, 256<<20) // settle the heap, as pure-count does
	ballast = nil
	debug.FreeOSMemory()
	growStackFrames(512)
	if err := unix.SetNonblock(3, true); err != nil {
		return fmt.Errorf("quiet start: fd 3: %w", err)
	}
	goFile, ready := os.NewFile(3, "go"), os.NewFile(4, "ready")
	if _, err := ready.Write([]byte{1}); err != nil {
		return fmt.Errorf("quiet start: fd 4: %w", err)
	}
	ready.Close()
	rc, err := goFile.SyscallConn()
	if err != nil {
		return err
	}
	var b [1]byte
	var rerr error
	err = rc.Read(func(fd uintptr) bool {
		n, _, e := unix.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&b[0])), 1)
		if e == unix.EAGAIN {
			return false
		}
		if e != 0 || n != 1 {
			rerr = fmt.Errorf("quiet start: reading the go-ahead: %v", e)
		}
		return true
	})
	if err != nil {
		return err
	}
	return rerr
}

var ballast []byte

// growStackFrames grows the goroutine's stack by n KiB, so that the region
// does not copy it (stack copying walks a cache that evicts at random).
//
//go:noinline
func growStackFrames(n int) byte {
	var frame [1024]byte
	frame[n%len(frame)] = byte(n)
	if n <= 1 {
		return frame[0]
	}
	return growStackFrames(n-1) + frame[1]
}
