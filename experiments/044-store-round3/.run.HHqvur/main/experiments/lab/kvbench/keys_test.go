package kvbench

import (
	"bytes"
	"testing"
	"time"
)

func TestKeys(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{string(AppendReadKey(nil, 0)), "k00000000"},
		{string(AppendReadKey(nil, 42)), "k00000042"},
		{string(AppendReadKey(nil, 999_999_999)), "k999999999"},
		{string(AppendWriteKey([]byte("x"), 7, 42)), "xw007-0000000042"},
	} {
		if c.got != c.want {
			t.Errorf("key = %s, want %s", c.got, c.want)
		}
	}
	// Key order is number order, which is what scans rely on.
	for i := 0; i < 100_000; i += 37 {
		if bytes.Compare(AppendReadKey(nil, i), AppendReadKey(nil, i+1)) >= 0 {
			t.Fatalf("key %d does not sort before key %d", i, i+1)
		}
	}
	buf := make([]byte, 0, 32)
	if n := testing.AllocsPerRun(100, func() { buf = AppendReadKey(buf[:0], 12345) }); n != 0 {
		t.Errorf("AppendReadKey into a buffer: %v allocations", n)
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 200; i++ {
		d = append(d, time.Duration(i))
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 100}, {0.99, 198}, {1, 200}, {0.001, 1}} {
		if got := Percentile(d, c.q); got != c.want {
			t.Errorf("Percentile(1..200, %v) = %d, want %d", c.q, got, c.want)
		}
	}
	if Percentile(nil, 0.5) != 0 {
		t.Error("Percentile of nothing is not 0")
	}
	if got := Percentile([]time.Duration{5}, 0.99); got != 5 {
		t.Errorf("Percentile of one = %d", got)
	}
}

func TestProbe(t *testing.T) {
	p, err := Probe(t.TempDir(), 5)
	if err != nil {
		t.Fatal(err)
	}
	if p.N != 5 || p.P50 <= 0 || p.P99 < p.P50 {
		t.Errorf("Probe = %+v", p)
	}
	if _, err := Probe(t.TempDir(), 0); err == nil {
		t.Error("Probe of 0 syncs did not fail")
	}
}
