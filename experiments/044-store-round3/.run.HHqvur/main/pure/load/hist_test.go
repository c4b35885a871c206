package load

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"
)

func TestHistogram_BucketBounds_HoldTheirValues(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for range 100000 {
		v := int64(rng.Uint64N(1 << uint(rng.IntN(38))))
		i := bucketOf(v)
		lo, hi := bucketBounds(i)
		if v < lo || v >= hi {
			t.Fatalf("value %d in bucket %d of [%d, %d)", v, i, lo, hi)
		}
		if w := float64(hi - lo); lo >= subCount && w/float64(lo) > 1.0/subCount {
			t.Fatalf("bucket %d [%d, %d) wider than 1/%d of its bound", i, lo, hi, subCount)
		}
	}
	if i := bucketOf(1 << 40); i != histBuckets-1 {
		t.Fatalf("a value beyond the range went to bucket %d, want the last (%d)", i, histBuckets-1)
	}
}

func TestHistogram_Quantile_KnownInputs(t *testing.T) {
	var h Histogram
	// 1..10000 µs, each once: the q-quantile is ceil(q*10000) µs.
	for v := 1; v <= 10000; v++ {
		h.Record(time.Duration(v) * time.Microsecond)
	}
	for _, q := range []float64{0.5, 0.9, 0.99, 0.999} {
		want := math.Ceil(q*10000) * 1000
		got := float64(h.Quantile(q))
		if math.Abs(got-want)/want > 0.5/subCount+1e-9 {
			t.Errorf("q%.3f = %.0f ns, want %.0f within %.1f%%", q, got, want, 50.0/subCount)
		}
	}
	if h.Max() != 10*time.Millisecond {
		t.Errorf("max %v, want exactly 10ms", h.Max())
	}
	if h.Count() != 10000 {
		t.Errorf("count %d, want 10000", h.Count())
	}
	var empty Histogram
	if empty.Quantile(0.5) != 0 || empty.Max() != 0 {
		t.Errorf("an empty histogram reports %v and %v, want 0", empty.Quantile(0.5), empty.Max())
	}
}

func TestHistogram_Quantile_SkewedInputs(t *testing.T) {
	// 990 answers of 100 µs and 10 of 50 ms: p50 and p90 are 100 µs, p99
	// is still 100 µs (rank 990), p99.9 is 50 ms; the quantile 1 is the
	// exact maximum, and 100 µs is the exact minimum.
	var h Histogram
	for range 990 {
		h.Record(100 * time.Microsecond)
	}
	for range 10 {
		h.Record(50 * time.Millisecond)
	}
	if h.Quantile(1) != 50*time.Millisecond || h.Quantile(0.5) != 100*time.Microsecond {
		t.Errorf("q1 = %v and q0.5 = %v, want exactly 50ms and 100µs", h.Quantile(1), h.Quantile(0.5))
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 100 * time.Microsecond}, {0.99, 100 * time.Microsecond}, {0.999, 50 * time.Millisecond}, {1, 50 * time.Millisecond}} {
		got := h.Quantile(c.q)
		if math.Abs(float64(got-c.want)) > float64(c.want)*0.5/subCount {
			t.Errorf("q%g = %v, want %v within half a bucket", c.q, got, c.want)
		}
	}
}

func TestHistogram_Merge_SameAsOne(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	var all Histogram
	parts := make([]Histogram, 4)
	var vals []int64
	for range 20000 {
		v := int64(rng.ExpFloat64() * 1e6)
		vals = append(vals, v)
		all.Record(time.Duration(v))
		parts[rng.IntN(4)].Record(time.Duration(v))
	}
	var merged Histogram
	for i := range parts {
		merged.Merge(&parts[i])
	}
	if merged != all {
		t.Fatal("merging four histograms differs from recording into one")
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i] < vals[j] })
	for _, q := range []float64{0.5, 0.9, 0.99, 0.999} {
		exact := float64(vals[int(math.Ceil(q*float64(len(vals))))-1])
		got := float64(merged.Quantile(q))
		if math.Abs(got-exact) > exact*0.5/subCount+1 {
			t.Errorf("q%g = %.0f, exact order statistic %.0f", q, got, exact)
		}
	}
}

func TestHistogram_Record_NoAllocs(t *testing.T) {
	var h Histogram
	if a := testing.AllocsPerRun(1000, func() { h.Record(1234 * time.Microsecond) }); a != 0 {
		t.Fatalf("Record allocates %.1f times", a)
	}
}
