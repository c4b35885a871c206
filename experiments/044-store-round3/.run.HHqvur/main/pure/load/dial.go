package load

import (
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"time"
)

// socket is an open connection as the worker uses it: *os.File from
// rawDial (and *net.TCPConn would do as well).
type socket interface {
	io.ReadWriteCloser
	SetDeadline(time.Time) error
	syscall.Conn
}

// sockAddr is the target's address resolved once for rawDial.
type sockAddr struct {
	family int
	sa     syscall.Sockaddr
}

// own returns a copy of a for one goroutine: syscall.Connect writes into
// the Sockaddr it is given, so workers must not share one.
func (a sockAddr) own() sockAddr {
	switch sa := a.sa.(type) {
	case *syscall.SockaddrInet4:
		return sockAddr{a.family, &syscall.SockaddrInet4{Port: sa.Port, Addr: sa.Addr}}
	case *syscall.SockaddrInet6:
		return sockAddr{a.family, &syscall.SockaddrInet6{Port: sa.Port, ZoneId: sa.ZoneId, Addr: sa.Addr}}
	}
	return a
}

// resolve resolves addr (host:port) once, before the run.
func resolve(addr string) (sockAddr, error) {
	ta, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return sockAddr{}, fmt.Errorf("resolving the target %s: %w (check the host name, or give an IP address)", addr, err)
	}
	if ip4 := ta.IP.To4(); ip4 != nil {
		sa := &syscall.SockaddrInet4{Port: ta.Port}
		copy(sa.Addr[:], ip4)
		return sockAddr{syscall.AF_INET, sa}, nil
	}
	sa := &syscall.SockaddrInet6{Port: ta.Port}
	copy(sa.Addr[:], ta.IP.To16())
	return sockAddr{syscall.AF_INET6, sa}, nil
}

// rawDial opens a non-blocking TCP socket (TCP_NODELAY) and starts
// connecting it, without waiting: the batch's first write waits for the
// connection through the poller (a socket still connecting is not yet
// writable) and reports a refused or unreachable connect as its error
// (isConnectErrno), and the batch's deadline bounds the connect.
//
// Why not net.Dial: it waits for the connect in a goroutine switch of its
// own and adds getsockopt, getpeername, getsockname and setsockopt calls:
// about 15 % more of the generator's CPU per request in --close runs on
// loopback (hand runs on the busy machine, experiment 026's findings.md),
// where the handshake is done before connect returns.
func rawDial(a sockAddr) (socket, error) {
	fd, err := syscall.Socket(a.family, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, os.NewSyscallError("socket", err)
	}
	if err := syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1); err != nil {
		syscall.Close(fd)
		return nil, os.NewSyscallError("setsockopt", err)
	}
	if err := syscall.Connect(fd, a.sa); err != nil && err != syscall.EINPROGRESS && err != syscall.EINTR {
		syscall.Close(fd)
		return nil, os.NewSyscallError("connect", err)
	}
	// A non-blocking descriptor becomes a File registered with the
	// runtime's poller, with deadlines.
	return os.NewFile(uintptr(fd), "tcp"), nil
}

// isConnectErrno reports whether a first write's error is the connect's
// failure.
func isConnectErrno(err error) bool {
	e, ok := err.(syscall.Errno)
	return ok && (e == syscall.ECONNREFUSED || e == syscall.ETIMEDOUT ||
		e == syscall.EHOSTUNREACH || e == syscall.ENETUNREACH || e == syscall.ECONNABORTED)
}
