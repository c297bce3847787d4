package session

import (
	"errors"
	"fmt"
	"testing"

	"github.com/go-rod/rod/lib/cdp"
)

func TestErrorKinds(t *testing.T) {
	cdpErr := func(msg string) error { return fmt.Errorf("wrapped: %w", &cdp.Error{Code: -32000, Message: msg}) }
	for _, tc := range []struct {
		err                    error
		gone, noLayout, noSess bool
	}{
		{cdpErr("Node is detached from document"), true, false, false},
		{cdpErr("No node with given id found"), true, false, false},
		{cdpErr("No node found for given backend id"), true, false, false},
		{cdpErr("Node does not have a layout object"), false, true, false},
		{cdpErr("Could not compute content quads."), false, true, false},
		{&cdp.Error{Code: -32001, Message: "Session with given id not found."}, false, false, true},
		{cdpErr("No target with given id found"), false, false, true},
		{errors.New("Node is detached from document"), false, false, false}, // not a CDP error
		{nil, false, false, false},
	} {
		if got := IsNodeGone(tc.err); got != tc.gone {
			t.Errorf("IsNodeGone(%v) = %v", tc.err, got)
		}
		if got := IsNoLayout(tc.err); got != tc.noLayout {
			t.Errorf("IsNoLayout(%v) = %v", tc.err, got)
		}
		if got := IsSessionGone(tc.err); got != tc.noSess {
			t.Errorf("IsSessionGone(%v) = %v", tc.err, got)
		}
	}
}
