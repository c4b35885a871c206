/* cprog is a tiny C workload run under callgrind to make test fixtures for
 * package callgrind: inlined code from square.h gives fi=/fe= lines, the
 * recursion gives a cycle, and work() is the collected region. */
#include <stdio.h>
#include <stdlib.h>
#include "square.h"

__attribute__((noinline)) static unsigned long leaf(unsigned long x) {
	return square(x) + 1;
}

__attribute__((noinline)) static unsigned long fib(int n) {
	return n < 2 ? (unsigned long)n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) unsigned long work(int n) {
	unsigned long h = 0;
	for (int i = 0; i < n; i++)
		h ^= leaf((unsigned long)i) + square((unsigned long)h);
	return h + fib(8);
}

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 50;
	printf("%lu\n", work(n));
	printf("%lu\n", work(n / 2));
	return 0;
}
