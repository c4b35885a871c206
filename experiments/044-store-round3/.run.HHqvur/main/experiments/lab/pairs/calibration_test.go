package pairs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/pairs"
)

func readMeta(t *testing.T, dir string) expdir.Meta {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, expdir.MetaFile))
	if err != nil {
		t.Fatal(err)
	}
	var m expdir.Meta
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRun_Calibration(t *testing.T) {
	f := newFixture(t)
	calDir := filepath.Join(t.TempDir(), "data", "calibration") // created on demand
	calPath := expdir.CalibrationPath(calDir, f.repo.Before, "test")

	// 1. An interrupted A/A experiment stores no calibration.
	o := f.opts
	o.CalibrationDir = calDir
	o.Before, o.After = "HEAD~1", f.repo.Before
	o.Experiment = "010-aa"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	o.OnRun = func(*expdir.Line) {
		if n++; n == 3 {
			cancel()
		}
	}
	if _, err := pairs.Run(ctx, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted A/A run: %v", err)
	}
	if _, err := os.Stat(calPath); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("calibration stored by an interrupted A/A experiment: %v", err)
	}

	// 2. Resumed to completion, it does, and its meta.json says A/A.
	o.OnRun, o.Resume = nil, true
	res, err := pairs.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, f.log)
	}
	if res.CalibrationSaved != calPath {
		t.Errorf("calibration saved to %q, want %q", res.CalibrationSaved, calPath)
	}
	runs, _ := os.ReadFile(res.RunsPath)
	if cal, err := os.ReadFile(calPath); err != nil || !bytes.Equal(cal, runs) {
		t.Errorf("calibration file differs from the A/A runs (%v)", err)
	}
	if m := readMeta(t, res.Dir); !m.AA || m.Calibration != nil {
		t.Errorf("A/A meta: aa %v, calibration %+v", m.AA, m.Calibration)
	}
	if _, err := os.Stat(filepath.Join(res.Dir, expdir.CalibrationFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an A/A experiment took a calibration: %v", err)
	}

	// 3. An experiment from that commit copies it and says so.
	o = f.opts
	o.CalibrationDir = calDir
	o.Experiment = "011-change"
	res2, err := pairs.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.log.String(), "calibration: 12 A/A runs of "+f.repo.Before[:7]) {
		t.Errorf("log does not report the calibration:\n%s", f.log)
	}
	m := readMeta(t, res2.Dir)
	want := expdir.CalibrationOrigin{Path: calPath, Commit: f.repo.Before, Suite: "test", Experiment: "010-aa", Runs: 12}
	if m.AA || m.Calibration == nil || *m.Calibration != want {
		t.Errorf("meta: aa %v, calibration %+v, want %+v", m.AA, m.Calibration, want)
	}
	calib, err := expdir.ReadCalibration(expdir.Dir(res2.Dir))
	if err != nil || len(calib) != 12 || calib[0].Experiment != "010-aa" || calib[0].Commit != f.repo.Before {
		t.Errorf("ReadCalibration: %d runs, %v", len(calib), err)
	}
	copied, _ := os.ReadFile(filepath.Join(res2.Dir, expdir.CalibrationFile))
	if !bytes.Equal(copied, runs) {
		t.Error("calibration.jsonl differs from the calibration it copies")
	}

	// 4. A second A/A run of the same commit that is interrupted leaves the
	// first calibration in place.
	o = f.opts
	o.CalibrationDir = calDir
	o.Before, o.After = f.repo.Before, f.repo.Before
	o.Experiment = "012-aa-again"
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	o.OnRun = func(*expdir.Line) { cancel() }
	if _, err := pairs.Run(ctx, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted second A/A run: %v", err)
	}
	if cal, _ := os.ReadFile(calPath); !bytes.Equal(cal, runs) {
		t.Error("an interrupted A/A experiment replaced the calibration")
	}

	// 5. A before commit without calibration gets none.
	o = f.opts
	o.CalibrationDir = calDir
	o.Before, o.After = "main", "HEAD~1"
	o.Experiment = "013-reverse"
	res3, err := pairs.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if m := readMeta(t, res3.Dir); m.Calibration != nil {
		t.Errorf("calibration %+v for a commit that has none", m.Calibration)
	}
	if calib, err := expdir.ReadCalibration(expdir.Dir(res3.Dir)); calib != nil || err != nil {
		t.Errorf("ReadCalibration: %d runs, %v", len(calib), err)
	}
}
