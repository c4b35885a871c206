package load

import (
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// docServer is an in-memory server of the HTTP contract's documents and
// scoreboard, written plainly with net/http, that counts what it sees.
type docServer struct {
	mu        sync.Mutex
	docs      map[string][]byte
	revs      map[string]int64
	rev       int64
	scores    map[string]int64
	conflicts int64 // 412 answers
	conns     atomic.Int64
	puts      int64              // successful PUTs
	meddle    func(s *docServer) // called after each successful PUT, under mu
	url       string
}

func newDocServer(t *testing.T) *docServer {
	s := &docServer{docs: map[string][]byte{}, revs: map[string]int64{}, scores: map[string]int64{}}
	ts := httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	ts.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	ts.Start()
	t.Cleanup(ts.Close)
	s.url = ts.URL
	return s
}

// serverState is a copy of what a docServer holds and counted.
type serverState struct {
	docs      map[string][]byte
	scores    map[string]int64
	puts      int64
	conflicts int64
}

// state copies s's state under its lock. Tests read only copies: the load
// generator's raw socket calls carry no happens-before edge the race
// detector could see between a test's reads and the next run's handlers.
func (s *docServer) state() serverState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return serverState{docs: maps.Clone(s.docs), scores: maps.Clone(s.scores), puts: s.puts, conflicts: s.conflicts}
}

func (s *docServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case strings.HasPrefix(r.URL.Path, "/docs/"):
		s.doc(w, r, strings.TrimPrefix(r.URL.Path, "/docs/"))
	case r.URL.Path == "/inputs/score" && r.Method == "POST":
		name, _ := io.ReadAll(r.Body)
		n, err := strconv.ParseInt(r.URL.Query().Get("points"), 10, 64)
		if err != nil {
			http.Error(w, "bad request: points", 400)
			return
		}
		s.scores[string(name)] += n
		w.Write(name)
	case r.URL.Path == "/views/total":
		var sum int64
		for _, v := range s.scores {
			sum += v
		}
		io.WriteString(w, strconv.FormatInt(sum, 10))
	case r.URL.Path == "/views/leaders":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "[]")
	default:
		http.Error(w, "not found: no such path", 404)
	}
}

func (s *docServer) doc(w http.ResponseWriter, r *http.Request, key string) {
	switch r.Method {
	case "GET":
		b, ok := s.docs[key]
		if !ok {
			http.Error(w, "not found: no document "+key, 404)
			return
		}
		w.Header().Set("ETag", `"`+strconv.FormatInt(s.revs[key], 10)+`"`)
		w.Write(b)
	case "PUT":
		if m := r.Header.Get("If-Match"); m != "" {
			if _, ok := s.docs[key]; !ok || m != `"`+strconv.FormatInt(s.revs[key], 10)+`"` {
				s.conflicts++
				http.Error(w, "precondition failed: stale revision", http.StatusPreconditionFailed)
				return
			}
		}
		b, _ := io.ReadAll(r.Body)
		s.rev++
		s.docs[key], s.revs[key] = b, s.rev
		s.puts++
		w.Header().Set("ETag", `"`+strconv.FormatInt(s.rev, 10)+`"`)
		if s.meddle != nil {
			s.meddle(s)
		}
	default:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// rawServer accepts connections and hands each to serve in its own
// goroutine: for answers net/http would not give (pipelined bursts,
// chunked pieces, broken framing).
func rawServer(t *testing.T, serve func(c net.Conn)) (url string, accepted *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted = new(atomic.Int64)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var open []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			mu.Lock()
			open = append(open, c)
			mu.Unlock()
			wg.Add(1)
			go func() { defer wg.Done(); defer c.Close(); serve(c) }()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range open {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return "http://" + ln.Addr().String(), accepted
}

// readRequests reads request heads (and Content-Length bodies) from c and
// calls answer with each request's path; it ends when c fails.
func readRequests(c net.Conn, answer func(path string) bool) {
	buf := make([]byte, 0, 64<<10)
	tmp := make([]byte, 64<<10)
	for {
		for {
			i := strings.Index(string(buf), "\r\n\r\n")
			if i < 0 {
				break
			}
			head := string(buf[:i])
			n := 0
			for _, l := range strings.Split(head, "\r\n")[1:] {
				if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(k, "Content-Length") {
					n, _ = strconv.Atoi(strings.TrimSpace(v))
				}
			}
			if len(buf) < i+4+n {
				break
			}
			buf = buf[i+4+n:]
			path := strings.Fields(head)[1]
			if !answer(path) {
				return
			}
		}
		k, err := c.Read(tmp)
		if err != nil {
			return
		}
		buf = append(buf, tmp[:k]...)
	}
}
