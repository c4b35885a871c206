// Command 909-serve4-sendfile measures what one 1 MiB answer costs the
// sending process on this machine's loopback, sent three ways: a write from
// a shared mapping of the file (what pure-serve did), sendfile(2) from the
// file, and splice(2) through a pipe of 1 MiB. The sender is pinned to CPU
// 0, the reader (a child process of the same binary) to CPU 1; the reader
// asks with one byte and reads the whole answer, on c connections. The
// sender's CPU is utime+stime of its process (getrusage), as the HTTP
// harness counts a server's. Each round runs every mode once, the order
// rotated; one JSON line per run goes to stdout.
//
//	go run ./experiments/probes/909-serve4-sendfile [-rounds 3] [-d 2s] [-c 1,8] > runs.jsonl
//	go run ./experiments/probes/909-serve4-sendfile -note DIR   # DIR/note.md from DIR/runs.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"workbench/experiments/lab/stats"
)

const size = 1 << 20

type run struct {
	Round       int     `json:"round"`
	Mode        string  `json:"mode"`
	Conns       int     `json:"conns"`
	Answers     int64   `json:"answers"`
	Seconds     float64 `json:"seconds"`
	SenderCPU   float64 `json:"sender_cpu_s"`
	PerCPUSec   float64 `json:"answers_per_sender_cpu_s"`
	CPUPerAnsUs float64 `json:"sender_cpu_us_per_answer"`
	Load1       string  `json:"load1"`
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "reader" {
		reader(os.Args[2], os.Args[3])
		return
	}
	rounds := flag.Int("rounds", 3, "rounds")
	dur := flag.Duration("d", 2*time.Second, "each run's length")
	connsList := flag.String("c", "1,8", "connection counts")
	noteDir := flag.String("note", "", "write DIR/note.md from DIR/runs.jsonl instead of measuring")
	flag.Parse()
	if *noteDir != "" {
		check(writeNote(*noteDir))
		return
	}
	runtime.GOMAXPROCS(1)
	pin(0)
	path, data := makeFile()
	defer os.Remove(path)
	f, err := os.Open(path)
	check(err)
	modes := []string{"write-mmap", "sendfile", "splice"}
	for r := 1; r <= *rounds; r++ {
		for _, cs := range strings.Split(*connsList, ",") {
			c, err := strconv.Atoi(cs)
			check(err)
			for i := range modes {
				mode := modes[(i+r)%len(modes)]
				out := measure(mode, c, *dur, f, data)
				out.Round = r
				b, _ := json.Marshal(out)
				fmt.Println(string(b))
			}
		}
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "909:", err)
		os.Exit(1)
	}
}

func pin(cpu int) {
	var set unix.CPUSet
	set.Set(cpu)
	check(unix.SchedSetaffinity(0, &set))
}

// makeFile writes 1 MiB of varied bytes, reads it into the page cache and
// maps it.
func makeFile() (string, []byte) {
	f, err := os.CreateTemp("", "909-*.bin")
	check(err)
	b := make([]byte, size)
	for i := range b {
		b[i] = byte(i*7 + i>>11)
	}
	_, err = f.Write(b)
	check(err)
	check(f.Close())
	f, err = os.Open(f.Name())
	check(err)
	defer f.Close()
	data, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
	check(err)
	var sum byte
	for i := 0; i < size; i += 4096 {
		sum += data[i]
	}
	_ = sum
	return f.Name(), data
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	check(syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func measure(mode string, conns int, dur time.Duration, f *os.File, data []byte) run {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	defer ln.Close()
	cmd := exec.Command(os.Args[0], "reader", ln.Addr().String(), strconv.Itoa(conns))
	cmd.Stderr = os.Stderr
	stop, err := cmd.StdinPipe()
	check(err)
	check(cmd.Start())
	var socks []*os.File
	for range conns {
		nc, err := ln.Accept()
		check(err)
		sf, err := nc.(*net.TCPConn).File() // a blocking duplicate
		check(err)
		nc.Close()
		socks = append(socks, sf)
	}
	var answers atomic.Int64
	var done atomic.Bool
	var wg sync.WaitGroup
	c0, t0 := cpuSeconds(), time.Now()
	for _, s := range socks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			serve(mode, int(s.Fd()), f, data, &answers, &done)
		}()
	}
	time.Sleep(dur)
	done.Store(true)
	stop.Close()
	for _, s := range socks {
		unix.Shutdown(int(s.Fd()), unix.SHUT_RD)
	}
	wg.Wait()
	c1, t1 := cpuSeconds(), time.Now()
	for _, s := range socks {
		s.Close()
	}
	cmd.Wait()
	load, _ := os.ReadFile("/proc/loadavg")
	n := answers.Load()
	cpu := c1 - c0
	return run{Mode: mode, Conns: conns, Answers: n, Seconds: t1.Sub(t0).Seconds(), SenderCPU: cpu,
		PerCPUSec: float64(n) / cpu, CPUPerAnsUs: cpu / float64(n) * 1e6, Load1: strings.Fields(string(load))[0]}
}

