package rodagent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/session"
)

// Download is a file the page downloaded.
type Download struct {
	Path          string `json:"path"`           // where the file is now
	SuggestedName string `json:"suggested_name"` // the name the site gave it
	URL           string `json:"url"`            // where it came from
	Size          int64  `json:"size"`           // bytes received
}

// downloadHub watches the browser's download events for every page. Chromium
// saves into one directory per browser, named by download id; the hub moves
// each finished file to the directory its waiter asked for, so pages can wait
// for downloads concurrently into different directories.
//
// A browser context saves downloads only while a WaitDownload of its pages
// waits. Otherwise a launched browser refuses them — a page cannot write
// into the user's Downloads directory unasked — and the default context of
// a browser reached with Connect is given back its owner's own setting, so
// the owner's own downloads never land in the hub's directory, which Close
// deletes.
type downloadHub struct {
	b       *Browser
	mu      sync.Mutex
	dir     string
	waiting map[proto.BrowserBrowserContextID]int  // WaitDownload calls under way, per context
	saving  map[proto.BrowserBrowserContextID]bool // the context's behavior is allowAndName into dir
	waiters []*downloadWaiter
	unsub   func()
	// setMu orders the behavior changes: each one sets what the count
	// under it asks for, so the last one sent is always the right one.
	setMu sync.Mutex
}

type downloadWaiter struct {
	page *Page
	guid string
	info Download
	done chan error
}

func newDownloadHub(b *Browser) *downloadHub {
	h := &downloadHub{b: b, waiting: map[proto.BrowserBrowserContextID]int{}, saving: map[proto.BrowserBrowserContextID]bool{}}
	h.unsub = b.conn.Subscribe("", h.onEvent)
	return h
}

func (h *downloadHub) close() {
	h.unsub()
	h.mu.Lock()
	dir := h.dir
	for _, w := range h.waiters {
		select {
		case w.done <- ErrClosed:
		default:
		}
	}
	h.waiters = nil
	h.mu.Unlock()
	if dir != "" {
		_ = os.RemoveAll(dir)
	}
}

// enable counts a WaitDownload of context b and makes sure the context
// saves downloads, with events, into the hub's directory.
func (h *downloadHub) enable(ctx context.Context, b *Browser) error {
	h.mu.Lock()
	if h.dir == "" {
		dir, err := os.MkdirTemp("", "rodagent-downloads-")
		if err != nil {
			h.mu.Unlock()
			return err
		}
		h.dir = dir
	}
	h.waiting[b.contextID]++
	h.mu.Unlock()
	if err := h.sync(ctx, b); err != nil {
		h.release(b)
		return err
	}
	return nil
}

// release ends a WaitDownload of context b; the last one out sets the
// context's idle behavior again.
func (h *downloadHub) release(b *Browser) {
	h.mu.Lock()
	h.waiting[b.contextID]--
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.sync(ctx, b); err != nil {
		b.cfg.log.Debug("rodagent: restoring the download behavior", "err", err)
	}
}

// sync sets context b's download behavior to what its waiting count asks.
func (h *downloadHub) sync(ctx context.Context, b *Browser) error {
	h.setMu.Lock()
	defer h.setMu.Unlock()
	h.mu.Lock()
	want, have, dir := h.waiting[b.contextID] > 0, h.saving[b.contextID], h.dir
	h.mu.Unlock()
	if want == have {
		return nil
	}
	cmd := proto.BrowserSetDownloadBehavior{Behavior: idleDownloads(b), BrowserContextID: b.contextID}
	if want {
		cmd = proto.BrowserSetDownloadBehavior{Behavior: proto.BrowserSetDownloadBehaviorBehaviorAllowAndName,
			BrowserContextID: b.contextID, DownloadPath: dir, EventsEnabled: true}
	}
	if err := cmd.Call(b.browserSession().Bind(ctx)); err != nil {
		return b.wrapErr(ctx, err)
	}
	h.mu.Lock()
	h.saving[b.contextID] = want
	h.mu.Unlock()
	return nil
}

// idleDownloads is the download behavior of a context no WaitDownload
// waits in: refused in a browser this library launched and in a context it
// made, the owner's own setting in the default context of one reached with
// Connect.
func idleDownloads(b *Browser) proto.BrowserSetDownloadBehaviorBehavior {
	if b.root().proc != nil || b.contextID != "" {
		return proto.BrowserSetDownloadBehaviorBehaviorDeny
	}
	return proto.BrowserSetDownloadBehaviorBehaviorDefault
}

