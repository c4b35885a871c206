//go:build !cgo

package sqlite_test

const cgoEnabled = false
