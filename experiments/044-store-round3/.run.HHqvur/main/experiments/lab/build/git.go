package build

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// Git runs git in dir and returns its standard output without the trailing
// newline. A failure carries git's own message.
func Git(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := GitBytes(ctx, dir, args...)
	return strings.TrimRight(string(out), "\n"), err
}

// GitBytes runs git in dir and returns its standard output as it is.
func GitBytes(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return stdout.Bytes(), nil
}

// RepoRoot returns the top directory of the git checkout that contains dir.
func RepoRoot(ctx context.Context, dir string) (string, error) {
	root, err := Git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		if abs, aerr := filepath.Abs(dir); aerr == nil {
			dir = abs
		}
		return "", fmt.Errorf("%s is not inside a git checkout of the project (run from one, or name it with --checkout): %w", dir, err)
	}
	return root, nil
}

// Tail returns the last lines of b, at most maxLines lines and about maxBytes
// bytes, for quoting a failed command's output in an error or a record.
func Tail(b []byte, maxLines, maxBytes int) string {
	s := strings.TrimRight(string(b), "\n")
	if len(s) > maxBytes {
		s = s[len(s)-maxBytes:]
		if i := strings.IndexByte(s, '\n'); i >= 0 && i < len(s)-1 {
			s = s[i+1:]
		}
	}
	lines := strings.Split(s, "\n")
	if len(lines) > maxLines {
		lines = lines[len(lines)-maxLines:]
	}
	return strings.Join(lines, "\n")
}

// LockFile takes an exclusive advisory lock on path, creating it, without
// waiting. The returned function releases it.
func LockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s is locked by another pairs run (%w)", path, err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
