//go:build nosqlite

package main

import (
	"context"
	"errors"
	"io"
)

// runApp refuses --app: this binary was built with -tags nosqlite, without
// the SQLite baselines, so that it needs no cgo and links statically as
// pure-serve does (how cmd/pure-http builds both for its comparisons).
func runApp(context.Context, appConfig, io.Writer, io.Writer) error {
	return errors.New("--app: this pure-baseline was built with -tags nosqlite, without the SQLite baselines; build it without that tag (and with cgo) to serve --app tpcc or bank")
}
