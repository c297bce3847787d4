package rodagent_test

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/internal/ax"
)

// An agent that reads only the snapshot text and acts by ref, on widgets of
// real component libraries (testdata/fixtures/components, built from npm
// packages): it picks each target from the printed lines, acts, and reads
// the delta. After every step the delta must show what the agent needs for
// the next one (the opened menu's items, the slider's value, the new
// checked/pressed/selected/expanded state), and after the last step the
// page's outcome line (role=status) must be in the delta and in a full read.

// seen is a line the delta after a step must hold: a ref line of this role
// and name carrying each word of state, or (role "text") a piece of text.
type seen struct{ role, name, state string }

type agentStep struct {
	do         string     // click, type, focus, press (key on what has focus), check
	role, name string     // the target, as the agent reads it
	text       string     // typed text or pressed key
	times      int        // how often to press (default once)
	to         *apgTarget // drop target of a drag
	see        []seen
}

type agentTask struct {
	page    string
	steps   []agentStep
	outcome string // the role=status text the page shows afterwards
}

var componentTasks = []agentTask{
	{"components/radix-dropdown.html", []agentStep{
		{do: "click", role: "button", name: "Actions", see: []seen{{"menuitem", "Edit", ""}, {"menuitem", "Archive", ""}}},
		{do: "click", role: "menuitem", name: "Archive"},
	}, "action=Archive"},
	{"components/radix-tabs.html", []agentStep{
		{do: "click", role: "tab", name: "Billing", see: []seen{{"tab", "Billing", "selected"}, {"text", "Your plan renews on the first of each month.", ""}}},
	}, "tab=billing"},
	{"components/radix-toggles.html", []agentStep{
		{do: "click", role: "checkbox", name: "Accept terms and conditions", see: []seen{{"checkbox", "Accept terms and conditions", "checked"}}},
		{do: "click", role: "switch", name: "Airplane mode", see: []seen{{"switch", "Airplane mode", "checked"}}},
	}, "terms=true airplane=true"},
	{"components/radix-slider.html", []agentStep{
		{do: "focus", role: "slider", name: "Volume"},
		{do: "press", text: "ArrowRight", times: 2, see: []seen{{"slider", "Volume", `value="70"`}}},
	}, "volume=70"},
	{"components/radix-radio.html", []agentStep{
		{do: "click", role: "radio", name: "Team", see: []seen{{"radio", "Team", "checked"}}},
	}, "plan=team"},
	{"components/radix-accordion.html", []agentStep{
		{do: "click", role: "button", name: "Returns", see: []seen{{"button", "Returns", "expanded"}, {"button", "Start a return", ""}, {"text", "Return any item within 30 days.", ""}}},
		{do: "click", role: "button", name: "Start a return"},
	}, "return=started"},
	{"components/radix-popover.html", []agentStep{
		{do: "click", role: "button", name: "Edit dimensions", see: []seen{{"button", "Edit dimensions", "expanded"}, {"textbox", "Width", ""}, {"button", "Apply", ""}}},
		{do: "type", role: "textbox", name: "Width", text: "50%"},
		{do: "click", role: "button", name: "Apply"},
	}, "width=50%"},
	{"components/mui-tabs.html", []agentStep{
		{do: "click", role: "tab", name: "Training", see: []seen{{"tab", "Training", "selected"}, {"text", "Training articles", ""}}},
	}, "category=Training"},
	{"components/mui-slider.html", []agentStep{
		{do: "focus", role: "slider", name: "Brightness"},
		{do: "press", text: "ArrowRight", times: 3, see: []seen{{"slider", "Brightness", `value="60"`}}},
	}, "brightness=60"},
	{"components/mui-switch.html", []agentStep{
		{do: "click", role: "switch", name: "Wi-Fi", see: []seen{{"switch", "Wi-Fi", "checked"}}},
	}, "wifi=on"},
	{"components/mui-toggle.html", []agentStep{
		{do: "click", role: "button", name: "centered", see: []seen{{"button", "centered", "pressed"}, {"button", "left aligned", "unpressed"}}},
	}, "align=center"},
	{"components/mui-menu.html", []agentStep{
		{do: "click", role: "button", name: "Sort by", see: []seen{{"menuitem", "Newest", ""}, {"menuitem", "Price", ""}}},
		{do: "click", role: "menuitem", name: "Price"},
	}, "sort=price"},
	{"components/mui-rating.html", []agentStep{
		{do: "click", role: "radio", name: "4 Stars", see: []seen{{"radio", "4 Stars", "checked"}}},
	}, "rating=4"},
	{"components/headless-listbox.html", []agentStep{
		{do: "click", role: "button", name: "Assignee Select a person", see: []seen{{"option", "Wade Cooper", ""}, {"option", "Tom Cook", ""}}},
		{do: "click", role: "option", name: "Tom Cook"},
	}, "assignee=Tom Cook"},
	{"components/headless-combobox.html", []agentStep{
		{do: "type", role: "combobox", name: "Reviewer", text: "dev", see: []seen{{"option", "Devon Webb", ""}}},
		{do: "click", role: "option", name: "Devon Webb"},
	}, "reviewer=Devon Webb"},
	{"components/headless-menu.html", []agentStep{
		{do: "click", role: "button", name: "Export", see: []seen{{"menuitem", "CSV", ""}, {"menuitem", "Excel", ""}}},
		{do: "click", role: "menuitem", name: "Excel"},
	}, "export=xlsx"},
	{"components/headless-switch.html", []agentStep{
		{do: "click", role: "switch", name: "Enable notifications", see: []seen{{"switch", "Enable notifications", "checked"}}},
	}, "notifications=on"},
	{"components/react-select.html", []agentStep{
		{do: "click", role: "combobox", name: "Flavour", see: []seen{{"option", "Chocolate", ""}, {"option", "Pistachio", ""}}},
		{do: "click", role: "option", name: "Pistachio"},
	}, "flavour=pistachio"},
	{"components/day-picker.html", []agentStep{
		{do: "click", role: "button", name: "Go to the Next Month", see: []seen{{"text", "July 2024", ""}, {"button", "Monday, July 15th, 2024", ""}}},
		{do: "click", role: "button", name: "Monday, July 15th, 2024"},
	}, "checkin=2024-07-15"},
	{"components/antd-select.html", []agentStep{
		{do: "click", role: "combobox", name: "City", see: []seen{{"generic", "Lisbon", ""}}},
		{do: "click", role: "generic", name: "Lisbon"},
	}, "city=lisbon"},
	{"components/antd-datepicker.html", []agentStep{
		{do: "click", role: "textbox", name: "Check-in", see: []seen{{"button", "Next month", ""}, {"cell", "15", ""}}},
		{do: "click", role: "button", name: "Next month", see: []seen{{"cell", "15", ""}}},
		{do: "click", role: "cell", name: "15"},
	}, "checkin=2024-07-15"},
	{"components/antd-tree.html", []agentStep{
		{do: "click", role: "treeitem", name: "caret-down folder Documents", see: []seen{{"treeitem", "caret-down folder Reports", ""}}},
		{do: "click", role: "treeitem", name: "caret-down folder Reports", see: []seen{{"treeitem", "file Q2.xlsx", ""}}},
		{do: "click", role: "treeitem", name: "file Q2.xlsx"},
	}, "file=q2"},
	{"components/mantine-menu.html", []agentStep{
		{do: "click", role: "button", name: "Options", see: []seen{{"menuitem", "Rename", ""}, {"menuitem", "Duplicate", ""}}},
		{do: "click", role: "menuitem", name: "Duplicate"},
	}, "menu=duplicate"},
	{"components/mantine-tabs.html", []agentStep{
		{do: "click", role: "tab", name: "Messages", see: []seen{{"tab", "Messages", "selected"}, {"text", "No new messages.", ""}}},
	}, "tab=messages"},
	{"components/mantine-number.html", []agentStep{
		{do: "type", role: "textbox", name: "Quantity", text: "5", see: []seen{{"textbox", "Quantity", `value="5"`}}},
	}, "quantity=5"},
	{"components/mantine-slider.html", []agentStep{
		{do: "focus", role: "slider", name: "Opacity"},
		{do: "press", text: "ArrowRight", times: 2, see: []seen{{"slider", "Opacity", `value="40"`}, {"text", "Opacity: 40%", ""}}},
	}, "opacity=40"},
	{"components/aria-combobox.html", []agentStep{
		{do: "type", role: "combobox", name: "Favorite animal", text: "ka", see: []seen{{"option", "Kangaroo", ""}}},
		{do: "click", role: "option", name: "Kangaroo"},
	}, "animal=kangaroo"},
	{"components/aria-datepicker.html", []agentStep{
		{do: "click", role: "button", name: "Calendar Event date", see: []seen{{"text", "June 2024", ""}}},
		{do: "click", role: "button", name: "Next", see: []seen{{"text", "July 2024", ""}}},
		{do: "click", role: "button", name: "Monday, July 15, 2024"},
	}, "date=2024-07-15"},
}

