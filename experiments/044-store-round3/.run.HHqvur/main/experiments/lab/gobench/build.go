package gobench

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"workbench/experiments/lab/build"
	"workbench/experiments/lab/expdir"
)

// DefaultPkg is the package pattern when the subject names none.
const DefaultPkg = "./..."

// A Subject says where the two sides' sources come from and which
// benchmarks are judged. Exactly one of Repo and Module is set.
type Subject struct {
	// Repo is a git repository; the sides are its commits, each checked
	// out in a worktree of that repository.
	Repo string
	// Module is a module path; the sides are its versions, fetched with
	// the go command (module.go).
	Module string
	// Pkg is the package pattern (go list's); empty is DefaultPkg.
	Pkg string
	// Bench selects benchmarks, in -test.bench's syntax; empty is ".".
	Bench string
}

// check fills in the defaults and refuses a subject that names neither or
// both sources.
func (s *Subject) check() error {
	switch {
	case s.Repo == "" && s.Module == "":
		return errors.New("no subject: name a git repository (repo=PATH) or a module (module=PATH)")
	case s.Repo != "" && s.Module != "":
		return fmt.Errorf("repo=%s and module=%s: name one subject, not both", s.Repo, s.Module)
	case strings.HasPrefix(s.Pkg, "-") || strings.HasPrefix(s.Bench, "-"):
		return fmt.Errorf("pkg=%q bench=%q: neither may start with '-'", s.Pkg, s.Bench)
	}
	if s.Pkg == "" {
		s.Pkg = DefaultPkg
	}
	if s.Bench == "" {
		s.Bench = "."
	}
	if s.Repo != "" {
		abs, err := filepath.Abs(s.Repo)
		if err != nil {
			return err
		}
		s.Repo = abs
	}
	return nil
}

// A Side is one side, built: its source tree and its packages' test
// binaries.
type Side struct {
	// Build is the side as the experiment records it; Build.Dir holds the
	// test binaries, one per package, named as Package.Binary.
	Build expdir.Build
	// Src is the side's source tree, where each test binary runs in its
	// package's directory (SourceDir).
	Src string
	// Packages are the packages matching the pattern that have tests and
	// whose test binary built, in go list's order.
	Packages []Package
	// Failed are the packages whose test binary did not build (cgo
	// without a C compiler, a missing dependency...): their benchmarks
	// are recorded as failing, and the other packages go on.
	Failed []PackageFailure
}

// A PackageFailure is a package whose test binary did not build.
type PackageFailure struct {
	ImportPath string `json:"import_path"`
	Error      string `json:"error"`
	// Tail is the end of go test -c's output.
	Tail string `json:"tail"`
}

// A Package is one package's test binary.
type Package struct {
	// ImportPath is the package's import path; Dir its directory relative
	// to the source tree ("." for the root).
	ImportPath string `json:"import_path"`
	Dir        string `json:"dir"`
	// Binary is the test binary's file name in the side's Build.Dir.
	Binary string `json:"binary"`
}

// SourceDir returns the source tree of a side built by a Builder, from its
// build record: the directory beside its binaries.
func SourceDir(b expdir.Build) string { return filepath.Join(filepath.Dir(b.Dir), "src") }

// A Builder builds the test binaries of a subject's sides and caches them
// by commit (or module version) and package pattern:
//
//	CacheDir/gotest/<key>/bin/        the test binaries (Build.Dir)
//	CacheDir/gotest/<key>/src/        the source tree they run in
//	CacheDir/gotest/<key>/build.json  what was built, with which Go
//
// A git side is checked out in a detached worktree of the subject's own
// repository (removed once copied, so the repository keeps no trace of
// it); a module side is copied from the module cache (module.go).
type Builder struct {
	Subject Subject
	// CacheDir is the cache root (build.DefaultCacheDir()).
	CacheDir string
	// Log receives one line per build or cache hit; nil discards them.
	Log io.Writer
}

// stamp is build.json.
type stamp struct {
	Commit    string           `json:"commit"`
	Pkg       string           `json:"pkg"`
	GoVersion string           `json:"go_version"`
	Packages  []Package        `json:"packages"`
	Failed    []PackageFailure `json:"failed,omitempty"`
}

// NewBuilder checks the subject and returns its Builder.
func NewBuilder(s Subject, cacheDir string, log io.Writer) (*Builder, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if s.Repo != "" {
		if _, err := build.Git(context.Background(), s.Repo, "rev-parse", "--git-dir"); err != nil {
			return nil, fmt.Errorf("repo=%s is not a git repository: %w", s.Repo, err)
		}
	}
	return &Builder{Subject: s, CacheDir: cacheDir, Log: log}, nil
}

