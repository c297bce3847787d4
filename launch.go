package rodagent

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/launcher"
)

// process is a Chromium this library started and owns.
type process struct {
	cmd     *exec.Cmd
	dir     string        // temporary profile, removed on close
	exited  chan struct{} // closed when the main process has been reaped
	drained chan struct{} // closed when its stderr reached EOF
	log     *slog.Logger
}

var devtoolsLine = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

// findBrowser picks the executable: explicit option, $ROD_BROWSER_BIN, the
// system's Chrome or Chromium, and only then rod's download.
func findBrowser(ctx context.Context, c *config) (string, error) {
	if c.bin != "" {
		return c.bin, nil
	}
	if bin := os.Getenv("ROD_BROWSER_BIN"); bin != "" {
		return bin, nil
	}
	if bin, ok := lookPath(); ok {
		return bin, nil
	}
	if !c.download {
		return "", fmt.Errorf("%w: install Chromium (Debian/Ubuntu: apt-get install -y chromium) or set ROD_BROWSER_BIN", ErrNoBrowser)
	}
	c.log.Info("no system browser found; downloading one with rod's launcher")
	dl := launcher.NewBrowser()
	dl.Context = ctx
	dl.Logger = slogWriter{c.log}
	bin, err := dl.Get()
	if err != nil {
		return "", fmt.Errorf("%w: no system browser and the download failed (%w): install Chromium (apt-get install -y chromium) or set ROD_BROWSER_BIN", ErrNoBrowser, err)
	}
	return bin, nil
}

type slogWriter struct{ l *slog.Logger }

func (w slogWriter) Println(v ...any) { w.l.Info(strings.TrimSpace(fmt.Sprintln(v...))) }

// browserArgs are the switches of a launched browser. Site isolation stays on
// (rod's launcher turns it off) so cross-site iframes run out of process as in
// a user's Chrome; the rest keep Chromium off a closed network and stop it from
// throttling tabs that are not in front. Chromium's IPC flooding protection
// stays on (no --disable-ipc-flooding-protection, unlike many automation
// launchers): without it a page flooding history.pushState held NewPage,
// looks and clicks to the caller's deadline (TestHistoryFloodKeepsTheTabUsable).
func browserArgs(c *config, dir string) []string {
	args := []string{
		"--remote-debugging-port=0",
		"--user-data-dir=" + dir,
		"--no-first-run",
		"--no-default-browser-check",
		"--no-startup-window",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-quic",
		"--disable-breakpad",
		"--disable-crash-reporter",
		"--disable-client-side-phishing-detection",
		"--disable-component-extensions-with-background-pages",
		"--disable-default-apps",
		"--disable-extensions",
		"--disable-domain-reliability",
		"--disable-background-timer-throttling",
		"--disable-backgrounding-occluded-windows",
		"--disable-renderer-backgrounding",
		"--disable-hang-monitor",
		"--disable-prompt-on-repost",
		"--disable-dev-shm-usage",
		"--disable-smooth-scrolling",
		"--metrics-recording-only",
		"--password-store=basic",
		"--use-mock-keychain",
		"--mute-audio",
		"--force-color-profile=srgb",
		// Element.computedRole/computedName: Chromium's own role and name, the
		// cross-check of the page-side computation (see inventory.go); no read
		// path depends on it.
		"--enable-blink-features=ComputedAccessibilityInfo",
		fmt.Sprintf("--window-size=%d,%d", c.width, c.height),
	}
	if c.headless {
		args = append(args, "--headless", "--disable-gpu")
	}
	noSandbox := os.Geteuid() == 0
	if c.noSandbox != nil {
		noSandbox = *c.noSandbox
	}
	if noSandbox {
		args = append(args, "--no-sandbox")
	}
	// Chromium keeps only the last --disable-features (and --blink-settings)
	// it is given: a caller's own list joins this one rather than switching
	// these back on; a caller's blink setting comes later and wins.
	disabled := append([]string(nil), disabledFeatures...)
	var blink []string
	if c.headless {
		blink = append(blink, mousePointer)
	}
	for _, f := range c.flags {
		if v, ok := strings.CutPrefix(f, "--disable-features="); ok {
			disabled = append(disabled, v)
			continue
		}
		if v, ok := strings.CutPrefix(f, "--blink-settings="); ok {
			blink = append(blink, v)
			continue
		}
		args = append(args, f)
	}
	if len(blink) > 0 {
		args = append(args, "--blink-settings="+strings.Join(blink, ","))
	}
	return append(args, "--disable-features="+strings.Join(disabled, ","))
}

// mousePointer makes a headless browser's pages see the device the library
// drives them with: a mouse (a fine pointer that hovers). Headless Chromium
// 156 otherwise matches (pointer: none) and (hover: none), and pages that
// adapt to the device served their touch variant to clicks a person makes
// with a mouse: MUI X's DatePicker opened its mobile dialog, which takes an
// OK, where a desktop shows the popover a pick closes; CSS that keeps row
// actions visible only where nothing can hover showed them always. (Blink's
// pointer types: 4 fine; hover types: 2 hover.)
const mousePointer = "primaryPointerType=4,availablePointerTypes=4,primaryHoverType=2,availableHoverTypes=2"

