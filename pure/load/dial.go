package load

import (
	"fmt"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// sockAddr is the target's address resolved once for rawDial, in the
// kernel's form (a raw sockaddr and its length).
type sockAddr struct {
	family int
	raw    [unsafe.Sizeof(syscall.RawSockaddrInet6{})]byte
	len    uintptr
}

// resolve resolves addr (host:port) once, before the run.
func resolve(addr string) (sockAddr, error) {
	ta, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return sockAddr{}, fmt.Errorf("resolving the target %s: %w (check the host name, or give an IP address)", addr, err)
	}
	var a sockAddr
	port := [2]byte{byte(ta.Port >> 8), byte(ta.Port)} // network byte order
	if ip4 := ta.IP.To4(); ip4 != nil {
		sa := (*syscall.RawSockaddrInet4)(unsafe.Pointer(&a.raw[0]))
		sa.Family = syscall.AF_INET
		sa.Port = *(*uint16)(unsafe.Pointer(&port[0]))
		copy(sa.Addr[:], ip4)
		a.family, a.len = syscall.AF_INET, syscall.SizeofSockaddrInet4
		return a, nil
	}
	sa := (*syscall.RawSockaddrInet6)(unsafe.Pointer(&a.raw[0]))
	sa.Family = syscall.AF_INET6
	sa.Port = *(*uint16)(unsafe.Pointer(&port[0]))
	copy(sa.Addr[:], ta.IP.To16())
	a.family, a.len = syscall.AF_INET6, syscall.SizeofSockaddrInet6
	return a, nil
}

// rawDial opens a non-blocking TCP socket (TCP_NODELAY) and starts
// connecting it, without waiting, and returns its descriptor: the batch's
// first write waits for the connection through the poller if it is not
// yet writable and reports a refused or unreachable connect as its error
// (isConnectErrno), and the batch's deadline bounds the connect. On
// loopback the handshake is done before connect returns.
//
// Why not net.Dial: it waits for the connect in a goroutine switch of its
// own and adds getsockopt, getpeername, getsockname and setsockopt calls:
// about 15 % more of the generator's CPU per request in --close runs on
// loopback (hand runs on the busy machine, experiment 026's findings.md).
// The calls are raw (no notice to the scheduler), like the socket's reads
// and writes (sock): none of them blocks.
func rawDial(a *sockAddr) (int, error) {
	r, _, e := syscall.RawSyscall(syscall.SYS_SOCKET, uintptr(a.family), syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	if e != 0 {
		return -1, os.NewSyscallError("socket", e)
	}
	fd := int(r)
	one := int32(1)
	if _, _, e := syscall.RawSyscall6(syscall.SYS_SETSOCKOPT, uintptr(fd), syscall.IPPROTO_TCP, syscall.TCP_NODELAY,
		uintptr(unsafe.Pointer(&one)), 4, 0); e != 0 {
		syscall.Close(fd)
		return -1, os.NewSyscallError("setsockopt", e)
	}
	if _, _, e := syscall.RawSyscall(syscall.SYS_CONNECT, uintptr(fd), uintptr(unsafe.Pointer(&a.raw[0])), a.len); e != 0 && e != syscall.EINPROGRESS && e != syscall.EINTR {
		syscall.Close(fd)
		return -1, os.NewSyscallError("connect", e)
	}
	return fd, nil
}

// isConnectErrno reports whether a first write's error is the connect's
// failure.
func isConnectErrno(err error) bool {
	e, ok := err.(syscall.Errno)
	return ok && (e == syscall.ECONNREFUSED || e == syscall.ETIMEDOUT ||
		e == syscall.EHOSTUNREACH || e == syscall.ENETUNREACH || e == syscall.ECONNABORTED)
}
