package load

import (
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"
)

// Workload names what the connections ask for; see the package doc for
// each one's requests.
type Workload string

// The workloads. WorkloadSeed is a preparation, not a measurement: it
// writes the documents the others read, once, and ends.
const (
	WorkloadSeed    Workload = "seed"
	WorkloadGet     Workload = "get"
	WorkloadBig     Workload = "big"
	WorkloadPut     Workload = "put"
	WorkloadScore   Workload = "score"
	WorkloadTotal   Workload = "total"
	WorkloadLeaders Workload = "leaders"
)

// Workloads lists every workload, in the order the usage text shows them.
var Workloads = []Workload{WorkloadSeed, WorkloadGet, WorkloadBig, WorkloadPut,
	WorkloadScore, WorkloadTotal, WorkloadLeaders}

// Config is one run's settings. Target is the server's base URL
// (http://HOST:PORT). Exactly one of Duration and Count bounds the run
// (Seed ignores both: it sends its 65 PUTs). Pipeline is the number of
// requests written together before their answers are read; Close sends
// each request on a new connection with "Connection: close". Prefix is
// the path before the document keys. Timeout bounds a connect and each
// batch's answers (0: none). Rate, when above 0, caps the requests a
// second of the whole run: each connection sends its batches at most
// every Connections×Pipeline/Rate seconds, the connections' schedules
// spread evenly over that interval; a connection behind its schedule
// sends at once and does not catch up (0: as fast as answers come). So
// the rate is reached only while an answer takes less than that interval:
// durable score POSTs from 64 connections asked for 40,000 a second got
// 34,200-34,900 (probe 1029); more connections reach more.
type Config struct {
	Target      string
	Workload    Workload
	Connections int
	Duration    time.Duration
	Count       int64
	Pipeline    int
	Close       bool
	Prefix      string
	Timeout     time.Duration
	Rate        float64
}

// DefaultConfig returns wrk's usual shape: 64 keep-alive connections for
// 10 s of document GETs, no pipelining, a 5 s timeout.
func DefaultConfig() Config {
	return Config{
		Workload:    WorkloadGet,
		Connections: 64,
		Duration:    10 * time.Second,
		Pipeline:    1,
		Prefix:      "/docs/",
		Timeout:     5 * time.Second,
	}
}

// target is the parsed Target: the address to dial and the Host header.
type target struct {
	addr string // host:port
	host string // Host header value
}

// check validates c and parses its target.
func (c *Config) check() (target, error) {
	var t target
	u, err := url.Parse(c.Target)
	if err != nil || u.Host == "" {
		return t, fmt.Errorf("target %q is not a URL: give the server's base URL, like http://127.0.0.1:8080", c.Target)
	}
	if u.Scheme != "http" {
		return t, fmt.Errorf("target %q: scheme %q is not supported: pure-load speaks plain http://", c.Target, u.Scheme)
	}
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" {
		return t, fmt.Errorf("target %q has a path or query: give only the base URL (http://HOST:PORT) and use --prefix for document paths", c.Target)
	}
	t.host = u.Host
	t.addr = u.Host
	if u.Port() == "" {
		t.addr = u.Host + ":80"
	}
	known := false
	for _, w := range Workloads {
		known = known || w == c.Workload
	}
	switch {
	case !known:
		return t, fmt.Errorf("unknown workload %q: use one of %s", c.Workload, workloadList())
	case c.Connections < 1:
		return t, fmt.Errorf("%d connections: use at least 1", c.Connections)
	case c.Pipeline < 1:
		return t, fmt.Errorf("pipeline depth %d: use at least 1 (1 is no pipelining)", c.Pipeline)
	case c.Close && c.Pipeline > 1:
		return t, fmt.Errorf("close mode sends one request per connection: drop --close or use --pipeline 1")
	case c.Workload == WorkloadPut && c.Pipeline > 1:
		return t, fmt.Errorf("the put workload sends each If-Match from the previous answer, so it cannot pipeline: use --pipeline 1")
	case c.Workload != WorkloadSeed && (c.Duration > 0) == (c.Count > 0):
		return t, fmt.Errorf("give exactly one of a duration (-d) and a request count (-n)")
	case c.Count < 0 || c.Duration < 0:
		return t, fmt.Errorf("negative duration or count: give a positive one")
	case c.Rate < 0 || math.IsNaN(c.Rate) || math.IsInf(c.Rate, 0):
		return t, fmt.Errorf("rate %v: give requests a second above 0, or 0 for as fast as answers come", c.Rate)
	case c.Timeout < 0:
		return t, fmt.Errorf("negative timeout %s: use 0 for none", c.Timeout)
	case !strings.HasPrefix(c.Prefix, "/"):
		return t, fmt.Errorf("prefix %q does not start with /: use a path like /docs/", c.Prefix)
	case strings.ContainsAny(c.Prefix, " \r\n?#"):
		return t, fmt.Errorf("prefix %q holds a space, CR, LF, ? or #: use a plain path", c.Prefix)
	}
	return t, nil
}

func workloadList() string {
	s := make([]string, len(Workloads))
	for i, w := range Workloads {
		s[i] = string(w)
	}
	return strings.Join(s, ", ")
}
