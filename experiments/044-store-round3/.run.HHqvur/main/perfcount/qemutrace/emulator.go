package qemutrace

import (
	"fmt"
	"os/exec"
	"strconv"
)

// emulators are the qemu-user binaries of Debian's qemu-user-static, by
// Go architecture.
var emulators = map[string]string{
	"arm64": "qemu-aarch64-static",
	"amd64": "qemu-x86_64-static",
}

// Arches are the guest architectures Emulator knows, as GOARCH spells them.
var Arches = []string{"arm64", "amd64"}

// Emulator returns the path of the qemu-user binary that runs guests of
// arch (a GOARCH: arm64 or amd64).
func Emulator(arch string) (string, error) {
	name, ok := emulators[arch]
	if !ok {
		return "", fmt.Errorf("architecture %q: qemu counting knows arm64 (qemu-aarch64-static) and amd64 (qemu-x86_64-static)", arch)
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s not found: install it (apt-get install -y qemu-user-static)", name)
	}
	return p, nil
}

// LogArgs are the emulator's flags that write the log Read reads to the
// guest process's file descriptor fd (a pipe the caller passes in
// exec.Cmd.ExtraFiles: fd 3 is ExtraFiles[0]). They go before the guest
// binary on qemu's command line.
func LogArgs(fd int) []string {
	return []string{"-d", "in_asm,exec,nochain", "-D", "/dev/fd/" + strconv.Itoa(fd)}
}
