package kvbench

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

// openContender opens c in a fresh directory and closes it at cleanup.
func openContender(t *testing.T, c Contender) Writer {
	t.Helper()
	w, err := c.Open(t.TempDir())
	if err != nil {
		t.Fatalf("open %s: %v", c.Name, err)
	}
	t.Cleanup(func() {
		if err := w.Close(); err != nil {
			t.Errorf("close %s: %v", c.Name, err)
		}
	})
	return w
}

// TestContender_Conformance runs one suite against every contender at a
// tiny size: what a commit makes visible, what a scan returns, that the
// measuring loops run on it, and that syncs are counted where promised.
func TestContender_Conformance(t *testing.T) {
	for _, c := range All() {
		t.Run(c.Name, func(t *testing.T) {
			t.Run("PutCountsSyncs", func(t *testing.T) {
				w := openContender(t, c)
				s0, known0 := w.Syncs()
				for i := range 3 {
					if err := w.Put(AppendWriteKey(nil, 0, i), Value); err != nil {
						t.Fatal(err)
					}
				}
				s1, known1 := w.Syncs()
				if known0 != known1 {
					t.Fatalf("Syncs known changed from %v to %v", known0, known1)
				}
				if known1 && s1-s0 < 1 {
					t.Errorf("3 durable commits counted %d syncs", s1-s0)
				}
			})
			s, isStore := openContender(t, c).(Store)
			if c.Reads && !isStore {
				t.Fatalf("%s takes part in reads but its Writer is not a Store", c.Name)
			}
			if !isStore {
				return
			}
			t.Run("PutThenGet", func(t *testing.T) {
				k := AppendWriteKey(nil, 1, 7)
				val := []byte("sixteen bytes!!!")
				if err := s.Put(k, val); err != nil {
					t.Fatal(err)
				}
				got, ok, err := s.Get(k, make([]byte, 3))
				if err != nil || !ok || !bytes.Equal(got, val) {
					t.Fatalf("Get(%s) = %q, %v, %v; want %q, true, nil", k, got, ok, err, val)
				}
				got, ok, err = s.Get([]byte("absent"), got)
				if err != nil || ok || len(got) != 0 {
					t.Fatalf("Get(absent) = %q, %v, %v; want empty, false, nil", got, ok, err)
				}
			})
			t.Run("LoadThenScan", func(t *testing.T) {
				s := openContender(t, c).(Store)
				const keys = 300
				if err := Load(s, keys); err != nil {
					t.Fatal(err)
				}
				var got []string
				n, err := s.Scan(AppendReadKey(nil, 50), ScanLen, func(k, v []byte) {
					if !bytes.Equal(v, Value) {
						t.Errorf("value of %s = %q", k, v)
					}
					got = append(got, string(k))
				})
				if err != nil || n != ScanLen || len(got) != ScanLen {
					t.Fatalf("Scan = %d keys (%d visited), %v; want %d", n, len(got), err, ScanLen)
				}
				for i, k := range got {
					if want := string(AppendReadKey(nil, 50+i)); k != want {
						t.Fatalf("key %d of the scan = %s, want %s", i, k, want)
					}
				}
				// Between keys, and running off the end.
				n, err = s.Scan([]byte("k00000250x"), ScanLen, func(k, v []byte) {})
				if err != nil || n != keys-251 {
					t.Fatalf("Scan near the end = %d, %v; want %d", n, err, keys-251)
				}
				if n, err := s.Scan(AppendReadKey(nil, 0), 0, func(k, v []byte) { t.Error("visited") }); n != 0 || err != nil {
					t.Fatalf("Scan of 0 keys = %d, %v", n, err)
				}
				for i := range keys {
					v, ok, err := s.Get(AppendReadKey(nil, i), nil)
					if err != nil || !ok || !bytes.Equal(v, Value) {
						t.Fatalf("Get(loaded key %d) = %q, %v, %v", i, v, ok, err)
					}
				}
			})
			t.Run("Measure", func(t *testing.T) {
				s := openContender(t, c).(Store)
				if err := Load(s, 200); err != nil {
					t.Fatal(err)
				}
				ctx := context.Background()
				r, err := PointGets(ctx, s, ReadOptions{Keys: 200, Count: 500, Seed: 1})
				if err != nil || r.Ops != 500 || r.HasLatency {
					t.Fatalf("PointGets = %+v, %v", r, err)
				}
				r, err = Ranges(ctx, s, ReadOptions{Keys: 200, Count: 20, Seed: 1, ScanLen: ScanLen})
				if err != nil || r.Ops != 20 {
					t.Fatalf("Ranges = %+v, %v", r, err)
				}
			})
		})
	}
}

