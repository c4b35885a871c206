package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestTornTail_Recovery cuts or garbles the bytes of an unsynced last
// commit the way a power cut can leave them, 1,000 times, and checks that
// opening recovers the last whole head, that Check passes and that every
// earlier (acknowledged) commit is intact. With checkpoints on every
// commit, the checkpoint slot the last commit wrote is torn too: left old,
// written whole, cut part way or garbled.
func TestTornTail_Recovery(t *testing.T) {
	seed := testSeed(t)
	for _, every := range []int64{-1, 1} {
		// Tree commits (fold -1); log records, the torn commit a fold or
		// not (3); log records that never fold here (0, the default).
		for _, fold := range []int{-1, 3, 0} {
			t.Run(fmt.Sprint("checkpoint-every=", every, "/fold=", fold), func(t *testing.T) {
				testTornTail(t, rand.New(rand.NewPCG(seed, 3)), every, fold)
			})
		}
	}
}

func testTornTail(t *testing.T, rng *rand.Rand, every int64, fold int) {
	dir := t.TempDir()
	const bases, trials = 10, 100
	for b := range bases {
		// Build a store of a few commits; the last one is the one the
		// "power cut" tears.
		path := fmt.Sprintf("%s/base%d", dir, b)
		// Version 3 files (heads counting every key) and version 4 ones
		// (heads over log records counting their tree's), in turn.
		version := []uint32{formatV3, formatVersion}[b%2]
		s := mustOpen(t, path, &Options{nodeSize: 256, ckptEvery: every, FoldEntries: fold, version: version})
		model := map[string]string{}
		var good []byte
		var goodModel map[string]string
		var goodSeq uint64
		var goodEnd uint64
		commits := 2 + rng.IntN(4)
		for c := range commits {
			if c == commits-1 {
				good, _ = os.ReadFile(path)
				goodModel = cloneModel(model)
				goodSeq = s.cur.Load().h.seq
				goodEnd = recordsEnd(s)
			}
			tx, _ := s.Begin()
			for range 1 + rng.IntN(20) {
				k := fmt.Sprintf("k%03d", rng.IntN(200))
				v := strings.Repeat(string(rune('a'+rng.IntN(26))), rng.IntN(60))
				if rng.IntN(8) == 0 {
					v = strings.Repeat("V", 1500+rng.IntN(3000))
				}
				if rng.IntN(6) == 0 && c > 0 {
					tx.Delete([]byte(k), Any)
					delete(model, k)
					continue
				}
				tx.Put([]byte(k), []byte(v), Any)
				model[k] = v
			}
			if _, err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
		}
		full, _ := os.ReadFile(path) // before Close, which checkpoints the last commit
		fullEnd := recordsEnd(s)
		s.Close()
		if fullEnd <= goodEnd {
			t.Fatal("last commit wrote nothing")
		}
		// Past the records, a file that passed preallocFrom holds zeros
		// (prealloc.go), which are no part of the last commit: tear only
		// its records, then put the zeros back or not.
		fileLen := len(full)
		good, full = good[:goodEnd], full[:fullEnd]
		slot := -1 // the slot the last commit wrote
		for i := range 2 {
			at := slotOffset(i)
			if !bytes.Equal(good[at:at+slotSize], full[at:at+slotSize]) {
				slot = i
			}
		}
		if every > 0 && slot < 0 {
			t.Fatal("the last commit wrote no checkpoint")
		}
		for i := range trials {
			torn, whole := tear(rng, good, full)
			if len(torn) < fileLen && rng.IntN(2) == 0 {
				torn = append(torn, make([]byte, fileLen-len(torn))...)
			}
			if !whole && len(torn) >= len(full) && bytes.Equal(torn[len(good):len(full)], full[len(good):]) {
				// The tear changed no byte of the last commit: it zeroed
				// or cut only zeros the commit ends with, and the zeros
				// appended put them back. The commit is whole.
				whole = true
			}
			if slot >= 0 {
				tearSlot(rng, torn, good, full, slotOffset(slot))
			}
			tornPath := fmt.Sprintf("%s/torn%d", dir, b)
			if err := os.WriteFile(tornPath, torn, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Open(tornPath, &Options{Strict: i%3 == 0})
			if err != nil {
				t.Fatalf("base %d trial %d: open: %v", b, i, err)
			}
			wantSeq, want := goodSeq, goodModel
			if whole {
				wantSeq, want = goodSeq+1, model
			}
			if seq := s.cur.Load().h.seq; seq != wantSeq {
				t.Fatalf("base %d trial %d: recovered seq %d, want %d", b, i, seq, wantSeq)
			}
			if got := contents(t, s); !sameModel(got, want) {
				t.Fatalf("base %d trial %d: contents differ from the acknowledged state", b, i)
			}
			if n := s.Stats().Keys; n != uint64(len(want)) {
				t.Fatalf("base %d trial %d (version %d): %d keys, want %d", b, i, version, n, len(want))
			}
			if err := s.Check(); err != nil {
				t.Fatalf("base %d trial %d: %v", b, i, err)
			}
			if i%10 == 0 {
				// The store goes on committing after a recovery, and that
				// survives a reopen.
				put(t, s, "after", "recovery")
				s.Close()
				s = mustOpen(t, tornPath, &Options{Strict: true})
				if v, _, _ := get(t, s, "after"); v != "recovery" {
					t.Fatalf("base %d trial %d: commit after recovery lost", b, i)
				}
			}
			s.Close()
		}
	}
}

// recordsEnd returns where s's records end: the end of its last head.
func recordsEnd(s *Store) uint64 {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.end
}

// tearSlot sets the slot at off in torn as a power cut while it was being
// written could leave it: old (as in good), new (as in full), cut part way
// (new up to a point, old after it) or garbled.
func tearSlot(rng *rand.Rand, torn, good, full []byte, off uint64) {
	old, new := good[off:off+slotSize], full[off:off+slotSize]
	b := torn[off : off+slotSize]
	switch rng.IntN(4) {
	case 0:
		copy(b, old)
	case 1:
		copy(b, new)
	case 2:
		cut := rng.IntN(slotSize)
		copy(b, new[:cut])
		copy(b[cut:], old[cut:])
	default:
		copy(b, new)
		b[rng.IntN(slotSize)] ^= byte(1 + rng.IntN(255))
	}
}

// tear returns a copy of full as a power cut during its last commit could
// leave it (good is the file before that commit), and whether the last
// commit is still whole.
func tear(rng *rand.Rand, good, full []byte) ([]byte, bool) {
	tail := len(full) - len(good)
	switch rng.IntN(5) {
	case 0: // cut anywhere in the last commit
		return bytes.Clone(full[:len(good)+rng.IntN(tail)]), false
	case 1, 2: // garble a few bytes of it, maybe cut too
		b := bytes.Clone(full)
		changed := false
		for range 1 + rng.IntN(8) {
			p := len(good) + rng.IntN(tail)
			old := b[p]
			b[p] = byte(rng.IntN(256))
			changed = changed || b[p] != old
		}
		if rng.IntN(2) == 0 {
			return b[:len(good)+rng.IntN(tail)], false
		}
		return b, !changed
	case 3: // a zeroed tail: the size was updated, the data was not
		b := bytes.Clone(full)
		p := len(good) + rng.IntN(tail)
		clear(b[p:])
		return b, false
	default: // junk after the whole commit: random, zeros or a replayed copy
		b := bytes.Clone(full)
		switch rng.IntN(3) {
		case 0:
			junk := make([]byte, 1+rng.IntN(200))
			for i := range junk {
				junk[i] = byte(rng.IntN(256))
			}
			b = append(b, junk...)
		case 1:
			b = append(b, make([]byte, 1+rng.IntN(5000))...)
		default:
			b = append(b, full[len(good):len(good)+rng.IntN(tail)+1]...)
		}
		return b, true
	}
}

func cloneModel(m map[string]string) map[string]string {
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func sameModel(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || v != w {
			return false
		}
	}
	return true
}
