package gobench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// download is what `go mod download -json` prints of one module.
type download struct {
	Path    string
	Version string
	Dir     string
	GoMod   string
	Error   string
}

// modDownload fetches module@version with the go command (through the
// module proxy, into the module cache) and says where it is.
func modDownload(ctx context.Context, module, version string) (download, error) {
	var d download
	if version == "" || strings.HasPrefix(version, "-") {
		return d, fmt.Errorf("version %q: want a version of %s such as v1.2.3 (or latest)", version, module)
	}
	tmp, err := os.MkdirTemp("", "gobench-download-")
	if err != nil {
		return d, err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", module+"@"+version)
	cmd.Dir = tmp // outside any module
	cmd.Env = append(os.Environ(), "GOWORK=off", "GO111MODULE=on")
	out, err := cmd.Output()
	if jerr := json.Unmarshal(out, &d); jerr == nil && d.Error != "" {
		return d, fmt.Errorf("go mod download %s@%s: %s (is the module proxy reachable? GOPROXY=%s)", module, version, d.Error, goEnvValue("GOPROXY"))
	}
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		return d, fmt.Errorf("go mod download %s@%s: %v %s", module, version, err, msg)
	}
	if d.Dir == "" {
		return d, fmt.Errorf("go mod download %s@%s printed no directory", module, version)
	}
	return d, nil
}

// resolveModule returns module@version for the version the user named
// (a query such as latest resolves to the version it names now).
func (b *Builder) resolveModule(ctx context.Context, version string) (string, error) {
	d, err := modDownload(ctx, b.Subject.Module, version)
	if err != nil {
		return "", err
	}
	return d.Path + "@" + d.Version, nil
}

// copyModule copies the module version's files (module@version) from the
// module cache, where they are read-only, to dst, writable, and gives it
// the go.mod the go command uses for it when its zip has none.
func (b *Builder) copyModule(ctx context.Context, modVersion, dst string) error {
	module, version, _ := strings.Cut(modVersion, "@")
	d, err := modDownload(ctx, module, version)
	if err != nil {
		return err
	}
	if out, err := exec.CommandContext(ctx, "cp", "-R", d.Dir, dst).CombinedOutput(); err != nil {
		return fmt.Errorf("copying %s: %v: %s", d.Dir, err, out)
	}
	if out, err := exec.CommandContext(ctx, "chmod", "-R", "u+w", dst).CombinedOutput(); err != nil {
		return fmt.Errorf("making the copy of %s writable: %v: %s", modVersion, err, out)
	}
	if _, err := os.Stat(filepath.Join(dst, "go.mod")); os.IsNotExist(err) {
		mod, err := os.ReadFile(d.GoMod)
		if err != nil {
			return fmt.Errorf("%s has no go.mod and the go command's is unreadable: %w", modVersion, err)
		}
		return os.WriteFile(filepath.Join(dst, "go.mod"), mod, 0o644)
	}
	return nil
}

// goEnvValue returns `go env KEY`, or "" when it cannot say.
func goEnvValue(key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