// Resolve returns the commit a revision of the repository names, or for a
// module the module@version a version names (module.go).
func (b *Builder) Resolve(ctx context.Context, rev string) (string, error) {
	if b.Subject.Module != "" {
		return b.resolveModule(ctx, rev)
	}
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("revision %q: want a commit, branch or tag of %s", rev, b.Subject.Repo)
	}
	commit, err := build.Git(ctx, b.Subject.Repo, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("revision %q does not name a commit in %s", rev, b.Subject.Repo)
	}
	return commit, nil
}

// key is the cache directory's name for commit (or module@version) and
// the package pattern.
func (b *Builder) key(commit string) string {
	sum := sha256.Sum256([]byte(b.Subject.Pkg))
	return strings.NewReplacer("/", "_", "@", "_").Replace(commit) + "-" + hex.EncodeToString(sum[:4])
}

// Build returns side's test binaries built from commit, building them
// unless the cache has them. rev is the revision as the user named it.
// A failed build is a *build.BuildError carrying go's output.
func (b *Builder) Build(ctx context.Context, side, rev, commit string) (*Side, error) {
	dir := filepath.Join(b.CacheDir, "gotest", b.key(commit))
	s := &Side{Build: expdir.Build{Side: side, Revision: rev, Commit: commit, Dir: filepath.Join(dir, "bin")}, Src: filepath.Join(dir, "src")}
	berr := func(err error, out string) error {
		return &build.BuildError{Side: side, Revision: rev, Commit: commit, StderrTail: out, Err: err}
	}
	gv, err := exec.CommandContext(ctx, "go", "env", "GOVERSION").Output()
	if err != nil {
		return nil, berr(fmt.Errorf("go env GOVERSION: %w (is the go command on PATH?)", err), "")
	}
	s.Build.GoVersion = strings.TrimSpace(string(gv))

	// 1. Serialise builds of this key and look in the cache.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, berr(err, "")
	}
	unlock, err := build.LockFile(dir + ".lock")
	if err != nil {
		return nil, berr(err, "")
	}
	defer unlock()
	var st stamp
	if data, err := os.ReadFile(filepath.Join(dir, "build.json")); err == nil && json.Unmarshal(data, &st) == nil &&
		st.Commit == commit && st.Pkg == b.Subject.Pkg && st.GoVersion == s.Build.GoVersion {
		s.Packages, s.Failed, s.Build.Cached = st.Packages, st.Failed, true
		b.logf("%s: using cached test binaries of %s (%s) in %s", side, rev, short(commit), dir)
		return s, nil
	}

	// 2. The source tree, in a temporary directory moved into place at
	// the end, so the cache never holds a half-built one.
	b.logf("%s: building the test binaries of %s (%s), packages %s", side, rev, short(commit), b.Subject.Pkg)
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		return nil, berr(err, "")
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, "src")
	if b.Subject.Module != "" {
		err = b.copyModule(ctx, commit, src)
	} else {
		err = b.checkout(ctx, commit, src)
	}
	if err != nil {
		return nil, berr(err, "")
	}

	// 3. The packages with tests, and one test binary each.
	// A module's copy may lack go.sum lines for its dependencies: the go
	// command may add them (through the module proxy).
	var env []string
	if b.Subject.Module != "" {
		env = []string{"GOFLAGS=-mod=mod"}
	}
	pkgs, out, err := listPackages(ctx, src, b.Subject.Pkg, env)
	if err != nil {
		return nil, berr(err, out)
	}
	if len(pkgs) == 0 {
		return nil, berr(fmt.Errorf("no package matching %s has test files: no benchmarks to run (choose another pkg=)", b.Subject.Pkg), "")
	}
	bin := filepath.Join(tmp, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return nil, berr(err, "")
	}
	var built []Package
	for _, p := range pkgs {
		if out, err := goCmd(ctx, src, env, "test", "-c", "-trimpath", "-o", filepath.Join(bin, p.Binary), p.ImportPath); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			f := PackageFailure{ImportPath: p.ImportPath, Error: fmt.Sprintf("go test -c %s: %v%s", p.ImportPath, err, buildHint(out)), Tail: out}
			s.Failed = append(s.Failed, f)
			b.logf("warning: %s: %s", side, f.Error)
			continue
		}
		built = append(built, p)
	}
	if len(built) == 0 {
		return nil, berr(fmt.Errorf("no test binary of %s built (%d packages failed; the first: %s)", b.Subject.Pkg, len(s.Failed), s.Failed[0].Error), s.Failed[0].Tail)
	}
	pkgs = built
	data, _ := json.MarshalIndent(stamp{Commit: commit, Pkg: b.Subject.Pkg, GoVersion: s.Build.GoVersion, Packages: pkgs, Failed: s.Failed}, "", "  ")
	if err := os.WriteFile(filepath.Join(tmp, "build.json"), append(data, '\n'), 0o644); err != nil {
		return nil, berr(err, "")
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, berr(err, "")
	}
	if err := os.Rename(tmp, dir); err != nil {
		return nil, berr(err, "")
	}
	s.Packages = pkgs
	return s, nil
}

