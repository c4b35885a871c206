package build_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"workbench/experiments/lab/build"
	"workbench/experiments/lab/pairs/pairstest"
)

// A worktree left by an interrupted build, registered with or without its
// directory, does not stop the next build, and the user's own worktrees,
// even one whose directory is gone, are left alone.
func TestBuilder_Build_LeftoverWorktree(t *testing.T) {
	repo := pairstest.NewRepo(t, nil)
	b := &build.Builder{Repo: repo.Dir, CacheDir: t.TempDir()}
	ctx := context.Background()

	// The user's worktree on a disk that is not mounted now.
	users := filepath.Join(t.TempDir(), "users-worktree")
	gitOut(t, repo.Dir, "worktree", "add", "--detach", "--quiet", users, repo.Before)
	if err := os.RemoveAll(users); err != nil {
		t.Fatal(err)
	}
	// Leftovers of ours: one registered with its directory, one without.
	for i, commit := range []string{repo.Before, repo.After} {
		wt := filepath.Join(b.CacheDir, "worktrees", commit)
		gitOut(t, repo.Dir, "worktree", "add", "--detach", "--quiet", wt, commit)
		if i == 1 {
			os.RemoveAll(wt)
		}
	}

	for _, c := range []struct {
		side   string
		commit string
	}{{"before", repo.Before}, {"after", repo.After}} {
		got, err := b.Build(ctx, c.side, c.commit[:7], c.commit, []string{"pure-count"})
		if err != nil {
			t.Fatal(err)
		}
		if got.Cached || got.Dir != filepath.Join(b.CacheDir, "bin", c.commit) {
			t.Errorf("build %+v", got)
		}
		if _, err := os.Stat(filepath.Join(got.Dir, "pure-count")); err != nil {
			t.Error(err)
		}
		if _, err := os.Stat(filepath.Join(b.CacheDir, "worktrees", c.commit)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("worktree left: %v", err)
		}
	}
	if list := gitOut(t, repo.Dir, "worktree", "list", "--porcelain"); !strings.Contains(list, users) {
		t.Errorf("the user's worktree was forgotten:\n%s", list)
	}

	// A second build of the same commit is a cache hit; asking for a tool
	// the revision lacks rebuilds and fails, naming it.
	if got, err := b.Build(ctx, "before", "x", repo.Before, []string{"pure-count"}); err != nil || !got.Cached {
		t.Errorf("second build: cached %v, %v", got.Cached, err)
	}
	_, err := b.Build(ctx, "before", "x", repo.Before, []string{"pure-count", "pure-serve"})
	if err == nil || !strings.Contains(err.Error(), "the revision has no cmd/pure-serve") {
		t.Errorf("missing tool: %v", err)
	}
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}
