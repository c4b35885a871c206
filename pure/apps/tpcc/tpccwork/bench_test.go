package tpccwork

import (
	"testing"

	"workbench/pure/apps/tpcc"
)

// BenchmarkStart_Full: seeding and loading the full-size database.
func BenchmarkStart_Full(b *testing.B) {
	for b.Loop() {
		st, rt, err := Start(tpcc.Full)
		if err != nil {
			b.Fatal(err)
		}
		rt.Close()
		st.Close()
	}
}

// BenchmarkMix_Full: transactions of the mix on the full-size database,
// one per op, as pure-appbench's Pure side runs them (Do, one batch and
// one save each), after a ramp-up of 20,000 (as pure-appbench
// --warmup-tx). The database is seeded for each run of the benchmark
// function; for CPU and allocation profiles of the transactions
// (-cpuprofile, -memprofile), not for comparing with SQLite
// (pure-appbench does that).
func BenchmarkMix_Full(b *testing.B) {
	st, rt, err := Start(tpcc.Full)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	defer rt.Close()
	const warm = 20_000
	calls := Calls(tpcc.Full, warm+b.N)
	for _, c := range calls[:warm] {
		rt.Do(c)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for _, c := range calls[warm:] {
		rt.Do(c)
		if c.Status != 200 && !(c.Name == "new_order" && c.Status == 404) {
			b.Fatalf("%s: %d %s", c.Name, c.Status, c.Out)
		}
	}
}
