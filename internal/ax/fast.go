package ax

import (
	"bytes"
	"compress/gzip"
	"context"
	_ "embed" // the in-page inventory script
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"

	"github.com/go-rod/rod/lib/proto"
)

// inventoryJS is the in-page inventory; see its header comment.
//
//go:embed inventory.js
var inventoryJS string

// accnameJS computes roles and names in the page (cRole, cName), so the
// inventory needs no browser flag; see its header comment.
//
//go:embed accname.js
var accnameJS string

// installJS evaluates to the frame's inventory, installing it (accname.js
// in the same scope as inventory.js) on first use.
var installJS = `(globalThis.__rodagent && globalThis.__rodagent.v === 2 ? globalThis.__rodagent : (() => {
` + accnameJS + `
const S = ` + inventoryJS + `;
S.acc = S.acc || ACC;
S.settleFor = ` + settleJS + `;
return S;
})())`

// WorldName names the library's isolated world in every frame: the world
// InstallInventory registers the inventory in, and the one the snapshot
// code asks Page.createIsolatedWorld for (Chromium keeps one world per
// frame and name, so both reach the same world).
const WorldName = "rodagent"

// InstallInventory registers the inventory script in the isolated world
// WorldName of every new document of the target behind c (its same-process
// frames included), and runs it at once in the documents already open. The
// first look at a document then finds the script parsed and installed: it
// sends no 100 KB script, and V8 has parsed it and run its top level
// already (about 40 ms of a cold look on the 6,000-control page, plus a
// round trip's wait); the functions the walk calls are still compiled on
// their first call, as V8 compiles lazily. The script only defines
// functions (no DOM access, no observer, no listener: those come with the
// first walk), and an isolated world is invisible to the page's scripts.
// A document that misses it (a session set up before, a failed
// registration) is served by sending the script with the walk, as before.
func InstallInventory(c proto.Client) error {
	_, err := proto.PageAddScriptToEvaluateOnNewDocument{Source: installJS + ";", WorldName: WorldName, RunImmediately: true}.Call(c)
	return err
}

// The expressions the fast path evaluates in a frame's isolated world. The
// script installs itself on first use and is reused after.
// (With settle, the page first renders what the last action set off.)
var (
	walkExpr = fmt.Sprintf(`(async (settle, computed, ev, warm) => {
	const S = %s;
	S.ev = ev;
	S.acc.computed = computed;
	S.acc.reset();
	const moving = settle ? await S.settle() : true;
	return S.pack(S.walk({limit: %d, pointer: true, warm}), moving);
})`, installJS, AllIDsUpTo)
	// walkAgainExpr walks a world that already holds the inventory: the
	// script (about 100 KB) is not sent again with every full look.
	walkAgainExpr = fmt.Sprintf(`(async (settle, computed, ev, warm) => {
	const S = globalThis.__rodagent;
	if (!S || !S.acc || S.v !== 2) throw new Error('__rodagent missing');
	S.ev = ev;
	S.acc.computed = computed;
	S.acc.reset();
	const moving = settle ? await S.settle() : true;
	return S.pack(S.walk({limit: %d, pointer: true, warm}), moving);
})`, AllIDsUpTo)
	// findExpr and findAgainExpr run S.find (FindFrame).
	findExpr = fmt.Sprintf(`(async (settle, computed, ev, parts) => {
	const S = %s;
	S.ev = ev;
	S.acc.computed = computed;
	S.acc.reset();
	const moving = settle ? await S.settle() : true;
	return S.pack(S.find(parts), moving);
})`, installJS)
	findAgainExpr = `(async (settle, computed, ev, parts) => {
	const S = globalThis.__rodagent;
	if (!S || !S.acc || S.v !== 2) throw new Error('__rodagent missing');
	S.ev = ev;
	S.acc.computed = computed;
	S.acc.reset();
	const moving = settle ? await S.settle() : true;
	return S.pack(S.find(parts), moving);
})`
	deltaExpr = fmt.Sprintf(`(async (settle) => {
	const S = globalThis.__rodagent;
	if (!S) throw new Error('__rodagent missing');
	S.acc.reset();
	const moving = settle ? await S.settle() : true;
	return S.pack(S.delta({limit: %d, pointer: true, acted: settle}), moving);
})`, AllIDsUpTo)
)

