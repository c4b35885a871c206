package load

import (
	"math"
	"math/bits"
	"time"
)

// Histogram buckets latencies (nanoseconds) logarithmically, like HDR
// histograms: below 32 ns one bucket per nanosecond, above that each power
// of two is cut into 32 equal sub-buckets, so a bucket is at most 1/32
// (3.1 %) of its lower bound wide. Values from 1 ns to 2^37 ns (137 s) are
// kept; larger ones land in the last bucket (Max stays exact).
//
// A Histogram belongs to one goroutine while it records; the run merges
// the connections' histograms after their goroutines end, so recording
// takes no lock and allocates nothing. The zero value is ready to use.
type Histogram struct {
	counts [histBuckets]uint64
	n      uint64
	max    int64
	min    int64
}

const (
	subBits     = 5
	subCount    = 1 << subBits // sub-buckets per power of two
	maxExp      = 37           // values up to 2^maxExp ns
	histBuckets = (maxExp - subBits + 1) * subCount
)

// bucketOf returns the bucket index of v nanoseconds (v >= 0).
func bucketOf(v int64) int {
	if v < subCount {
		if v < 0 {
			return 0
		}
		return int(v)
	}
	e := bits.Len64(uint64(v)) - 1 - subBits // v>>e is in [32, 64)
	i := (e+1)*subCount + int(uint64(v)>>uint(e)) - subCount
	if i >= histBuckets {
		return histBuckets - 1
	}
	return i
}

// bucketBounds returns the lowest value of bucket i and the lowest value
// of the next bucket.
func bucketBounds(i int) (lo, hi int64) {
	if i < subCount {
		return int64(i), int64(i) + 1
	}
	e := i/subCount - 1
	m := int64(i%subCount + subCount)
	return m << uint(e), (m + 1) << uint(e)
}

// Record adds one latency.
func (h *Histogram) Record(d time.Duration) {
	v := int64(d)
	if v < 0 {
		v = 0
	}
	h.counts[bucketOf(v)]++
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.n++
}

// Merge adds o's counts to h.
func (h *Histogram) Merge(o *Histogram) {
	if o.n == 0 {
		return
	}
	for i, c := range o.counts {
		h.counts[i] += c
	}
	if h.n == 0 || o.min < h.min {
		h.min = o.min
	}
	if o.max > h.max {
		h.max = o.max
	}
	h.n += o.n
}

// Count returns the number of recorded latencies.
func (h *Histogram) Count() uint64 { return h.n }

// Max returns the largest recorded latency, exactly.
func (h *Histogram) Max() time.Duration { return time.Duration(h.max) }

// Quantile returns the latency below or at which a fraction q (0..1) of
// the recorded latencies lie: the value of rank ceil(q*n), reported as the
// middle of its bucket (clamped to the exact minimum and maximum), so it is
// within half a bucket (1.6 %) of the true order statistic; the rank n is
// the exact maximum. It returns 0
// when nothing was recorded.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q*float64(h.n) - 1e-9))
	if rank < 1 {
		rank = 1
	}
	if rank >= h.n {
		return time.Duration(h.max) // the last order statistic is known exactly
	}
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			lo, hi := bucketBounds(i)
			v := lo + (hi-1-lo)/2
			if v < h.min {
				v = h.min
			}
			if v > h.max {
				v = h.max
			}
			return time.Duration(v)
		}
	}
	return time.Duration(h.max)
}
