package callgrind

import (
	"math"
	"sort"
)

// splitter holds scratch space for apportion.
type splitter struct {
	out   []uint64
	frac  []float64
	order []int
}

// apportion splits v into len(w) integer shares, left in s.out, in
// proportion to the weights w, by largest remainder, so that the shares
// sum to v exactly. The weights are not negative.
func (s *splitter) apportion(v uint64, w []float64) {
	n := len(w)
	s.out = append(s.out[:0], make([]uint64, n)...)
	if v == 0 || n == 0 {
		return
	}
	var wsum float64
	for _, x := range w {
		wsum += x
	}
	if wsum <= 0 {
		s.out[0] = v
		return
	}
	s.frac = append(s.frac[:0], make([]float64, n)...)
	var sum uint64
	for i, x := range w {
		exact := float64(v) * (x / wsum)
		share := uint64(0)
		if exact >= float64(v) {
			share = v
		} else if exact > 0 {
			share = uint64(exact)
		}
		share = min(share, v-sum)
		s.out[i], sum = share, sum+share
		s.frac[i] = exact - math.Floor(exact)
	}
	left := v - sum
	if left == 0 {
		return
	}
	s.order = s.order[:0]
	for i := range n {
		s.order = append(s.order, i)
	}
	sort.SliceStable(s.order, func(a, b int) bool { return s.frac[s.order[a]] > s.frac[s.order[b]] })
	each, rest := left/uint64(n), left%uint64(n)
	for k, i := range s.order {
		s.out[i] += each
		if uint64(k) < rest {
			s.out[i]++
		}
	}
}