// textExpr reads only the page text of a frame (one read from the AX
// tree); textAgainExpr does so in a world that already holds the inventory.
var (
	textExpr = fmt.Sprintf(`((ev) => {
	const S = %s;
	S.ev = ev;
	S.acc.reset();
	return S.pack(S.walk({textOnly: true, pointer: true}));
})`, installJS)
	textAgainExpr = `((ev) => {
	const S = globalThis.__rodagent;
	if (!S || !S.acc || S.v !== 2) throw new Error('__rodagent missing');
	S.ev = ev;
	S.acc.reset();
	return S.pack(S.walk({textOnly: true, pointer: true}));
})`
)

// TextFrame reads the page text of the frame behind world ctxID with the
// in-page rules, keyed by the backend node id of the element holding each
// piece: the AX path places them where those elements stand (ItemsWithText).
//
// The same read returns the clickables the in-page rules see that no role
// marks (a pointer cursor, an inline handler, a focusable span), as KindRef
// items with the name a person would give them: the AX path makes refs of
// them too.
func TextFrame(ctx context.Context, c proto.Client, ctxID proto.RuntimeExecutionContextID) (map[proto.DOMBackendNodeID]Item, error) {
	payload, text, ids, err := evalDeep(ctx, c, ctxID, fmt.Sprintf("%s(%q)", textAgainExpr, ListenerEvent))
	if errors.Is(err, ErrNoInventory) {
		payload, text, ids, err = evalDeep(ctx, c, ctxID, fmt.Sprintf("%s(%q)", textExpr, ListenerEvent))
	}
	if err != nil {
		return nil, err
	}
	var meta struct {
		Strs []string `json:"strs"`
	}
	if err := json.Unmarshal(payload, &meta); err != nil {
		return nil, fmt.Errorf("ax: reading the page text: %w", err)
	}
	out := make(map[proto.DOMBackendNodeID]Item, len(ids))
	for i, r := range rowsOf(text) {
		if i >= len(ids) || ids[i] == 0 {
			continue
		}
		it, ok := rowItem(r, nil, 0, meta.Strs)
		if !ok {
			continue
		}
		it.Local, it.upLocal, it.Node = 0, 0, ids[i]
		// a ref that holds text of its own (a focusable tab panel's
		// paragraph): one entry, the ref, carrying its text
		if prev, ok := out[ids[i]]; ok && prev.Kind != it.Kind {
			if it.Kind == KindText && prev.Kind == KindRef {
				held := it
				prev.pageText = &held
				it = prev
			} else if it.Kind == KindRef && prev.Kind == KindText {
				it.pageText = &prev
			}
		}
		out[ids[i]] = it
	}
	return out, nil
}

func withSettle(expr string, settle bool) string { return fmt.Sprintf("%s(%t)", expr, settle) }

// AllIDsUpTo is the inventory size up to which a walk fetches every
// element's backend node id; larger pages get ids for what is in view, and
// the rest when an action needs one.
const AllIDsUpTo = 1500

// ErrNoInventory means the frame's world has lost the inventory (it was
// created for another document): walk again.
var ErrNoInventory = errors.New("ax: no in-page inventory in this world")

// ErrContextGone means the isolated world is gone (its document navigated).
var ErrContextGone = errors.New("ax: execution context gone")

// Walk is what the in-page inventory read of one frame.
type Walk struct {
	Items       []Item
	base        int    // added to inventory keys so keys of different worlds never meet
	Closed      bool   // the frame has a closed shadow root, which only the AX tree can see into
	Unsupported string // the browser lacks computedRole: use the AX tree
	Cold        bool   // the AX context was not alive: prime it and walk again
	Declined    bool   // (FindFrame) the find cannot answer for this document: walk it
	Full        bool   // (delta) the change was too wide: walk again
	Sent        bool   // the world lacked the inventory: the walk sent the script along
	Moving      string // what was still going when the settle reached its bound (settle.js), or ""
	at          map[int]int
}

// Changes is what a delta read of the inventory returned.
type changes struct {
	Walked bool        `json:"walked"`
	Strs   []string    `json:"strs"`
	Pk     []int       `json:"pk"`
	Gone   []int       `json:"gone"`
	Boxes  [][]float64 `json:"boxes"`
	Full   bool        `json:"full"`
	Moving string      `json:"moving"`
}

