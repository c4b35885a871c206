//go:build linux

package serve

import (
	"errors"
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
	flags uintptr // sendmsg's flags: MSG_NOSIGNAL, and MSG_MORE before a sendfile
	errno syscall.Errno

	// What is left of a Sendfile: the file's descriptor, the offset to
	// send from (advanced by the kernel), the bytes left.
	sfFile int
	sfOff  int64
	sfLeft int
	sfErr  error

	writeFn    func(fd uintptr) bool
	sendfileFn func(fd uintptr) bool
}

// sendfileWaitHook, when set (by tests, before serving), is called each
// time a Sendfile finds the socket full and waits for room.
var sendfileWaitHook func()

// errShortFile is a Sendfile that met the end of the file before the
// body's end, which the store's contract (a lent value's bytes stay in its
// file until released) rules out.
var errShortFile = errors.New("serve: sendfile reached the end of the store's file before the end of the body (the file was truncated under a lent value)")

// iovMax is the most iovec entries one sendmsg takes (Linux's UIO_MAXIOV).
const iovMax = 1024

func (r *rawIO) init() {
	r.writeFn = r.doWrite
	r.sendfileFn = r.doSendfile
	r.iov = make([]unix.Iovec, 0, 8) // grows to a pipelined batch's need
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
// it holds nothing. It calls recvfrom rather than read, which reaches the
// socket without the file layer's checks (vfs_read, rw_verify_area: about
// 1.5 % of the server's CPU on pipelined GETs).
func (r *rawIO) readFd(fd uintptr, p []byte) (int, syscall.Errno) {
	for {
		n, _, e := syscall.RawSyscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), 0, 0, 0)
		if e != syscall.EINTR {
			return int(n), e
		}
	}
}

// Writev sends all of bufs with as few sendmsg calls as the socket
// allows (MSG_NOSIGNAL: a reset connection is an EPIPE error, never a
// signal), waiting for room as needed. It consumes bufs' entries. more
// says that a Sendfile follows at once (MSG_MORE), so that a head and its
// body can share segments.
func (r *rawIO) Writev(bufs [][]byte, more bool) error {
	r.bufs, r.errno = bufs, 0
	r.flags = syscall.MSG_NOSIGNAL
	if more {
		r.flags |= unix.MSG_MORE
	}
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
		var n uintptr
		var e syscall.Errno
		if len(r.iov) == 1 {
			// One range (a batch of small answers, contiguous in the
			// answer buffer): sendto takes it without sendmsg's copy of
			// the message header and the iovec array.
			n, _, e = syscall.RawSyscall6(syscall.SYS_SENDTO, fd, uintptr(unsafe.Pointer(r.iov[0].Base)), uintptr(r.iov[0].Len), r.flags, 0, 0)
		} else {
			r.msg.Iov = &r.iov[0]
			r.msg.SetIovlen(len(r.iov))
			n, _, e = syscall.RawSyscall(syscall.SYS_SENDMSG, fd, uintptr(unsafe.Pointer(&r.msg)), r.flags)
		}
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

// Sendfile sends n bytes of file from offset off with sendfile(2): the
// kernel hands the page cache's pages to the socket, and the process
// copies nothing. The offset is the call's own (never the file's
// position, which every borrower of the descriptor shares). It waits for
// room as Writev does, under the same write deadline.
func (r *rawIO) Sendfile(file int, off int64, n int) error {
	r.sfFile, r.sfOff, r.sfLeft, r.sfErr = file, off, n, nil
	err := r.rc.Write(r.sendfileFn)
	if err != nil {
		return err
	}
	return r.sfErr
}

func (r *rawIO) doSendfile(fd uintptr) bool {
	for r.sfLeft > 0 {
		n, _, e := syscall.RawSyscall6(syscall.SYS_SENDFILE, fd, uintptr(r.sfFile),
			uintptr(unsafe.Pointer(&r.sfOff)), uintptr(r.sfLeft), 0, 0)
		switch e {
		case 0:
			if n == 0 {
				r.sfErr = errShortFile
				return true
			}
			r.sfLeft -= int(n) // the kernel advanced sfOff
		case syscall.EINTR:
		case syscall.EAGAIN:
			if sendfileWaitHook != nil {
				sendfileWaitHook()
			}
			return false // wait for room
		default:
			r.sfErr = e
			return true
		}
	}
	return true
}
