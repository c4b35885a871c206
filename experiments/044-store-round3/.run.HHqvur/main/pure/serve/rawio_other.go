//go:build !linux

package serve

import (
	"net"
	"syscall"
)

// rawIO is Linux's raw socket calls (rawio.go); elsewhere connections use
// net.Conn's Read and Write.
type rawIO struct{}

func (r *rawIO) init()                   {}
func (r *rawIO) attach(nc net.Conn) bool { return false }
func (r *rawIO) detach()                 {}
func (r *rawIO) loop(f func(fd uintptr) bool) error {
	panic("serve: raw socket calls are Linux's")
}
func (r *rawIO) readFd(fd uintptr, p []byte) (int, syscall.Errno) {
	panic("serve: raw socket calls are Linux's")
}
func (r *rawIO) Writev(bufs [][]byte) error { panic("serve: raw socket calls are Linux's") }
