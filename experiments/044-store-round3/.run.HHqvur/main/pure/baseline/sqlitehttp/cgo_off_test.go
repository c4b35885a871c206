//go:build !cgo

package sqlitehttp_test

const cgoEnabled = false
