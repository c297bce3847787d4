package ax

import (
	"crypto/rand"
	_ "embed" // the main-world listener record
	"encoding/hex"
	"strconv"

	"github.com/go-rod/rod/lib/proto"
)

// listenersJS records, in the page's own world, the elements a script gave
// click-like listeners; see its header comment.
//
//go:embed listeners.js
var listenersJS string

// settleJS is the wait a look does after an action, in the library's
// isolated world; see its header comment.
//
//go:embed settle.js
var settleJS string

// SettleExpr evaluates, in the library's isolated world of a document, to a
// promise that resolves once the page has rendered what the last action set
// in motion (at most 1.5 s; see settle.js). The in-page inventory runs the
// same wait itself before a delta.
func SettleExpr() string {
	return "(" + settleJS + ")(" + strconv.Quote(ListenerEvent) + ")"
}

// ListenerEvent is the name root of the DOM events through which the
// inventory (isolated world) asks the listener record (main world) for the
// elements that scripts made clickable. It is random per process, so a page
// cannot listen for it or answer it. Empty turns the question off (the
// walk then sees only pointer cursors and on* attributes).
var ListenerEvent = randomEventName()

func randomEventName() string {
	b := make([]byte, 9)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return "x" + hex.EncodeToString(b)
}

// listenerSource is the script registered in every document: the record,
// called with the event name.
func listenerSource() string {
	return "(" + listenersJS + ")(" + strconv.Quote(ListenerEvent) + ");"
}

// InstallListenerRecord registers the listener record in the main world of
// every new document of the target behind c (its same-process frames
// included) before the page's scripts run, and runs it at once in the
// documents already open (their earlier listeners stay unseen).
func InstallListenerRecord(c proto.Client) error {
	_, err := proto.PageAddScriptToEvaluateOnNewDocument{Source: listenerSource(), RunImmediately: true}.Call(c)
	return err
}