// serve answers each one-byte request on fd with the 1 MiB file.
func serve(mode string, fd int, f *os.File, data []byte, answers *atomic.Int64, done *atomic.Bool) {
	var p [2]int
	if mode == "splice" {
		check(unix.Pipe2(p[:], unix.O_CLOEXEC))
		_, err := unix.FcntlInt(uintptr(p[1]), unix.F_SETPIPE_SZ, size)
		check(err)
		defer unix.Close(p[0])
		defer unix.Close(p[1])
	}
	var req [1]byte
	for !done.Load() {
		n, err := unix.Read(fd, req[:])
		if n <= 0 || err != nil {
			return
		}
		switch mode {
		case "write-mmap":
			for off := 0; off < size; {
				m, err := unix.Write(fd, data[off:])
				if err != nil {
					return
				}
				off += m
			}
		case "sendfile":
			off := int64(0)
			for off < size {
				if _, err := unix.Sendfile(fd, int(f.Fd()), &off, size-int(off)); err != nil {
					return
				}
			}
		case "splice":
			off := int64(0)
			for off < size {
				m, err := unix.Splice(int(f.Fd()), &off, p[1], nil, size-int(off), unix.SPLICE_F_MORE)
				if err != nil {
					return
				}
				for m > 0 {
					k, err := unix.Splice(p[0], nil, fd, nil, int(m), unix.SPLICE_F_MORE)
					if err != nil {
						return
					}
					m -= k
				}
			}
		}
		answers.Add(1)
	}
}

// reader is the child: conns connections on CPU 1, each asking and
// reading 1 MiB answers until stdin closes.
func reader(addr, cs string) {
	runtime.GOMAXPROCS(1)
	pin(1)
	conns, _ := strconv.Atoi(cs)
	var wg sync.WaitGroup
	for range conns {
		nc, err := net.Dial("tcp", addr)
		check(err)
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 256<<10)
			for {
				if _, err := nc.Write([]byte{'?'}); err != nil {
					return
				}
				for got := 0; got < size; {
					n, err := nc.Read(buf)
					if err != nil {
						return
					}
					got += n
				}
			}
		}()
	}
	io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

// writeNote renders dir/note.md from dir/runs.jsonl: per connection count
// and mode, the median sender CPU per answer over the rounds, and its ratio
// to the write from the mapping in the same round.
func writeNote(dir string) error {
	f, err := os.Open(filepath.Join(dir, "runs.jsonl"))
	if err != nil {
		return err
	}
	defer f.Close()
	var runs []run
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r run
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return fmt.Errorf("runs.jsonl: %w", err)
		}
		runs = append(runs, r)
	}
	type key struct {
		conns int
		mode  string
	}
	per := map[key][]float64{}
	ratio := map[key][]float64{}
	base := map[[2]int]float64{}
	var loads []string
	for _, r := range runs {
		per[key{r.Conns, r.Mode}] = append(per[key{r.Conns, r.Mode}], r.CPUPerAnsUs)
		if r.Mode == "write-mmap" {
			base[[2]int{r.Round, r.Conns}] = r.CPUPerAnsUs
		}
		loads = append(loads, r.Load1)
	}
	for _, r := range runs {
		if b := base[[2]int{r.Round, r.Conns}]; b > 0 {
			ratio[key{r.Conns, r.Mode}] = append(ratio[key{r.Conns, r.Mode}], b/r.CPUPerAnsUs)
		}
	}
	median := stats.Median
	var b strings.Builder
	b.WriteString("# Probe 909: a 1 MiB answer on loopback, written from a mapping, by sendfile and by splice\n\n")
	b.WriteString("Generated by `go run ./experiments/probes/909-serve4-sendfile -note DIR` from `runs.jsonl`; do not edit.\n\n")
	b.WriteString("What one 1 MiB answer costs the sending process (utime+stime, getrusage; the harness counts a server the same way), sender pinned to CPU 0 with GOMAXPROCS=1, reader (a child process) to CPU 1, on c keep-alive loopback connections; each request is one byte. Modes: `write-mmap` writes from a shared mapping of the file (pure-serve's default), `sendfile` is sendfile(2) from the file, `splice` is splice(2) file to a 1 MiB pipe to the socket. Every round runs each mode once, order rotated.\n\n")
	fmt.Fprintf(&b, "%d runs; 1-minute load average at the runs: %s.\n\n", len(runs), strings.Join(loads, ", "))
	b.WriteString("| conns | mode | runs | sender CPU us per answer (median) | answers per sender CPU-s (median) | write-mmap's CPU / this mode's, same round (median) |\n|---:|:---|---:|---:|---:|---:|\n")
	var keys []key
	for k := range per {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.conns != b.conns {
			return a.conns - b.conns
		}
		return strings.Compare(a.mode, b.mode)
	})
	for _, k := range keys {
		m := median(per[k])
		fmt.Fprintf(&b, "| %d | %s | %d | %.0f | %.0f | %.2fx |\n", k.conns, k.mode, len(per[k]), m, 1e6/m, median(ratio[k]))
	}
	return os.WriteFile(filepath.Join(dir, "note.md"), []byte(b.String()), 0o644)
}
