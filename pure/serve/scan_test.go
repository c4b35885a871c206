package serve

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// The parser's word-at-a-time and table-driven scans (validValue,
// targetClass, keyMarks, ctlIndex, targetStop) must decide exactly what a byte-by-byte loop
// decides. Each test compares them with that loop, over every byte and
// over random strings rich in the bytes that matter.

// interesting are bytes at the edges of what the scans accept.
var interesting = []byte{0, 1, '\t', '\n', '\r', 0x1f, ' ', '!', '#', '%', '.', '/', '?', 'a', 0x7e, 0x7f, 0x80, 0x9f, 0xff}

// randomHead is a request head for the parsers' random tests: line, up to
// maxHeaders lines drawn from headers, the blank line, and one time in
// four an interesting byte put in at random.
func randomHead(rng *rand.Rand, line string, headers []string, maxHeaders int) []byte {
	b := append([]byte(line), "\r\n"...)
	for range rng.IntN(maxHeaders + 1) {
		b = append(b, headers[rng.IntN(len(headers))]...)
		b = append(b, "\r\n"...)
	}
	b = append(b, "\r\n"...)
	if rng.IntN(4) == 0 {
		b[rng.IntN(len(b))] = interesting[rng.IntN(len(interesting))]
	}
	return b
}

func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		if rng.IntN(3) == 0 {
			b[i] = interesting[rng.IntN(len(interesting))]
		} else {
			b[i] = byte(' ' + 1 + rng.IntN(0x7e-' '))
		}
	}
	return b
}

func validValueByBytes(v []byte) bool {
	for _, b := range v {
		if (b < ' ' && b != '\t') || b == 0x7f {
			return false
		}
	}
	return true
}

func TestValidValue_AsByteLoop(t *testing.T) {
	seed := rand.Uint64()
	rng := rand.New(rand.NewPCG(seed, 1))
	for range 200_000 {
		v := randomBytes(rng, rng.IntN(40))
		if rng.IntN(2) == 0 { // mostly plain, one odd byte at a random place
			for i := range v {
				v[i] = 'x'
			}
			if len(v) > 0 {
				v[rng.IntN(len(v))] = interesting[rng.IntN(len(interesting))]
			}
		}
		if got, want := validValue(v), validValueByBytes(v); got != want {
			t.Fatalf("seed %d: validValue(%q) = %v, want %v", seed, v, got, want)
		}
	}
	for b := range 256 { // each byte alone, and at each place of 8 to 17 bytes
		for n := 1; n <= 17; n++ {
			for at := range n {
				v := bytes.Repeat([]byte{'x'}, n)
				v[at] = byte(b)
				if got, want := validValue(v), validValueByBytes(v); got != want {
					t.Fatalf("validValue(%q) = %v, want %v", v, got, want)
				}
			}
		}
	}
}

func TestTargetClass_AsPredicate(t *testing.T) {
	for b := range 256 {
		want := targetPlain
		switch {
		case b <= ' ' || b >= 0x7f || b == '#':
			want = targetRefused
		case b == '?':
			want = targetQuery
		}
		if got := targetClass[b]; int(got) != want {
			t.Fatalf("targetClass[%#x] = %d, want %d", b, got, want)
		}
	}
}

// appendKeyByBytes is appendKey as it was before its fast path for plain keys.
func appendKeyByBytes(dst, k []byte) ([]byte, error) {
	if len(k) == 0 {
		return dst, &httpError{400, "empty"}
	}
	start := len(dst)
	for i := 0; i < len(k); i++ {
		b := k[i]
		if b == '%' {
			if i+2 >= len(k) || unhex(k[i+1]) < 0 || unhex(k[i+2]) < 0 {
				return dst, &httpError{400, "escape"}
			}
			b = byte(unhex(k[i+1])<<4 | unhex(k[i+2]))
			i += 2
			if b == '/' {
				return dst, &httpError{400, "slash"}
			}
		}
		if b < ' ' || b == 0x7f {
			return dst, &httpError{400, "control"}
		}
		dst = append(dst, b)
		if len(dst)-start > MaxKeyBytes {
			return dst, &httpError{400, "long"}
		}
	}
	seg := 0
	key := dst[start:]
	for i := 0; i <= len(key); i++ {
		if i == len(key) || key[i] == '/' {
			if s := string(key[seg:i]); s == "." || s == ".." {
				return dst, &httpError{400, "dot"}
			}
			seg = i + 1
		}
	}
	return dst, nil
}

func TestAppendKey_AsByteLoop(t *testing.T) {
	seed := rand.Uint64()
	rng := rand.New(rand.NewPCG(seed, 2))
	for range 100_000 {
		var k []byte
		switch rng.IntN(4) {
		case 0:
			k = randomBytes(rng, rng.IntN(12))
		case 1: // long keys, around MaxKeyBytes
			k = bytes.Repeat([]byte{'k'}, MaxKeyBytes-2+rng.IntN(5))
		default: // segments with dots
			for range 1 + rng.IntN(4) {
				k = append(k, []string{".", "..", "...", "a.", ".b", "c", "%2e", "%41"}[rng.IntN(8)]...)
				k = append(k, '/')
			}
			k = k[:len(k)-rng.IntN(2)]
		}
		got, gotErr := appendKey([]byte("d/"), k)
		want, wantErr := appendKeyByBytes([]byte("d/"), k)
		if (gotErr == nil) != (wantErr == nil) || (gotErr == nil && !bytes.Equal(got, want)) {
			t.Fatalf("seed %d: appendKey(%q) = %q, %v; the byte loop: %q, %v", seed, k, got, gotErr, want, wantErr)
		}
	}
}

