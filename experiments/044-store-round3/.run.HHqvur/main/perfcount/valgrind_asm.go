//go:build amd64 || arm64

package perfcount

// clientRequest issues a valgrind client request; natively it returns def.
//
//go:noescape
func clientRequest(args *[6]uintptr, def uintptr) uintptr
