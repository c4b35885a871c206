package store

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// TestOpen_RandomDamageNeverPanics flips random bytes anywhere in a valid
// file. Open must either return a sentinel error or a store whose contents
// are one of the committed versions, never panic.
func TestOpen_RandomDamageNeverPanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 4))
	dir := t.TempDir()
	path := dir + "/base"
	s := mustOpen(t, path, &Options{nodeSize: 256})
	var versions []map[string]string
	model := map[string]string{}
	versions = append(versions, cloneModel(model))
	for c := range 8 {
		tx, _ := s.Begin()
		for i := range 40 {
			k, v := key(rng.IntN(300)), fmt.Sprint(c, "-", i, bytes.Repeat([]byte("z"), rng.IntN(1500)))
			tx.Put([]byte(k), []byte(v), Any)
			model[k] = v
		}
		tx.Commit()
		versions = append(versions, cloneModel(model))
	}
	s.Close()
	base, _ := os.ReadFile(path)
	for i := range 300 {
		b := bytes.Clone(base)
		for range 1 + rng.IntN(3) {
			b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
		}
		p := fmt.Sprintf("%s/damaged%d", dir, i%4)
		os.WriteFile(p, b, 0o644)
		s, err := Open(p, nil)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNotStore) && !errors.Is(err, ErrVersion) {
				t.Fatalf("trial %d: error %v is not a documented sentinel", i, err)
			}
			continue
		}
		got := contents(t, s)
		found := false
		for _, v := range versions {
			if sameModel(got, v) {
				found = true
			}
		}
		if !found {
			t.Fatalf("trial %d: opened a state that was never committed", i)
		}
		if err := s.Check(); err != nil {
			t.Fatalf("trial %d: %v", i, err)
		}
		s.Close()
	}
}