func (h *downloadHub) onEvent(m *session.Message) {
	switch m.Method {
	case "Browser.downloadWillBegin":
		var e proto.BrowserDownloadWillBegin
		if !m.Load(&e) {
			return
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, w := range h.waiters {
			if w.guid == "" && w.page.ownsFrame(e.FrameID) {
				w.guid, w.info.SuggestedName, w.info.URL = e.GUID, e.SuggestedFilename, e.URL
				return
			}
		}
	case "Browser.downloadProgress":
		var e proto.BrowserDownloadProgress
		if !m.Load(&e) {
			return
		}
		if e.State == proto.BrowserDownloadProgressStateInProgress {
			return
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		for i, w := range h.waiters {
			if w.guid != e.GUID {
				continue
			}
			h.waiters = append(h.waiters[:i], h.waiters[i+1:]...)
			if e.State == proto.BrowserDownloadProgressStateCompleted {
				w.info.Size = int64(e.ReceivedBytes)
				w.info.Path = filepath.Join(h.dir, e.GUID)
				w.done <- nil
			} else {
				w.done <- fmt.Errorf("rodagent: download of %s was %s", w.info.SuggestedName, e.State)
			}
			return
		}
	}
}

// waitingFor reports whether a WaitDownload of p is waiting: a download p
// starts now is its.
func (h *downloadHub) waitingFor(p *Page) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, w := range h.waiters {
		if w.page == p {
			return true
		}
	}
	return false
}

// UnclaimedDownload is a download a page started while no WaitDownload of
// its tab was waiting, as the next snapshot reports it: an agent that
// clicked a download link learns the click did not save a file.
type UnclaimedDownload struct {
	Name string `json:"name"` // the file name the page suggested (page-made text)
	// Refused: the browser refused it (a launched browser, a context made
	// with NewContext). False in the default context of a browser reached
	// with Connect, where its owner's own download setting handled it.
	Refused bool `json:"refused"`
}

// String is the line the snapshot header shows.
func (d UnclaimedDownload) String() string {
	if d.Refused {
		return "download " + quote(d.Name, 120) + " refused: nothing was waiting to save it (use WaitDownload, or the download verb)"
	}
	return "download " + quote(d.Name, 120) + " left to the browser's own download setting: nothing here was waiting to save it (use WaitDownload, or the download verb)"
}

// takeUnclaimed returns and clears the downloads no WaitDownload took since
// the last snapshot.
func (p *Page) takeUnclaimed() []UnclaimedDownload {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.unclaimed
	p.unclaimed = nil
	return d
}

func (p *Page) ownsFrame(id proto.PageFrameID) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.frames[id]
	return ok
}

// WaitDownload runs trigger (typically a click on a download link) and waits
// for the download it starts to finish, then moves the file into dir under the
// name the site suggested (made unique if taken) and returns where it is.
// Arming before triggering means a fast download is never missed. The
// trigger may also Open the file's URL: the NavigationError that Open
// returns for a download (its Download set) counts as the trigger's success.
// The tab's browser context saves downloads only while a WaitDownload waits.
//
//	dl, err := p.WaitDownload(ctx, dir, func(ctx context.Context) error {
//		_, err := p.Click(ctx, "lnk-download-report")
//		return err
//	})
func (p *Page) WaitDownload(ctx context.Context, dir string, trigger func(ctx context.Context) error) (Download, error) {
	if err := p.alive(); err != nil {
		return Download{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Download{}, err
	}
	hub := p.b.browser.downloads
	if err := hub.enable(ctx, p.b); err != nil {
		return Download{}, err
	}
	defer hub.release(p.b)
	w := &downloadWaiter{page: p, done: make(chan error, 1)}
	hub.mu.Lock()
	hub.waiters = append(hub.waiters, w)
	hub.mu.Unlock()
	drop := func() {
		hub.mu.Lock()
		defer hub.mu.Unlock()
		for i, x := range hub.waiters {
			if x == w {
				hub.waiters = append(hub.waiters[:i], hub.waiters[i+1:]...)
				return
			}
		}
	}
	if trigger != nil {
		// An Open of the file's own URL fails as a navigation, having
		// started just the download waited for.
		var ne *NavigationError
		if err := trigger(ctx); err != nil && !(errors.As(err, &ne) && ne.Download != "") {
			drop()
			return Download{}, err
		}
	}
	select {
	case err := <-w.done:
		if err != nil {
			return Download{}, err
		}
	case <-ctx.Done():
		drop()
		return Download{}, failure("download", "", Timeout, "no download finished", ctx.Err())
	}
	hub.mu.Lock()
	info := w.info
	hub.mu.Unlock()
	dst, err := moveUnique(info.Path, dir, info.SuggestedName)
	if err != nil {
		return Download{}, err
	}
	info.Path = dst
	return info, nil
}

// moveUnique moves src into dir as name, or "name (1).ext", … when taken.
func moveUnique(src, dir, name string) (string, error) {
	name = filepath.Base(strings.ReplaceAll(name, "\\", "/"))
	if name == "" || name == "." || name == "/" {
		name = "download"
	}
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 0; ; i++ {
		cand := name
		if i > 0 {
			cand = fmt.Sprintf("%s (%d)%s", stem, i, ext)
		}
		dst := filepath.Join(dir, cand)
		if _, err := os.Lstat(dst); err == nil {
			continue
		}
		if err := os.Rename(src, dst); err == nil {
			return dst, nil
		}
		// Different filesystems: copy, then remove.
		if err := copyFile(src, dst); err != nil {
			return "", err
		}
		_ = os.Remove(src)
		return dst, nil
	}
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
