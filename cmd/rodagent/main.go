// Command rodagent drives a real Chromium for programs that are not Go:
//
//	rodagent mcp              an MCP server over stdio (--http 127.0.0.1:PORT for streamable HTTP)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run dispatches one command line and returns the process's exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: rodagent mcp [flags]")
		return 2
	}
	var err error
	switch args[0] {
	case "mcp":
		err = runMCP(ctx, args[1:], stdin, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "rodagent: unknown command %q\n", args[0])
		return 2
	}
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintln(stderr, err)
	return 1
}
