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
