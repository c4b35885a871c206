package perfcount

import (
	"errors"
	"os/exec"
)

// ErrNoValgrind means the callgrind backend was asked for and valgrind is not
// installed.
var ErrNoValgrind = errors.New("valgrind is not installed (apt-get install valgrind): the callgrind backend cannot run")

// ValgrindPath returns the path of the valgrind executable, or ErrNoValgrind.
func ValgrindPath() (string, error) {
	p, err := exec.LookPath("valgrind")
	if err != nil {
		return "", ErrNoValgrind
	}
	return p, nil
}