// TestWrites_EveryContender runs the writers loop against every contender
// with as many writers as it takes (up to 4) and checks the accounting,
// never the speed.
func TestWrites_EveryContender(t *testing.T) {
	for _, c := range All() {
		t.Run(c.Name, func(t *testing.T) {
			w := openContender(t, c)
			writers := 4
			if c.MaxWriters > 0 {
				writers = min(writers, c.MaxWriters)
			}
			r, err := Writes(context.Background(), w, WriteOptions{Writers: writers, Count: 5})
			if err != nil {
				t.Fatal(err)
			}
			if r.Ops != int64(5*writers) || !r.HasLatency || r.P50 <= 0 || r.P99 < r.P50 {
				t.Fatalf("Writes = %+v; want %d ops with latencies", r, 5*writers)
			}
			if _, known := w.Syncs(); known != r.SyncsKnown {
				t.Errorf("SyncsKnown = %v, the contender says %v", r.SyncsKnown, known)
			}
			if s, ok := w.(Store); ok {
				for id := range writers {
					for n := range 5 {
						k := AppendWriteKey(nil, id, n)
						if _, ok, err := s.Get(k, nil); !ok || err != nil {
							t.Fatalf("committed key %s not found: %v", k, err)
						}
					}
				}
			}
		})
	}
}

func TestWrites_Errors(t *testing.T) {
	c, _ := Lookup(NamePure)
	w := openContender(t, c)
	for _, o := range []WriteOptions{{Writers: 0, Count: 1}, {Writers: 1}} {
		if _, err := Writes(context.Background(), w, o); err == nil {
			t.Errorf("Writes(%+v) did not fail", o)
		}
	}
	failing := failingWriter{Writer: w}
	if _, err := Writes(context.Background(), failing, WriteOptions{Writers: 3, Count: 10}); err == nil {
		t.Error("a failing Put was not reported")
	}
}

type failingWriter struct{ Writer }

func (failingWriter) Put(_, _ []byte) error { return fmt.Errorf("disk on fire") }

// TestPure_Get_NoAllocs: a point read of the pure store, borrowing the
// value and copying it into the caller's buffer, allocates nothing.
func TestPure_Get_NoAllocs(t *testing.T) {
	c, _ := Lookup(NamePure)
	s := openContender(t, c).(Store)
	if err := Load(s, 1000); err != nil {
		t.Fatal(err)
	}
	key := AppendReadKey(nil, 421)
	val := make([]byte, 0, 64)
	allocs := testing.AllocsPerRun(1000, func() {
		var ok bool
		val, ok, _ = s.Get(key, val)
		if !ok {
			t.Fatal("missing")
		}
	})
	if allocs != 0 {
		t.Errorf("pure point read: %v allocations per read, want 0", allocs)
	}
}

func TestReads_Errors(t *testing.T) {
	c, _ := Lookup(NamePure)
	s := openContender(t, c).(Store)
	ctx := context.Background()
	if _, err := PointGets(ctx, s, ReadOptions{Keys: 10, Count: 5}); err == nil {
		t.Error("PointGets on an empty store did not report the missing keys")
	}
	if _, err := PointGets(ctx, s, ReadOptions{Count: 5}); err == nil {
		t.Error("PointGets without keys did not fail")
	}
	if _, err := Ranges(ctx, s, ReadOptions{Keys: 10, Count: 5, ScanLen: 100}); err == nil {
		t.Error("Ranges longer than the store did not fail")
	}
}
