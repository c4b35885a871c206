package load

import (
	"context"
	"fmt"
	"math"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// counted runs c and checks the identity every result keeps.
func counted(t *testing.T, c Config) Result {
	t.Helper()
	res, err := Run(context.Background(), c)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if sum := res.OK + res.Non2xx + res.Errors.Total(); sum != res.Requests {
		t.Fatalf("requests %d != ok %d + non2xx %d + errors %d", res.Requests, res.OK, res.Non2xx, res.Errors.Total())
	}
	if c.Count > 0 && res.Requests != c.Count {
		t.Fatalf("%d requests, asked for %d", res.Requests, c.Count)
	}
	return res
}

func config(target string, w Workload, conns int, count int64) Config {
	c := DefaultConfig()
	c.Target, c.Workload, c.Connections, c.Duration, c.Count = target, w, conns, 0, count
	return c
}

func TestRun_Seed_WritesTheDocuments(t *testing.T) {
	s := newDocServer(t)
	res := counted(t, config(s.url, WorkloadSeed, 8, 0))
	st := s.state()
	if res.Requests != seedCount || res.OK != seedCount {
		t.Fatalf("seed: %d requests, %d ok, want %d of each", res.Requests, res.OK, seedCount)
	}
	for i := range smallDocs {
		if d := st.docs[smallKey(i)]; len(d) != smallSize {
			t.Errorf("document %s has %d bytes, want %d", smallKey(i), len(d), smallSize)
		}
	}
	if d := st.docs[bigKey]; len(d) != bigSize {
		t.Errorf("document big has %d bytes, want %d", len(d), bigSize)
	}
}

func TestRun_Get_CountsAddUp(t *testing.T) {
	s := newDocServer(t)
	res := counted(t, config(s.url, WorkloadGet, 8, 500))
	if res.Non2xx != 500 {
		t.Fatalf("before seeding: %d non-2xx of 500, want all (404)", res.Non2xx)
	}
	counted(t, config(s.url, WorkloadSeed, 4, 0))
	for _, w := range []Workload{WorkloadGet, WorkloadBig, WorkloadScore, WorkloadTotal, WorkloadLeaders} {
		res := counted(t, config(s.url, w, 8, 200))
		if res.OK != 200 {
			t.Errorf("%s: %d ok of 200 (non2xx %d, errors %+v)", w, res.OK, res.Non2xx, res.Errors)
		}
		if res.LatencyUS.Max <= 0 || res.LatencyUS.P50 > res.LatencyUS.P99 || res.LatencyUS.P99 > res.LatencyUS.Max {
			t.Errorf("%s: latencies out of order: %+v", w, res.LatencyUS)
		}
	}
	var sum int64
	for _, v := range s.state().scores {
		sum += v
	}
	if sum != 200 {
		t.Errorf("the scoreboard holds %d points after 200 score posts", sum)
	}
}

func TestRun_Put_ChainsIfMatch(t *testing.T) {
	s := newDocServer(t)
	res := counted(t, config(s.url, WorkloadPut, 4, 400))
	st := s.state()
	// Each writer's first PUT goes without If-Match, every next one chains
	// the ETag of the last answer: all 2xx, no conflict, and the documents
	// hold one 16 B stamp per PUT (the count is shared, so writers get
	// different numbers of requests).
	if res.OK != 400 || res.Non2xx != 0 || st.conflicts != 0 || st.puts != 400 {
		t.Fatalf("%d ok, %d non-2xx, %d conflicts, %d PUTs; want 400, 0, 0, 400", res.OK, res.Non2xx, st.conflicts, st.puts)
	}
	stamps := 0
	for k, d := range st.docs {
		if len(d)%16 != 0 || !strings.HasPrefix(k, "w") {
			t.Fatalf("document %s has %d bytes, not 16 B stamps", k, len(d))
		}
		stamps += len(d) / 16
	}
	if stamps != 400 || len(st.docs) < 1 || len(st.docs) > 4 {
		t.Fatalf("%d stamps in %d documents, want 400 in 1 to 4", stamps, len(st.docs))
	}
	// A second run starts w0 afresh and chains again.
	res = counted(t, config(s.url, WorkloadPut, 1, 11))
	st = s.state()
	if res.OK != 11 || st.conflicts != 0 || len(st.docs["w0"]) != 11*16 {
		t.Fatalf("second run: %d ok of 11, %d conflicts, w0 has %d bytes (want 11 stamps)", res.OK, st.conflicts, len(st.docs["w0"]))
	}
	if got := string(appendStamp(nil, 0x1a)); got != "00000000000001a\n" {
		t.Fatalf("stamp of 0x1a is %q", got)
	}
	var want []byte
	for seq := int64(10); seq >= 0; seq-- {
		want = appendStamp(want, seq)
	}
	if string(st.docs["w0"]) != string(want) {
		t.Fatalf("w0 holds %q, want the stamps of requests 10 down to 0:\n%q", st.docs["w0"], want)
	}
}

func TestRun_Put_412_RelearnsByGet(t *testing.T) {
	s := newDocServer(t)
	// Another writer bumps w0's revision after the third PUT.
	s.mu.Lock()
	s.meddle = func(s *docServer) {
		if s.puts == 3 {
			s.rev++
			s.revs["w0"] = s.rev
		}
	}
	s.mu.Unlock()
	res := counted(t, config(s.url, WorkloadPut, 1, 20))
	st := s.state()
	// PUT x3, PUT 412, GET 200, PUT x15.
	if st.conflicts != 1 || res.Non2xx != 1 || res.OK != 19 {
		t.Fatalf("%d conflicts, %d non-2xx, %d ok; want 1, 1 (the 412), 19", st.conflicts, res.Non2xx, res.OK)
	}
	if got := len(st.docs["w0"]); got != 18*16 {
		t.Fatalf("w0 has %d bytes, want 18 stamps", got)
	}
}

func TestRun_Close_OneConnectionPerRequest(t *testing.T) {
	s := newDocServer(t)
	counted(t, config(s.url, WorkloadSeed, 2, 0))
	before := s.conns.Load()
	c := config(s.url, WorkloadGet, 4, 50)
	c.Close = true
	res := counted(t, c)
	if res.OK != 50 || res.Connects != 50 || s.conns.Load()-before != 50 {
		t.Fatalf("%d ok, %d connects, the server accepted %d: want 50 of each", res.OK, res.Connects, s.conns.Load()-before)
	}
	c.Close = false
	res = counted(t, c)
	if res.Connects > 4 || res.OK != 50 {
		t.Fatalf("keep-alive opened %d connections for 4 workers (%d ok of 50)", res.Connects, res.OK)
	}
}

// seqSource asks for /seq/<n> and records the ETags of the answers, which
// the test servers set to the path they answer.
type seqSource struct {
	got      []string
	failures int
}

func (s *seqSource) next(b []byte, seq int64) []byte {
	return fmt.Appendf(b, "GET /seq/%d HTTP/1.1\r\nHost: x\r\n\r\n", seq)
}
func (s *seqSource) keepBody() bool { return false }
func (s *seqSource) answered(a *answer, _ []byte) {
	s.got = append(s.got, string(a.ETag()))
}
func (s *seqSource) failed() { s.failures++ }

// runOne runs one worker with source src for count requests; edits (if
// any) change the configuration further.
func runOne(t *testing.T, url string, pipeline int, count int64, timeout time.Duration, src source, edits ...func(*Config)) *worker {
	t.Helper()
	c := config(url, WorkloadGet, 1, count)
	c.Pipeline, c.Timeout = pipeline, timeout
	for _, e := range edits {
		e(&c)
	}
	tg, err := c.check()
	if err != nil {
		t.Fatal(err)
	}
	addr, err := resolve(tg.addr)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{cfg: c, t: tg, addr: addr, base: time.Now(), total: count}
	r.budget.Store(count)
	w := newWorker(r, 0, src)
	w.loop()
	if sum := w.ok + w.non2xx + w.errs.Total(); sum != w.requests || w.requests != count {
		t.Fatalf("requests %d, ok+non2xx+errors %d, asked for %d", w.requests, sum, count)
	}
	return w
}

func TestWorker_Pipelining_InOrder(t *testing.T) {
	// The server answers each request as soon as it is parsed, in pieces,
	// alternating Content-Length and chunked framing, so answers straddle
	// reads.
	url, accepted := rawServer(t, func(c net.Conn) {
		n := 0
		readRequests(c, func(path string) bool {
			n++
			var a string
			if n%2 == 0 {
				a = fmt.Sprintf("HTTP/1.1 200 OK\r\nETag: %s\r\nContent-Length: 5\r\n\r\nhello", path)
			} else {
				a = fmt.Sprintf("HTTP/1.1 200 OK\r\nETag: %s\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhe\r\n3\r\nllo\r\n0\r\n\r\n", path)
			}
			half := len(a) / 2
			_, err1 := c.Write([]byte(a[:half]))
			_, err2 := c.Write([]byte(a[half:]))
			return err1 == nil && err2 == nil
		})
	})
	src := &seqSource{}
	w := runOne(t, url, 16, 16*25+7, 5*time.Second, src)
	if w.ok != 16*25+7 || accepted.Load() != 1 {
		t.Fatalf("%d ok of %d on %d connections", w.ok, 16*25+7, accepted.Load())
	}
	for i, e := range src.got {
		if want := fmt.Sprintf("/seq/%d", i); e != want {
			t.Fatalf("answer %d carries %s: answers out of order", i, e)
		}
	}
	if w.hist.Count() != uint64(w.ok) {
		t.Fatalf("%d latencies for %d answers", w.hist.Count(), w.ok)
	}
}

func TestWorker_ServerClosesMidBatch_ClosedErrorsAndReconnect(t *testing.T) {
	// Each connection answers 5 requests, then closes: a batch of 8 gets
	// 5 answers and 3 closed errors, and the next batch reconnects.
	url, accepted := rawServer(t, func(c net.Conn) {
		n := 0
		readRequests(c, func(path string) bool {
			n++
			_, err := fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nETag: %s\r\nContent-Length: 0\r\n\r\n", path)
			return err == nil && n < 5
		})
	})
	w := runOne(t, url, 8, 32, 5*time.Second, &seqSource{})
	if w.ok != 20 || w.errs.Closed != 12 || accepted.Load() != 4 {
		t.Fatalf("%d ok, %d closed, %d connections; want 20, 12, 4", w.ok, w.errs.Closed, accepted.Load())
	}
}

func closeEach(c *Config) { c.Close = true }

func TestWorker_IPv6Target(t *testing.T) {
	// The raw sockaddr is built by hand for each family: an IPv6 loopback
	// target must be reached as well as an IPv4 one.
	ln, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	var got atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				readRequests(c, func(path string) bool {
					got.Add(1)
					_, err := fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nETag: %s\r\nContent-Length: 0\r\n\r\n", path)
					return err == nil
				})
			}()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	w := runOne(t, "http://"+ln.Addr().String(), 1, 3, 5*time.Second, &seqSource{}, closeEach)
	if w.ok != 3 || got.Load() != 3 {
		t.Fatalf("%d ok, the server answered %d, errors %+v: want 3 and 3", w.ok, got.Load(), w.errs)
	}
}

