// Command goprog is a tiny workload run under callgrind to make test
// fixtures for package callgrind. Only main.work and what it calls is
// collected (--toggle-collect=main.work), which keeps the output small.
package main

import (
	"fmt"
	"os"
	"strconv"
)

//go:noinline
func leaf(x uint64) uint64 {
	return x*2654435761 + 1
}

//go:noinline
func mix(n int) uint64 {
	var h uint64
	for i := 0; i < n; i++ {
		h ^= leaf(uint64(i))
	}
	return h
}

//go:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

//go:noinline
func work(n int) uint64 {
	h := mix(n)
	h += uint64(fib(10))
	return h
}

func main() {
	n := 100
	if len(os.Args) > 1 {
		v, err := strconv.Atoi(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "goprog: argument must be an integer:", err)
			os.Exit(2)
		}
		n = v
	}
	fmt.Println(work(n))
}
