package note

import (
	"os"
	"reflect"
	"testing"
	"time"

	"workbench/experiments/lab/expdir"
)

// fill sets every exported, recorded field of v (a pointer) to a non-zero
// value derived from n, so a field the reader drops cannot go unnoticed.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 1, 2, 3, 4, 5, *n, time.UTC)))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if !f.IsExported() || f.Tag.Get("json") == "-" {
				continue
			}
			fill(v.Field(i), n)
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), n)
		fill(v.Index(1), n)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, n)
		fill(e, n)
		v.SetMapIndex(k, e)
	case reflect.String:
		v.SetString("s" + string(rune('a'+*n%26)))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(*n) + 0.25)
	}
}

// A directory written with the runner's writers (expdir.Dir.WriteMeta,
// expdir.RunsWriter, as `just pairs` writes it) loads in the note's Load
// with every field of meta.json and of each run intact.
func TestLoad_RoundTrip_EveryField(t *testing.T) {
	d := expdir.Dir(t.TempDir())
	n := 0
	var meta expdir.Meta
	fill(reflect.ValueOf(&meta).Elem(), &n)
	// The one field Load checks against a fixed set: a rule it knows.
	meta.LooksBudget = expdir.LooksNominal
	if err := d.WriteMeta(&meta); err != nil {
		t.Fatal(err)
	}
	var lines [2]expdir.Line
	for i := range lines {
		fill(reflect.ValueOf(&lines[i]).Elem(), &n)
		lines[i].ExitCode = 0 // a run that succeeded, so the judge pairs it
	}
	lines[0].Side, lines[1].Side = "before", "after"
	w, err := expdir.OpenRuns(d.Path(expdir.RunsFile), 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range lines {
		if err := w.Append(&lines[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := expdir.WriteFileAtomic(d.Path(expdir.CriteriaFile), []byte("time.max_worse = 3%\n")); err != nil {
		t.Fatal(err)
	}
	calib, err := os.ReadFile(d.Path(expdir.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := expdir.WriteFileAtomic(d.Path(expdir.CalibrationFile), calib); err != nil {
		t.Fatal(err)
	}

	e, err := Load(string(d))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(e.Meta, meta) {
		t.Errorf("meta.json read back differs:\n got %+v\nwant %+v", e.Meta, meta)
	}
	if len(e.Runs) != len(lines) || !e.Calibrated || len(e.Calibration) != len(lines) {
		t.Fatalf("read %d runs and %d calibration runs (calibrated %v), want %d of each", len(e.Runs), len(e.Calibration), e.Calibrated, len(lines))
	}
	for i := range lines {
		if !reflect.DeepEqual(e.Runs[i], lines[i].Run) {
			t.Errorf("run %d read back differs:\n got %+v\nwant %+v", i, e.Runs[i], lines[i].Run)
		}
		if !reflect.DeepEqual(e.Calibration[i], lines[i].Run) {
			t.Errorf("calibration run %d read back differs", i)
		}
	}
	if e.CriteriaText != "time.max_worse = 3%\n" || e.Name != meta.Experiment {
		t.Errorf("criteria %q, name %q", e.CriteriaText, e.Name)
	}

	// The strict reader a resumed experiment uses reads the runner's
	// lines whole, measurements and controls included.
	f, err := os.Open(d.Path(expdir.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	back, _, err := expdir.ReadRuns(f)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, lines[:]) {
		t.Errorf("runs.jsonl read back differs:\n got %+v\nwant %+v", back, lines)
	}
}
