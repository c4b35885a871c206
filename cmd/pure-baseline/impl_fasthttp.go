//go:build !nofasthttp

package main

import "workbench/pure/baseline/fasthttp"

// The fasthttp baseline; a -tags nofasthttp build leaves it out.
func init() { impls["fasthttp"] = fasthttp.Serve }
