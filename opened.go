package rodagent

import (
	"context"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/session"
)

// OpenedTab is a tab the page opened since the previous snapshot (a link
// with target=_blank, window.open), as the next snapshot reports it: the
// action that opened it reports ready and its own tab unchanged, so without
// this an agent would not know where the page went.
type OpenedTab struct {
	ID     string `json:"id"`     // the tab's id, for Browser.Page (the agent tool's tab_select)
	Origin string `json:"origin"` // where it is now: origins only, as Tabs shows them; "" while its first page loads
}

// String is the line the snapshot header shows.
func (o OpenedTab) String() string {
	where := " at " + safeOrigin(o.Origin)
	switch o.Origin {
	case "":
		where = ", its page still loading"
	case "about:blank":
		// window.open() with no address, written into by its opener, stays
		// there: "still loading" would send the agent waiting for nothing.
		where = " at about:blank, blank so far: its page may still be loading, or its opener writes into it"
	}
	return "opened a new tab " + o.ID + where + " (switch to it with tab_select, or Browser.Page)"
}

// openedMax bounds the tabs one look reports: a page that opens a hundred
// windows has said enough with the first few.
const openedMax = 8

// onTargetCreated notes a page target whose opener is this tab.
func (p *Page) onTargetCreated(m *session.Message) {
	var e proto.TargetTargetCreated
	if !m.Load(&e) || e.TargetInfo == nil || e.TargetInfo.Type != proto.TargetTargetInfoTypePage || e.TargetInfo.OpenerID != p.target {
		return
	}
	p.mu.Lock()
	if len(p.opened) < openedMax {
		p.opened = append(p.opened, e.TargetInfo.TargetID)
	}
	p.mu.Unlock()
}

// forgetOpenedLocked drops a tab this one opened that is being closed
// before it loaded (a popup the allowlist refused). p.mu is held.
func (p *Page) forgetOpenedLocked(id proto.TargetTargetID) {
	for i, o := range p.opened {
		if o == id {
			p.opened = append(p.opened[:i], p.opened[i+1:]...)
			return
		}
	}
}

// takeOpened returns the tabs this one opened since the last snapshot that
// are still open, each where it is now.
func (p *Page) takeOpened(ctx context.Context) []OpenedTab {
	p.mu.Lock()
	var ids []proto.TargetTargetID
	keep := p.opened[:0:0]
	for _, id := range p.opened {
		// A popup the allowlist has not yet let load or closed is told
		// by the look after that decision: opened, or blocked.
		if p.net.popups[id] {
			keep = append(keep, id)
		} else {
			ids = append(ids, id)
		}
	}
	p.opened = keep
	p.mu.Unlock()
	var out []OpenedTab
	for _, id := range ids {
		if p.b.browser.gone(id) {
			continue // closed already: a popup the allowlist refused, or the page's own
		}
		info, err := proto.TargetGetTargetInfo{TargetID: id}.Call(p.b.browserSession().Bind(ctx))
		if err != nil || info.TargetInfo == nil {
			continue
		}
		out = append(out, OpenedTab{ID: string(id), Origin: originOf(info.TargetInfo.URL)})
	}
	return out
}