func TestWorker_Close_ClosesOnWholeAnswerWithoutWaitingForFIN(t *testing.T) {
	// The server answers "Connection: close" but leaves closing to the
	// client: it waits for the client's EOF after each answer. The client
	// closes as soon as the answer is whole (as wrk does), so every request
	// is answered on its own connection and none waits for a timeout.
	var eofs atomic.Int64
	url, accepted := rawServer(t, func(c net.Conn) {
		readRequests(c, func(path string) bool {
			_, err := fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nETag: %s\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok", path)
			return err == nil
		})
		eofs.Add(1) // readRequests returns on the client's EOF
	})
	start := time.Now()
	w := runOne(t, url, 1, 20, 5*time.Second, &seqSource{}, closeEach)
	if w.ok != 20 || w.connects != 20 || accepted.Load() != 20 {
		t.Fatalf("%d ok, %d connects, %d accepted, errors %+v: want 20 of each", w.ok, w.connects, accepted.Load(), w.errs)
	}
	if el := time.Since(start); el > 4*time.Second {
		t.Fatalf("20 requests took %v: the client waited for the server to close", el)
	}
	deadline := time.Now().Add(2 * time.Second)
	for eofs.Load() < 20 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if eofs.Load() != 20 {
		t.Fatalf("the server saw the client close %d of 20 connections", eofs.Load())
	}
}

