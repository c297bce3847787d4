package main

// Placeholder until the "agent" work's mcp.go lands on main: the lead's merge
// replaces this file with the real MCP server.

import (
	"context"
	"errors"
	"io"
)

func runMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return errors.New("rodagent mcp: not built yet")
}