type walkPayload struct {
	Strs        []string `json:"strs"`
	Pk          []int    `json:"pk"`
	Closed      bool     `json:"closed"`
	Unsupported string   `json:"unsupported"`
	Cold        bool     `json:"cold"`
	Declined    bool     `json:"declined"`
	Ms          float64  `json:"ms"`
	Moving      string   `json:"moving"`
}

// WalkFrame runs the inventory walk in the world ctxID of session c; with
// settle, the page first renders one frame (the look follows an action).
// With computed, roles and names are Chromium's Element.computedRole and
// computedName (the browser must expose them) instead of the page-side
// computation of accname.js. With installed, the world is expected to hold
// the inventory already (InstallInventory put it there, or an earlier walk
// did), so the script itself is sent only if it turns out missing. With
// primed, the caller has just made the document's AX context live (after a
// walk came back Cold), and the walk reads Chromium's values however slow
// the first read is: the probe that says Cold is a time, and on a loaded
// machine a live context can be as slow as a dead one.
func WalkFrame(ctx context.Context, c proto.Client, ctxID proto.RuntimeExecutionContextID, settle, computed, installed, primed bool) (*Walk, error) {
	if installed {
		w, err := walkFrame(ctx, c, ctxID, walkAgainExpr, settle, computed, primed)
		if !errors.Is(err, ErrNoInventory) {
			return w, err
		}
	}
	w, err := walkFrame(ctx, c, ctxID, walkExpr, settle, computed, primed)
	if w != nil {
		w.Sent = true
	}
	return w, err
}

func walkFrame(ctx context.Context, c proto.Client, ctxID proto.RuntimeExecutionContextID, expr string, settle, computed, primed bool) (*Walk, error) {
	base := int(ctxID) * keySpan
	payload, text, ids, err := evalDeep(ctx, c, ctxID, fmt.Sprintf("%s(%t, %t, %q, %t)", expr, settle, computed, ListenerEvent, primed))
	if err != nil {
		return nil, err
	}
	var w walkPayload
	if err := json.Unmarshal(payload, &w); err != nil {
		return nil, fmt.Errorf("ax: reading the inventory: %w", err)
	}
	out := &Walk{Closed: w.Closed, Unsupported: w.Unsupported, Cold: w.Cold, Moving: w.Moving, base: base}
	if w.Unsupported != "" || w.Cold {
		return out, nil
	}
	out.fill(w, text, ids)
	return out, nil
}

// fill takes a walk's rows as w's items, with the backend node ids of the
// elements the payload picked.
func (out *Walk) fill(w walkPayload, text string, ids []proto.DOMBackendNodeID) {
	base := out.base
	node := make(map[int]proto.DOMBackendNodeID, len(w.Pk))
	for i, k := range w.Pk {
		if i < len(ids) {
			node[k] = ids[i]
		}
	}
	out.Items = make([]Item, 0, strings.Count(text, "\n")+1)
	for _, r := range rowsOf(text) {
		if it, ok := rowItem(r, node, base, w.Strs); ok {
			out.Items = append(out.Items, it)
		}
	}
	out.index()
}

// FindPart is one thing FindFrame looks for: a ref of Role whose name may
// match Value (every ref of the role when Value is nil), an element with
// the test id TestID, or a ref of any role whose name may hold Label. The
// match is loose: the caller matches exactly. Landmark, on a part of a
// role, keeps to the elements inside a landmark it may name (as
// Locator.WithinLandmark takes it), also loosely, and to those outside that
// may share a role and name with one inside (their Nth counts them); parts
// by label or test id, narrow already, read the whole frame. A part
// with Context asks for no refs: it has the refs found carry their
// Context, as a walk's do.
type FindPart struct {
	Role     string  `json:"role,omitempty"`
	Value    *string `json:"value,omitempty"`
	TestID   *string `json:"testid,omitempty"`
	Label    *string `json:"label,omitempty"`
	Landmark string  `json:"landmark,omitempty"`
	Context  bool    `json:"context,omitempty"`
}

