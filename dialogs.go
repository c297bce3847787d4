package rodagent

import (
	"context"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/internal/session"
)

// DefaultArmTimeout is how long an armed dialog or file-chooser answer waits
// for its event when no timeout is given.
const DefaultArmTimeout = 10 * time.Second

type arms struct {
	dialog  *dialogArm
	chooser *chooserArm
}

type dialogArm struct {
	accept  bool
	text    string
	expires time.Time
}

type chooserArm struct {
	paths   []string
	expires time.Time
	done    chan error // told when the chooser was answered, if not nil
}

// ArmDialog decides how the next JavaScript dialog (alert, confirm, prompt or
// beforeunload) of this tab is answered: accepted or dismissed, with text for
// a prompt. The arm holds for timeout (DefaultArmTimeout when zero) and for one
// dialog; a later arm replaces an earlier one. A dialog that finds no arm is
// dismissed, and reported in the next snapshot's header.
func (p *Page) ArmDialog(accept bool, promptText string, timeout time.Duration) {
	if timeout <= 0 {
		timeout = DefaultArmTimeout
	}
	p.mu.Lock()
	p.arms.dialog = &dialogArm{accept: accept, text: promptText, expires: time.Now().Add(timeout)}
	p.mu.Unlock()
}

// ArmFileChooser answers the next file chooser this tab opens (an <input
// type=file> clicked, or a script calling its click()) with the files at
// paths. The arm holds for timeout (DefaultArmTimeout when zero) and for one
// chooser; a later arm replaces an earlier one. A chooser that finds no arm is
// cancelled and reported in the next snapshot's header.
func (p *Page) ArmFileChooser(paths []string, timeout time.Duration) error {
	abs, err := p.b.cfg.checkUploads(paths)
	if err != nil {
		return err
	}
	if timeout <= 0 {
		timeout = DefaultArmTimeout
	}
	p.mu.Lock()
	p.arms.chooser = &chooserArm{paths: abs, expires: time.Now().Add(timeout)}
	p.mu.Unlock()
	return nil
}

// acceptArmed reports whether an unexpired arm will accept the next dialog.
func (p *Page) acceptArmed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	a := p.arms.dialog
	return a != nil && a.accept && time.Now().Before(a.expires)
}

// onDialog answers a dialog on its own goroutine: Chromium holds the input
// call that opened it (mouseReleased) until the dialog is handled, so the
// action waiting on that call depends on this answer.
func (p *Page) onDialog(s session.Session, e *proto.PageJavascriptDialogOpening) {
	d := Dialog{Type: string(e.Type), Message: capRunes(e.Message, 300)}
	p.mu.Lock()
	if a := p.arms.dialog; a != nil && time.Now().Before(a.expires) {
		d.Accepted, d.Text, d.Armed = a.accept, a.text, true
		p.arms.dialog = nil
	}
	if d.Type == "prompt" && d.Armed && d.Text == "" && d.Accepted {
		d.Text = e.DefaultPrompt
	}
	if e.Type == proto.PageDialogTypeBeforeunload && !d.Accepted && s.ID == p.main.ID {
		p.unloadDismissing = true
	}
	p.dialogs = append(p.dialogs, d)
	if len(p.dialogs) > 20 {
		p.dialogs = p.dialogs[len(p.dialogs)-20:]
	}
	p.notify()
	p.mu.Unlock()
	p.background(func(ctx context.Context) {
		_ = proto.PageHandleJavaScriptDialog{Accept: d.Accepted, PromptText: d.Text}.Call(s.Bind(ctx))
	})
}

// fileChooserNote is reported in the snapshot header for a chooser nobody armed.
const fileChooserNote = "file-chooser"

func (p *Page) onFileChooser(s session.Session, e *proto.PageFileChooserOpened) {
	p.mu.Lock()
	a := p.arms.chooser
	if a != nil && time.Now().After(a.expires) {
		a = nil
	}
	p.arms.chooser = nil
	if a == nil {
		p.dialogs = append(p.dialogs, Dialog{Type: fileChooserNote, Message: "a file chooser opened; nothing was armed, so no file was chosen (use ArmFileChooser or Upload)"})
		p.notify()
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	p.background(func(ctx context.Context) {
		err := proto.DOMSetFileInputFiles{Files: a.paths, BackendNodeID: e.BackendNodeID}.Call(s.Bind(ctx))
		if a.done != nil {
			a.done <- err
		}
	})
}

// takeDialogs returns and clears the dialogs handled since the last snapshot.
func (p *Page) takeDialogs() []Dialog {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.dialogs
	p.dialogs = nil
	return d
}

// background runs fn on its own goroutine, bounded to 10 s and to the Page's
// hold on the tab, for CDP calls an event handler must not make on the
// router's goroutine. Close waits for it.
func (p *Page) background(fn func(ctx context.Context)) {
	p.workers.Add(1)
	go func() {
		defer p.workers.Done()
		ctx, cancel := context.WithTimeout(p.life, 10*time.Second)
		defer cancel()
		fn(ctx)
	}()
}
