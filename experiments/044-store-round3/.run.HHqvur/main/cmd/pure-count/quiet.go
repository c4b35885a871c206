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

// The quiet start keeps the Go runtime's system monitor (sysmon) asleep while
// a region is counted under callgrind. sysmon preempts a goroutine that has
// run for 10 ms of wall time; under callgrind a region runs 50 to 100 times
// slower than natively, so it would be preempted many times more often than
// in a native run, and each preemption adds scheduler instructions to the
// region's thread at moments that depend on the wall clock. sysmon goes into
// a long sleep when every P is idle, and only a system call, a stop of the
// world or a P leaving a system call wakes it.
//
// So the child, once prepared, tells the parent it is ready (fd 4) and parks
// on a pipe (fd 3) through the network poller, leaving its P idle. The parent
// waits quietDelay, long enough for sysmon to notice and sleep, and writes
// one byte. The child wakes without entering a system call (the read is a
// raw one) and counts the region at once.

// quietDelay is how long the parent lets the child idle before the region.
const quietDelay = 150 * time.Millisecond

// quietParent prepares cmd's extra files for the handshake and returns the
// function to call after cmd.Start; it performs the handshake.
func quietParent(cmd *exec.Cmd) (after func() error, cleanup func(), err error) {
	return quietParentDelay(cmd, quietDelay)
}

// quietParentDelay is quietParent with the child's idle time given.
func quietParentDelay(cmd *exec.Cmd, delay time.Duration) (after func() error, cleanup func(), err error) {
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
	cmd.ExtraFiles = []*os.File{goR, readyW} // fd 3, fd 4 in the child
	cleanup = func() { goR.Close(); goW.Close(); readyR.Close(); readyW.Close() }
	after = func() error {
		goR.Close()
		readyW.Close()
		b := make([]byte, 1)
		if n, _ := readyR.Read(b); n != 1 {
			return fmt.Errorf("the child ended before it was ready")
		}
		time.Sleep(delay)
		_, err := goW.Write(b)
		return err
	}
	return after, cleanup, nil
}

// quietChild is the child's half: announce readiness on fd 4, then park on
// fd 3 until the parent's byte arrives, reading it with a raw system call.
func quietChild() error {
	if err := unix.SetNonblock(3, true); err != nil {
		return fmt.Errorf("quiet start: fd 3: %w", err)
	}
	goFile := os.NewFile(3, "go")
	ready := os.NewFile(4, "ready")
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

// ballastBytes is the heap grown and freed before a region, so that the
// region's allocations come from free pages instead of growing the heap at a
// point that depends on what the runtime did in the background before it.
const ballastBytes = 256 << 20

var ballast []byte

// settleHeap grows the heap by ballastBytes, frees it, collects and returns
// all free memory to the operating system, so that no collector or
// scavenger work is pending when the region starts: the background
// scavenger would otherwise release pages at moments that depend on the wall
// clock. debug.FreeOSMemory returns only after it has swept every span and
// scavenged, so the ballast's pages are free and released by then.
//
// Measured under callgrind (10 runs each): the spread of alloc-strings-10k
// fell from 0.3 % (occasional heap growth inside the region) to 0.015 %,
// and that of map-insert-1k from about 1 % to 0.28 %, the rest being Go's
// random map seeds (runtime.mapassign_fast64 differs between runs).
func settleHeap() {
	ballast = make([]byte, ballastBytes)
	ballast = nil
	debug.FreeOSMemory()
}

// stackReserve is how much goroutine stack growStack makes room for.
const stackReserve = 512 << 10

// growStack grows the calling goroutine's stack to at least stackReserve
// bytes, so that the region does not copy its stack: copying walks frames
// through the runtime's pcvalue cache, which evicts entries at random, so
// its instruction count differs from run to run. The stack is shrunk only by
// a garbage collection, and none runs after this (GOGC=off).
func growStack() { growStackFrames(stackReserve / 1024) }

//go:noinline
func growStackFrames(n int) byte {
	var frame [1024]byte
	frame[n%len(frame)] = byte(n)
	if n <= 1 {
		return frame[0]
	}
	return growStackFrames(n-1) + frame[1]
}
