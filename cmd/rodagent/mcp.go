package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/agenttool"
	"github.com/rodagent/rodagent/mcp"
)

// mcpList collects a repeatable flag (also comma-separated).
type mcpList []string

func (l *mcpList) String() string { return strings.Join(*l, ",") }
func (l *mcpList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// runMCP serves the browser tool over MCP: stdio by default, streamable HTTP
// with --http. It launches (or, with --connect, attaches to) one browser for
// the life of the server and closes it when the client goes or ctx ends.
func runMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: rodagent mcp [flags]\n\nServes a browser tool over the Model Context Protocol (stdio, or streamable HTTP with --http).\n\n")
		fs.PrintDefaults()
	}
	httpAddr := fs.String("http", "", "serve streamable HTTP at http://ADDR/mcp (127.0.0.1 only) instead of stdio")
	headful := fs.Bool("headful", false, "show the browser window")
	browserBin := fs.String("browser", "", "Chromium or Chrome executable to launch (default: the system's)")
	connect := fs.String("connect", "", "attach to a running browser (ws://… DevTools URL or host:port) instead of launching one")
	var origins, uploads mcpList
	fs.Var(&origins, "allow-origin", "restrict navigation to this origin (repeatable), e.g. https://example.com")
	fs.Var(&uploads, "upload-dir", "offer the upload verb for files below this directory (repeatable); no upload without it")
	downloadDir := fs.String("download-dir", "", "offer the download verb, which saves the files clicks download into this directory; no download without it")
	enableEval := fs.Bool("enable-eval", false, "offer the eval verb (runs the model's JavaScript in the page)")
	perVerb := fs.Bool("per-verb-tools", false, "one MCP tool per verb (browser_click, …) instead of one browser tool")
	approve := fs.String("approve", "reads", "what runs without asking the person at the host: all, reads (acting calls are asked by elicitation), none")
	verbose := fs.Bool("v", false, "log to stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("rodagent mcp: unexpected arguments %q", fs.Args())
	}
	mode, err := mcp.ParseApproval(*approve)
	if err != nil {
		return err
	}
	level := slog.LevelError
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	opts := []rodagent.Option{rodagent.WithApprover(mcp.Approver()), rodagent.WithLogger(logger)}
	if len(origins) > 0 {
		opts = append(opts, rodagent.WithAllowedOrigins(origins...))
	}
	if len(uploads) > 0 {
		opts = append(opts, rodagent.WithUploadDirs(uploads...))
	}
	var b *rodagent.Browser
	if *connect != "" {
		b, err = rodagent.Connect(ctx, *connect, opts...)
	} else {
		if *browserBin != "" {
			opts = append(opts, rodagent.WithBrowserBin(*browserBin))
		}
		b, err = rodagent.Launch(ctx, append(opts, rodagent.WithHeadless(!*headful))...)
	}
	if err != nil {
		return fmt.Errorf("rodagent mcp: %w", err)
	}
	defer b.Close()

	var topts []agenttool.Option
	if len(uploads) > 0 {
		topts = append(topts, agenttool.WithUploadDirs(uploads...))
	}
	if *downloadDir != "" {
		topts = append(topts, agenttool.WithDownloadDir(*downloadDir))
	}
	if *enableEval {
		topts = append(topts, agenttool.WithEval())
	}
	if *perVerb {
		topts = append(topts, agenttool.WithToolPerVerb())
	}
	tool := agenttool.New(b, topts...)
	defer tool.Close()
	srv := mcp.New(tool, mcp.WithApproval(mode), mcp.WithLogger(logger), mcp.WithImplementation("rodagent", "dev"))

	if *httpAddr == "" {
		err := srv.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
		if ctx.Err() != nil || errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
	return serveMCPHTTP(ctx, *httpAddr, srv, stderr)
}

// serveMCPHTTP serves streamable HTTP on a loopback address until ctx ends:
// the server drives a browser with the user's rights.
func serveMCPHTTP(ctx context.Context, addr string, srv *mcp.Server, stderr io.Writer) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("rodagent mcp: --http %q: %w", addr, err)
	}
	if host != "127.0.0.1" && host != "localhost" && host != "::1" {
		return fmt.Errorf("rodagent mcp: --http %q: the server listens on loopback only (127.0.0.1:PORT)", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("rodagent mcp: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "rodagent mcp: streamable HTTP at http://%s/mcp\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		return nil
	}
}

// nopWriteCloser keeps stdout open when the transport closes.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
