package note

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// Render writes the note of the experiment in dir, NoteFile, and its plot,
// PlotFile, into dir. It is what `just note exp=NNN-slug` runs, and running
// it again on the same files gives the same note, byte for byte.
//
// Each file is written through a temporary file and a rename, so a failure
// leaves the previous note in place.
func Render(dir string) error {
	e, err := Load(dir)
	if err != nil {
		return err
	}
	var note, png bytes.Buffer
	if err := e.Write(&note); err != nil {
		return err
	}
	if err := e.Plot(&png); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, PlotFile), png.Bytes()); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, NoteFile), note.Bytes())
}

// writeFile writes data to path through path.tmp and a rename.
func writeFile(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("writing the note: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing the note: %w", err)
	}
	return nil
}
