package note

import (
	"bytes"
	"fmt"

	"workbench/experiments/lab/expdir"
)

// Render loads the experiment in dir, writes its note, expdir.NoteFile, and
// its plot, expdir.PlotFile, into dir, and returns the experiment it
// loaded, judged, so a caller need not load and judge it again. It is what
// `just note exp=NNN-slug` runs, and running it again on the same files
// gives the same note, byte for byte.
//
// Each file is written through a temporary file, synced, and a rename, so a
// failure leaves the previous note in place.
func Render(dir string) (*Experiment, error) {
	e, err := Load(dir)
	if err != nil {
		return nil, err
	}
	var note, png bytes.Buffer
	if err := e.Write(&note); err != nil {
		return nil, err
	}
	if err := e.Plot(&png); err != nil {
		return nil, err
	}
	d := expdir.Dir(dir)
	if err := expdir.WriteFileAtomic(d.Path(expdir.PlotFile), png.Bytes()); err != nil {
		return nil, fmt.Errorf("writing the plot: %w", err)
	}
	if err := expdir.WriteFileAtomic(d.Path(expdir.NoteFile), note.Bytes()); err != nil {
		return nil, fmt.Errorf("writing the note: %w", err)
	}
	return e, nil
}