func TestComponentAgentTasks(t *testing.T) {
	t.Parallel()
	runAgentTasks(t, componentTasks, "components/", 1)
}

// runAgentTasks runs each task in a parallel subtest per read path it takes
// (taskPaths: the fast path, and the AX tree for a spread of keep), named
// after the path and the page without its directory.
func runAgentTasks(t *testing.T, tasks []agentTask, dir string, keep int) {
	for i, tc := range tasks {
		for _, rp := range taskPaths(i, len(tasks), keep) {
			t.Run(rp.name+"/"+strings.TrimPrefix(tc.page, dir), func(t *testing.T) {
				t.Parallel()
				runAgentTask(t, tc, rp.set)
			})
		}
	}
}

// taskPaths are the read paths the i-th of n tasks runs on: the fast path
// always, the AX-tree path for a spread of keep of them; -sweep (what .ci/run
// passes) runs every task on both. (Every task on both paths takes the
// package past go test's default 10-minute timeout on 2 cores.)
func taskPaths(i, n, keep int) []readPath {
	idx := make([]string, n)
	for k := range idx {
		idx[k] = fmt.Sprint(k)
	}
	for _, k := range sweepPages(idx, keep) {
		if k == fmt.Sprint(i) {
			return readPaths
		}
	}
	return readPaths[:1]
}

