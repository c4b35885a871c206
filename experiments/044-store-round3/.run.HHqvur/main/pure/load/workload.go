package load

import (
	"fmt"
	"strconv"
)

// source makes one connection's requests and sees their answers, in
// order. The requests are built ahead into byte slices where they do not
// change; next appends one to the connection's batch.
type source interface {
	// next appends request seq to b (seq: the run-wide number of the
	// request in count mode, the connection's own counter otherwise).
	next(b []byte, seq int64) []byte
	// keepBody reports whether the answer to the request next built last
	// wants its body handed to answered.
	keepBody() bool
	// answered sees the answer to the oldest unanswered request.
	answered(a *answer, body []byte)
	// failed reports that the unanswered requests will get no answer.
	failed()
}

// Seed documents: 64 small ones and one big one.
const (
	smallDocs = 64
	smallSize = 64
	bigSize   = 1 << 20
	bigKey    = "big"
	seedCount = smallDocs + 1
)

// scoreNames is the fixed set of names the score workload posts.
var scoreNames = []string{"alice", "bob", "carol", "dave", "erin", "frank",
	"grace", "heidi", "ivan", "judy", "mallory", "niaj", "olivia", "peggy",
	"rupert", "sybil"}

// smallKey returns the key of small document i: d00..d63.
func smallKey(i int) string { return fmt.Sprintf("d%02d", i) }

// smallBody returns the 64 B content the seed writes for document i.
func smallBody(i int) []byte {
	b := []byte(fmt.Sprintf("document %s of the pure-load seed ", smallKey(i)))
	for len(b) < smallSize-1 {
		b = append(b, '.')
	}
	return append(b[:smallSize-1], '\n')
}

// bigBody returns the 1 MiB content of document big: lines of text.
func bigBody() []byte {
	b := make([]byte, 0, bigSize)
	for i := 0; len(b) < bigSize; i++ {
		b = fmt.Appendf(b, "line %07d of the big document written by the pure-load seed..\n", i)
	}
	return b[:bigSize]
}

// head appends a request line and the headers every request carries.
func head(b []byte, method, path, host string, close bool) []byte {
	b = append(b, method...)
	b = append(b, ' ')
	b = append(b, path...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, host...)
	b = append(b, "\r\n"...)
	if close {
		b = append(b, "Connection: close\r\n"...)
	}
	return b
}

// request builds a whole request with an optional body.
func request(method, path, host string, close bool, body []byte) []byte {
	b := head(nil, method, path, host, close)
	if body != nil || method == "PUT" || method == "POST" {
		b = append(b, "Content-Length: "...)
		b = strconv.AppendInt(b, int64(len(body)), 10)
		b = append(b, "\r\n"...)
	}
	b = append(b, "\r\n"...)
	return append(b, body...)
}

// fixed cycles through prebuilt requests: request seq is reqs[seq%len].
type fixed struct{ reqs [][]byte }

func (f *fixed) next(b []byte, seq int64) []byte {
	return append(b, f.reqs[seq%int64(len(f.reqs))]...)
}
func (f *fixed) keepBody() bool           { return false }
func (f *fixed) answered(*answer, []byte) {}
func (f *fixed) failed()                  {}

// newSource returns connection conn's source for workload w. Sources
// without state share one prebuilt set.
func newSource(w Workload, conn int, shared *fixed, c *Config, t target) source {
	if w == WorkloadPut {
		return newPutter(conn, c, t)
	}
	return shared
}

// prebuilt returns the fixed requests of every workload but put.
func prebuilt(w Workload, c *Config, t target) *fixed {
	f := &fixed{}
	add := func(method, path string, body []byte) {
		f.reqs = append(f.reqs, request(method, path, t.host, c.Close, body))
	}
	switch w {
	case WorkloadSeed:
		for i := 0; i < smallDocs; i++ {
			add("PUT", c.Prefix+smallKey(i), smallBody(i))
		}
		add("PUT", c.Prefix+bigKey, bigBody())
	case WorkloadGet:
		for i := 0; i < smallDocs; i++ {
			add("GET", c.Prefix+smallKey(i), nil)
		}
	case WorkloadBig:
		add("GET", c.Prefix+bigKey, nil)
	case WorkloadScore:
		for _, n := range scoreNames {
			add("POST", "/inputs/score?points=1", []byte(n))
		}
	case WorkloadTotal:
		add("GET", "/views/total", nil)
	case WorkloadLeaders:
		add("GET", "/views/leaders?from=0&count=20", nil)
	case WorkloadPut:
		return nil
	}
	return f
}

// putter is writer conn of the put workload. It owns document w<conn>:
// each PUT sends 16 new bytes followed by the document as last seen, with
// the ETag of the last answer as If-Match. Its first PUT has no ETag to
// send: it writes the 16 bytes alone without If-Match, making (or
// resetting) the document, so a healthy run answers every request with a
// 2xx. After a 412, a failed connection (the PUT may or may not have been
// applied) or any other surprise it learns the document again by a GET
// (404: empty, and the next PUT goes without If-Match). The GETs are
// requests like the PUTs: counted, timed, non-2xx when not 200.
type putter struct {
	path, host string
	close      bool
	doc        []byte // the document as the server has it
	pending    []byte // the document the PUT in flight writes
	etag       []byte // nil: send no If-Match
	learn      bool   // the next request is a GET that learns the document
	inFlight   byte   // 'G' or 'P'
}

func newPutter(conn int, c *Config, t target) *putter {
	return &putter{path: c.Prefix + "w" + strconv.Itoa(conn), host: t.host,
		close: c.Close, etag: make([]byte, 0, maxETag)}
}

func (p *putter) next(b []byte, seq int64) []byte {
	if p.learn {
		p.inFlight = 'G'
		b = head(b, "GET", p.path, p.host, p.close)
		return append(b, "\r\n"...)
	}
	p.inFlight = 'P'
	p.pending = p.pending[:0]
	p.pending = appendStamp(p.pending, seq)
	p.pending = append(p.pending, p.doc...)
	b = head(b, "PUT", p.path, p.host, p.close)
	b = append(b, "Content-Length: "...)
	b = strconv.AppendInt(b, int64(len(p.pending)), 10)
	if len(p.etag) > 0 {
		b = append(b, "\r\nIf-Match: "...)
		b = append(b, p.etag...)
	}
	b = append(b, "\r\n\r\n"...)
	return append(b, p.pending...)
}

// appendStamp appends the 16 bytes a PUT prepends: the low 60 bits of seq
// as 15 hexadecimal digits and a newline.
func appendStamp(b []byte, seq int64) []byte {
	const hex = "0123456789abcdef"
	for sh := 56; sh >= 0; sh -= 4 {
		b = append(b, hex[(seq>>uint(sh))&15])
	}
	return append(b, '\n')
}

func (p *putter) keepBody() bool { return p.inFlight == 'G' }

func (p *putter) answered(a *answer, body []byte) {
	switch {
	case p.inFlight == 'G' && a.status == 200:
		p.doc = append(p.doc[:0], body...)
		p.etag = append(p.etag[:0], a.ETag()...)
		p.learn = false
	case p.inFlight == 'G' && a.status == 404:
		p.doc, p.etag, p.learn = p.doc[:0], p.etag[:0], false
	case p.inFlight == 'P' && a.status == 200 && a.etagLen > 0:
		p.doc, p.pending = p.pending, p.doc
		p.etag = append(p.etag[:0], a.ETag()...)
	default: // 412, an error status, or a 200 without ETag: learn again
		p.learn = true
	}
}

func (p *putter) failed() { p.learn = true }