// checkout writes commit's tree to dst through a detached worktree of the
// subject's repository, which it then removes: the user's hooks are not
// run, and the repository keeps no worktree of ours.
func (b *Builder) checkout(ctx context.Context, commit, dst string) error {
	repo := b.Subject.Repo
	wt := filepath.Join(b.CacheDir, "worktrees", "gotest-"+commit)
	if err := os.MkdirAll(filepath.Dir(wt), 0o755); err != nil {
		return err
	}
	remove := func() {
		if _, err := os.Stat(wt); err == nil {
			build.Git(context.Background(), repo, "worktree", "remove", "--force", wt)
			os.RemoveAll(wt)
		}
	}
	remove() // a leftover of an interrupted build
	if _, err := build.Git(ctx, repo, "-c", "core.hooksPath=/dev/null", "worktree", "add", "--force", "--detach", "--quiet", wt, commit); err != nil {
		return err
	}
	defer remove()
	if out, err := exec.CommandContext(ctx, "cp", "-a", wt, dst).CombinedOutput(); err != nil {
		return fmt.Errorf("copying the worktree of %s: %v: %s", short(commit), err, out)
	}
	return os.Remove(filepath.Join(dst, ".git")) // the worktree's link to the repository
}

// listPackages lists the packages matching pattern in the module at src
// that have test files, naming each one's test binary after its
// directory.
func listPackages(ctx context.Context, src, pattern string, env []string) ([]Package, string, error) {
	out, err := goCmd(ctx, src, env, "list", "-f", "{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}\t{{.Dir}}{{end}}", pattern)
	if err != nil {
		return nil, out, fmt.Errorf("go list %s: %w", pattern, err)
	}
	var pkgs []Package
	seen := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		path, dir, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		rel, err := filepath.Rel(src, dir)
		if err != nil || !filepath.IsLocal(rel) && rel != "." {
			return nil, "", fmt.Errorf("package %s is in %s, outside the module's tree: only the module's own packages are built", path, dir)
		}
		bin := strings.ReplaceAll(filepath.ToSlash(rel), "/", "__") + ".test"
		if rel == "." {
			bin = "root.test"
		}
		if other, dup := seen[bin]; dup {
			return nil, "", fmt.Errorf("packages %s and %s would share the test binary %s", other, path, bin)
		}
		seen[bin] = path
		pkgs = append(pkgs, Package{ImportPath: path, Dir: filepath.ToSlash(rel), Binary: bin})
	}
	return pkgs, "", nil
}

// goCmd runs the go command in dir, from the module's own go.mod whatever
// go.work the user has, with env added, and returns its combined output (its tail on
// error).
func goCmd(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOWORK=off"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return build.Tail(append(stdout.Bytes(), stderr.Bytes()...), 30, 4000), err
	}
	return stdout.String(), nil
}

// buildHint names the likely cause of a failed go test -c from its
// output, with what to do: ": " and the hint, or "".
func buildHint(out string) string {
	switch {
	case strings.Contains(out, "cgo") && (strings.Contains(out, "gcc") || strings.Contains(out, "C compiler")):
		return ": the package needs cgo and no C compiler was found (apt-get install gcc, or leave the package out with pkg=)"
	case strings.Contains(out, "dial tcp") || strings.Contains(out, "proxy.golang.org") || strings.Contains(out, "GOPROXY"):
		return ": a dependency could not be fetched (is the module proxy reachable? see go env GOPROXY)"
	case strings.Contains(out, "missing go.sum entry"):
		return ": the module's go.sum lacks a dependency's sum (run go mod tidy in the repository, or use module=, which fetches sums)"
	}
	return ""
}

func (b *Builder) logf(format string, args ...any) {
	if b.Log != nil {
		fmt.Fprintf(b.Log, format+"\n", args...)
	}
}

// short abbreviates a commit hash; a module@version is kept whole.
func short(commit string) string { return build.Short(commit) }
