package main

import (
	"fmt"
	"io"

	"workbench/perfcount/callgrind"
)

// cmdProfile converts a callgrind output file into a gzip'd pprof profile
// whose total equals callgrind's.
func cmdProfile(args []string, stdout io.Writer) error {
	if len(args) != 2 {
		return usageError("profile: want IN.callgrind OUT.pb.gz")
	}
	if err := callgrind.ConvertFile(args[0], args[1]); err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s; open it with: go tool pprof -top %s\n", args[1], args[1])
	return nil
}
