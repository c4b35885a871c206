package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// searchEntsBytes is the overlay search as it was before heads: a binary
// search comparing each probed entry's key, read from d, byte by byte.
// The reference searchEnts must agree with.
func searchEntsBytes(d []byte, ents []uint64, key []byte) (int, bool) {
	lo, hi := 0, len(ents)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(logKey(d, ents[m]), key) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(ents) && bytes.Equal(logKey(d, ents[lo]), key)
}

// headKey returns a random key of the kinds heads must keep exact: short
// keys, keys with zero bytes (a padded head is not the key), keys sharing
// their first 8 bytes with one of prefixes, and keys of up to MaxKeySize.
func headKey(rng *rand.Rand, prefixes [][]byte) []byte {
	alphabet := []byte{0, 1, 'a', 'b', 0xff}
	randBytes := func(k []byte, n int) []byte {
		for range n {
			k = append(k, alphabet[rng.IntN(len(alphabet))])
		}
		return k
	}
	switch rng.IntN(5) {
	case 0: // short, 1-8 bytes
		return randBytes(nil, 1+rng.IntN(8))
	case 1: // around the head's length
		return randBytes(nil, 6+rng.IntN(6))
	case 2: // a shared 8-byte prefix, and a short or long rest
		p := prefixes[rng.IntN(len(prefixes))]
		return randBytes(append([]byte(nil), p...), rng.IntN(4))
	case 3: // long, up to MaxKeySize
		p := prefixes[rng.IntN(len(prefixes))]
		n := 8 + rng.IntN(MaxKeySize-8+1)
		if rng.IntN(4) == 0 {
			n = MaxKeySize
		}
		k := append(make([]byte, 0, n), p...)
		return randBytes(k, n-8)
	default: // a shared prefix cut short, or padded with zeros
		p := prefixes[rng.IntN(len(prefixes))]
		k := append([]byte(nil), p[:1+rng.IntN(8)]...)
		for range rng.IntN(3) {
			k = append(k, 0)
		}
		return k
	}
}

// headPrefixes returns a few 8-byte prefixes, some with zero bytes.
func headPrefixes(rng *rand.Rand) [][]byte {
	ps := [][]byte{[]byte("abababab"), {'a', 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}
	for range 2 {
		p := make([]byte, 8)
		for i := range p {
			p[i] = []byte{0, 'a', 0xff}[rng.IntN(3)]
		}
		ps = append(ps, p)
	}
	return ps
}

// TestSearchEnts_MatchesBytes: the search over heads finds, for every
// probe, the same index and answer as the byte-wise search, over random
// sets of log entries whose keys are short, hold zero bytes, share their
// first 8 bytes or run to MaxKeySize, and over suffixes of them (as a
// range scan searches its upper bound).
func TestSearchEnts_MatchesBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 916))
	for round := range 300 {
		prefixes := headPrefixes(rng)
		n := rng.IntN(200)
		if round%10 == 0 {
			n = rng.IntN(4) // empty and tiny overlays too
		}
		var d []byte
		var ents []uint64
		for range n {
			ents = append(ents, uint64(len(d)))
			d = appendLogEntry(d, headKey(rng, prefixes), nil, 1, false)
		}
		slices.SortStableFunc(ents, func(a, b uint64) int { return bytes.Compare(logKey(d, a), logKey(d, b)) })
		ents = slices.CompactFunc(ents, func(a, b uint64) bool { return bytes.Equal(logKey(d, a), logKey(d, b)) })
		heads := appendHeads(nil, d, ents)
		for i, e := range ents {
			if want := keyHead(logKey(d, e)); heads[i] != want {
				t.Fatalf("round %d: head of %q is %#x, want %#x", round, logKey(d, e), heads[i], want)
			}
		}
		probe := func(key []byte, from int) {
			t.Helper()
			i, ok := searchEnts(d, ents[from:], heads[from:], key)
			wi, wok := searchEntsBytes(d, ents[from:], key)
			if i != wi || ok != wok {
				t.Fatalf("round %d: search for %q from %d of %d: (%d, %v), byte-wise (%d, %v)", round, key, from, len(ents), i, ok, wi, wok)
			}
		}
		for range 200 {
			from := 0
			if len(ents) > 0 && rng.IntN(4) == 0 {
				from = rng.IntN(len(ents) + 1)
			}
			var key []byte
			switch {
			case len(ents) > 0 && rng.IntN(3) == 0: // a key of the set, or a neighbour of one
				key = append([]byte(nil), logKey(d, ents[rng.IntN(len(ents))])...)
				switch rng.IntN(4) {
				case 0:
					key = append(key, 0)
				case 1:
					key = key[:len(key)-1]
				case 2:
					key[len(key)-1]++
				}
			default:
				key = headKey(rng, prefixes)
			}
			if len(key) > 0 {
				probe(key, from)
			}
		}
	}
}

