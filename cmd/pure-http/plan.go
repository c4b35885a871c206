package main

import (
	"fmt"
	"slices"
	"strings"
)

// serverSpec is a server the harness can start.
type serverSpec struct {
	ID      string // the name in servers=...
	Server  string // the program
	Mode    string
	Reads   bool     // runs the read workloads
	Writes  bool     // runs the durable write workloads
	Static  bool     // serves only the static documents (nginx)
	Default bool     // in the default selection
	Before  bool     // pure-serve built from before=REV: only with before=
	Args    []string // more flags for the server
}

// beforeID is the server built from before=REV.
const beforeID = "pure-serve-before"

// servers are every server the harness knows, in the order of the first
// round.
var servers = []serverSpec{
	{ID: "pure-serve", Server: "pure-serve", Mode: "durable", Reads: true, Writes: true, Default: true},
	{ID: beforeID, Server: "pure-serve", Mode: "durable", Reads: true, Writes: true, Before: true},
	// pure-serve-ram runs the write workloads too, though nothing it
	// answers is durable: the same server without a device is the bound
	// the device does not set (a durable target it misses by more than
	// the durable server does is not the syncs' doing).
	{ID: "pure-serve-ram", Server: "pure-serve", Mode: "ram", Reads: true, Writes: true},
	{ID: "pure-serve-sendfile", Server: "pure-serve", Mode: "durable", Reads: true, Args: []string{"--sendfile-min", "65536"}},
	{ID: "pure-serve-write", Server: "pure-serve", Mode: "durable", Reads: true, Args: []string{"--sendfile-min", "0"}},
	{ID: "nethttp-memory", Server: "nethttp", Mode: "memory", Reads: true, Default: true},
	{ID: "fasthttp-memory", Server: "fasthttp", Mode: "memory", Reads: true, Default: true},
	{ID: "nethttp-fdatasync", Server: "nethttp", Mode: "fdatasync", Writes: true, Default: true},
	{ID: "fasthttp-fdatasync", Server: "fasthttp", Mode: "fdatasync", Writes: true, Default: true},
	{ID: "nethttp-crashsafe", Server: "nethttp", Mode: "crashsafe", Writes: true, Default: true},
	{ID: "fasthttp-crashsafe", Server: "fasthttp", Mode: "crashsafe", Writes: true, Default: true},
	{ID: "nginx", Server: "nginx", Mode: "static", Reads: true, Static: true, Default: true},
}

// workloadSpec is one load the harness applies.
type workloadSpec struct {
	Name     string
	What     string // a phrase for the note
	Load     string // pure-load's workload
	Conns    int
	Pipeline int
	Close    bool
	Write    bool // a durable write: durable servers only, fsync probe first
	Static   bool // nginx can serve it
	Docs     bool // needs the seeded documents
	Scores   bool // needs a scoreboard with names
	// Count, when set, sends this many requests instead of loading for
	// the run's duration: every server then does the same work, where a
	// faster server would otherwise grow the PUT workload's documents
	// larger (each PUT prepends 16 B to its writer's document).
	Count int
}

// workloads are every workload, in the order they run.
var workloads = []workloadSpec{
	{Name: "get-64c", What: "GET 64 B, keep-alive, 64 connections", Load: "get", Conns: 64, Pipeline: 1, Static: true, Docs: true},
	{Name: "get-pipe16", What: "GET 64 B, pipelined 16 deep, 64 connections", Load: "get", Conns: 64, Pipeline: 16, Static: true, Docs: true},
	{Name: "get-close", What: "GET 64 B, a new connection for each, 64 at a time", Load: "get", Conns: 64, Pipeline: 1, Close: true, Static: true, Docs: true},
	{Name: "big-8c", What: "GET 1 MiB, keep-alive, 8 connections", Load: "big", Conns: 8, Pipeline: 1, Static: true, Docs: true},
	{Name: "put-64c", What: "durable PUT with If-Match, 64 writers", Load: "put", Conns: 64, Pipeline: 1, Write: true},
	{Name: "put-64c-same", What: "durable PUT with If-Match, 64 writers, 18,000 PUTs for every server (the same documents, whatever the speed)", Load: "put", Conns: 64, Pipeline: 1, Write: true, Count: 18000},
	{Name: "put-8c", What: "durable PUT with If-Match, 8 writers", Load: "put", Conns: 8, Pipeline: 1, Write: true},
	{Name: "score-64c", What: "durable score POST, 64 connections", Load: "score", Conns: 64, Pipeline: 1, Write: true},
	{Name: "total-64c", What: "GET /views/total, 64 connections", Load: "total", Conns: 64, Pipeline: 1, Scores: true},
	{Name: "leaders-64c", What: "GET /views/leaders?from=0&count=20, 64 connections", Load: "leaders", Conns: 64, Pipeline: 1, Scores: true},
}