// FindFrame reads, in the world ctxID, the refs that parts may name: the
// walk's own rows (no text rows) for the elements that might be such refs
// and everything on the way to them, without walking the whole document
// (see S.find in inventory.js). The read is the walk's in all it says of
// those refs, but it is no walk to take deltas from: the world's inventory
// is left as the last walk left it. A Walk with Declined set says to walk
// instead. Settle, computed and installed are as for WalkFrame.
func FindFrame(ctx context.Context, c proto.Client, ctxID proto.RuntimeExecutionContextID, settle, computed, installed bool, parts []FindPart) (*Walk, error) {
	js, err := json.Marshal(parts)
	if err != nil {
		return nil, err
	}
	if installed {
		w, err := findFrame(ctx, c, ctxID, findAgainExpr, settle, computed, js)
		if !errors.Is(err, ErrNoInventory) {
			return w, err
		}
	}
	w, err := findFrame(ctx, c, ctxID, findExpr, settle, computed, js)
	if w != nil {
		w.Sent = true
	}
	return w, err
}

func findFrame(ctx context.Context, c proto.Client, ctxID proto.RuntimeExecutionContextID, expr string, settle, computed bool, parts []byte) (*Walk, error) {
	payload, text, ids, err := evalDeep(ctx, c, ctxID, fmt.Sprintf("%s(%t, %t, %q, %s)", expr, settle, computed, ListenerEvent, parts))
	if err != nil {
		return nil, err
	}
	var w walkPayload
	if err := json.Unmarshal(payload, &w); err != nil {
		return nil, fmt.Errorf("ax: reading the inventory: %w", err)
	}
	out := &Walk{Declined: w.Declined, Moving: w.Moving, base: int(ctxID) * keySpan}
	if !w.Declined {
		out.fill(w, text, ids)
	}
	return out, nil
}

// keySpan separates the inventory keys of different worlds (execution
// contexts): an element's Local is its world's id × keySpan + its key + 1.
const keySpan = 1 << 24

// index maps keys to positions, and points each item at its enclosing ref
// by position (Up), which removals shift.
func (w *Walk) index() {
	w.at = make(map[int]int, len(w.Items))
	for i, it := range w.Items {
		if it.Local != 0 {
			w.at[it.Local] = i
		}
	}
	for i := range w.Items {
		it := &w.Items[i]
		it.Up = 0
		if it.upLocal != 0 {
			if k, ok := w.at[it.upLocal]; ok {
				it.Up = k + 1
			}
		}
	}
}

// Delta reads what changed in the frame since the last walk or delta and
// applies it to w. It reports false when a walk is needed instead.
func (w *Walk) Delta(ctx context.Context, c proto.Client, ctxID proto.RuntimeExecutionContextID, settle bool) (bool, error) {
	payload, text, ids, err := evalDeep(ctx, c, ctxID, withSettle(deltaExpr, settle))
	if err != nil {
		return false, err
	}
	var d changes
	if err := json.Unmarshal(payload, &d); err != nil {
		return false, fmt.Errorf("ax: reading the inventory's changes: %w", err)
	}
	w.Moving = d.Moving
	if d.Full {
		return false, nil
	}
	node := map[int]proto.DOMBackendNodeID{}
	for i, k := range d.Pk {
		if i < len(ids) {
			node[k] = ids[i]
		}
	}
	if d.Walked {
		w.replace(text, node, d.Strs)
		return true, nil
	}
	for _, r := range rowsOf(text) {
		fresh, ok := rowItem(r, node, w.base, d.Strs)
		if !ok {
			continue
		}
		i, known := w.at[fresh.Local]
		if !known {
			return false, nil // an element the walk never saw became a ref: walk again
		}
		it := &w.Items[i]
		if it.Kind != KindRef {
			return false, nil
		}
		it.Role, it.Name, it.RawName, it.State, it.Stable, it.Box, it.HasBox = fresh.Role, fresh.Name, fresh.RawName, fresh.State, fresh.Stable, fresh.Box, fresh.HasBox
		it.Clip, it.HasClip = fresh.Clip, fresh.HasClip
		if fresh.Node != 0 {
			it.Node = fresh.Node
		}
	}
	if len(d.Gone) > 0 {
		gone := map[int]bool{}
		for _, k := range d.Gone {
			gone[w.base+k+1] = true
		}
		kept := w.Items[:0]
		for _, it := range w.Items {
			if !gone[it.Local] {
				kept = append(kept, it)
			}
		}
		w.Items = kept
		w.index()
	}
	for _, b := range d.Boxes {
		if len(b) < 5 {
			continue
		}
		if i, ok := w.at[w.base+int(b[0])+1]; ok {
			w.Items[i].Box = Box{X: b[1], Y: b[2], W: b[3], H: b[4]}
			if len(b) >= 10 {
				w.Items[i].Clip, w.Items[i].HasClip = Box{X: b[6], Y: b[7], W: b[8], H: b[9]}, b[8] >= 0
			}
		}
	}
	return true, nil
}