// TestOverlay_HeadsFollowCommits: every overlay a version publishes, as
// commits merge their writes into it, folds replace it, Compact copies it
// and Open rebuilds it, holds one head per entry, each the head of its
// entry's key, and reads agree with a model.
func TestOverlay_HeadsFollowCommits(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 917))
	path := tempPath(t)
	s := mustOpen(t, path, &Options{FoldEntries: 60})
	defer func() { s.Close() }()
	prefixes := headPrefixes(rng)
	model := map[string]string{}
	check := func(when string) {
		t.Helper()
		v := s.cur.Load()
		if v.ov != nil {
			if err := checkOverlay(v.m.data, v.h, v.ov); err != nil {
				t.Fatalf("%s: %v", when, err)
			}
		}
		sn, err := s.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		defer sn.Release()
		for k, want := range model {
			if got, _, ok := sn.Get([]byte(k)); !ok || string(got) != want {
				t.Fatalf("%s: Get(%q) = %q, %v; want %q", when, k, got, ok, want)
			}
		}
		n := 0
		sn.Range(nil, nil, func(k, v []byte, _ uint64) bool {
			if want, ok := model[string(k)]; !ok || string(v) != want {
				t.Fatalf("%s: Range gives %q = %q, model %q, %v", when, k, v, want, ok)
			}
			n++
			return true
		})
		if n != len(model) {
			t.Fatalf("%s: Range gives %d keys, model %d", when, n, len(model))
		}
	}
	var keys [][]byte
	for c := range 150 {
		tx, err := s.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for range 1 + rng.IntN(6) {
			var k []byte
			if len(keys) > 0 && rng.IntN(3) == 0 {
				k = keys[rng.IntN(len(keys))]
			} else {
				k = headKey(rng, prefixes)
				keys = append(keys, k)
			}
			writeModel(t, tx, model, k, fmt.Sprintf("v%d", c), rng.IntN(5) == 0)
		}
		if _, err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("commit %d", c))
		switch c {
		case 70:
			if err := s.Compact(); err != nil {
				t.Fatal(err)
			}
			check("after Compact")
		case 100, 149:
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s = mustOpen(t, path, &Options{FoldEntries: 60})
			check("after reopening")
		}
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestKeyHead_EveryLength: keyHead is the key's first 8 bytes, big-endian,
// zero-padded, for keys of every length (its short-key paths included).
func TestKeyHead_EveryLength(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for n := 0; n <= 12; n++ {
		for range 100 {
			key := make([]byte, n, n+int(rng.IntN(9))) // spare capacity must not matter
			for i := range key {
				key[i] = byte(rng.IntN(256))
			}
			var want [8]byte
			copy(want[:], key)
			if got := keyHead(key); got != binary.BigEndian.Uint64(want[:]) {
				t.Fatalf("keyHead(%x) = %016x, want %x", key, got, want)
			}
		}
	}
}

// TestCmpSameHead_MatchesBytes: cmpSameHead orders keys of one head as
// bytes.Compare does, for keys that share their first 8 bytes and then
// differ within the next 8, share 16 or more, end inside or at the
// second 8 bytes, or hold zeros where the shorter key's padding is.
func TestCmpSameHead_MatchesBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 975))
	prefixes := headPrefixes(rng)
	key := func(p []byte) []byte {
		k := append([]byte(nil), p...)
		if rng.IntN(2) == 0 { // a second shared 8 bytes
			k = append(k, prefixes[rng.IntN(len(prefixes))]...)
		}
		for range rng.IntN(12) {
			k = append(k, []byte{0, 1, 'a', 0xff}[rng.IntN(4)])
		}
		return k
	}
	for range 20000 {
		p := prefixes[rng.IntN(len(prefixes))]
		a, b := key(p), key(p)
		if rng.IntN(4) == 0 {
			b = append(append([]byte(nil), a...), 0) // a prefix of b, b's rest a zero
		}
		if keyHead(a) != keyHead(b) {
			continue
		}
		d := appendLogEntry(nil, a, nil, 1, false)
		if got, want := cmpSameHead(d, 0, b), bytes.Compare(a, b); got != want {
			t.Fatalf("cmpSameHead(%q, %q) = %d, bytes.Compare %d", a, b, got, want)
		}
	}
}
