package load

import (
	"io"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// sock is one connection's non-blocking TCP socket, read and written with
// raw system calls. It joins the runtime's poller (as an *os.File, whose
// RawConn does the waiting and the deadlines) only the first time a call
// finds it not ready; until then it is a bare descriptor.
//
// Why raw calls: net.Conn's Read and Write tell the scheduler they enter a
// system call. On a CPU shared with other processes a loopback write (which
// runs the server's receive path) often exceeds the 20 µs after which the
// runtime's monitor hands the P to another thread; the monitor then keeps
// waking every 20 µs, and threads ping-pong. Raw calls on a non-blocking
// socket never block, so the scheduler needs no notice, and the generator
// stays one busy thread, like wrk's event loop. In hand runs (experiment
// 026's findings.md) this took a fifth off the CPU per keep-alive request
// and most of the involuntary context switches.
//
// Why join the poller late: a connection that carries one request
// (--close) is usually answered before its first read, if the read waits
// for the other connections' turn (one runtime.Gosched before the first
// read of a socket not in the poller). Such a connection never joins:
// os.NewFile's fcntl and finalizer, the poller's two epoll_ctl calls and
// the read that fails with EAGAIN are saved (probe 993 and experiment 141
// measure it). A keep-alive connection joins at its first wait and stays.
//
// The callbacks handed to RawConn are method values made once, so a read
// or a write allocates nothing. A sock belongs to one worker and is reused
// for each of its connections; only SetDeadline and Close may be called
// from another goroutine (halt), and they take mu.
type sock struct {
	fd int // -1 when closed

	mu sync.Mutex      // guards f and dl against halt's SetDeadline
	f  *os.File        // the socket in the poller; nil until a call would block
	rc syscall.RawConn // f's
	dl time.Time       // the deadline, for when the socket joins the poller

	yielded bool  // the one Gosched before a first read happened
	joins   int64 // connections that joined the poller (tests read it)

	p     []byte
	n     int
	errno syscall.Errno

	readFn, writeFn func(fd uintptr) bool
}

func newSock() *sock {
	s := &sock{fd: -1}
	s.readFn, s.writeFn = s.doRead, s.doWrite
	return s
}

// open makes s the bare socket fd.
func (s *sock) open(fd int) {
	s.mu.Lock()
	s.fd, s.f, s.rc, s.dl = fd, nil, nil, time.Time{}
	s.mu.Unlock()
	s.yielded = false
}

// join registers the socket with the runtime's poller, with the deadline
// set so far.
func (s *sock) join() error {
	f := os.NewFile(uintptr(s.fd), "tcp")
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	s.joins++
	s.mu.Lock()
	defer s.mu.Unlock()
	s.f, s.rc = f, rc
	if !s.dl.IsZero() {
		return f.SetDeadline(s.dl)
	}
	return nil
}

// SetDeadline sets the deadline of the calls that wait (in the poller); a
// raw call never waits.
func (s *sock) SetDeadline(t time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dl = t
	if s.f != nil {
		return s.f.SetDeadline(t)
	}
	return nil
}

// Close closes the socket (through the poller when it joined).
func (s *sock) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	if s.f != nil {
		err = s.f.Close()
	} else if s.fd >= 0 {
		// A socket without SO_LINGER closes without waiting; a raw call
		// keeps the scheduler out of it, as for reads and writes.
		if _, _, e := syscall.RawSyscall(syscall.SYS_CLOSE, uintptr(s.fd), 0, 0); e != 0 {
			err = os.NewSyscallError("close", e)
		}
	}
	s.fd, s.f, s.rc = -1, nil, nil
	return err
}

// Read reads what the socket holds, waiting until it holds something.
func (s *sock) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s.p, s.n, s.errno = p, 0, 0
	if s.rc == nil {
		if !s.yielded {
			// Let the other connections run first: the answer is then
			// usually here, and the socket never needs the poller.
			s.yielded = true
			runtime.Gosched()
		}
		if !s.doRead(uintptr(s.fd)) {
			if err := s.join(); err != nil {
				return 0, err
			}
		}
	}
	if s.rc != nil {
		if err := s.rc.Read(s.readFn); err != nil {
			return 0, err // deadline exceeded, or the connection closed
		}
	}
	if s.errno != 0 {
		return 0, s.errno
	}
	if s.n == 0 {
		return 0, io.EOF
	}
	return s.n, nil
}

func (s *sock) doRead(fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&s.p[0])), uintptr(len(s.p)))
		switch e {
		case 0:
			s.n = int(n)
			return true
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false // wait for the poller
		default:
			s.errno = e
			return true
		}
	}
}

// Write writes all of p, waiting for room as needed. It sends with
// MSG_NOSIGNAL: a reset connection is an EPIPE error, never a signal. On a
// socket still connecting (not yet writable) it waits in the poller, which
// also reports a refused connect (isConnectErrno).
func (s *sock) Write(p []byte) (int, error) {
	s.p, s.n, s.errno = p, 0, 0
	if s.rc == nil && !s.doWrite(uintptr(s.fd)) {
		if err := s.join(); err != nil {
			return s.n, err
		}
	}
	if s.rc != nil {
		if err := s.rc.Write(s.writeFn); err != nil {
			return s.n, err
		}
	}
	if s.errno != 0 {
		return s.n, s.errno
	}
	return s.n, nil
}

func (s *sock) doWrite(fd uintptr) bool {
	for s.n < len(s.p) {
		n, _, e := syscall.RawSyscall6(syscall.SYS_SENDTO, fd, uintptr(unsafe.Pointer(&s.p[s.n])),
			uintptr(len(s.p)-s.n), syscall.MSG_NOSIGNAL, 0, 0)
		switch e {
		case 0:
			s.n += int(n)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			s.errno = e
			return true
		}
	}
	return true
}