func TestWorker_Close_LateAnswersJoinThePoller(t *testing.T) {
	// Answers come 20 ms after the request: the read after the one yield
	// finds nothing, so the socket joins the runtime's poller and waits
	// there. A silent server's connections time out by the deadline set
	// before they joined.
	url, _ := rawServer(t, func(c net.Conn) {
		readRequests(c, func(path string) bool {
			time.Sleep(20 * time.Millisecond)
			_, err := fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nETag: %s\r\nContent-Length: 0\r\n\r\n", path)
			return err == nil
		})
	})
	w := runOne(t, url, 1, 5, 5*time.Second, &seqSource{}, closeEach)
	if w.ok != 5 || w.connects != 5 || w.sk.joins != 5 {
		t.Fatalf("%d ok, %d connects, %d joined the poller, errors %+v: want 5 of each", w.ok, w.connects, w.sk.joins, w.errs)
	}
	silent, _ := rawServer(t, func(c net.Conn) { readRequests(c, func(string) bool { return true }) })
	if w := runOne(t, silent, 1, 2, 50*time.Millisecond, &seqSource{}, closeEach); w.errs.Timeout != 2 {
		t.Errorf("a silent server: %+v, want 2 timeouts", w.errs)
	}
}

// bigSource sends one request of about 16 MiB, more than loopback's
// socket buffers hold.
type bigSource struct{ seqSource }