// disabledFeatures are the Chromium features a launched browser runs
// without. The first eight keep it from calling out, doing background work
// or keeping left pages alive in the back/forward cache. The last three:
// each window of a headless Chromium 156 otherwise keeps two hidden omnibox
// popup pages (chrome://omnibox-popup.top-chrome/) in a WebUI renderer that
// nobody can see or type into, and a new tab is a new window here, so every
// NewPage paid for them (20 NewPage+Close on a 2-core VM: 9.6 s -> 6.7 s and
// 11.7 s -> 8.5 s, CPU 11.3 s -> 8.2 s and 14.0 s -> 10.3 s).
var disabledFeatures = []string{
	"Translate", "BackForwardCache", "MediaRouter", "OptimizationHints", "DialMediaRouteProvider",
	"AcceptCHFrame", "InterestFeedContentSuggestions", "CalculateNativeWinOcclusion",
	"WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup",
}

// writePreferences writes the new profile's preferences.
//
// "session": its session cookies live as long as the browser. Chromium
// ends a profile's session when its last window closes, and deletes every
// session cookie then (asynchronously, fire and forget) unless the
// profile's startup preference is to continue the last session. A launched
// browser starts with no window, and a program closes its last tab
// routinely — the hidden tab that writes a storage state's localStorage
// does, right after its cookies were set — so without this a login loaded
// from a storage state (or made in the browser) was lost whenever that
// deletion ran before the next request. ("restore_on_startup": 1 is
// "continue where you left off"; the profile is new and empty, so there is
// nothing to restore.)
//
// "net": no preloading (2 is "never predict"). A page's speculation rules
// make Chromium prefetch or prerender pages nobody opened, and a navigation
// it then serves from a prefetch never passes the tab's Fetch interception:
// the origin allowlist could not stop it before it loaded, and no route saw
// it. The browser then loads only what a page or the caller asks for.
func writePreferences(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "Default"), 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "Default", "Preferences"),
		[]byte(`{"session":{"restore_on_startup":1},"net":{"network_prediction_options":2}}`), 0o600)
}

// startBrowser runs Chromium and waits, within ctx, for its DevTools address.
func startBrowser(ctx context.Context, c *config) (*process, string, error) {
	bin, err := findBrowser(ctx, c)
	if err != nil {
		return nil, "", err
	}
	dir, err := os.MkdirTemp("", "rodagent-profile-")
	if err != nil {
		return nil, "", err
	}
	if err := writePreferences(dir); err != nil {
		_ = os.RemoveAll(dir)
		return nil, "", err
	}
	cmd := exec.Command(bin, browserArgs(c, dir)...)
	cmd.SysProcAttr = sysProcAttr()
	cmd.Stdout = nil
	stderr, err := cmd.StderrPipe()
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, "", fmt.Errorf("%w: starting %s: %w", ErrNoBrowser, bin, err)
	}
	p := &process{cmd: cmd, dir: dir, exited: make(chan struct{}), drained: make(chan struct{}), log: c.log}
	found := make(chan string, 1)
	var tail strings.Builder
	go func() {
		defer close(p.drained)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if !sent {
				if m := devtoolsLine.FindStringSubmatch(line); m != nil {
					found <- m[1]
					sent = true
					continue
				}
				if tail.Len() < 4096 {
					tail.WriteString(line + "\n")
				}
			}
			p.log.Debug("chromium", "stderr", line)
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	select {
	case u := <-found:
		return p, u, nil
	case <-p.exited:
		<-p.drained
		p.cleanup()
		return nil, "", fmt.Errorf("%w: %s exited before it was ready: %s", ErrNoBrowser, bin, strings.TrimSpace(tail.String()))
	case <-ctx.Done():
		p.kill()
		<-p.exited
		p.cleanup()
		return nil, "", fmt.Errorf("launching %s: %w", bin, ctx.Err())
	}
}

// stop ends the browser: it waits up to grace for the process to exit on its
// own (after Browser.close), then kills the whole process group, waits for
// every member to be gone, and removes the profile directory.
func (p *process) stop(grace time.Duration) {
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
		p.log.Debug("chromium did not exit in time; killing it")
	}
	p.kill()
	<-p.exited
	p.waitGroupGone(5 * time.Second)
	// stderr stays open while any process that inherited it lives; all are gone now.
	select {
	case <-p.drained:
	case <-time.After(2 * time.Second):
	}
	p.cleanup()
}

func (p *process) cleanup() {
	// Chromium keeps its single-instance socket in a directory of its own
	// under the temporary directory (the profile links to it) and removes
	// it only when it exits gracefully, which stop does not wait for: every
	// launch left an org.chromium.Chromium.* directory behind. Read before
	// the profile, and its link, are gone.
	singleton := singletonDir(p.dir)
	// Chromium's helpers may still be flushing into the profile for a moment
	// after the group is gone; RemoveAll tolerates that on retry.
	for i := 0; i < 3; i++ {
		if err := os.RemoveAll(p.dir); err == nil {
			break
		}
	}
	if singleton != "" {
		_ = os.RemoveAll(singleton)
	}
}

// singletonDir is the directory Chromium made for the singleton socket of
// profile (profile/SingletonSocket links into it), or "" when there is none
// or it holds anything but that socket and its cookie: only what Chromium
// made for this browser is removed.
func singletonDir(profile string) string {
	target, err := os.Readlink(filepath.Join(profile, "SingletonSocket"))
	if err != nil || !filepath.IsAbs(target) {
		return ""
	}
	dir := filepath.Dir(target)
	if dir == filepath.Dir(dir) {
		return ""
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		if n := e.Name(); n != "SingletonSocket" && n != "SingletonCookie" {
			return ""
		}
	}
	return dir
}

func (p *process) pid() string { return strconv.Itoa(p.cmd.Process.Pid) }

var errStillRunning = errors.New("browser processes still running")

// lookPath finds a system browser; a variable so tests can pretend there is none.
var lookPath = launcher.LookPath
