package main

import (
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"workbench/perfcount"
)

// timedMeasure runs r.Measure(fn) and returns its wall and thread CPU time in
// nanoseconds. The clocks are read outside the counted region, without
// entering the scheduler's system-call path (see quiet.go).
func timedMeasure(r *perfcount.Region, fn func()) (wall, cpu int64, err error) {
	t0 := threadCPU()
	start := time.Now()
	err = r.Measure(fn)
	wall = int64(time.Since(start))
	return wall, threadCPU() - t0, err
}

func threadCPU() int64 {
	var ts unix.Timespec
	unix.RawSyscall(unix.SYS_CLOCK_GETTIME, unix.CLOCK_THREAD_CPUTIME_ID, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}
