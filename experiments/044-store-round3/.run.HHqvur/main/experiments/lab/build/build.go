package build

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"workbench/experiments/lab/expdir"
)

// A Builder builds the subject binaries of revisions and caches them by
// commit hash under CacheDir:
//
//	CacheDir/bin/<commit>/<tool>       the binaries
//	CacheDir/bin/<commit>/build.json   what was built, with which Go
//	CacheDir/worktrees/<commit>        the checkout, only while building
//
// A cached build is reused when it holds every tool asked for and was built
// by the same Go version. The user's checkout is never modified: each
// revision is checked out in its own detached git worktree, which is removed
// when the build ends, failed or not.
//
// A Builder is not safe for concurrent use; builds of one commit by several
// processes are serialised by a lock file.
type Builder struct {
	// Repo is the git checkout whose history holds the revisions.
	Repo string
	// CacheDir is the cache root, normally DefaultCacheDir().
	CacheDir string
	// Log receives one line per build or cache hit; nil discards them.
	Log io.Writer
}

// buildStamp is CacheDir/bin/<commit>/build.json.
type buildStamp struct {
	Commit    string   `json:"commit"`
	GoVersion string   `json:"go_version"`
	Tools     []string `json:"tools"`
}

// DefaultCacheDir returns $XDG_CACHE_HOME/workbench, or ~/.cache/workbench.
func DefaultCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (%w): pass one explicitly", err)
	}
	return filepath.Join(dir, "workbench"), nil
}

// Resolve returns the full commit hash a revision names.
func (b *Builder) Resolve(ctx context.Context, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("revision %q: want a commit, branch or tag", rev)
	}
	commit, err := Git(ctx, b.Repo, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("revision %q does not name a commit in %s", rev, b.Repo)
	}
	return commit, nil
}

// Build returns the binaries of tools built from commit, building them
// unless the cache already has them. rev is the revision as the user named
// it, kept for messages.
func (b *Builder) Build(ctx context.Context, side, rev, commit string, tools []string) (expdir.Build, error) {
	res := expdir.Build{Side: side, Revision: rev, Commit: commit, Dir: filepath.Join(b.CacheDir, "bin", commit)}
	berr := func(err error, stderr string) error {
		return &BuildError{Side: side, Revision: rev, Commit: commit, StderrTail: stderr, Err: err}
	}
	goVersion, err := goEnv(ctx, "GOVERSION")
	if err != nil {
		return res, berr(err, "")
	}
	res.GoVersion = goVersion

	// 1. Serialise builds of this commit and look in the cache.
	if err := os.MkdirAll(filepath.Join(b.CacheDir, "bin"), 0o755); err != nil {
		return res, berr(err, "")
	}
	unlock, err := LockFile(res.Dir + ".lock")
	if err != nil {
		return res, berr(err, "")
	}
	defer unlock()
	var stamp buildStamp
	if data, err := os.ReadFile(filepath.Join(res.Dir, "build.json")); err == nil && json.Unmarshal(data, &stamp) == nil &&
		stamp.Commit == commit && stamp.GoVersion == goVersion && hasAll(res.Dir, stamp.Tools, tools) {
		res.Cached = true
		b.logf("%s: using cached build of %s (%s) in %s", side, rev, Short(commit), res.Dir)
		return res, nil
	}
	tools = slices.Clone(tools)
	if stamp.GoVersion == goVersion {
		// Keep what the cache had, so the rebuilt directory still serves
		// other suites.
		for _, t := range stamp.Tools {
			if !slices.Contains(tools, t) {
				tools = append(tools, t)
			}
		}
	}
	slices.Sort(tools)

	// 2. Check the revision out in a fresh detached worktree.
	b.logf("%s: building %s (%s): %s", side, rev, Short(commit), strings.Join(tools, " "))
	wt := filepath.Join(b.CacheDir, "worktrees", commit)
	if err := os.MkdirAll(filepath.Dir(wt), 0o755); err != nil {
		return res, berr(err, "")
	}
	b.removeWorktree(wt) // a leftover of an interrupted build
	// --force: a leftover may still be registered though its directory is
	// gone. The user's hooks are not run: this checkout is not theirs.
	if _, err := Git(ctx, b.Repo, "-c", "core.hooksPath=/dev/null",
		"worktree", "add", "--force", "--detach", "--quiet", wt, commit); err != nil {
		return res, berr(err, "")
	}
	defer b.removeWorktree(wt)

	// 3. Build every tool into a temporary directory, then move it into
	// place, so the cache never holds a half-built directory.
	pkgs := make([]string, len(tools))
	for i, t := range tools {
		if _, err := os.Stat(filepath.Join(wt, "cmd", t)); err != nil {
			return res, berr(fmt.Errorf("the revision has no cmd/%s", t), "")
		}
		pkgs[i] = "./cmd/" + t
	}
	tmp, err := os.MkdirTemp(filepath.Dir(res.Dir), commit+".tmp-")
	if err != nil {
		return res, berr(err, "")
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, "go", append([]string{"build", "-trimpath", "-o", tmp + "/"}, pkgs...)...)
	cmd.Dir = wt
	// The revision is built from its own go.mod, whatever go.work the user has.
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return res, berr(fmt.Errorf("go build %s: %w", strings.Join(pkgs, " "), err), Tail(out.Bytes(), 30, 4000))
	}
	data, _ := json.MarshalIndent(buildStamp{Commit: commit, GoVersion: goVersion, Tools: tools}, "", "  ")
	if err := os.WriteFile(filepath.Join(tmp, "build.json"), append(data, '\n'), 0o644); err != nil {
		return res, berr(err, "")
	}
	if err := os.RemoveAll(res.Dir); err != nil {
		return res, berr(err, "")
	}
	if err := os.Rename(tmp, res.Dir); err != nil {
		return res, berr(err, "")
	}
	return res, nil
}

// removeWorktree removes a worktree of ours, directory and registration.
// Errors are ignored: it may not exist, or may belong to another checkout
// sharing the cache. It never runs `git worktree prune`, which would also
// forget the user's own worktrees whose directories are missing (on an
// unmounted disk, say).
func (b *Builder) removeWorktree(wt string) {
	ctx := context.Background() // clean up even when the build was cancelled
	if _, err := os.Stat(wt); err == nil {
		Git(ctx, b.Repo, "worktree", "remove", "--force", wt)
		os.RemoveAll(wt)
	}
}

func (b *Builder) logf(format string, args ...any) {
	if b.Log != nil {
		fmt.Fprintf(b.Log, format+"\n", args...)
	}
}

// hasAll reports whether the stamp lists every wanted tool and each is a
// file in dir.
func hasAll(dir string, stamped, want []string) bool {
	for _, t := range want {
		if !slices.Contains(stamped, t) {
			return false
		}
		if fi, err := os.Stat(filepath.Join(dir, t)); err != nil || !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}

func goEnv(ctx context.Context, key string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", key).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w (is the go command on PATH?)", key, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Short returns the abbreviated form of a commit hash; a module@version
// (the side of a Go module's benchmarks, package gobench) is kept whole.
func Short(commit string) string {
	if strings.Contains(commit, "@") {
		return commit
	}
	if len(commit) > 7 {
		return commit[:7]
	}
	return commit
}
