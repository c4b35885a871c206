package serve

import "testing"

// TestClassSize_QuarterSteps: a grown read buffer's pooled size is at most
// a quarter over what was asked for (a 34 KB body gets 40 KiB, not 64),
// every class maps back to itself, sizes between classes are not pooled,
// and above 1 MiB a buffer is allocated to size.
func TestClassSize_QuarterSteps(t *testing.T) {
	for size := readSize + 1; size <= 1<<20; size += 512 {
		n := classSize(size)
		if n < size || size > 8<<10 && 4*n > 5*size {
			t.Fatalf("classSize(%d) = %d: want at least the size and at most a quarter over it", size, n)
		}
		if bufClass(n) < 0 {
			t.Fatalf("classSize(%d) = %d, which no pool holds", size, n)
		}
	}
	if got := classSize(34 << 10); got != 40<<10 {
		t.Errorf("classSize(34 KiB) = %d, want 40 KiB", got)
	}
	if got := bufClass(33 << 10); got != -1 {
		t.Errorf("bufClass(33 KiB) = %d, want -1 (not a class)", got)
	}
	if got := classSize(1<<20 + 1); got != 1<<20+1 {
		t.Errorf("classSize(1 MiB + 1) = %d, want the size itself (not pooled)", got)
	}
	for i, n := range bufSizes {
		if bufClass(n) != i {
			t.Errorf("bufClass(%d) = %d, want %d", n, bufClass(n), i)
		}
	}
}