// serves reports whether server s runs workload w.
func (s serverSpec) serves(w workloadSpec) bool {
	if s.Static && !w.Static {
		return false
	}
	if w.Write {
		return s.Writes
	}
	return s.Reads
}

func names[T any](xs []T, name func(T) string) string {
	var ns []string
	for _, x := range xs {
		ns = append(ns, name(x))
	}
	return strings.Join(ns, ", ")
}

// pickServers parses servers=... (comma-separated IDs; empty: the
// defaults; "all": every server but pure-serve-before). With before
// (before=REV given), pure-serve-before runs too, right after pure-serve.
func pickServers(list string, before bool) ([]serverSpec, error) {
	out, err := pickList(list)
	if err != nil {
		return nil, err
	}
	has := slices.ContainsFunc(out, func(s serverSpec) bool { return s.Before })
	switch {
	case has && !before:
		return nil, fmt.Errorf("servers: %s is pure-serve built from another commit: pass before=REV to build it", beforeID)
	case before && !has:
		i := slices.IndexFunc(out, func(s serverSpec) bool { return s.ID == subject }) + 1
		b := servers[slices.IndexFunc(servers, func(s serverSpec) bool { return s.Before })]
		out = slices.Insert(out, i, b)
	}
	return out, nil
}

func pickList(list string) ([]serverSpec, error) {
	var out []serverSpec
	switch list {
	case "", "all":
		for _, s := range servers {
			if !s.Before && (s.Default || list == "all") {
				out = append(out, s)
			}
		}
		return out, nil
	}
	for _, id := range strings.Split(list, ",") {
		id = strings.TrimSpace(id)
		i := slices.IndexFunc(servers, func(s serverSpec) bool { return s.ID == id })
		if i < 0 {
			return nil, fmt.Errorf("servers: unknown server %q; known: %s (or all)", id, names(servers, func(s serverSpec) string { return s.ID }))
		}
		if !slices.ContainsFunc(out, func(s serverSpec) bool { return s.ID == id }) {
			out = append(out, servers[i])
		}
	}
	return out, nil
}

// pickWorkloads parses work=... (comma-separated names; empty or "all":
// every workload), keeping the harness's order.
func pickWorkloads(list string) ([]workloadSpec, error) {
	if list == "" || list == "all" {
		return slices.Clone(workloads), nil
	}
	want := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if !slices.ContainsFunc(workloads, func(w workloadSpec) bool { return w.Name == n }) {
			return nil, fmt.Errorf("work: unknown workload %q; known: %s (or all)", n, names(workloads, func(w workloadSpec) string { return w.Name }))
		}
		want[n] = true
	}
	var out []workloadSpec
	for _, w := range workloads {
		if want[w.Name] {
			out = append(out, w)
		}
	}
	return out, nil
}

// step is one run of the plan.
type step struct {
	Round, Order int
	Server       serverSpec
	Work         workloadSpec
}

// plan lists the runs: for each round, for each workload, the servers
// that serve it, their order rotated by one place per round (among the
// servers of that workload) so that no server always runs first or last. It fails if nothing would run.
func plan(rounds int, ss []serverSpec, ws []workloadSpec) ([]step, error) {
	var steps []step
	for r := 1; r <= rounds; r++ {
		for _, w := range ws {
			var on []serverSpec
			for _, s := range ss {
				if s.serves(w) {
					on = append(on, s)
				}
			}
			if len(on) == 0 {
				continue
			}
			k := (r - 1) % len(on)
			for i, s := range slices.Concat(on[k:], on[:k]) {
				steps = append(steps, step{Round: r, Order: i + 1, Server: s, Work: w})
			}
		}
	}
	if len(steps) == 0 {
		return nil, fmt.Errorf("no server among [%s] runs any workload among [%s]: read workloads run on pure-serve, the memory modes and nginx, durable writes on pure-serve (and pure-serve-ram, as the bound without a device) and the fdatasync and crashsafe modes",
			names(ss, func(s serverSpec) string { return s.ID }), names(ws, func(w workloadSpec) string { return w.Name }))
	}
	return steps, nil
}
