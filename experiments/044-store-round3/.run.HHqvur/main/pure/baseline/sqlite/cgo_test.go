package sqlite_test

import "testing"

// needCgo skips t, saying why and what to do, when this test binary was
// built without cgo (no C compiler on the machine: the go command then
// builds go-sqlite3's stub, whose every Open fails). .ci/run installs gcc,
// so CI always runs these tests.
func needCgo(t *testing.T) {
	t.Helper()
	if !cgoEnabled {
		t.Skip("the SQLite baseline needs cgo and this test binary was built without it (no C compiler found): install gcc (apt-get install -y gcc libc6-dev) and run again")
	}
}
