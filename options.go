package rodagent

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// Option configures Launch, Connect and NewContext.
type Option func(*config)

type config struct {
	headless     bool
	bin          string
	download     bool
	width        int
	height       int
	flags        []string
	noSandbox    *bool
	log          *slog.Logger
	maxChars     int
	approver     Approver
	origins      []string
	uploadDirs   []string
	textMaxChars int
	initScripts  []string
	credentials  *httpCredentials  // network.go
	extraHeaders map[string]string // network.go
	storageState string            // cookies.go
}

func defaultConfig() config {
	return config{
		headless:     true,
		download:     true,
		width:        1280,
		height:       900,
		log:          slog.New(slog.DiscardHandler),
		maxChars:     DefaultMaxChars,
		textMaxChars: 20000,
	}
}

func buildConfig(opts []Option) config {
	c := defaultConfig()
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// WithHeadless chooses headless (the default) or a visible window.
func WithHeadless(on bool) Option { return func(c *config) { c.headless = on } }

// WithBrowserBin sets the Chromium or Chrome executable to launch. Without it,
// Launch uses $ROD_BROWSER_BIN, then the first browser rod's launcher.LookPath
// finds (chrome, chromium, /usr/bin/chromium, …).
func WithBrowserBin(path string) Option { return func(c *config) { c.bin = path } }

// WithDownload allows (the default) or forbids downloading a browser with rod's
// launcher when no system browser is found. Tests and CI should forbid it.
func WithDownload(allow bool) Option { return func(c *config) { c.download = allow } }

// WithWindowSize sets the browser window, and so the viewport, in CSS pixels
// (default 1280×900).
func WithWindowSize(width, height int) Option {
	return func(c *config) { c.width, c.height = width, height }
}

// WithFlags adds command-line switches for the launched browser, such as
// "--lang=fr". Switches rodagent sets itself can be overridden this way.
func WithFlags(flags ...string) Option {
	return func(c *config) { c.flags = append(c.flags, flags...) }
}

// WithSandbox forces Chromium's sandbox on or off. By default it is on, except
// when running as root, where Chromium refuses to start with it.
func WithSandbox(on bool) Option { return func(c *config) { c.noSandbox = ptr(!on) } }

// WithLogger sends the library's logs to l. By default nothing is logged.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.log = l
		}
	}
}

// WithDefaultMaxChars sets the default character budget of a snapshot's text
// (DefaultMaxChars unless set). Snapshot's own WithMaxChars overrides it per call.
func WithDefaultMaxChars(n int) Option { return func(c *config) { c.maxChars = n } }

// WithApprover installs the embedding application's approval hook: it sees
// every acting call before it runs (see Approver).
func WithApprover(a Approver) Option { return func(c *config) { c.approver = a } }

// WithAllowedOrigins restricts navigation to the given origins, such as
// "https://example.com", wherever it lands: Open and NewPage refuse other
// origins up front, and every document request of every tab, iframe (out of
// process or not) and popup — each redirect hop included — is held and
// cancelled before it is sent when its origin is not listed. The action that
// set it off fails with ErrNotAllowed, the frame keeps its document, the next
// snapshot says "blocked navigation to <origin>", popups headed there are
// closed. Schemes that load nothing from an origin (about:, data:, blob:)
// are not checked. An entry is compared as the origin it names: case, a
// default port and a path are ignored ("https://A.example:443/app" allows
// https://a.example). A launched browser does no speculative preloading, so
// no navigation can skip the check; with Connect, one the browser serves from
// its own prefetch is stopped as it commits and the tab taken back. See the
// README's "Allowed origins" for the exact promise.
func WithAllowedOrigins(origins ...string) Option {
	return func(c *config) { c.origins = append(c.origins, origins...) }
}

// WithUploadDirs restricts file uploads to files below the given directories.
func WithUploadDirs(dirs ...string) Option {
	return func(c *config) { c.uploadDirs = append(c.uploadDirs, dirs...) }
}

func ptr[T any](v T) *T { return &v }

// checkUploads makes paths absolute, checks the files exist, and applies the
// upload directory allowlist.
func (c config) checkUploads(paths []string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("rodagent: upload %s: %w", p, err)
		}
		if st.IsDir() {
			return nil, fmt.Errorf("rodagent: upload %s: is a directory", p)
		}
		if len(c.uploadDirs) > 0 && !underAny(abs, c.uploadDirs) {
			return nil, fmt.Errorf("%w: %s is outside the upload directories", ErrNotAllowed, abs)
		}
		out = append(out, abs)
	}
	return out, nil
}

func underAny(path string, dirs []string) bool {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	for _, d := range dirs {
		rd, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		if r, err := filepath.EvalSymlinks(rd); err == nil {
			rd = r
		}
		if rel, err := filepath.Rel(rd, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	return false
}
