package app

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSeq_MatchesSortedSlice: random inserts and removes keep a seq equal
// to a sorted slice of the same keys, positions and ranks included, across
// chunk splits and removals of whole chunks.
func TestSeq_MatchesSortedSlice(t *testing.T) {
	checkSeq(t, func(rng *rand.Rand) string { return fmt.Sprintf("k%05d", rng.IntN(4000)) })
}

// TestSeq_KeysSharingHeads: the same with keys whose first 16 bytes
// (their heads) are often equal or zero-padded: 0 to 21 bytes of
// "\x00ab", so "a" and "a\x00" have equal heads, and so do keys of 16
// bytes or less and longer ones they are a prefix of, and locate must
// compare their lengths or bytes.
func TestSeq_KeysSharingHeads(t *testing.T) {
	checkSeq(t, func(rng *rand.Rand) string {
		b := make([]byte, rng.IntN(22))
		for i := range b {
			b[i] = "\x00ab"[rng.IntN(3)]
		}
		if len(b) > 2 && rng.IntN(2) == 0 { // most keys share a long prefix
			copy(b, "aaaaaaaaaaaaaaaaaaa")
		}
		return string(b)
	})
}

// TestSeq_DecimalKeys: keys of decimal digits with a common prefix and
// lengths 10 to 18, as TPC-C's (its heads differ only past byte 8).
func TestSeq_DecimalKeys(t *testing.T) {
	checkSeq(t, func(rng *rand.Rand) string {
		return fmt.Sprintf("000101%0*d", 4+rng.IntN(9), rng.IntN(5000))
	})
}

