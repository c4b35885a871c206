static inline unsigned long square(unsigned long x) {
	return x * x;
}
