package serve_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// The reference model of the model test: what the HTTP contract says the
// server answers, computed from the intent of each generated request (not
// by parsing it again), over a plain Go model of the state. Requests are
// answered one group at a time with at most one write per group, so the
// store's revisions are predictable: every acknowledged write (a PUT or a
// score input) is one commit and takes the next revision.

// req is one generated request and the answer the model expects.
type req struct {
	method, target, ifMatch, body string
	write                         bool // may change the state
	want                          answer
}

// answer is an HTTP answer as the test compares it.
type answer struct {
	status int
	etag   string // the ETag header, "" for none
	ctype  string // the Content-Type, "" when not compared
	body   string
}

const (
	textType = "text/plain; charset=utf-8"
	jsonType = "application/json"
)

type doc struct {
	body string
	rev  uint64
}

// model is the state: documents by decoded key, scores by name, and the
// last revision given out.
type model struct {
	rng    *rand.Rand
	rev    uint64
	docs   map[string]doc
	scores map[string]int64
}

func newModel(seed uint64) *model {
	return &model{rng: rand.New(rand.NewPCG(seed, 17)), docs: map[string]doc{}, scores: map[string]int64{}}
}

func fail(status int, word, msg string) answer {
	return answer{status: status, ctype: textType, body: word + ": " + msg + "\n"}
}

// Keys: raw (as sent in the path) and decoded. Some documents exist, some
// never do.
var docKeys = []struct{ raw, key string }{
	{"a", "a"}, {"b", "b"}, {"dir/c", "dir/c"}, {"d%20e", "d e"}, {"%C3%BC", "ü"},
	{"never", "never"}, {"x.y", "x.y"}, {"...", "..."},
}

// Bad keys and the 400 text each gets.
var badKeys = []struct{ raw, msg string }{
	{"..", `document key with a "." or ".." segment; name documents without them`},
	{"a/../b", `document key with a "." or ".." segment; name documents without them`},
	{"./a", `document key with a "." or ".." segment; name documents without them`},
	{"a%00b", "NUL byte in document key"},
	{"a%01b", "control byte in document key"},
	{"a%zzb", "bad percent escape in document key; write %XX with two hex digits"},
	{"a%2Fb", "encoded slash (%2F) in document key; write '/' as it is"},
	{strings.Repeat("k", 257), "document key longer than 256 bytes; use a shorter key"},
}

// Score names: raw UTF-8 bodies.
var names = []string{"alice", "bob", "carol", "Zoë", "a<b>&\"c\"", "tab\there", "d\u2028"}

// next generates one request and applies it to the model.
func (m *model) next() req {
	switch r := m.rng.IntN(100); {
	case r < 18:
		return m.getDoc()
	case r < 40:
		return m.putDoc()
	case r < 45:
		return m.badKey()
	case r < 70:
		return m.score()
	case r < 78:
		return req{method: "GET", target: "/views/total", want: answer{200, "", textType, m.total()}}
	case r < 93:
		return m.leaders()
	default:
		return m.notFound()
	}
}

func (m *model) getDoc() req {
	k := docKeys[m.rng.IntN(len(docKeys))]
	q := req{method: "GET", target: "/docs/" + k.raw}
	d, ok := m.docs[k.key]
	if !ok {
		q.want = fail(404, "not found", "no document "+strconv.Quote(k.raw))
		return q
	}
	q.want = answer{status: 200, etag: etag(d.rev), body: d.body}
	return q
}

func etag(rev uint64) string { return `"` + strconv.FormatUint(rev, 10) + `"` }

func (m *model) putDoc() req {
	k := docKeys[m.rng.IntN(len(docKeys)-3)] // never, x.y and ... stay absent
	body := fmt.Sprintf("body %d of %s", m.rng.IntN(1000), k.key)
	if m.rng.IntN(10) == 0 {
		body = ""
	}
	q := req{method: "PUT", target: "/docs/" + k.raw, body: body, write: true}
	d, exists := m.docs[k.key]
	conflict := fail(412, "precondition failed", "document "+strconv.Quote(k.raw)+" is not at the revision If-Match names; GET it for its ETag and retry")
	switch r := m.rng.IntN(10); {
	case r < 4: // unconditional
	case r < 7 && exists: // the current revision
		q.ifMatch = etag(d.rev)
	case r < 8: // a stale or made-up revision
		q.ifMatch = etag(uint64(m.rng.IntN(int(m.rev) + 2)))
		if exists && q.ifMatch == etag(d.rev) {
			break
		}
		q.want = conflict
		return q
	case r < 9:
		q.ifMatch = "*"
		if !exists {
			q.want = conflict
			return q
		}
	default:
		q.ifMatch = []string{"12", `"1`, `W/"1"`, `"x"`}[m.rng.IntN(4)]
		q.want = fail(400, "bad request", `malformed If-Match; send the ETag a GET or PUT answered, such as "12", or *`)
		return q
	}
	m.rev++
	m.docs[k.key] = doc{body, m.rev}
	q.want = answer{status: 200, etag: etag(m.rev)}
	return q
}

