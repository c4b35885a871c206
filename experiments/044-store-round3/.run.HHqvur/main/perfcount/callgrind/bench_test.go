package callgrind

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// synthetic writes a callgrind file of n functions in one file, each
// with a few compressed cost lines and calls to up to three random
// functions defined before it (so the call graph is a DAG).
func synthetic(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 1))
	var b strings.Builder
	b.WriteString("# callgrind format\nversion: 1\npositions: line\nevents: Ir\n\nob=(1) /bin/synthetic\nfl=(1) synthetic.c\n")
	for i := range n {
		fmt.Fprintf(&b, "fn=(%d) f%d\n%d %d\n+1 %d\n", i+1, i, 10*i+1, 1+r.IntN(100), 1+r.IntN(100))
		for range r.IntN(4) {
			if i == 0 {
				break
			}
			fmt.Fprintf(&b, "cfn=(%d)\ncalls=%d %d\n* %d\n", 1+r.IntN(i), 1+r.IntN(9), 10*r.IntN(i)+1, 1+r.IntN(1000))
		}
	}
	return []byte(b.String())
}

// Parse time per byte should stay flat as n grows (compare the MB/s of
// the sub-benchmarks); nothing here is asserted.
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		data := synthetic(n)
		b.Run(fmt.Sprintf("funcs=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Parse(bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkConvert(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		p, err := Parse(bytes.NewReader(synthetic(n)))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("funcs=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Convert(p, DefaultOptions); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