func ctlIndexByBytes(b []byte, i int) int {
	for ; i < len(b); i++ {
		if c := b[i]; c < ' ' || c == 0x7f {
			return i
		}
	}
	return len(b)
}

func TestCtlIndex_AsByteLoop(t *testing.T) {
	for b := range 256 { // each byte alone, at each place of 1 to 24 bytes, from each start
		for n := 1; n <= 24; n++ {
			for at := range n {
				v := bytes.Repeat([]byte{'x'}, n)
				v[at] = byte(b)
				for from := 0; from <= n; from++ {
					if got, want := ctlIndex(v, from), ctlIndexByBytes(v, from); got != want {
						t.Fatalf("ctlIndex(%q, %d) = %d, want %d", v, from, got, want)
					}
				}
			}
		}
	}
	scanAsRandom(t, "ctlIndex", ctlIndex, ctlIndexByBytes, 3)
}

// TestParseFast_AsSlow: wherever the fast parser accepts a head, the slow
// one accepts it with the same length and fields; and the fast one does
// accept the plain heads it is for. Heads are put together from lines
// that are mostly well formed, with bytes changed at random.
func TestParseFast_AsSlow(t *testing.T) {
	seed := rand.Uint64()
	rng := rand.New(rand.NewPCG(seed, 4))
	starts := []string{"GET /docs/d00 HTTP/1.1", "GET /docs/d00?x HTTP/1.0", "GETS /x HTTP/1.1", "GET", "PUT /docs/a.b?x=1 HTTP/1.1", "HEAD /docs/%41 HTTP/1.0",
		"POST /inputs/score?points=3 HTTP/1.1", "BREW /x?y?z HTTP/1.1", "GET / HTTP/1.2", "GET /a HTTP/2.0", "GET  /a HTTP/1.1"}
	headers := []string{"Host: 127.0.0.1:8080", "Host:a", "Content-Length: 12", "Content-Length:  3  ",
		"content-length: 3", "If-Match: \"7\"", "IF-NONE-MATCH: *", "Connection: close", "connection: keep-alive, Close",
		"Connection: keep-alive", "Expect: 100-continue", "Transfer-Encoding: chunked", "X-Long: " + strings.Repeat("v", 30),
		"X-Tab: a\tb", "X: \x80\xff", "Host: b", "hOsT:c", "Hosts: d", "Host : e", "HOST: \x7f", "Expect: nothing", "Content-Length: 4x"}
	accepted := 0
	for range 100_000 {
		b := randomHead(rng, starts[rng.IntN(len(starts))], headers, 3)
		if rng.IntN(4) == 0 {
			b = b[:rng.IntN(len(b)+1)]
		} else {
			b = append(b, "GET /next HTTP/1.1\r\n"...) // pipelined: another request follows
		}
		maxHead := DefaultMaxHeaderBytes
		if rng.IntN(8) == 0 {
			maxHead = rng.IntN(len(b) + 1)
		}
		checkFastAsSlow(t, b, maxHead)
		var r request
		if parseFast(b, maxHead, &r) > 0 {
			accepted++
		}
	}
	if accepted < 10_000 {
		t.Fatalf("seed %d: the fast parser accepted %d of 100,000 heads; it should take most plain ones", seed, accepted)
	}
	var r request
	if n := parseFast([]byte("GET /docs/d07 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"), DefaultMaxHeaderBytes, &r); n != 48 {
		t.Fatalf("parseFast of pure-load's GET = %d, want 48", n)
	}
}

func targetStopByBytes(b []byte, i int) int {
	for ; i < len(b); i++ {
		if targetClass[b[i]] != targetPlain {
			return i
		}
	}
	return len(b)
}

func TestTargetStop_AsByteLoop(t *testing.T) {
	for b := range 256 { // each byte alone, and after each other byte, at each place of 1 to 20 bytes, from each start
		for n := 1; n <= 20; n++ {
			for at := range n {
				for _, before := range []byte{'x', ' ', '?', 0x80} {
					v := bytes.Repeat([]byte{'x'}, n)
					v[at] = byte(b)
					if at > 0 {
						v[at-1] = before
					}
					for from := 0; from <= n; from++ {
						if got, want := targetStop(v, from), targetStopByBytes(v, from); got != want {
							t.Fatalf("targetStop(%q, %d) = %d, want %d", v, from, got, want)
						}
					}
				}
			}
		}
	}
	scanAsRandom(t, "targetStop", targetStop, targetStopByBytes, 5)
}

// scanAsRandom checks a fast scan against its byte loop over 200,000
// random strings and starting places (stream picks the generator's
// stream); it prints the seed of a failure.
func scanAsRandom(t *testing.T, name string, fast, slow func([]byte, int) int, stream uint64) {
	t.Helper()
	seed := rand.Uint64()
	rng := rand.New(rand.NewPCG(seed, stream))
	for range 200_000 {
		v := randomBytes(rng, rng.IntN(40))
		from := rng.IntN(len(v) + 1)
		if got, want := fast(v, from), slow(v, from); got != want {
			t.Fatalf("seed %d: %s(%q, %d) = %d, want %d", seed, name, v, from, got, want)
		}
	}
}