func (m *model) badKey() req {
	k := badKeys[m.rng.IntN(len(badKeys))]
	method, body := "GET", ""
	if m.rng.IntN(2) == 0 {
		method, body = "PUT", "never stored"
	}
	return req{method: method, target: "/docs/" + k.raw, body: body, want: fail(400, "bad request", k.msg)}
}

// score generates a score input, well formed or not.
func (m *model) score() req {
	name := names[m.rng.IntN(len(names))]
	points := int64(m.rng.IntN(150) - 50)
	q := req{method: "POST", body: name, write: true}
	query := "points=" + encodeInt(m.rng, points)
	bad := func(msg string) req {
		q.want = fail(400, "bad request", msg)
		q.write = false
		return q
	}
	switch m.rng.IntN(14) {
	case 0:
		q.target = "/inputs/score"
		return bad(`field "points": missing; add ?points=<integer>`)
	case 1:
		v := []string{"abc", "1.5", "", "1e3", "99999999999999999999", "--1", "%2B"}[m.rng.IntN(7)]
		q.target = "/inputs/score?points=" + v
		dec, _ := url.QueryUnescape(v)
		return bad(fmt.Sprintf(`field "points": %q is not an integer`, dec))
	case 2:
		q.target = "/inputs/score?" + query + "&points=1"
		return bad(`field "points": given twice; give it once`)
	case 3:
		q.target = "/inputs/score?" + query + "&bonus=1"
		return bad(`unknown field "bonus"; fields: points`)
	case 4:
		q.target, q.body = "/inputs/score?"+query, ""
		return bad(`field "name": empty; send the name as the body`)
	case 5:
		q.target = "/inputs/score?points=%4"
		return bad(`query: bad percent-encoding in "%4"; write %XX with two hex digits, and '%' as %25`)
	case 6:
		if s := m.scores[name]; s > 0 {
			q.target = "/inputs/score?points=9223372036854775807"
			q.want = fail(409, "conflict", fmt.Sprintf("the score of %q would overflow int64; send fewer points", name))
			q.write = false
			return q
		}
	case 7:
		q.target = "/inputs/nope?" + query
		q.want = fail(404, "not found", `no input "nope"; inputs: score`)
		q.write = false
		return q
	}
	q.target = "/inputs/score?" + query
	m.scores[name] += points
	m.rev++
	q.want = answer{200, "", textType, name}
	return q
}

// encodeInt writes n in one of the spellings the query accepts.
func encodeInt(rng *rand.Rand, n int64) string {
	s := strconv.FormatInt(n, 10)
	switch rng.IntN(4) {
	case 0:
		return "%" + strconv.FormatInt(int64(s[0]), 16) + s[1:] // first byte escaped
	case 1:
		if n >= 0 {
			return "%2B" + s // "+5"
		}
	}
	return s
}

func (m *model) total() string {
	var t int64
	for _, s := range m.scores {
		t += s
	}
	return strconv.FormatInt(t, 10)
}

// leaders generates a page of the leaders view, or a bad one.
func (m *model) leaders() req {
	from, count := m.rng.IntN(len(names)+2), m.rng.IntN(6)
	q := req{method: "GET"}
	bad := func(target, msg string) req {
		q.target = target
		q.want = fail(400, "bad request", msg)
		return q
	}
	switch m.rng.IntN(10) {
	case 0:
		return bad("/views/leaders?count=1001", `field "count": 1001 is out of range; use 0 to 1000`)
	case 1:
		return bad("/views/leaders?from=-2", `field "from": -2 is out of range; use 0 or more`)
	case 2:
		return bad("/views/leaders?from=x", `field "from": "x" is not an integer`)
	case 3:
		return bad("/views/leaders?top=3", `unknown field "top"; fields: from, count`)
	case 4:
		q.target = "/views/leaders" // the defaults: from 0, count 20
		from, count = 0, 20
	case 5:
		q.target = fmt.Sprintf("/views/leaders?count=%d", count)
		from = 0
	default:
		q.target = fmt.Sprintf("/views/leaders?from=%d&count=%d", from, count)
	}
	keys := make([]string, 0, len(m.scores))
	for k := range m.scores {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	type row struct {
		Name  string `json:"name"`
		Score int64  `json:"score"`
	}
	rows := []row{}
	for _, k := range keys[min(from, len(keys)):min(from+count, len(keys))] {
		rows = append(rows, row{k, m.scores[k]})
	}
	b, _ := json.Marshal(rows)
	q.want = answer{200, "", jsonType, string(b)}
	return q
}

// notFound generates requests for names and routes that do not exist.
func (m *model) notFound() req {
	switch m.rng.IntN(3) {
	case 0:
		return req{method: "GET", target: "/views/nope?x=1", want: fail(404, "not found", `no view "nope"; views: total, leaders`)}
	case 1:
		return req{method: "GET", target: "/views/total?x=1", want: fail(400, "bad request", `unknown field "x"; view "total" takes no query fields`)}
	}
	return req{method: "GET", target: "/nothing", want: fail(404, "not found",
		`no route for "/nothing"; routes: GET or PUT /docs/<key>, POST /inputs/<name>, GET /views/<name>`)}
}
