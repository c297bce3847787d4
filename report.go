package rodagent

// ActionReport is what a page's most recent action did: its verb and target,
// its status, and whether it started a navigation of the main frame.
type ActionReport struct {
	Verb      string       `json:"verb"`          // "click", "type", "press", "open", …
	Ref       string       `json:"ref,omitempty"` // the target as given: a ref, a locator, a key
	Status    ActionStatus `json:"status"`        // the status the action returned
	Navigated bool         `json:"navigated"`     // the action started (or made) a navigation of the main frame
	URL       string       `json:"url"`           // the page's URL after it — where a started navigation goes
}

// LastAction reports what the page's most recent action did. After an action
// that starts a navigation (a link, a submit, Enter, location= in a handler),
// Navigated is true and URL names where it goes; the next Snapshot waits for
// that document and says "navigated to …" in its header.
func (p *Page) LastAction() ActionReport {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last
}

func (p *Page) report(r ActionReport) {
	p.mu.Lock()
	p.last = r
	p.mu.Unlock()
}

// statusOrReady is the status an error carries, Ready for none.
func statusOrReady(err error) ActionStatus {
	if err == nil {
		return Ready
	}
	return statusOf(err)
}
