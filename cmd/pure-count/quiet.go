package main

import (
	"os/exec"
	"time"

	"workbench/perfcount/quiet"
)

// The quiet start (package workbench/perfcount/quiet explains it) keeps the
// Go runtime's system monitor asleep while a region is counted under
// callgrind or qemu.

// quietDelay is how long the parent lets the child idle before the region.
const quietDelay = 150 * time.Millisecond

// quietParent prepares cmd's extra files for the handshake and returns the
// function to call after cmd.Start; it performs the handshake.
func quietParent(cmd *exec.Cmd) (after func() error, cleanup func(), err error) {
	return quiet.Parent(cmd, quietDelay)
}

// quietChild is the child's half of the handshake.
func quietChild() error { return quiet.Child() }

// settleHeap leaves no collector or scavenger work pending for the region
// (quiet.SettleHeap).
func settleHeap() { quiet.SettleHeap() }

// stackReserve is how much goroutine stack growStack makes room for.
const stackReserve = 512 << 10

// growStack grows the calling goroutine's stack to at least stackReserve
// bytes, so that the region does not copy its stack (quiet.GrowStack).
func growStack() { quiet.GrowStack(stackReserve) }
