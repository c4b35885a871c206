package nginx

import (
	"context"
	_ "embed"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"text/template"
	"time"
)

// Binary is where Debian installs nginx.
const Binary = "/usr/sbin/nginx"

// ConfName is the configuration's file name inside the prefix.
const ConfName = "nginx.conf"

// Sizes of the static documents, as the load generator's seed writes them.
const (
	SmallDocs = 64
	SmallSize = 64
	BigSize   = 1 << 20
)

//go:embed nginx.conf.tmpl
var confText string

var confTmpl = template.Must(template.New(ConfName).Parse(confText))

// Settings fill the configuration template.
type Settings struct {
	// Prefix is the directory holding the configuration, the documents
	// (under root/docs), the pid file, the error log and temporary files.
	Prefix string
	// Addr is HOST:PORT to listen on.
	Addr string
	// User, when not empty, is the user (and group) the worker runs as;
	// Prepare sets it to "root root" when running as root, so that the
	// worker can read the prefix without changing its permissions.
	User string
}

// Config renders the configuration.
func Config(s Settings) (string, error) {
	if _, _, err := net.SplitHostPort(s.Addr); err != nil {
		return "", fmt.Errorf("nginx: address %q: %w (want HOST:PORT)", s.Addr, err)
	}
	if !filepath.IsAbs(s.Prefix) || strings.ContainsAny(s.Prefix, " ;{}\"'") {
		return "", fmt.Errorf("nginx: prefix %q must be an absolute path without spaces, quotes, ';' or braces", s.Prefix)
	}
	var b strings.Builder
	if err := confTmpl.Execute(&b, s); err != nil {
		return "", fmt.Errorf("nginx: %w", err)
	}
	return b.String(), nil
}

// SmallBody is the content of static document i (0 <= i < SmallDocs):
// SmallSize bytes ending in a newline.
func SmallBody(i int) []byte {
	b := fmt.Appendf(nil, "static document d%02d served by nginx ", i)
	for len(b) < SmallSize-1 {
		b = append(b, '.')
	}
	return append(b[:SmallSize-1], '\n')
}

// BigBody is the content of /docs/big: BigSize bytes of text lines.
func BigBody() []byte {
	b := make([]byte, 0, BigSize+80)
	for i := 0; len(b) < BigSize; i++ {
		b = fmt.Appendf(b, "line %07d of the big static document served by nginx.......\n", i)
	}
	return b[:BigSize]
}

// Prepare fills prefix (an existing, preferably empty directory) with the
// documents, the temporary directories and nginx.conf listening on addr,
// and returns the configuration's path.
func Prepare(prefix, addr string) (string, error) {
	prefix, err := filepath.Abs(prefix)
	if err != nil {
		return "", fmt.Errorf("nginx: %w", err)
	}
	docs := filepath.Join(prefix, "root", "docs")
	for _, d := range []string{docs, filepath.Join(prefix, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", fmt.Errorf("nginx: %w", err)
		}
	}
	for i := range SmallDocs {
		if err := os.WriteFile(filepath.Join(docs, fmt.Sprintf("d%02d", i)), SmallBody(i), 0o644); err != nil {
			return "", fmt.Errorf("nginx: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(docs, "big"), BigBody(), 0o644); err != nil {
		return "", fmt.Errorf("nginx: %w", err)
	}
	s := Settings{Prefix: prefix, Addr: addr}
	if os.Geteuid() == 0 {
		s.User = "root root"
	}
	conf, err := Config(s)
	if err != nil {
		return "", err
	}
	path := filepath.Join(prefix, ConfName)
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		return "", fmt.Errorf("nginx: %w", err)
	}
	return path, nil
}

// Command returns the nginx command for the configuration Prepare wrote
// in prefix. When ctx ends, the master gets SIGTERM (nginx's fast
// shutdown: it stops its workers, then exits), never SIGKILL first, which
// would leave the worker running without its master.
func Command(ctx context.Context, prefix string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, Binary, Args(prefix)...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// Args are nginx's arguments to run the configuration Prepare wrote.
func Args(prefix string) []string {
	return []string{"-p", prefix, "-c", filepath.Join(prefix, ConfName), "-e", filepath.Join(prefix, "error.log")}
}
