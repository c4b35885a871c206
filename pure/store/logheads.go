package store

import (
	"bytes"
	"cmp"
	"encoding/binary"
)

// Overlay heads. A binary search over an overlay's entries would read the
// key of every entry it probes out of the mapping and compare bytes; an
// overlay keeps, parallel to its entries, each key's head (its first 8
// bytes as a big-endian integer, zero-padded), so the search compares
// integers and reads a key from the mapping only where the heads are
// equal.
//
// Heads order keys: for keys a and b, head(a) < head(b) implies a < b
// (the first byte where the padded heads differ is either a byte both
// keys have, or a padding zero of the shorter key, which is then a prefix
// of the other), so a <= b implies head(a) <= head(b). Equal heads do not
// mean equal keys: "a" and "a\x00" have the same head. With equal heads,
// a key of at most 8 bytes is a prefix of the other key (the other's
// bytes past it are the padding's zeros), so the shorter key is the
// smaller and equal lengths mean equal keys; two longer keys share their
// first 8 bytes and compare as their rests do (cmpSameHead).

// keyHead returns the head of key: its first 8 bytes as a big-endian
// uint64, zero-padded when it is shorter.
func keyHead(key []byte) uint64 {
	if len(key) >= 8 {
		return binary.BigEndian.Uint64(key)
	}
	if n := len(key); n >= 4 {
		// Its first 4 bytes and its last 4 (which overlap them, the
		// same bytes in the same places), without a loop.
		return uint64(binary.BigEndian.Uint32(key))<<32 | uint64(binary.BigEndian.Uint32(key[n-4:]))<<(64-8*uint(n))
	}
	var h uint64
	for i, c := range key {
		h |= uint64(c) << (56 - 8*i)
	}
	return h
}

// cmpSameHead compares the key of the log entry at e with key, as
// bytes.Compare does, given that the two keys have the same head.
func cmpSameHead(d []byte, e uint64, key []byte) int {
	kl := uint64(le.Uint16(d[e+12:]))
	if kl <= 8 || len(key) <= 8 {
		return cmp.Compare(kl, uint64(len(key)))
	}
	return bytes.Compare(d[e+leafEntFixed+8:e+leafEntFixed+kl], key[8:])
}

// searchEnts returns the index of the first of ents (log entries, sorted
// by key, with their heads) whose key is >= key, and whether it is equal.
// It compares heads, integers, and reads a key from d only where a head
// equals key's: with keys of distinct heads, only the key it finds.
// (No closure: reads allocate nothing.)
func searchEnts(d []byte, ents, heads []uint64, key []byte) (int, bool) {
	return searchEntsHead(d, ents, heads, key, keyHead(key))
}

// searchEntsHead is searchEnts given key's head h, for a caller that
// searches more than once for the same key (an overlay's index, then a
// run): the head of a key under 8 bytes is a loop over its bytes.
func searchEntsHead(d []byte, ents, heads []uint64, key []byte, h uint64) (int, bool) {
	heads = heads[:len(ents)]
	lo, hi := 0, len(ents)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		below := heads[m] < h
		if heads[m] == h {
			c := cmpSameHead(d, ents[m], key)
			if c == 0 {
				// Keys in ents are distinct, so m is the first >= key.
				// (A key that is present is always probed: hi reaches
				// its index only by probing it.)
				return m, true
			}
			below = c < 0
		}
		if below {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, false
}

// appendHeads appends the heads of the keys of the log entries ents to
// heads.
func appendHeads(heads []uint64, d []byte, ents []uint64) []uint64 {
	for _, e := range ents {
		heads = append(heads, keyHead(logKey(d, e)))
	}
	return heads
}
