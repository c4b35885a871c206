package main

import (
	"fmt"
	"io"
)

func cmdProfile(args []string, stdout io.Writer) error {
	if len(args) != 2 {
		return usageError("profile: want IN.callgrind OUT.pb.gz")
	}
	return fmt.Errorf("profile: not wired yet")
}
