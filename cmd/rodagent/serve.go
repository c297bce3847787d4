package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/server"
)

// defaultAddr is where `rodagent serve` listens unless told otherwise.
const defaultAddr = "127.0.0.1:9322"

// listFlag collects a repeatable flag (also comma-separated).
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// usageError is a command line that cannot run as written (exit code 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// loopback checks that addr binds 127.0.0.1: the API drives a browser with
// the user's rights and must not be reachable from other machines.
func loopback(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", &usageError{fmt.Sprintf("rodagent serve: --addr %q: %v", addr, err)}
	}
	switch host {
	case "", "127.0.0.1", "localhost":
		return net.JoinHostPort("127.0.0.1", port), nil
	}
	return "", &usageError{fmt.Sprintf("rodagent serve: --addr %q: serve binds 127.0.0.1 only", addr)}
}

func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// serveFlags is the command line of `rodagent serve`.
type serveFlags struct {
	addr, token, session, dir, browserBin string
	downloadDir                           string
	origins, uploads                      listFlag
	eval, headed, exitOnStop, verbose     bool
	maxBody                               int64
	readyFD                               int
}

func parseServeFlags(args []string, stderr io.Writer) (*serveFlags, error) {
	f := &serveFlags{}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.addr, "addr", defaultAddr, "address to listen on; 127.0.0.1 only (port 0 picks a free one)")
	fs.StringVar(&f.token, "token", "", "bearer token clients must send (default: a new random one, written to the session's .token file)")
	fs.StringVar(&f.session, "session", defaultSession(), "session name: which state files this server writes ($RODAGENT_SESSION)")
	fs.StringVar(&f.dir, "state-dir", "", "directory of session files (default $RODAGENT_STATE_DIR, $XDG_STATE_HOME/rodagent or ~/.local/state/rodagent)")
	fs.Var(&f.origins, "allow-origin", "restrict navigation to this origin (repeatable), e.g. https://example.com")
	fs.Var(&f.uploads, "upload-dir", "allow uploads only from files below this directory (repeatable)")
	fs.StringVar(&f.downloadDir, "download-dir", "", "enable POST /act kind=download, which saves the files clicks download into this directory; no download without it")
	fs.BoolVar(&f.eval, "allow-eval", false, "enable POST /act kind=evaluate (runs any script a client sends)")
	fs.Int64Var(&f.maxBody, "max-body", server.DefaultMaxBody, "largest request body accepted, in bytes")
	fs.BoolVar(&f.headed, "headed", false, "show the browser window")
	fs.StringVar(&f.browserBin, "browser", "", "Chromium or Chrome executable (default: the system's)")
	fs.BoolVar(&f.exitOnStop, "exit-on-stop", false, "end the process when POST /stop closes the browser (how the CLI's background server runs)")
	fs.BoolVar(&f.verbose, "v", false, "log to stderr")
	fs.IntVar(&f.readyFD, "ready-fd", 0, "file descriptor to write \"ready\" to once listening (used by the CLI)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, &usageError{fmt.Sprintf("rodagent serve: unexpected argument %q", fs.Arg(0))}
	}
	return f, nil
}

// handler builds the control API the flags describe; stopped hears POST /stop
// when the process should end there.
func (f *serveFlags) handler(stderr io.Writer, stopped chan<- struct{}) (*server.Server, error) {
	bopts := []rodagent.Option{rodagent.WithHeadless(!f.headed)}
	if len(f.origins) > 0 {
		bopts = append(bopts, rodagent.WithAllowedOrigins(f.origins...))
	}
	if len(f.uploads) > 0 {
		bopts = append(bopts, rodagent.WithUploadDirs(f.uploads...))
	}
	if f.browserBin != "" {
		bopts = append(bopts, rodagent.WithBrowserBin(f.browserBin))
	}
	logger := slog.New(slog.DiscardHandler)
	if f.verbose {
		logger = slog.New(slog.NewTextHandler(stderr, nil))
		bopts = append(bopts, rodagent.WithLogger(logger))
	}
	return server.New(f.token,
		server.WithBrowserOptions(bopts...),
		server.WithEval(f.eval),
		server.WithDownloadDir(f.downloadDir),
		server.WithMaxBody(f.maxBody),
		server.WithLogger(logger),
		server.WithOnStop(func() {
			if f.exitOnStop {
				select {
				case stopped <- struct{}{}:
				default:
				}
			}
		}))
}

// runServe runs the control API until ctx ends (SIGINT, SIGTERM) or, with
// --exit-on-stop, until POST /stop; then it stops taking requests, closes
// the browser and removes the session files.
func runServe(ctx context.Context, args []string, stderr io.Writer) error {
	f, err := parseServeFlags(args, stderr)
	if err != nil {
		return err
	}
	bind, err := loopback(f.addr)
	if err != nil {
		return err
	}
	sess, err := newSession(f.session, f.dir)
	if err != nil {
		return err
	}
	if tok, ok, _ := sess.load(); ok && alive(ctx, sess.Addr, tok) {
		return fmt.Errorf("rodagent serve: session %q is already served at %s (pid %d)", sess.Name, sess.Addr, sess.PID)
	}
	if f.token == "" {
		if f.token, err = newToken(); err != nil {
			return err
		}
	}
	stopped := make(chan struct{}, 1)
	h, err := f.handler(stderr, stopped)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", bind)
	if err != nil {
		return fmt.Errorf("rodagent serve: %w", err)
	}
	sess.Addr, sess.PID = ln.Addr().String(), os.Getpid()
	defer sess.remove()
	if err := sess.writeToken(f.token); err != nil {
		ln.Close()
		return fmt.Errorf("rodagent serve: writing the session files: %w", err)
	}
	if err := sess.writeAddr(); err != nil {
		ln.Close()
		return fmt.Errorf("rodagent serve: writing the session files: %w", err)
	}

	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stderr, "rodagent serve: http://%s (session %s; token in %s)\n", sess.Addr, sess.Name, sess.path(".token"))
	if f.readyFD > 0 {
		if rf := os.NewFile(uintptr(f.readyFD), "ready"); rf != nil {
			_, _ = rf.WriteString("ready\n")
			rf.Close()
		}
	}

	select {
	case <-ctx.Done():
	case <-stopped:
	case err := <-served:
		_ = h.Close()
		return fmt.Errorf("rodagent serve: %w", err)
	}
	return shutdown(srv, h)
}

// shutdown lets running requests finish (15 s at most), then closes the browser.
func shutdown(srv *http.Server, h *server.Server) error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	err := srv.Shutdown(ctx)
	if cerr := h.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, context.DeadlineExceeded) {
		err = errors.New("rodagent serve: requests still running at shutdown were cut off")
	}
	return err
}

// alive reports whether a server answers GET / at addr with this token.
func alive(ctx context.Context, addr, token string) bool {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/", nil)
	if err != nil {
		return false
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	res.Body.Close()
	return res.StatusCode == http.StatusOK
}
