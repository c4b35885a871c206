//go:build linux

package serve

import (
	"net"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// rawIO reads and writes a connection's non-blocking socket with raw
// system calls, waiting through the runtime's poller (syscall.RawConn),
// which also enforces the deadlines.
//
// Why: net.Conn's Read and Write tell the scheduler they enter a system
// call (entersyscall/exitsyscall). With the server on one CPU, a loopback
// writev (which runs the client's receive path too) often lasts long
// enough that the runtime's monitor (sysmon) hands the P to another
// thread, and a syscall after an idle moment wakes the sleeping monitor;
// either way the monitor then polls every 20 µs on the server's CPU. In a
// profile of pipelined 64 B GETs (busy machine) the monitor's wakeups and
// context switches were 17 % of the server's CPU. A read or a send on a
// non-blocking socket never blocks, so the scheduler needs no notice: the
// connection's goroutine stays on its thread. (pure/load does the same for
// the client side.) The cost: a long copy (a 1 MiB body into the socket
// buffer) cannot be preempted, and a stop-the-world waits for it to end.
//
// The callback handed to RawConn.Write is a method value made once, and so
// is the connection's read loop (conn.step), so reads and writes allocate
// nothing. A rawIO belongs to its connection's
// goroutine.
type rawIO struct {
	rc    syscall.RawConn
	bufs  [][]byte // what is left to send
	iov   []unix.Iovec
	msg   unix.Msghdr
	errno syscall.Errno

	writeFn func(fd uintptr) bool
}

// iovMax is the most iovec entries one sendmsg takes (Linux's UIO_MAXIOV).
const iovMax = 1024

func (r *rawIO) init() {
	r.writeFn = r.doWrite
	r.iov = make([]unix.Iovec, 0, 32)
}

// attach points r at nc's socket; it reports false when nc has none
// (then the connection uses nc's own Read and Write).
func (r *rawIO) attach(nc net.Conn) bool {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	r.rc = rc
	return true
}

// detach forgets the socket and what pointed into buffers.
func (r *rawIO) detach() {
	r.rc, r.bufs = nil, nil
	clear(r.iov[:cap(r.iov)])
}

// loop runs f as the callback of one RawConn.Read: f is called, and
// called again each time the socket becomes readable after it returned
// false, until it returns true (see conn.step). It returns the error that
// ended the wait: the read deadline, or the connection closed.
func (r *rawIO) loop(f func(fd uintptr) bool) error {
	return r.rc.Read(f)
}

// readFd reads what socket fd holds into p without blocking: EAGAIN when
// it holds nothing.
func (r *rawIO) readFd(fd uintptr, p []byte) (int, syscall.Errno) {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		if e != syscall.EINTR {
			return int(n), e
		}
	}
}

// Writev sends all of bufs with as few sendmsg calls as the socket
// allows (MSG_NOSIGNAL: a reset connection is an EPIPE error, never a
// signal), waiting for room as needed. It consumes bufs' entries.
func (r *rawIO) Writev(bufs [][]byte) error {
	r.bufs, r.errno = bufs, 0
	err := r.rc.Write(r.writeFn)
	r.bufs = nil
	if err != nil {
		return err
	}
	if r.errno != 0 {
		return r.errno
	}
	return nil
}

func (r *rawIO) doWrite(fd uintptr) bool {
	for {
		for len(r.bufs) > 0 && len(r.bufs[0]) == 0 {
			r.bufs = r.bufs[1:]
		}
		if len(r.bufs) == 0 {
			return true
		}
		r.iov = r.iov[:0]
		for _, b := range r.bufs[:min(len(r.bufs), iovMax)] {
			if len(b) > 0 {
				r.iov = append(r.iov, unix.Iovec{Base: &b[0]})
				r.iov[len(r.iov)-1].SetLen(len(b))
			}
		}
		r.msg.Iov = &r.iov[0]
		r.msg.SetIovlen(len(r.iov))
		n, _, e := syscall.RawSyscall(syscall.SYS_SENDMSG, fd, uintptr(unsafe.Pointer(&r.msg)), syscall.MSG_NOSIGNAL)
		switch e {
		case 0:
			r.consume(int(n))
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false // wait for room
		default:
			r.errno = e
			return true
		}
	}
}

// consume drops the first n sent bytes from bufs.
func (r *rawIO) consume(n int) {
	for n > 0 {
		if n < len(r.bufs[0]) {
			r.bufs[0] = r.bufs[0][n:]
			return
		}
		n -= len(r.bufs[0])
		r.bufs = r.bufs[1:]
	}
}