// checkSeq inserts and removes keys from key at random, checking the seq
// against a sorted slice all along.
func checkSeq(t *testing.T, key func(*rand.Rand) string) {
	seed := uint64(7)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	var s seq
	var want []string
	for step := range 20_000 {
		k := key(rng)
		p, found := s.locate(k)
		i, ok := slices.BinarySearch(want, k)
		if found != ok {
			t.Fatalf("step %d: locate(%s) found=%v, want %v", step, k, found, ok)
		}
		if found {
			if got := s.rank(p); got != i {
				t.Fatalf("step %d: rank %d, want %d", step, got, i)
			}
			if rng.IntN(3) == 0 { // removes a third of the time it finds
				s.remove(p)
				want = slices.Delete(want, i, i+1)
			}
			continue
		}
		s.insert(p, mkEntry(k, &row{key: k}))
		want = slices.Insert(want, i, k)
	}
	if s.n != len(want) {
		t.Fatalf("n %d, want %d", s.n, len(want))
	}
	checkFirsts(t, &s)
	var got []string
	for _, ch := range s.chunks {
		if len(ch) == 0 || len(ch) > chunkMax {
			t.Fatalf("chunk of %d entries", len(ch))
		}
		for _, e := range ch {
			got = append(got, e.k)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatal("entries differ from the sorted slice")
	}
	for _, n := range []int{0, 1, len(want) / 2, len(want) - 1} {
		p := s.at(n)
		if s.chunks[p.c][p.i].k != want[n] || s.rank(p) != n {
			t.Errorf("at(%d) gives %s", n, s.chunks[p.c][p.i].k)
		}
	}
}

// TestKey_OrderPreserving: index keys sort as their values do.
func TestKey_OrderPreserving(t *testing.T) {
	ints := []int64{-1 << 63, -5, -1, 0, 1, 7, 1 << 40, 1<<63 - 1}
	for i := 1; i < len(ints); i++ {
		if a, b := string(K().Int(ints[i-1]).b), string(K().Int(ints[i]).b); a >= b {
			t.Errorf("%d does not sort before %d", ints[i-1], ints[i])
		}
	}
	texts := []string{"", "\x00", "\x00\x00", "\x00a", "a", "a\x00", "ab", "b"}
	for i := 1; i < len(texts); i++ {
		if a, b := string(K().Text(texts[i-1]).Int(9).b), string(K().Text(texts[i]).Int(0).b); a >= b {
			t.Errorf("%q does not sort before %q", texts[i-1], texts[i])
		}
	}
	k := K().Int(1)
	a, b := k.Int(2), k.Int(3)
	if string(a.b) == string(b.b) {
		t.Error("two keys built from one prefix share their bytes")
	}
}

// TestKey_TuplesOrder: keys of random (Int, Text, Int) tuples sort as the
// tuples do, value by value, and a key of the first values is a prefix of
// the whole key (Prefix scans rely on both).
func TestKey_TuplesOrder(t *testing.T) {
	seed := uint64(5)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	type tuple struct {
		a int64
		s string
		c int64
	}
	num := func() int64 {
		switch rng.IntN(4) {
		case 0:
			return rng.Int64N(600) - 300
		case 1:
			return rng.Int64() >> rng.IntN(64)
		case 2:
			return -(rng.Int64() >> rng.IntN(64)) - 1
		}
		return int64(rng.IntN(3))
	}
	text := func() string {
		b := make([]byte, rng.IntN(4))
		for i := range b {
			b[i] = "\x00\x01a\xff"[rng.IntN(4)]
		}
		return string(b)
	}
	key := func(x tuple) Key { return K().Int(x.a).Text(x.s).Int(x.c) }
	cmp := func(x, y tuple) int {
		if c := cmp.Compare(x.a, y.a); c != 0 {
			return c
		}
		if c := strings.Compare(x.s, y.s); c != 0 {
			return c
		}
		return cmp.Compare(x.c, y.c)
	}
	for range 50_000 {
		x, y := tuple{num(), text(), num()}, tuple{num(), text(), num()}
		if rng.IntN(3) == 0 {
			y.a = x.a
			if rng.IntN(2) == 0 {
				y.s = x.s
			}
		}
		kx, ky := string(key(x).b), string(key(y).b)
		if got, want := strings.Compare(kx, ky), cmp(x, y); got != want {
			t.Fatalf("%v vs %v: keys compare %d, tuples %d", x, y, got, want)
		}
		if p := string(K().Int(x.a).Text(x.s).b); !strings.HasPrefix(kx, p) {
			t.Fatalf("%v: the key of its first two values is not a prefix", x)
		}
	}
}

// TestSeq_AscendingInsertsInTheMiddle: 3,000 ascending keys inserted
// between two loaded ranges (TPC-C's new orders, after their district's
// last) land at the end of their chunk, moving no entry, once the first
// split has cut the chunk just after them: at most the 129 inserts before
// that split move entries. Split in half, every insert would move the
// next range's 152 entries of that chunk. The seq stays in order.
func TestSeq_AscendingInsertsInTheMiddle(t *testing.T) {
	var s seq
	var want []string
	for _, p := range []string{"a", "c"} {
		for i := range 1000 {
			k := fmt.Sprintf("%s%03d", p, i)
			s.appendSorted(mkEntry(k, &row{key: k}))
		}
	}
	moved := 0
	for i := range 3000 {
		k := fmt.Sprintf("b%04d", i)
		p, found := s.locate(k)
		if found {
			t.Fatalf("%s found before its insert", k)
		}
		if p.c < len(s.chunks) && p.i < len(s.chunks[p.c]) {
			moved++
		}
		s.insert(p, mkEntry(k, &row{key: k}))
	}
	for _, p := range []string{"a", "b", "c"} {
		for i := range map[string]int{"a": 1000, "b": 3000, "c": 1000}[p] {
			if p == "b" {
				want = append(want, fmt.Sprintf("b%04d", i))
			} else {
				want = append(want, fmt.Sprintf("%s%03d", p, i))
			}
		}
	}
	var got []string
	for _, ch := range s.chunks {
		if len(ch) < chunkMax/8 && len(s.chunks) > 1 || len(ch) > chunkMax {
			t.Fatalf("a chunk of %d entries", len(ch))
		}
		for _, e := range ch {
			got = append(got, e.k)
		}
	}
	if !slices.Equal(got, want) || s.n != len(want) {
		t.Fatal("entries out of order or lost")
	}
	checkFirsts(t, &s)
	if moved > 129 {
		t.Fatalf("%d of 3,000 ascending inserts moved entries after them, want at most 129", moved)
	}
}

// checkFirsts checks that s keeps the heads of each chunk's first key.
func checkFirsts(t *testing.T, s *seq) {
	t.Helper()
	if len(s.firsts) != len(s.chunks) {
		t.Fatalf("%d chunks' first heads for %d chunks", len(s.firsts), len(s.chunks))
	}
	for c, ch := range s.chunks {
		if h, tl := heads(ch[0].k); s.firsts[c] != (heads2{h, tl}) {
			t.Fatalf("chunk %d: first heads %x, its first key %q has %x %x", c, s.firsts[c], ch[0].k, h, tl)
		}
	}
}