func runAgentTask(t *testing.T, tc agentTask, readPath func(*rodagent.Page)) {
	ctx := testCtx(t, 90*time.Second)
	p := open(t, tc.page)
	readPath(p)
	waitReady(t, p)
	s := snapshot(t, p)
	// What the agent has read so far, newest first: it picks targets from
	// the latest look, else from what it read before.
	read := []string{s.String()}
	var looks []string // what the looks after the last step showed
	for i, st := range tc.steps {
		var (
			status rodagent.ActionStatus
			err    error
		)
		what := fmt.Sprintf("step %d: %s %s %q", i+1, st.do, st.role, st.name)
		var ref string
		if st.role != "" {
			ref = agentPick(t, read, st.role, st.name)
		}
		to := ""
		if st.to != nil {
			to = agentPick(t, read, st.to.role, st.to.name)
		}
		status, err = agentAct(ctx, t, p, st.do, ref, st.text, st.times, to)
		if err != nil || !status.OK() {
			t.Fatalf("%s (%s): %s, %v\nlast read:\n%s", what, ref, status, err, read[0])
		}
		// The next look: a delta, or the full inventory when most refs are
		// new (a modal menu hides the rest of the page): its text is what
		// the agent reads either way. A look that says the page is still
		// moving is followed by another, as its text asks.
		looks = agentLook(t, p)
		for _, w := range st.see {
			if !slices.ContainsFunc(looks, func(l string) bool { return agentSees(l, w, read) }) {
				t.Errorf("%s: the delta should show %s %q %s:\n%s\nfull:\n%s", what, w.role, w.name, w.state, strings.Join(looks, "\nthen:\n"), snapshot(t, p, rodagent.WithFull()).String())
			}
		}
		for _, l := range looks {
			read = append([]string{l}, read...)
		}
	}
	for _, text := range read {
		for _, line := range agentLines(text) {
			// a ref with neither name nor state is a numbered handle
			// (cell-13) an agent reads as something it is not
			h, r, rest, ok := agentRefLine(line)
			_, slug, _ := strings.Cut(h[strings.LastIndexByte(h, '/')+1:], "-")
			if ok && r == "gridcell" && isDigits(slug) && !strings.HasPrefix(rest, `"`) {
				t.Errorf("a blank grid cell is a ref: %q", h)
			}
		}
	}
	if !slices.ContainsFunc(looks, func(l string) bool { return strings.Contains(l, tc.outcome) }) {
		t.Errorf("the outcome %q should be in the looks after the last step:\n%s\npage log: %v\n%s",
			tc.outcome, strings.Join(looks, "\nthen:\n"), logEntries(t, p), pageMotion(t, p, tc.outcome))
	}
	full := snapshot(t, p, rodagent.WithFull()).String()
	if !strings.Contains(full, tc.outcome) {
		t.Errorf("the outcome %q should be in a full snapshot:\n%s", tc.outcome, full)
	}
	var got string
	eval(t, p, "document.getElementById('result').textContent", &got)
	if got != tc.outcome {
		t.Errorf("the page's outcome is %q, want %q (the agent's actions did not do the task); log %v", got, tc.outcome, logEntries(t, p))
	}
}

