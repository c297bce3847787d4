// Command rodagent drives a real Chromium for programs that are not Go:
//
//	rodagent serve            the browser control API over HTTP (see package server)
//	rodagent mcp              an MCP server over stdio
//	rodagent open URL         CLI verbs for shell-driven agents; each talks to a
//	rodagent snapshot         running serve, starting one in the background on
//	rodagent click btn-save   first use (see rodagent help)
//
// Flags come from the standard flag package: the verbs are few and flat, and
// their flags are a handful each, which it covers without a dependency.
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
		printHelp(stderr)
		return exitUsage
	}
	var err error
	switch args[0] {
	case "help", "-h", "-help", "--help":
		printHelp(stdout)
		return exitOK
	case "mcp":
		err = runMCP(ctx, args[1:], stdin, stdout, stderr)
	case "serve":
		err = runServe(ctx, args[1:], stderr)
	default:
		return runCLI(ctx, args[0], args[1:], stdout, stderr)
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	}
	fmt.Fprintln(stderr, err)
	var ue *usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitError
}
