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
// earlier (acknowledged) commit is intact.
func TestTornTail_Recovery(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 3))
	dir := t.TempDir()
	const bases, trials = 10, 100
	for b := range bases {
		// Build a store of a few commits; the last one is the one the
		// "power cut" tears.
		path := fmt.Sprintf("%s/base%d", dir, b)
		s := mustOpen(t, path, &Options{nodeSize: 256})
		model := map[string]string{}
		var good []byte
		var goodModel map[string]string
		var goodSeq uint64
		commits := 2 + rng.IntN(4)
		for c := range commits {
			if c == commits-1 {
				good, _ = os.ReadFile(path)
				goodModel = cloneModel(model)
				goodSeq = s.cur.Load().h.seq
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
		s.Close()
		full, _ := os.ReadFile(path)
		if len(full) <= len(good) {
			t.Fatal("last commit wrote nothing")
		}
		for i := range trials {
			torn, whole := tear(rng, good, full)
			tornPath := fmt.Sprintf("%s/torn%d", dir, b)
			if err := os.WriteFile(tornPath, torn, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Open(tornPath, &Options{Strict: true})
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
