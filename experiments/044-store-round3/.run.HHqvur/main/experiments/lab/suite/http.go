package suite

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"workbench/pure/load"
)

// HTTPTool is the subject binary of an HTTP measurement when the line
// names none.
const HTTPTool = "pure-serve"

// Defaults of an HTTP measurement's keys.
const (
	DefaultConns   = 64
	DefaultWindows = 6
	DefaultWindow  = 500 * time.Millisecond
	DefaultWarmup  = 500 * time.Millisecond
)

// Stores an HTTP measurement's server may keep its data in (key store=).
const (
	StoreRAM  = "ram"  // pure-serve --ram
	StoreDisk = "disk" // pure-serve --data DIR, a fresh directory per server
)

// HTTP is what makes a Measure a measurement of a server under load (suite
// key load=): the subject is a server (Tool, pure-serve by default) that
// prints "listening HOST:PORT" first, and the load is pure-load, built
// from the harness's own checkout, never from the revisions.
//
// A perf (timed) measurement starts both sides' servers pinned to the
// subjects' CPU, prepares their stores, warms each up for Warmup, then
// drives them in turn, Windows windows of Window each per side, A B B A
// A B ..., with pure-load pinned to another CPU; the time is the server's
// CPU (all threads, user and system) over those windows per 2xx answer.
//
// A callgrind measurement runs each side's server under callgrind twice,
// in fresh processes, serving exactly Requests[0] and then Requests[1]
// requests (pure-load -n), and counts instructions per request as
// (Ir(N2) − Ir(N1)) / (N2 − N1): start-up, preparation and the
// connections' set-up are in both counts and cancel.
type HTTP struct {
	// Load is pure-load's --workload: get, big, put, score, total or
	// leaders.
	Load string
	// Conns is pure-load's -c, Pipeline its --pipeline.
	Conns, Pipeline int
	// Store is StoreRAM or StoreDisk.
	Store string
	// Windows, Window and Warmup shape a perf measurement (see HTTP).
	Windows        int
	Window, Warmup time.Duration
	// Requests are N1 and N2 of a callgrind measurement, N1 < N2.
	Requests [2]int64
}

// parseHTTPKey parses one of an HTTP measurement's keys into m.HTTP, which
// it creates; ok is false when k is not one of them.
func parseHTTPKey(m *Measure, k, v string) (ok bool, err error) {
	if !slices.Contains([]string{"load", "conns", "pipeline", "store", "windows", "window", "warmup", "requests"}, k) {
		return false, nil
	}
	if m.HTTP == nil {
		m.HTTP = &HTTP{Conns: DefaultConns, Pipeline: 1, Store: StoreRAM}
	}
	h := m.HTTP
	switch k {
	case "load":
		if !slices.Contains(load.Workloads, load.Workload(v)) || v == string(load.WorkloadSeed) {
			return true, fmt.Errorf("load=%s: want one of pure-load's workloads: get, big, put, score, total, leaders", v)
		}
		h.Load = v
	case "conns", "pipeline", "windows":
		i, err := strconv.Atoi(v)
		if err != nil || i < 1 {
			return true, fmt.Errorf("%s=%s: want a whole number of at least 1", k, v)
		}
		switch k {
		case "conns":
			h.Conns = i
		case "pipeline":
			h.Pipeline = i
		default:
			h.Windows = i
		}
	case "store":
		if v != StoreRAM && v != StoreDisk {
			return true, fmt.Errorf("store=%s: want ram (pure-serve --ram) or disk (--data, a fresh directory per server)", v)
		}
		h.Store = v
	case "window", "warmup":
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return true, fmt.Errorf("%s=%s: want a positive duration such as 500ms or 2s", k, v)
		}
		if k == "window" {
			h.Window = d
		} else {
			h.Warmup = d
		}
	case "requests":
		n1, n2, ok := strings.Cut(v, ",")
		a, err1 := strconv.ParseInt(n1, 10, 64)
		b, err2 := strconv.ParseInt(n2, 10, 64)
		if !ok || err1 != nil || err2 != nil || a < 1 || b <= a {
			return true, fmt.Errorf("requests=%s: want N1,N2, two request counts with 0 < N1 < N2, such as 2000,12000", v)
		}
		h.Requests = [2]int64{a, b}
	}
	return true, nil
}

// checkHTTP checks an HTTP measurement's keys against its backend and
// fills in the defaults; keys says which keys the line gave.
func checkHTTP(m *Measure, keys map[string]bool) error {
	h := m.HTTP
	if h.Load == "" {
		return errors.New("an HTTP measurement needs load=W (get, big, put, score, total or leaders)")
	}
	for _, k := range []string{"ops", "repeat", "max-repeat", "regions", "prepare", "events"} {
		if keys[k] {
			return fmt.Errorf("%s= is for pure-count workloads; an HTTP measurement (load=) is shaped by conns, pipeline, store, windows, window, warmup and requests", k)
		}
	}
	if !keys["tool"] {
		m.Tool = HTTPTool
	}
	if h.Load == string(load.WorkloadPut) && h.Pipeline > 1 {
		return errors.New("load=put cannot pipeline: each PUT's If-Match comes from the previous answer")
	}
	switch m.Backend {
	case BackendPerf:
		if keys["requests"] {
			return errors.New("requests=N1,N2 is for backend=callgrind; the timed measurement runs windows (windows=, window=)")
		}
		if h.Windows == 0 {
			h.Windows = DefaultWindows
		}
		h.Window = cmp.Or(h.Window, DefaultWindow)
		h.Warmup = cmp.Or(h.Warmup, DefaultWarmup)
	case BackendCallgrind:
		for _, k := range []string{"windows", "window", "warmup"} {
			if keys[k] {
				return fmt.Errorf("%s= is for backend=perf; under callgrind the server serves requests=N1,N2", k)
			}
		}
		if h.Requests[1] == 0 {
			return errors.New("backend=callgrind with load= needs requests=N1,N2: the server is counted serving N1 and, in another process, N2 requests")
		}
	}
	return nil
}

// HasHTTP reports whether any measurement of the suite is an HTTP one.
func (s *Suite) HasHTTP() bool {
	for _, w := range s.Workloads {
		for _, m := range w.Measures {
			if m.HTTP != nil {
				return true
			}
		}
	}
	return false
}

// CountTools returns the tools of the measurements that are neither HTTP
// ones nor Go benchmarks, sorted, each once: those that speak pure-count's run contract.
func (s *Suite) CountTools() []string {
	var tools []string
	for _, w := range s.Workloads {
		for _, m := range w.Measures {
			if m.HTTP == nil && m.GoBench == nil && !slices.Contains(tools, m.Tool) {
				tools = append(tools, m.Tool)
			}
		}
	}
	slices.Sort(tools)
	return tools
}
