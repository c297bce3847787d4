package rodagent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"syscall"
	"testing"

	"github.com/go-rod/rod/lib/cdp"
)

// Transport failures are recognised by type; a CDP error or a message that
// merely mentions EOF is not the browser going away.
func TestTransportErrorsAreTyped(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{io.EOF, true},
		{fmt.Errorf("read frame: %w", io.ErrUnexpectedEOF), true},
		{&net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}, true},
		{fmt.Errorf("send: %w", net.ErrClosed), true},
		{fmt.Errorf("write: %w", syscall.EPIPE), true},
		{&cdp.Error{Code: -32000, Message: "SyntaxError: Unexpected EOF"}, false},
		{errors.New("page said: EOF reached, connection reset by peer"), false},
		{context.DeadlineExceeded, false},
	} {
		if got := isTransportErr(tc.err); got != tc.want {
			t.Errorf("isTransportErr(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

// Wrapping keeps the cause: a caller can still ask what the transport said.
func TestWrappedCausesSurvive(t *testing.T) {
	cause := fmt.Errorf("read: %w", io.ErrUnexpectedEOF)
	for _, tc := range []struct {
		err      error
		sentinel error
	}{
		{fmt.Errorf("%w: %w", errFrameGone, cause), errFrameGone},
		{fmt.Errorf("%w: %w", ErrBrowserGone, cause), ErrBrowserGone},
	} {
		if !errors.Is(tc.err, tc.sentinel) || !errors.Is(tc.err, io.ErrUnexpectedEOF) {
			t.Errorf("%v: lost its sentinel or its cause", tc.err)
		}
	}
	_, err := Launch(context.Background(), WithBrowserBin("/nonexistent/rodagent-test-chromium"), WithDownload(false))
	if !errors.Is(err, ErrNoBrowser) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Launch with a missing binary: %v, want ErrNoBrowser wrapping fs.ErrNotExist", err)
	}
}
