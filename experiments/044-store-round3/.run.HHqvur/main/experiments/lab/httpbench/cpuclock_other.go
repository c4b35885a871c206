//go:build !linux

package httpbench

import (
	"errors"
	"time"
)

// CPUClock returns the CPU time process pid has used so far; it needs
// Linux.
func CPUClock(pid int) (time.Duration, error) {
	return 0, errors.New("reading another process's CPU time needs Linux")
}