const hugeBody = 16 << 20

func (s *bigSource) next(b []byte, seq int64) []byte {
	b = fmt.Appendf(b, "PUT /seq/%d HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", seq, hugeBody)
	return append(b, make([]byte, hugeBody)...)
}

func TestWorker_Close_BlockedWriteJoinsThePoller(t *testing.T) {
	// The server reads nothing for 50 ms: the raw write fills the socket
	// buffers, the socket joins the poller and the write finishes there.
	url, _ := rawServer(t, func(c net.Conn) {
		time.Sleep(50 * time.Millisecond)
		readRequests(c, func(path string) bool {
			_, err := fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nETag: %s\r\nContent-Length: 0\r\n\r\n", path)
			return err == nil
		})
	})
	w := runOne(t, url, 1, 1, 5*time.Second, &bigSource{}, closeEach)
	if w.ok != 1 || w.sk.joins != 1 {
		t.Fatalf("%d ok, %d joined the poller, errors %+v: want 1 and 1", w.ok, w.sk.joins, w.errs)
	}
}

func TestWorker_ErrorKinds(t *testing.T) {
	garbage, _ := rawServer(t, func(c net.Conn) {
		readRequests(c, func(string) bool { _, err := c.Write([]byte("SMTP ready\r\n\r\n")); return err == nil })
	})
	silent, _ := rawServer(t, func(c net.Conn) { readRequests(c, func(string) bool { return true }) })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String()
	ln.Close()

	if w := runOne(t, garbage, 2, 6, 5*time.Second, &seqSource{}); w.errs.Parse != 6 {
		t.Errorf("garbage answers: %+v, want 6 parse errors", w.errs)
	}
	if w := runOne(t, silent, 1, 2, 50*time.Millisecond, &seqSource{}); w.errs.Timeout != 2 {
		t.Errorf("a silent server: %+v, want 2 timeouts", w.errs)
	}
	if w := runOne(t, refused, 3, 6, time.Second, &seqSource{}); w.errs.Connect != 6 {
		t.Errorf("a closed port: %+v, want 6 connect errors", w.errs)
	}
}

func TestRun_Duration_StopsAndCounts(t *testing.T) {
	s := newDocServer(t)
	counted(t, config(s.url, WorkloadSeed, 2, 0))
	c := config(s.url, WorkloadGet, 4, 0)
	c.Duration, c.Pipeline = 200*time.Millisecond, 4
	res := counted(t, c)
	if res.OK == 0 || res.OK != res.Requests || res.DurationS < 0.2 {
		t.Fatalf("%d ok of %d requests in %.3fs", res.OK, res.Requests, res.DurationS)
	}
}

