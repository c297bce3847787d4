package mcp

import (
	"context"
	"errors"
	"sync"

	"github.com/rodagent/rodagent"
)

// gateKey carries a tool call's gate in the context the library hands its
// Approver.
type gateKey struct{}

// Approver returns the Approver to give the Browser that the server's tool
// drives (rodagent.WithApprover(mcp.Approver())). During an MCP tool call it
// applies the server's Approval mode and asks the person at the host; calls
// the embedding program makes itself, outside any MCP call, are allowed.
func Approver() rodagent.Approver {
	return rodagent.ApproverFunc(func(ctx context.Context, a rodagent.Action) error {
		g, ok := ctx.Value(gateKey{}).(*gate)
		if !ok {
			return nil
		}
		return g.Approve(ctx, a)
	})
}

// errAsking refuses an action while the person is asked about it: the call
// stops before touching the page and is run again with the answer.
var errAsking = errors.New("waiting for the person's answer")

// errCannotAsk refuses an action the mode wants asked on a host that cannot ask.
var errCannotAsk = errors.New("this MCP host cannot ask a person (it has no elicitation), and the server asks before acting; " +
	"restart the server with --approve=all to act without asking")

// gate decides one tool call's approvals.
type gate struct {
	mode   Approval
	canAsk bool

	mu      sync.Mutex
	granted *rodagent.Action // the action the person allowed, for the call's second round
	pending *rodagent.Action // the first action that needs asking
	// couldNotAsk is set when an action was refused because the host cannot ask.
	couldNotAsk bool
}

// Approve implements rodagent.Approver for one call.
func (g *gate) Approve(_ context.Context, a rodagent.Action) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.mode == ApproveAll && (!a.AlwaysAsk || !g.canAsk) {
		return nil
	}
	if g.granted != nil && *g.granted == a {
		g.granted = nil // one answer allows one action
		return nil
	}
	if !g.canAsk {
		g.couldNotAsk = true
		return errCannotAsk
	}
	if g.pending == nil {
		g.pending = &a
	}
	return errAsking
}
