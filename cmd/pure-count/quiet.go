package main

import "time"

// The quiet start (package workbench/perfcount/quiet explains it) keeps the
// Go runtime's system monitor asleep while a region is counted under
// callgrind or qemu; these are pure-count's settings of it.

// quietDelay is how long the parent lets the child idle before the region.
const quietDelay = 150 * time.Millisecond

// stackReserve is how much goroutine stack the child makes room for before
// the region (quiet.GrowStack), so that the region does not copy its stack.
const stackReserve = 512 << 10
