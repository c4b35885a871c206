//go:build !nonethttp

package main

import "workbench/pure/baseline/nethttp"

// The net/http baseline; a -tags nonethttp build leaves it out.
func init() { impls["nethttp"] = nethttp.Serve }
