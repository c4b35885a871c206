//go:build linux

package httpbench

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// CPUClock returns the CPU time process pid has used so far, all its
// threads (those that ended included), user and system together, in
// nanoseconds: the kernel's own sum of run time, read through the
// process's CPU-time clock (clock_gettime on the clock id
// clock_getcpuclockid gives, computed here as glibc does). Unlike
// /proc/PID/stat's utime and stime, which count 10 ms ticks, it is exact
// enough to time windows of a fraction of a second.
func CPUClock(pid int) (time.Duration, error) {
	// MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED): ((~pid) << 3) | 2.
	id := int32((^pid)<<3 | 2)
	var ts unix.Timespec
	if err := unix.ClockGettime(id, &ts); err != nil {
		return 0, fmt.Errorf("CPU time of process %d: %w (has it exited?)", pid, err)
	}
	return time.Duration(ts.Nano()), nil
}
