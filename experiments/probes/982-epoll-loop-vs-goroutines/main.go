// Probe 982: how much of a pipelined small GET's server CPU is the Go
// runtime's poller and scheduler, with the same user work on both sides.
// Two toy servers answer every request (counted by its blank line) with
// the same 64-byte document: -mode loop is one goroutine on a
// level-triggered epoll loop of its own (golang.org/x/sys/unix), reading
// with recvfrom and writing each batch's answers with one sendto; -mode
// goroutines is one goroutine per connection on the runtime's poller
// (net.Conn: Read, then one Write per batch), as pure-serve and fasthttp
// are built. Not a server for anything else: no parsing beyond the blank
// line, no routes. Prints "listening ADDR" and serves until killed.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"net"
	"os"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

var answer = []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 64\r\n\r\n" +
	"document d00 ..................................................\n")

var sep = []byte("\r\n\r\n")

// answers appends one answer per complete request in in[:n] to out and
// returns out and how many bytes of in were consumed.
func answers(in []byte, out []byte) ([]byte, int) {
	used := 0
	for {
		i := bytes.Index(in[used:], sep)
		if i < 0 {
			return out, used
		}
		used += i + len(sep)
		out = append(out, answer...)
	}
}

func main() {
	mode := flag.String("mode", "loop", "loop or goroutines")
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("listening", ln.Addr())
	switch *mode {
	case "goroutines":
		for {
			c, err := ln.Accept()
			if err != nil {
				continue
			}
			go serveConn(c)
		}
	case "loop":
		serveLoop(ln.(*net.TCPListener))
	default:
		fmt.Fprintln(os.Stderr, "-mode: loop or goroutines")
		os.Exit(2)
	}
}

func serveConn(c net.Conn) {
	defer c.Close()
	buf := make([]byte, 4096)
	out := make([]byte, 0, 4096)
	have := 0
	for {
		n, err := c.Read(buf[have:])
		if err != nil {
			return
		}
		have += n
		var used int
		out, used = answers(buf[:have], out[:0])
		have = copy(buf, buf[used:have])
		if len(out) > 0 {
			if _, err := c.Write(out); err != nil {
				return
			}
		}
	}
}

type lconn struct {
	buf  []byte
	have int
	out  []byte
}

func serveLoop(ln *net.TCPListener) {
	runtime.LockOSThread()
	f, err := ln.File() // a blocking duplicate; made non-blocking below
	if err != nil {
		panic(err)
	}
	lfd := int(f.Fd())
	if err := unix.SetNonblock(lfd, true); err != nil {
		panic(err)
	}
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		panic(err)
	}
	if err := unix.EpollCtl(ep, unix.EPOLL_CTL_ADD, lfd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(lfd)}); err != nil {
		panic(err)
	}
	conns := map[int32]*lconn{}
	evs := make([]unix.EpollEvent, 128)
	for {
		n, err := unix.EpollWait(ep, evs, -1)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			panic(err)
		}
		for _, ev := range evs[:n] {
			fd := int(ev.Fd)
			if fd == lfd {
				for {
					nfd, _, err := unix.Accept4(lfd, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
					if err != nil {
						break
					}
					unix.SetsockoptInt(nfd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
					conns[int32(nfd)] = &lconn{buf: make([]byte, 4096), out: make([]byte, 0, 4096)}
					unix.EpollCtl(ep, unix.EPOLL_CTL_ADD, nfd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(nfd)})
				}
				continue
			}
			c := conns[ev.Fd]
			m, err := recvRaw(fd, c.buf[c.have:])
			if err == unix.EAGAIN {
				continue
			}
			if err != nil || m == 0 {
				unix.EpollCtl(ep, unix.EPOLL_CTL_DEL, fd, nil)
				unix.Close(fd)
				delete(conns, ev.Fd)
				continue
			}
			c.have += m
			var used int
			c.out, used = answers(c.buf[:c.have], c.out[:0])
			c.have = copy(c.buf, c.buf[used:c.have])
			for len(c.out) > 0 {
				w, err := sendRaw(fd, c.out)
				if err != nil { // EAGAIN: a toy; the load never fills the socket
					break
				}
				c.out = c.out[w:]
			}
		}
	}
}

// recvRaw and sendRaw are recvfrom and sendto as raw system calls (no
// address, no scheduler notice: the socket never blocks), as pure-serve
// makes them.
func recvRaw(fd int, p []byte) (int, error) {
	n, _, e := unix.RawSyscall6(unix.SYS_RECVFROM, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), 0, 0, 0)
	if e != 0 {
		return 0, syscall.Errno(e)
	}
	return int(n), nil
}

func sendRaw(fd int, p []byte) (int, error) {
	n, _, e := unix.RawSyscall6(unix.SYS_SENDTO, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), unix.MSG_NOSIGNAL, 0, 0)
	if e != 0 {
		return 0, syscall.Errno(e)
	}
	return int(n), nil
}