// agentLook is what an agent reads after an action: the next look, and
// while a look says the page is still moving, the one after it, for at most
// 10 s of looks (each waits up to the settle's 1.5 s bound). The last look
// must have found the page at rest.
func agentLook(t *testing.T, p *rodagent.Page) []string {
	t.Helper()
	var texts []string
	var states []any // the page right after each look that said it was still moving
	start := time.Now()
	for {
		s := snapshot(t, p)
		texts = append(texts, s.String())
		if s.Unsettled == "" {
			if len(texts) > 1 {
				t.Logf("%d looks in %v: the page was still moving (%s)\nthe page after each such look: %v", len(texts), time.Since(start).Round(time.Millisecond), strings.Join(texts[:len(texts)-1], "\nthen:\n"), states)
			}
			return texts
		}
		states = append(states, pageState(t, p))
		if time.Since(start) > 10*time.Second {
			t.Errorf("every look for %v said the page was still moving (%s):\n%s\nthe page after each look: %v", time.Since(start).Round(time.Millisecond), s.Unsettled, strings.Join(texts, "\nthen:\n"), states)
			return texts
		}
	}
}

// pageMotion describes, for a failure, what the page was doing when a look
// missed an outcome: whether it was visible and focused, its running
// animations, and how long a fresh look then took to show the outcome (a
// look that settled too early), if it did within 3 s (a page that stalled).
func pageMotion(t *testing.T, p *rodagent.Page, outcome string) string {
	state := pageState(t, p)
	start := time.Now()
	for time.Since(start) < 3*time.Second {
		if strings.Contains(snapshot(t, p, rodagent.WithFull()).String(), outcome) {
			return fmt.Sprintf("page then: %v; a full look showed the outcome %v later", state, time.Since(start).Round(time.Millisecond))
		}
		eval(t, p, "new Promise(r => setTimeout(() => r(1), 100))", nil)
	}
	return fmt.Sprintf("page then: %v; no look in 3 s showed the outcome", state)
}

// pageState is whether the page is visible and focused, its clock, and its
// animations: play state, pending, current time, end time, what moves and
// on which element (so a look that kept saying "still moving" names why).
func pageState(t *testing.T, p *rodagent.Page) any {
	var state any
	eval(t, p, `({visibility: document.visibilityState, focused: document.hasFocus(), now: Math.round(performance.now()),
		animations: document.getAnimations().map(a => {
			const tg = a.effect && a.effect.target, tm = a.effect && a.effect.getComputedTiming();
			return [a.playState, a.pending, Math.round(a.currentTime || 0), tm && tm.endTime, a.transitionProperty || a.animationName || a.id,
				tg ? tg.localName + (tg.className && typeof tg.className === 'string' ? '.' + tg.className.split(' ').slice(0, 2).join('.') : '') : ''];
		})})`, &state)
	return state
}

// agentRefLine reads one printed line as an agent does: the handle first
// (after a delta's "+ " or "~ "), then its role in parentheses when the
// handle's prefix does not say it, then the quoted name when the handle does
// not spell it. It returns the handle and the rest of the line.
func agentRefLine(line string) (handle, role, rest string, ok bool) {
	line = strings.TrimLeft(line, " ")
	for _, op := range []string{"+ ", "~ ", "* "} {
		line = strings.TrimPrefix(line, op)
	}
	handle, rest, _ = strings.Cut(line, " ")
	base := handle[strings.LastIndexByte(handle, '/')+1:]
	prefix, _, found := strings.Cut(base, "-")
	if !found && ax.PrefixRole(prefix) == "" {
		return "", "", "", false
	}
	role = ax.PrefixRole(prefix)
	if strings.HasPrefix(rest, "(") {
		r, after, _ := strings.Cut(rest[1:], ")")
		role, rest = r, strings.TrimPrefix(after, " ")
	}
	return handle, role, rest, role != ""
}

