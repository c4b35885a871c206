package store

import (
	"fmt"
	"testing"
)

// TestPutBorrowed_KeepsTheValueNotACopy: a PutBorrowed value is not copied
// into the transaction (its buffer holds the key only and takes no pooled
// memory), Get in the transaction returns the lent bytes themselves, and
// what commits is the value as it was at Commit; once Commit returned, the
// caller's bytes are free again: overwriting them changes nothing stored,
// in log records and after folds, in a file and in RAM.
func TestPutBorrowed_KeepsTheValueNotACopy(t *testing.T) {
	for _, mode := range []string{"file", "ram"} {
		t.Run(mode, func(t *testing.T) {
			opts := &Options{FoldEntries: 8, AutoCompact: -1} // folds every few commits
			var s *Store
			if mode == "ram" {
				var err error
				if s, err = OpenRAM(opts); err != nil {
					t.Fatal(err)
				}
			} else {
				s = mustOpen(t, tempPath(t), opts)
			}
			defer s.Close()
			body := make([]byte, 8<<10) // larger than a Tx's own room
			want := map[string]string{}
			for i := range 40 {
				k := fmt.Sprintf("doc%02d", i%12)
				for j := range body {
					body[j] = byte('a' + (i+j)%26)
				}
				tx, err := s.Begin()
				if err != nil {
					t.Fatal(err)
				}
				if err := tx.PutBorrowed([]byte(k), body, Any); err != nil {
					t.Fatal(err)
				}
				if tx.t.mem != nil || len(tx.t.buf) != len(k) {
					t.Fatalf("commit %d: the transaction copied the value (buffer %d bytes for a %d-byte key, pooled memory %v)", i, len(tx.t.buf), len(k), tx.t.mem != nil)
				}
				if got, _, ok := tx.Get([]byte(k)); !ok || &got[0] != &body[0] {
					t.Fatalf("commit %d: Get in the transaction does not return the lent value", i)
				}
				if _, err := tx.Commit(); err != nil {
					t.Fatal(err)
				}
				want[k] = string(body)
				for j := range body { // the caller reuses its buffer at once
					body[j] = 'X'
				}
			}
			for k, v := range want {
				if got, _, ok := get(t, s, k); !ok || got != v {
					t.Fatalf("%s reads %d bytes starting %q (found %v), want the %d committed starting %q", k, len(got), prefix8(got), ok, len(v), prefix8(v))
				}
			}
		})
	}
}

// TestPutBorrowed_Limits: PutBorrowed refuses what Put refuses, and an
// empty value commits as one.
func TestPutBorrowed_Limits(t *testing.T) {
	s := mustOpen(t, tempPath(t), nil)
	defer s.Close()
	tx, err := s.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.PutBorrowed([]byte("k"), make([]byte, MaxValueSize+1), Any); err != ErrValueTooLarge {
		t.Fatalf("PutBorrowed of %d bytes: %v, want ErrValueTooLarge", MaxValueSize+1, err)
	}
	if err := tx.PutBorrowed(nil, []byte("v"), Any); err != ErrKeyEmpty {
		t.Fatalf("PutBorrowed with an empty key: %v, want ErrKeyEmpty", err)
	}
	if err := tx.PutBorrowed([]byte("k"), nil, Any); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := tx.PutBorrowed([]byte("k"), []byte("v"), Any); err != ErrTxDone {
		t.Fatalf("PutBorrowed after Commit: %v, want ErrTxDone", err)
	}
	if got, _, ok := get(t, s, "k"); !ok || got != "" {
		t.Fatalf("k reads %q (found %v), want an empty value", got, ok)
	}
}

func prefix8(s string) string {
	if len(s) > 8 {
		return s[:8]
	}
	return s
}
