package load

import (
	"io"
	"syscall"
	"unsafe"
)

// rawIO reads and writes one TCP connection's non-blocking socket with raw
// system calls, through the runtime poller (syscall.RawConn) for waiting
// and deadlines.
//
// Why: net.Conn's Read and Write tell the scheduler they enter a system
// call. On a CPU shared with other processes a loopback write (which runs
// the server's receive path) often exceeds the 20 µs after which the
// runtime's monitor hands the P to another thread; the monitor then keeps
// waking every 20 µs, and threads ping-pong. Raw calls on a non-blocking
// socket never block, so the scheduler needs no notice, and the generator
// stays one busy thread, like wrk's event loop. In hand runs (experiment
// 026's findings.md) this took a fifth off the CPU per keep-alive request
// and most of the involuntary context switches.
//
// The callbacks handed to RawConn are method values made once, so a read
// or a write allocates nothing. A rawIO belongs to one goroutine.
type rawIO struct {
	rc    syscall.RawConn
	p     []byte
	n     int
	errno syscall.Errno

	readFn, writeFn func(fd uintptr) bool
}

func newRawIO() *rawIO {
	r := &rawIO{}
	r.readFn, r.writeFn = r.doRead, r.doWrite
	return r
}

// attach points r at c's socket; it reports false when c has none (then
// the caller uses c itself).
func (r *rawIO) attach(c socket) bool {
	rc, err := c.SyscallConn()
	if err != nil {
		return false
	}
	r.rc = rc
	return true
}

// Read reads what the socket holds, waiting until it holds something.
func (r *rawIO) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r.p, r.n, r.errno = p, 0, 0
	if err := r.rc.Read(r.readFn); err != nil {
		return 0, err // deadline exceeded, or the connection closed
	}
	if r.errno != 0 {
		return 0, r.errno
	}
	if r.n == 0 {
		return 0, io.EOF
	}
	return r.n, nil
}

func (r *rawIO) doRead(fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&r.p[0])), uintptr(len(r.p)))
		switch e {
		case 0:
			r.n = int(n)
			return true
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false // wait for the poller
		default:
			r.errno = e
			return true
		}
	}
}

// Write writes all of p, waiting for room as needed. It sends with
// MSG_NOSIGNAL: a reset connection is an EPIPE error, never a signal.
func (r *rawIO) Write(p []byte) (int, error) {
	r.p, r.n, r.errno = p, 0, 0
	if err := r.rc.Write(r.writeFn); err != nil {
		return r.n, err
	}
	if r.errno != 0 {
		return r.n, r.errno
	}
	return r.n, nil
}

func (r *rawIO) doWrite(fd uintptr) bool {
	for r.n < len(r.p) {
		n, _, e := syscall.RawSyscall6(syscall.SYS_SENDTO, fd, uintptr(unsafe.Pointer(&r.p[r.n])),
			uintptr(len(r.p)-r.n), syscall.MSG_NOSIGNAL, 0, 0)
		switch e {
		case 0:
			r.n += int(n)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			r.errno = e
			return true
		}
	}
	return true
}