func TestRun_Cancel_ReturnsCounted(t *testing.T) {
	silent, _ := rawServer(t, func(c net.Conn) { readRequests(c, func(string) bool { return true }) })
	ctx, cancel := context.WithCancel(context.Background())
	c := config(silent, WorkloadGet, 3, 0)
	c.Duration, c.Timeout = time.Hour, 0
	var done atomic.Bool
	time.AfterFunc(100*time.Millisecond, func() { done.Store(true); cancel() })
	res, err := Run(ctx, c)
	if err != context.Canceled || !done.Load() {
		t.Fatalf("Run returned %v, want context.Canceled after the cancel", err)
	}
	if res.Requests != 0 || res.Connects != 3 {
		t.Fatalf("%d requests counted (in flight ones are dropped), %d connects", res.Requests, res.Connects)
	}
}

func TestConfig_Check_ExplainsMistakes(t *testing.T) {
	base := config("http://127.0.0.1:1", WorkloadGet, 1, 1)
	for _, c := range []struct {
		edit func(*Config)
		says string
	}{
		{func(c *Config) { c.Target = "127.0.0.1:8080" }, "base URL"},
		{func(c *Config) { c.Target = "ftp://x:1" }, "scheme"},
		{func(c *Config) { c.Target = "https://x:1" }, "plain http"},
		{func(c *Config) { c.Target = "http://x:1/docs/" }, "--prefix"},
		{func(c *Config) { c.Workload = "gets" }, "use one of seed, get"},
		{func(c *Config) { c.Connections = 0 }, "at least 1"},
		{func(c *Config) { c.Pipeline = 2; c.Close = true }, "--pipeline 1"},
		{func(c *Config) { c.Pipeline = 2; c.Workload = WorkloadPut }, "cannot pipeline"},
		{func(c *Config) { c.Duration = time.Second }, "exactly one"},
		{func(c *Config) { c.Prefix = "docs/" }, "start with /"},
		{func(c *Config) { c.Rate = -1 }, "requests a second above 0"},
		{func(c *Config) { c.Rate = math.Inf(1) }, "requests a second above 0"},
	} {
		cfg := base
		c.edit(&cfg)
		_, err := Run(context.Background(), cfg)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("got %v, want an error saying %q", err, c.says)
		}
	}
}

// TestRun_Rate_Caps checks that a rate caps the requests: in 300 ms at 200
// a second, 4 connections send at most 200×0.3 plus one batch each (their
// first may leave at once), where without a rate the same loopback server
// answers thousands. Only the cap is asserted, never a least count: a slow
// machine sends fewer, which the cap allows.
func TestRun_Rate_Caps(t *testing.T) {
	s := newDocServer(t)
	counted(t, config(s.url, WorkloadSeed, 4, 0))
	c := config(s.url, WorkloadGet, 4, 0)
	c.Duration = 300 * time.Millisecond
	free := counted(t, c)
	c.Rate = 200
	paced := counted(t, c)
	if limit := int64(200*0.3) + 4; paced.Requests > limit || paced.Requests == 0 {
		t.Errorf("rate 200/s for 300 ms: %d requests, want 1 to %d", paced.Requests, limit)
	}
	if free.Requests <= 4*(int64(200*0.3)+4) {
		t.Logf("without a rate only %d requests: the cap above proves little on this machine", free.Requests)
	}
	t.Logf("300 ms of 4 connections: %d requests without a rate, %d at 200/s", free.Requests, paced.Requests)
}

// TestRun_Rate_CancelWakesWaiters checks that cancelling a paced run does
// not wait for the connections' turns: at one request a minute, the second
// connection's first turn is 30 s away, and Run must return soon after the
// cancel.
func TestRun_Rate_CancelWakesWaiters(t *testing.T) {
	s := newDocServer(t)
	c := config(s.url, WorkloadGet, 2, 0)
	c.Duration, c.Rate = time.Hour, 1.0/60
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := Run(ctx, c); done <- err }()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Errorf("cancelled run returned no error")
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("Run still waiting 20 s after the cancel: a paced connection did not wake")
	}
}
