// Command 915-serve5-recvfrom compares, on a loopback TCP socket, the
// system calls pure-serve's raw loop makes: read(2) against recvfrom(2) on
// an empty non-blocking socket (EAGAIN, as after most batches), and
// sendmsg(2) with one iovec against sendto(2) of the same 200 bytes (a
// batch of small answers is one contiguous range). One goroutine, pinned
// with taskset by the caller; each figure is the fastest of 30 or 50
// repetitions, ns per call.
//
//	taskset -c 0 go run ./experiments/probes/915-serve5-recvfrom
package main

import (
	"fmt"
	"net"
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

func main() {
	runtime.GOMAXPROCS(1)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	accepted := make(chan net.Conn)
	go func() {
		c, err := ln.Accept()
		check(err)
		accepted <- c
	}()
	cl, err := net.Dial("tcp", ln.Addr().String())
	check(err)
	sv := <-accepted
	fd := rawFd(cl)
	peer := rawFd(sv)
	buf := make([]byte, 64<<10)
	p := uintptr(unsafe.Pointer(&buf[0]))

	best := map[string]float64{}
	keep := func(name string, t time.Time, n int) {
		ns := float64(time.Since(t).Nanoseconds()) / float64(n)
		if best[name] == 0 || ns < best[name] {
			best[name] = ns
		}
	}
	for range 30 {
		for _, m := range []string{"read", "recvfrom"} {
			t := time.Now()
			for range 20000 {
				if m == "read" {
					syscall.RawSyscall(syscall.SYS_READ, fd, p, uintptr(len(buf)))
				} else {
					syscall.RawSyscall6(syscall.SYS_RECVFROM, fd, p, uintptr(len(buf)), 0, 0, 0)
				}
			}
			keep(m, t, 20000)
		}
	}
	iov := []unix.Iovec{{Base: &buf[0]}}
	iov[0].SetLen(200)
	var msg unix.Msghdr
	msg.Iov = &iov[0]
	msg.SetIovlen(1)
	for range 50 {
		for _, m := range []string{"sendmsg", "sendto"} {
			t := time.Now()
			for range 300 {
				if m == "sendmsg" {
					syscall.RawSyscall(syscall.SYS_SENDMSG, fd, uintptr(unsafe.Pointer(&msg)), syscall.MSG_NOSIGNAL)
				} else {
					syscall.RawSyscall6(syscall.SYS_SENDTO, fd, p, 200, syscall.MSG_NOSIGNAL, 0, 0)
				}
			}
			keep(m, t, 300)
			for { // drain the peer so the next round finds room
				n, _, _ := syscall.RawSyscall6(syscall.SYS_RECVFROM, peer, p, uintptr(len(buf)), 0, 0, 0)
				if int(n) <= 0 {
					break
				}
			}
		}
	}
	fmt.Printf("EAGAIN: read %.0f ns, recvfrom %.0f ns; 200 B send: sendmsg %.0f ns, sendto %.0f ns\n",
		best["read"], best["recvfrom"], best["sendmsg"], best["sendto"])
}

// files keeps the duplicated sockets open (a collected *os.File closes its descriptor).
var files []*os.File

func rawFd(c net.Conn) uintptr {
	f, err := c.(*net.TCPConn).File()
	check(err)
	files = append(files, f)
	fd := f.Fd()
	check(syscall.SetNonblock(int(fd), true))
	return fd
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}
