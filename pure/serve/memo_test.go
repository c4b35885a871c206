package serve

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// checkMemoAsFast fails t when, with the tail of prev remembered (if
// parseFast takes prev), the memo path takes in and parseFast does not
// return the same length and fields, or the key is not its own decoding.
// It returns whether the memo path took in.
func checkMemoAsFast(t *testing.T, prev, in []byte, maxHead int) bool {
	t.Helper()
	var m headMemo
	var r request
	if n := parseFast(prev, maxHead, &r); n > 0 {
		m.remember(prev, n, &r)
	}
	var memo, fast request
	n := m.parseDocGet(in, maxHead, &memo)
	if n == 0 {
		return false
	}
	f := parseFast(in, maxHead, &fast)
	if f != n || memo.headLen != fast.headLen {
		t.Fatalf("memo path: %d bytes; parseFast: %d\nprev: %q\n  in: %q", n, f, prev, in)
	}
	if d := diff(&memo, &fast); d != "" {
		t.Fatalf("memo path and parseFast differ in %s\nprev: %q\n  in: %q", d, prev, in)
	}
	k := memo.path[len(docsPrefix):]
	if key, err := appendKey(nil, k); err != nil || string(key) != string(k) || memo.method != methodGET || !strings.HasPrefix(string(memo.path), docsPrefix) {
		t.Fatalf("memo path took %q as a GET of plain key %q; appendKey says %q, %v", in, k, key, err)
	}
	return true
}

// TestHeadMemo_AsParseFast: wherever the memo path takes a head after
// another was remembered, parseFast takes it with the same length and
// fields; and the memo path does take pure-load's repeated GETs. Pairs of
// heads are put together as TestParseFast_AsSlow's are, the second often
// a document GET with the first's tail and a random key.
func TestHeadMemo_AsParseFast(t *testing.T) {
	seed := rand.Uint64()
	rng := rand.New(rand.NewPCG(seed, 6))
	starts := []string{"GET /docs/d00", "GET /docs/d00?x", "GET /docs/a.b", "GET /docs/%41", "GET /docs/", "PUT /docs/a", "GET /x", "GET  /docs/a", "GET /docs/a/b"}
	versions := []string{" HTTP/1.1", " HTTP/1.0", " HTTP/1.2", " HTTP/2.0", "  HTTP/1.1", " HTTP/1.1 "}
	headers := []string{"Host: 127.0.0.1:8080", "Host:a", "Content-Length: 12", "Content-Length:  3  ",
		"If-Match: \"7\"", "IF-NONE-MATCH: *", "Connection: close", "connection: keep-alive, Close",
		"Connection: keep-alive", "Expect: 100-continue", "Transfer-Encoding: chunked", "X-Long: " + strings.Repeat("v", 30),
		"X-Tab: a\tb", "X: \x80\xff", "Host: b", "hOsT:c", "Host : e", "Content-Length: 4x"}
	head := func() []byte {
		return randomHead(rng, starts[rng.IntN(len(starts))]+versions[rng.IntN(len(versions))], headers, 2)
	}
	took := 0
	for range 100_000 {
		prev, in := head(), head()
		if rng.IntN(2) == 0 {
			// The same tail after a random key: where the memo path is taken.
			var r request
			if n := parseFast(prev, DefaultMaxHeaderBytes, &r); n > 0 {
				j := len(r.methodRaw) + 1 + len(r.target)
				key := randomBytes(rng, rng.IntN(6))
				in = append(append([]byte("GET /docs/"), key...), prev[j:]...)
			}
		}
		if rng.IntN(4) == 0 {
			in = in[:rng.IntN(len(in)+1)]
		} else {
			in = append(in, "GET /next HTTP/1.1\r\n"...)
		}
		maxHead := DefaultMaxHeaderBytes
		if rng.IntN(8) == 0 {
			maxHead = rng.IntN(len(in) + 1)
		}
		if checkMemoAsFast(t, prev, in, maxHead) {
			took++
		}
	}
	if took < 1_000 {
		t.Fatalf("seed %d: the memo path took %d of 100,000 heads; about 2 %% are repeated document GETs it should take", seed, took)
	}
	get := func(k string) []byte { return []byte("GET /docs/" + k + " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n") }
	if !checkMemoAsFast(t, get("d07"), get("d63"), DefaultMaxHeaderBytes) {
		t.Fatal("the memo path did not take pure-load's GET after another")
	}
	long := []byte("GET /docs/" + strings.Repeat("k", MaxKeyBytes+1) + " HTTP/1.1\r\n\r\n")
	if checkMemoAsFast(t, get("d07"), long, DefaultMaxHeaderBytes) {
		t.Fatal("the memo path took a key over MaxKeyBytes")
	}
}

// TestHeadMemo_OtherMethodsKeepTheGET: a PUT or POST between two GETs of a
// connection leaves the first GET's tail remembered, so the second takes
// the memo path; a GET with If-Match still forgets it.
func TestHeadMemo_OtherMethodsKeepTheGET(t *testing.T) {
	const tail = " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"
	var m headMemo
	take := func(head string) {
		t.Helper()
		var r request
		n := parseFast([]byte(head), DefaultMaxHeaderBytes, &r)
		if n == 0 {
			t.Fatalf("parseFast did not take %q", head)
		}
		m.remember([]byte(head), n, &r)
	}
	hits := func() bool {
		var r request
		return m.parseDocGet([]byte("GET /docs/b"+tail), DefaultMaxHeaderBytes, &r) > 0
	}
	take("GET /docs/a" + tail)
	for _, other := range []string{
		"PUT /docs/a HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Length: 3\r\n\r\n",
		"POST /inputs/score?points=5 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Length: 4\r\n\r\n",
	} {
		take(other)
		if !hits() {
			t.Fatalf("after %q the GET's tail is no longer remembered", other)
		}
	}
	take("GET /docs/a HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nIf-Match: \"3\"\r\n\r\n")
	if hits() {
		t.Fatal("a GET with If-Match did not forget the remembered tail")
	}
}