// replace takes a fresh walk's rows as w's items (a delta that had to walk
// again), keeping the backend node ids w already knew for the same elements.
func (w *Walk) replace(text string, node map[int]proto.DOMBackendNodeID, strs []string) {
	known := make(map[int]proto.DOMBackendNodeID, len(w.Items))
	for _, it := range w.Items {
		if it.Local != 0 && it.Node != 0 {
			known[it.Local] = it.Node
		}
	}
	items := make([]Item, 0, strings.Count(text, "\n")+1)
	for _, r := range rowsOf(text) {
		if it, ok := rowItem(r, node, w.base, strs); ok {
			if it.Node == 0 && it.Local != 0 {
				it.Node = known[it.Local]
			}
			items = append(items, it)
		}
	}
	w.Items = items
	w.index()
}

// NodeOf asks the inventory for the backend node id of the element with key
// local (an Item's Local); 0 when the element is no longer there or the key
// belongs to another world.
func NodeOf(ctx context.Context, c proto.Client, ctxID proto.RuntimeExecutionContextID, local int) (proto.DOMBackendNodeID, error) {
	k := local - int(ctxID)*keySpan - 1
	if k < 0 || k >= keySpan {
		return 0, nil
	}
	_, _, ids, err := evalDeep(ctx, c, ctxID, fmt.Sprintf("globalThis.__rodagent ? globalThis.__rodagent.node(%d) : ['{}', '', []]", k))
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	return ids[0], nil
}

// rowsOf yields the inventory's row text as rows of fields. The slice it
// yields is reused for the next row (a large page has thousands: one slice
// each was most of what reading them allocated); the fields are substrings
// of text.
func rowsOf(text string) iter.Seq2[int, []string] {
	return func(yield func(int, []string) bool) {
		if text == "" {
			return
		}
		var r []string
		for i := 0; ; i++ {
			line, rest, more := strings.Cut(text, "\n")
			r = r[:0]
			for {
				f, tail, tab := strings.Cut(line, "\t")
				r = append(r, f)
				if !tab {
					break
				}
				line = tail
			}
			if !yield(i, r) || !more {
				return
			}
			text = rest
		}
	}
}

// parseChoices reads choicesOf's JSON: the number of options, then the
// first labels.
func parseChoices(s string) ([]string, int) {
	var raw []json.RawMessage
	if json.Unmarshal([]byte(s), &raw) != nil || len(raw) == 0 {
		return nil, 0
	}
	var n int
	if json.Unmarshal(raw[0], &n) != nil {
		return nil, 0
	}
	labels := make([]string, 0, len(raw)-1)
	for _, r := range raw[1:] {
		var l string
		if json.Unmarshal(r, &l) == nil {
			labels = append(labels, l)
		}
	}
	return labels, n
}

