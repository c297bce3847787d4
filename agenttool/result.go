package agenttool

import (
	"github.com/rodagent/rodagent"
)

// Result is one call's outcome: Text for the model to read, and beside it the
// facts an adapter needs without parsing Text — whether the call did what was
// asked (OK, which MCP calls isError's opposite), its status, the tab it ran
// on and where that tab is now.
type Result struct {
	// OK is true when the call did what was asked.
	OK bool `json:"ok"`
	// Status is the outcome as a stable word: an action status ("ready",
	// "stale_ref_recovered", "obscured", "not_found", …) for acting verbs,
	// "ok" for the others, and on failure also StatusBadInput, StatusDenied,
	// StatusTimeout or StatusFailed.
	Status string `json:"status"`
	// Text is what the model reads: the status, what moved or the page, and on
	// failure the reason and the next move (for bad input: the shape the
	// action expects). Page-made text in it is quoted and ends with
	// rodagent.SafetyLine.
	Text string `json:"text"`
	// URL is the address of the tab after the call ("" when there is no tab).
	URL string `json:"url,omitempty"`
	// Navigated is true when the call moved the tab to another address.
	Navigated bool `json:"navigated"`
	// Tab is the id of the current tab after the call ("" when none is open).
	Tab string `json:"tab,omitempty"`
	// Image is the screenshot, for the screenshot verb.
	Image *Image `json:"image,omitempty"`
	// File is where the download verb saved the file.
	File string `json:"file,omitempty"`
	// Boxes lists, for a screenshot, where each ref in view is on the image.
	Boxes []RefBox `json:"boxes,omitempty"`
}

// Image is a picture for the model: its bytes and MIME type.
type Image struct {
	Data     []byte `json:"data"`
	MIMEType string `json:"mime_type"` // "image/png" or "image/jpeg"
}

// RefBox says where a ref is on a screenshot, in the image's CSS pixels.
type RefBox struct {
	Ref  string       `json:"ref"`
	Role string       `json:"role"`
	Name string       `json:"name"`
	Box  rodagent.Box `json:"box"`
}

// Statuses of a Result beside the action statuses.
const (
	StatusOK       = "ok"        // a verb that is not an action did what was asked
	StatusBadInput = "bad_input" // the input was refused before anything ran
	StatusDenied   = "denied"    // the approver or an allowlist refused the call
	StatusTimeout  = "timeout"   // the wait or the caller's deadline ran out
	StatusFailed   = "failed"    // anything else that went wrong on the page
)
