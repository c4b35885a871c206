package sqlite_test

import (
	"testing"

	"workbench/pure/app"
	"workbench/pure/apps/tpcc"
	"workbench/pure/baseline/sqlite"
	"workbench/pure/store"
)

// TestTPCC_SameAnswersAsSQLite: 3,000 transactions of the mix from one
// seed, at the small scale, give the same status and answer on the app
// and on SQLite, one by one; afterwards both pass consistency conditions
// 1 to 4.
func TestTPCC_SameAnswersAsSQLite(t *testing.T) {
	needCgo(t)
	const loadSeed, mixSeed = 1, 2
	st, err := store.OpenRAM(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := tpcc.Seed(st, tpcc.Small, loadSeed); err != nil {
		t.Fatal(err)
	}
	rt, err := app.StartLocal(st, tpcc.New(), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	db, err := sqlite.Open(sqlite.Memory, "", "tpcctest")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sq, err := sqlite.OpenTPCC(db, tpcc.Small, loadSeed)
	if err != nil {
		t.Fatal(err)
	}
	defer sq.Close()
	mix := tpcc.NewMix(tpcc.Small, loadSeed, mixSeed)
	kinds := map[tpcc.Kind]int{}
	rolledBack := 0
	c := &app.Call{}
	for i := range 3000 {
		x := mix.Next()
		kinds[x.Kind]++
		c.Reset()
		c.Kind, c.Name, c.Query, c.Body = x.Call()
		rt.Do(c)
		status, out, err := sq.Run(x)
		if err != nil {
			t.Fatalf("tx %d (%s): SQLite: %v", i, x.Kind, err)
		}
		if c.Status != status || status == 200 && string(c.Out) != out {
			t.Fatalf("tx %d (%s): app %d %q, SQLite %d %q", i, x.Kind, c.Status, c.Out, status, out)
		}
		if status == 404 {
			rolledBack++
		}
	}
	t.Logf("mix %v, %d New-Orders rolled back", kinds, rolledBack)
	if kinds[tpcc.NewOrder] < 1200 || kinds[tpcc.Payment] < 1150 || kinds[tpcc.Delivery] < 60 || rolledBack == 0 {
		t.Errorf("the mix is off the specification's: %v, %d rolled back", kinds, rolledBack)
	}
	c.Reset()
	c.Kind, c.Name = app.View, "consistency"
	rt.Do(c)
	if string(c.Out) != "ok" {
		t.Errorf("app consistency: %s", c.Out)
	}
	if got, err := sq.Check(); err != nil || got != "ok" {
		t.Errorf("SQLite consistency: %s %v", got, err)
	}
}