// field unescapes one string field (the script escapes \\, \n and \t).
func field(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func atof(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// rowItem turns one inventory row into an Item (see inventory.js for the layout).
func rowItem(r []string, node map[int]proto.DOMBackendNodeID, base int, strs []string) (Item, bool) {
	interned := func(v string) string {
		if i := atoi(v); i > 0 && i <= len(strs) {
			return strs[i-1]
		}
		return ""
	}
	if len(r) < 2 {
		return Item{}, false
	}
	depth := atoi(r[1])
	switch r[0] {
	case "0":
		if len(r) < 15 {
			return Item{}, false
		}
		k := atoi(r[2])
		it := Item{Kind: KindRef, Depth: depth, Role: interned(r[3]), Name: field(r[4]), State: stateBits(atoi(r[5])),
			Box: Box{X: atof(r[7]), Y: atof(r[8]), W: atof(r[9]), H: atof(r[10])}, HasBox: true,
			Stable: field(r[12]), Landmark: interned(r[13]), Context: interned(r[14]), Local: base + k + 1, Node: node[k]}
		it.State.Value = field(r[6])
		if clean := CleanName(it.Name, atoi(r[5])&65536 != 0); clean != it.Name {
			it.RawName, it.Name = it.Name, clean
		}
		if len(r) >= 18 {
			it.Group, it.Row = interned(r[15]), atoi(r[16])
			if up := atoi(r[17]); up >= 0 {
				it.upLocal = base + up + 1
			}
		}
		if len(r) >= 24 {
			st := &it.State
			st.Current, st.Sort, st.Level = field(r[18]), field(r[19]), field(r[20])
			st.ValueMin, st.ValueMax, st.ValueText = field(r[21]), field(r[22]), field(r[23])
		}
		if len(r) >= 28 && r[24] != "" {
			it.Clip, it.HasClip = Box{X: atof(r[24]), Y: atof(r[25]), W: atof(r[26]), H: atof(r[27])}, true
		}
		if len(r) >= 29 && r[28] != "" {
			it.RawName, it.nested = field(r[28]), true // the name shown leaves nested items out
		}
		if len(r) >= 30 {
			it.lent = r[29] == "1"     // named though the browser leaves it unnamed
			it.covered = r[29] == "2"  // (text read) no control: the one inside it is
			it.stoodIn = r[29] == "3"  // (text read) a clipped control a visible widget stands in for
			it.onlyShow = r[29] == "4" // (text read) sent for its shown text alone
		}
		if len(r) >= 31 {
			it.State.Shows = field(r[30])
		}
		if len(r) >= 32 {
			it.State.Error = field(r[31])
		}
		if len(r) >= 33 {
			it.State.Choices, it.State.ChoiceCount = parseChoices(field(r[32]))
		}
		return it, true
	case "4":
		if len(r) < 8 {
			return Item{}, false
		}
		k := atoi(r[2])
		it := Item{Kind: KindText, Depth: depth, Role: field(r[3]), Name: field(r[4]), Local: base + k + 1,
			Group: interned(r[5]), Row: atoi(r[6])}
		if len(r) >= 9 {
			it.Landmark = interned(r[8])
		}
		if up := atoi(r[7]); up >= 0 {
			it.upLocal = base + up + 1
		}
		return it, true
	case "1":
		if len(r) < 5 {
			return Item{}, false
		}
		return Item{Kind: KindLandmark, Depth: depth, Role: field(r[2]), Name: field(r[3]), State: State{Modal: r[4] == "1"}}, true
	case "2":
		if len(r) < 4 {
			return Item{}, false
		}
		it := Item{Kind: KindHeading, Depth: depth, Role: "heading", Level: atoi(r[2]), Name: field(r[3])}
		if len(r) >= 5 && r[4] != "" {
			it.Local = base + atoi(r[4]) + 1
		}
		if len(r) >= 6 {
			it.Landmark = interned(r[5])
		}
		return it, true
	case "3":
		if len(r) < 4 {
			return Item{}, false
		}
		k := atoi(r[2])
		return Item{Kind: KindFrame, Depth: depth, Role: "Iframe", Name: field(r[3]), Local: base + k + 1, Node: node[k]}, true
	}
	return Item{}, false
}

func stateBits(b int) State {
	var s State
	switch {
	case b&1 != 0:
		s.Checked = "true"
	case b&2 != 0:
		s.Checked = "mixed"
	case b&64 != 0:
		s.Checked = "false"
	}
	switch {
	case b&2048 != 0:
		s.Pressed = "true"
	case b&4096 != 0:
		s.Pressed = "false"
	}
	switch {
	case b&8 != 0:
		s.Expanded = "true"
	case b&128 != 0:
		s.Expanded = "false"
	}
	s.Disabled = b&4 != 0
	s.Selected = b&16 != 0
	s.Focused = b&32 != 0
	s.Readonly = b&256 != 0
	s.Required = b&512 != 0
	s.Editable = b&1024 != 0
	s.Invalid = b&8192 != 0
	s.Busy = b&16384 != 0
	s.Multi = b&32768 != 0
	return s
}

// evalDeep evaluates expr (which returns [jsonMeta, rowText, elements]) in a
// world and returns the three, the elements as backend node ids, in one round
// trip: CDP's deep serialization carries each node's backendNodeId.
func evalDeep(ctx context.Context, c proto.Client, ctxID proto.RuntimeExecutionContextID, expr string) ([]byte, string, []proto.DOMBackendNodeID, error) {
	sid := ""
	if s, ok := c.(proto.Sessionable); ok {
		sid = string(s.GetSessionID())
	}
	params := map[string]any{
		"expression":   expr,
		"contextId":    ctxID,
		"awaitPromise": true,
		"serializationOptions": map[string]any{
			"serialization":        "deep",
			"maxDepth":             2,
			"additionalParameters": map[string]any{"maxNodeDepth": 0, "includeShadowTree": "none"},
		},
	}
	raw, err := c.Call(ctx, sid, "Runtime.evaluate", params)
	if err != nil {
		if strings.Contains(err.Error(), "Cannot find context") || strings.Contains(err.Error(), "context with specified id") {
			return nil, "", nil, ErrContextGone
		}
		return nil, "", nil, err
	}
	var r struct {
		Result struct {
			Deep struct {
				Value []struct {
					Type  string          `json:"type"`
					Value json.RawMessage `json:"value"`
				} `json:"value"`
			} `json:"deepSerializedValue"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception *struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, "", nil, err
	}
	if e := r.ExceptionDetails; e != nil {
		msg := e.Text
		if e.Exception != nil {
			msg += " " + e.Exception.Description
		}
		if strings.Contains(msg, "__rodagent") {
			return nil, "", nil, ErrNoInventory
		}
		return nil, "", nil, fmt.Errorf("ax: inventory script failed: %s", msg)
	}
	top := r.Result.Deep.Value
	if len(top) != 3 {
		return nil, "", nil, fmt.Errorf("ax: unexpected inventory result")
	}
	var meta, text string
	if err := json.Unmarshal(top[0].Value, &meta); err != nil {
		return nil, "", nil, err
	}
	if err := json.Unmarshal(top[1].Value, &text); err != nil {
		return nil, "", nil, err
	}
	if strings.HasPrefix(text, packedPrefix) {
		if text, err = unpack(text[len(packedPrefix):]); err != nil {
			return nil, "", nil, err
		}
	}
	var nodes []struct {
		Value struct {
			BackendNodeID proto.DOMBackendNodeID `json:"backendNodeId"`
		} `json:"value"`
		Ref int `json:"weakLocalObjectReference"`
	}
	if len(top[2].Value) > 0 {
		if err := json.Unmarshal(top[2].Value, &nodes); err != nil {
			return nil, "", nil, err
		}
	}
	// An element listed twice (a tab panel that is a ref and holds text)
	// is serialised once: its later places carry only the reference.
	ids := make([]proto.DOMBackendNodeID, len(nodes))
	byRef := map[int]proto.DOMBackendNodeID{}
	for i, n := range nodes {
		ids[i] = n.Value.BackendNodeID
		if n.Ref == 0 {
			continue
		}
		if ids[i] != 0 {
			byRef[n.Ref] = ids[i]
		} else {
			ids[i] = byRef[n.Ref]
		}
	}
	return []byte(meta), text, ids, nil
}

// packedPrefix marks row text the inventory sent gzipped and base64-encoded
// (S.pack in inventory.js): large reads travel faster that way.
const packedPrefix = "~gz:"

// maxUnpacked bounds what a packed read may expand to. The text comes from
// the library's own isolated world, not from the page, but a bound keeps a
// broken read from taking the process's memory.
const maxUnpacked = 256 << 20

func unpack(s string) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return "", fmt.Errorf("ax: unpacking the inventory: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return "", fmt.Errorf("ax: unpacking the inventory: %w", err)
	}
	var b strings.Builder
	b.Grow(len(raw) * 5)
	n, err := io.Copy(&b, io.LimitReader(zr, maxUnpacked+1))
	if err != nil {
		return "", fmt.Errorf("ax: unpacking the inventory: %w", err)
	}
	if n > maxUnpacked {
		return "", fmt.Errorf("ax: unpacking the inventory: over %d bytes", maxUnpacked)
	}
	return b.String(), nil
}
