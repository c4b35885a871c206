package load

import (
	"fmt"
	"io"
	"math"
	"time"
)

// Result is one run's outcome. Its JSON form is the one line pure-load
// --json prints, and other tools parse it, so the field names are fixed:
//
//	{"tool":"pure-load","workload":"get","target":"http://127.0.0.1:8080",
//	 "connections":64,"pipeline":1,"keepalive":true,"duration_s":10.0,
//	 "requests":N,"ok":N,"non2xx":N,
//	 "errors":{"connect":0,"write":0,"read":0,"timeout":0,"parse":0,"closed":0},
//	 "ok_per_s":X,
//	 "latency_us":{"p50":..,"p90":..,"p99":..,"p999":..,"max":..},
//	 "client_cpu_s":X}
//
// requests = ok + non2xx + the sum of errors: every request sent (or that
// failed to be sent) ends in exactly one of them. ok counts 2xx answers,
// non2xx every other answer. duration_s is the wall time from the start
// until the last connection stopped; ok_per_s is ok / duration_s.
// latency_us holds microseconds over every answered request (ok and
// non-2xx), from the write of its batch to the read that completed its
// answer. client_cpu_s is the generator's own user+system CPU time over
// the run (getrusage of the process). rate is the cap asked for
// (Config.Rate), absent without one.
type Result struct {
	Tool        string  `json:"tool"`
	Workload    string  `json:"workload"`
	Target      string  `json:"target"`
	Connections int     `json:"connections"`
	Pipeline    int     `json:"pipeline"`
	KeepAlive   bool    `json:"keepalive"`
	Rate        float64 `json:"rate,omitempty"`
	DurationS   float64 `json:"duration_s"`
	Requests    int64   `json:"requests"`
	OK          int64   `json:"ok"`
	Non2xx      int64   `json:"non2xx"`
	Errors      Errors  `json:"errors"`
	OKPerS      float64 `json:"ok_per_s"`
	LatencyUS   Latency `json:"latency_us"`
	ClientCPUS  float64 `json:"client_cpu_s"`
	// Connects counts the connections opened (not in the JSON line).
	Connects int64 `json:"-"`
}

// Errors counts failed requests by what failed: connect (the connection
// could not be opened; the whole batch fails), write (sending the batch),
// read (receiving, other than the kinds below), timeout (the connect or
// the batch's answers took longer than the timeout), parse (the answer is
// not HTTP/1.1 as expected), closed (the server closed or reset the
// connection before answering). Each unanswered request of a failed batch
// counts once. After an error the connection is closed and reopened.
type Errors struct {
	Connect int64 `json:"connect"`
	Write   int64 `json:"write"`
	Read    int64 `json:"read"`
	Timeout int64 `json:"timeout"`
	Parse   int64 `json:"parse"`
	Closed  int64 `json:"closed"`
}

// Total returns the number of failed requests.
func (e Errors) Total() int64 {
	return e.Connect + e.Write + e.Read + e.Timeout + e.Parse + e.Closed
}

func (e *Errors) add(o Errors) {
	e.Connect += o.Connect
	e.Write += o.Write
	e.Read += o.Read
	e.Timeout += o.Timeout
	e.Parse += o.Parse
	e.Closed += o.Closed
}

// Latency holds latency percentiles and the maximum, in microseconds
// (percentiles within 1.6 % of the exact order statistic, see Histogram).
type Latency struct {
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
	Max  float64 `json:"max"`
}

// LatencyOf summarises h in microseconds, rounded to 0.1 µs.
func LatencyOf(h *Histogram) Latency {
	us := func(d time.Duration) float64 {
		return math.Round(float64(d)/100) / 10
	}
	return Latency{P50: us(h.Quantile(0.50)), P90: us(h.Quantile(0.90)),
		P99: us(h.Quantile(0.99)), P999: us(h.Quantile(0.999)), Max: us(h.Max())}
}

// WriteSummary writes a short human summary of r, a few lines like wrk's.
func (r *Result) WriteSummary(w io.Writer) error {
	mode := "keep-alive"
	if !r.KeepAlive {
		mode = "a new connection per request"
	}
	e := r.Errors
	l := r.LatencyUS
	_, err := fmt.Fprintf(w, `%s %s: %d connections, pipeline %d, %s, %.2fs
  requests %d: ok %d, non-2xx %d, errors %d (connect %d, write %d, read %d, timeout %d, parse %d, closed %d)
  ok/s %.1f
  latency µs: p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  max %.1f
  client CPU %.2fs (%.0f%% of one core)
`, r.Workload, r.Target, r.Connections, r.Pipeline, mode, r.DurationS,
		r.Requests, r.OK, r.Non2xx, e.Total(), e.Connect, e.Write, e.Read, e.Timeout, e.Parse, e.Closed,
		r.OKPerS, l.P50, l.P90, l.P99, l.P999, l.Max,
		r.ClientCPUS, 100*r.ClientCPUS/math.Max(r.DurationS, 1e-9))
	return err
}
