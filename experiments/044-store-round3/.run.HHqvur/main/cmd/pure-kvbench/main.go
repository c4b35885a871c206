package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pure-kvbench: "+strings.ReplaceAll(err.Error(), "\n", "; "))
		os.Exit(1)
	}
}