// agentNames reports whether a printed ref line names name: quoted on the
// line, or spelled by the handle.
func agentNames(handle, rest, name string) bool {
	q := fmt.Sprintf("%q", name)
	if strings.HasPrefix(rest, q) {
		return true
	}
	base := handle[strings.LastIndexByte(handle, '/')+1:]
	_, slug, _ := strings.Cut(base, "-")
	if ax.SlugCovers(name) && (slug == ax.Slug(name) || strings.HasPrefix(slug, ax.Slug(name)+"-") && isDigits(strings.TrimPrefix(slug, ax.Slug(name)+"-"))) {
		return !strings.HasPrefix(rest, `"`) // a quoted name on the line is the name
	}
	return false
}

var handleToken = regexp.MustCompile(`^(f[0-9]+/)?[a-z]+-[a-z0-9-]+$`)

// agentLines splits printed text into lines as an agent reads them: a table
// row's line (`row "Acme | $980" chk-… btn-… "Edit"`, or `row btn-… btn-…` for a
// row of controls) gives one line per ref written on it.
func agentLines(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		body := strings.TrimLeft(line, " ")
		for _, op := range []string{"+ ", "~ "} {
			body = strings.TrimPrefix(body, op)
		}
		if !strings.HasPrefix(body, "row ") {
			out = append(out, line)
			continue
		}
		out = append(out, line) // the row's text
		var seg []string
		flush := func() {
			if len(seg) > 0 {
				out = append(out, strings.Join(seg, " "))
			}
			seg = nil
		}
		rest := strings.TrimPrefix(body, "row ")
		for rest = strings.TrimLeft(rest, " "); rest != ""; rest = strings.TrimLeft(rest, " ") {
			var tok string
			if q, err := strconv.QuotedPrefix(rest); err == nil {
				tok = q
			} else {
				tok, _, _ = strings.Cut(rest, " ")
			}
			rest = rest[len(tok):]
			if handleToken.MatchString(tok) {
				flush()
				seg = []string{}
			}
			if seg != nil { // the row's own text, before its first ref, is no ref's
				seg = append(seg, tok)
			}
		}
		flush()
	}
	return out
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// agentPick finds the ref an agent would act on from the text it has read,
// newest first; it fails the test when no printed line names it. An empty
// name picks the focused ref of the role (the unnamed search field a
// widget opened and focused: the agent types where the cursor is).
func agentPick(t *testing.T, read []string, role, name string) string {
	t.Helper()
	for _, text := range read {
		for _, line := range agentLines(text) {
			h, r, rest, ok := agentRefLine(line)
			if ok && r == role && (agentNames(h, rest, name) || name == "" && containsWord(rest, "focused")) {
				return h
			}
		}
	}
	t.Fatalf("no printed line shows %s %q; the agent read:\n%s", role, name, strings.Join(read, "\n----\n"))
	return ""
}

// agentSees reports whether text shows what w asks for. A delta's "~" line
// names a ref by its handle alone, which the agent knows from what it read
// before.
func agentSees(text string, w seen, before []string) bool {
	if w.role == "text" {
		return strings.Contains(text, w.name)
	}
	known := map[string]bool{}
	for _, b := range before {
		for _, line := range agentLines(b) {
			if h, r, rest, ok := agentRefLine(line); ok && r == w.role && agentNames(h, rest, w.name) {
				known[h] = true
			}
		}
	}
	for _, line := range agentLines(text) {
		// a change line of a handle read before (~ col-price sort=…)
		// need not repeat a role its prefix does not tell
		h, r, rest, ok := agentRefLine(line)
		if !known[h] && (!ok || r != w.role || !agentNames(h, rest, w.name)) {
			continue
		}
		if w.state == "" || containsWord(rest, w.state) {
			return true
		}
	}
	return false
}

func containsWord(s, w string) bool {
	for _, f := range strings.Fields(s) {
		if f == w {
			return true
		}
	}
	return false
}
