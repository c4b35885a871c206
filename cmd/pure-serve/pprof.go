package main

// The --pprof listener, written without net/http on purpose: importing
// net/http (with net/http/pprof and fgprof, which needs it) ran its package
// initialisation in every pure-serve and touched about 3.3 MB more of the
// binary's pages, a quarter of the server's peak RSS under load (busy
// machine: 8.3 MB against 13.6 MB peak RSS on 64 B GETs with --data, and
// 3.3 MB against 8.4 MB at start). The paths and answers are those of
// net/http/pprof and fgprof, so `go tool pprof http://ADDR/debug/pprof/profile`
// and `go tool pprof http://ADDR/debug/fgprof?seconds=10` work unchanged.

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strconv"
	"strings"
	"sync"
	"time"

	"workbench/pure/app"
)

// servePprof serves the profiling endpoints on their own listener, one
// request per connection, until stop is called.
func servePprof(addr string, stderr io.Writer, rt *app.Runtime) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--pprof: listen on %s: %w", addr, err)
	}
	fmt.Fprintf(stderr, "pprof on http://%s/debug/pprof/ and /debug/fgprof\n", ln.Addr())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go servePprofConn(c, rt)
		}
	}()
	return func() { ln.Close(); wg.Wait() }, nil
}

// servePprofConn answers one profiling request on c and closes it.
func servePprofConn(c net.Conn, rt *app.Runtime) {
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReaderSize(c, 4096).ReadString('\n')
	if err != nil {
		return
	}
	f := strings.Fields(line)
	if len(f) != 3 || f[0] != "GET" {
		pprofAnswer(c, 400, "text/plain", []byte("bad request: send GET /debug/pprof/<profile>\n"))
		return
	}
	u, err := url.ParseRequestURI(f[1])
	if err != nil {
		pprofAnswer(c, 400, "text/plain", []byte("bad request: "+err.Error()+"\n"))
		return
	}
	c.SetReadDeadline(time.Time{})
	var body strings.Builder
	typ, code, err := pprofRoute(&body, u, rt)
	if err != nil {
		pprofAnswer(c, code, "text/plain", []byte(err.Error()+"\n"))
		return
	}
	pprofAnswer(c, 200, typ, []byte(body.String()))
}

// pprofRoute writes the answer to u into w and returns its content type,
// or a status and an error.
func pprofRoute(w io.Writer, u *url.URL, rt *app.Runtime) (typ string, code int, err error) {
	q := u.Query()
	seconds := func(def int) time.Duration {
		if n, err := strconv.Atoi(q.Get("seconds")); err == nil && n > 0 {
			return time.Duration(n) * time.Second
		}
		return time.Duration(def) * time.Second
	}
	const bin = "application/octet-stream"
	name, ok := strings.CutPrefix(u.Path, "/debug/pprof/")
	switch {
	case u.Path == "/debug/fgprof":
		return bin, 0, wallProfile(w, seconds(30))
	case u.Path == "/debug/app":
		_, err := w.Write(appStats(rt))
		return "application/json", 0, err
	case !ok:
		return "", 404, fmt.Errorf("not found: %q; paths: /debug/pprof/, /debug/fgprof and /debug/app", u.Path)
	case name == "":
		fmt.Fprintln(w, "profiles: profile?seconds=N (CPU), trace?seconds=N, cmdline, and with ?debug=1 for text:")
		for _, p := range pprof.Profiles() {
			fmt.Fprintf(w, "%s (%d)\n", p.Name(), p.Count())
		}
		return "text/plain; charset=utf-8", 0, nil
	case name == "cmdline":
		fmt.Fprint(w, strings.Join(os.Args, "\x00"))
		return "text/plain; charset=utf-8", 0, nil
	case name == "profile":
		if err := pprof.StartCPUProfile(w); err != nil {
			return "", 500, fmt.Errorf("cpu profile: %w (is another one running?)", err)
		}
		time.Sleep(seconds(30))
		pprof.StopCPUProfile()
		return bin, 0, nil
	case name == "trace":
		if err := trace.Start(w); err != nil {
			return "", 500, fmt.Errorf("trace: %w (is another one running?)", err)
		}
		time.Sleep(seconds(1))
		trace.Stop()
		return bin, 0, nil
	}
	p := pprof.Lookup(name)
	if p == nil {
		return "", 404, fmt.Errorf("not found: no profile %q; see /debug/pprof/", name)
	}
	debug, _ := strconv.Atoi(q.Get("debug"))
	if name == "heap" && q.Get("gc") != "" {
		runtime.GC()
	}
	typ = bin
	if debug > 0 {
		typ = "text/plain; charset=utf-8"
	}
	return typ, 0, p.WriteTo(w, debug)
}

// pprofAnswer writes a whole HTTP/1.1 answer that closes the connection.
func pprofAnswer(w io.Writer, code int, typ string, body []byte) {
	word := map[int]string{200: "OK", 400: "Bad Request", 404: "Not Found", 500: "Internal Server Error"}[code]
	fmt.Fprintf(w, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n",
		code, word, typ, len(body))
	w.Write(body)
}

// wallProfile writes a wall-clock profile in pprof format, like fgprof's:
// every goroutine's stack sampled 99 times a second for d, whether it runs
// or waits, so time spent waiting (syncs, the network) shows.
func wallProfile(w io.Writer, d time.Duration) error {
	const hz = 99
	counts := map[string]int64{}
	recs := make([]runtime.StackRecord, 64)
	tick := time.NewTicker(time.Second / hz)
	defer tick.Stop()
	for end := time.Now().Add(d); time.Now().Before(end); <-tick.C {
		n, ok := runtime.GoroutineProfile(recs)
		if !ok {
			recs = make([]runtime.StackRecord, n+n/4+8)
			continue
		}
		for i := range recs[:n] {
			stk := recs[i].Stack()
			var b strings.Builder
			for _, pc := range stk {
				b.WriteString(strconv.FormatUint(uint64(pc), 16) + " ")
			}
			counts[b.String()]++
		}
	}
	return wallToProfile(w, counts, hz)
}
