package kvbench

// Value is the 16-byte value every commit and every loaded key carries.
var Value = []byte("0123456789abcdef")

// AppendReadKey appends the i-th key of a loaded store to dst: "k" and i in
// eight decimal digits ("k00000042"), so that key order is number order up
// to 100,000,000 keys.
func AppendReadKey(dst []byte, i int) []byte {
	dst = append(dst, 'k')
	return appendPadded(dst, uint64(i), 8)
}

// AppendWriteKey appends the n-th key committed by writer w to dst:
// "w", w in three digits, "-", n in ten digits ("w007-0000000042"). Every
// writer has its own prefix, so writers never touch each other's keys, and
// each commit inserts a new key.
func AppendWriteKey(dst []byte, w, n int) []byte {
	dst = append(dst, 'w')
	dst = appendPadded(dst, uint64(w), 3)
	dst = append(dst, '-')
	return appendPadded(dst, uint64(n), 10)
}

// appendPadded appends v in decimal, left-padded with zeros to width digits
// (more digits if v needs them), without allocating.
func appendPadded(dst []byte, v uint64, width int) []byte {
	var buf [20]byte
	i := len(buf)
	for v > 0 || len(buf)-i < width {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
	}
	return append(dst, buf[i:]...)
}
