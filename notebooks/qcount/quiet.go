package main

import (
	"os/exec"
	"time"

	"workbench/perfcount/quiet"
)

// The quiet start, as in cmd/pure-count (package workbench/perfcount/quiet
// explains it): under an emulator the region runs for seconds, and the
// runtime's monitor thread would preempt it hundreds of times.

// quietDelay is how long the host lets the guest idle; longer than
// pure-count's 150 ms because the emulated runtime is slower to go idle.
const quietDelay = 500 * time.Millisecond

// quietHost passes the handshake pipes as the guest's fds 3 (go) and 4
// (ready) and returns the function to call after Start.
func quietHost(cmd *exec.Cmd) (after func() error, cleanup func(), err error) {
	return quiet.Parent(cmd, quietDelay)
}

// quietGuest settles the heap and grows the stack, as pure-count does, then
// announces readiness on fd 4 and parks on fd 3 until the host's byte
// arrives.
func quietGuest() error {
	quiet.SettleHeap()
	quiet.GrowStack(512 << 10)
	return quiet.Child()
}
