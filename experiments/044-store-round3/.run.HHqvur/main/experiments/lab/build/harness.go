package build

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Harness builds tools, each from cmd/<tool> of the checkout at repo as it
// is (uncommitted changes included), into dir, and returns their paths in
// order. These are the harness's programs, such as pure-load: they come
// from the current checkout, never from the revisions compared, so both
// sides are measured with the same ones. Go's build cache makes a rebuild
// of an unchanged checkout quick.
func Harness(ctx context.Context, repo, dir string, tools ...string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for _, t := range tools {
		out := filepath.Join(dir, t)
		cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", out, "./cmd/"+t)
		cmd.Dir = repo
		var b bytes.Buffer
		cmd.Stdout, cmd.Stderr = &b, &b
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("building the harness's %s from %s: go build ./cmd/%s: %w\n%s", t, repo, t, err, Tail(b.Bytes(), 30, 4000))
		}
		paths = append(paths, out)
	}
	return paths, nil
}
