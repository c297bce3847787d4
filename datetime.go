package rodagent

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-rod/rod/lib/proto"

	"github.com/rodagent/rodagent/input"
)

// Inputs that take a value but no free text: date and time kinds, range and
// colour. Type reaches each the way a person does where the browser allows:
// date and time segments are clicked and typed into (locale-proof: the
// segments are found by what they hold, not by their order on screen), a
// range is moved with the arrow keys. A colour input's picker is browser UI
// no page input reaches, so Type sets its value as the picker would (value,
// input, change): the one exception besides native <select>.

// segment is one field of a date/time input's own (user-agent) shadow tree.
type segment struct {
	name string // year, month, day, week, hour, minute, second, millisecond, ampm
	node proto.DOMBackendNodeID
}

// valueInput describes the kind of a non-text input and, for date and time
// kinds, its segments in order.
func (p *Page) valueInput(ctx context.Context, t *target) (string, []segment, error) {
	depth := -1
	d, err := proto.DOMDescribeNode{BackendNodeID: t.elem.Node, Depth: &depth, Pierce: true}.Call(t.sess.Bind(ctx))
	if err != nil {
		return "", nil, err
	}
	if !strings.EqualFold(d.Node.NodeName, "input") {
		return "", nil, nil
	}
	kind := attr(d.Node.Attributes, "type")
	var segs []segment
	var walk func(n *proto.DOMNode)
	walk = func(n *proto.DOMNode) {
		ps := attr(n.Attributes, "pseudo")
		if name, ok := strings.CutPrefix(ps, "-webkit-datetime-edit-"); ok && strings.HasSuffix(name, "-field") {
			segs = append(segs, segment{name: strings.TrimSuffix(name, "-field"), node: n.BackendNodeID})
		}
		for _, c := range n.ShadowRoots {
			walk(c)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(d.Node)
	return kind, segs, nil
}

// typeValue handles Type on an input that takes no free text; handled
// reports whether the input was one.
func (p *Page) typeValue(ctx context.Context, t *target, value string) (handled bool, err error) {
	kind, segs, err := p.valueInput(ctx, t)
	if err != nil {
		return false, err
	}
	switch kind {
	case "date", "time", "datetime-local", "month", "week":
		return true, p.fillDate(ctx, t, kind, value, segs)
	case "range":
		return true, p.setRange(ctx, t, "type", value)
	case "color":
		return true, p.setColor(ctx, t, value)
	}
	return false, nil
}

// fillDate types an ISO value into a date or time input's segments: each is
// clicked, then typed into with the keys for its part of the value, and the
// input's value is checked at the end.
func (p *Page) fillDate(ctx context.Context, t *target, kind, value string, segs []segment) error {
	fields, err := input.ParseDateValue(kind, value)
	if err != nil {
		return failure("type", t.handle, InvalidValue, err.Error(), nil)
	}
	if len(segs) == 0 {
		// The browser shows this kind as a text field: type the value.
		if err := (proto.DOMFocus{BackendNodeID: t.elem.Node}).Call(t.sess.Bind(ctx)); err != nil {
			return err
		}
		if err := input.SelectAll(ctx, p.main); err != nil {
			return err
		}
		if err := input.TypeText(ctx, p.main, value); err != nil {
			return err
		}
		return p.checkValue(ctx, t, kind, value)
	}
	var ox, oy float64
	if t.sess.ID != p.main.ID {
		if ox, oy, err = p.frameOrigin(ctx, t.frame); err != nil {
			return err
		}
	}
	twelve := false
	for _, s := range segs {
		twelve = twelve || s.name == "ampm"
	}
	for _, s := range segs {
		keys := fields.Field(s.name, twelve)
		if keys == "" {
			switch s.name {
			case "second":
				keys = "00"
			case "millisecond":
				keys = "000"
			default:
				continue
			}
		}
		q, err := proto.DOMGetContentQuads{BackendNodeID: s.node}.Call(t.sess.Bind(ctx))
		if err != nil {
			return err
		}
		pt, st := clickPoint(q.Quads, nil)
		if st != "" {
			return failure("type", t.handle, st, "its "+s.name+" segment has no box", nil)
		}
		if err := input.Click(ctx, p.main, input.Point{X: pt.X + ox, Y: pt.Y + oy}, 1, 0); err != nil {
			return err
		}
		if err := input.TypeText(ctx, p.main, keys); err != nil {
			return err
		}
	}
	return p.checkValue(ctx, t, kind, value)
}

// checkValue compares the input's value with what was typed, up to the
// zero seconds and milliseconds a time may carry or drop.
func (p *Page) checkValue(ctx context.Context, t *target, kind, want string) error {
	v, err := p.callOn(ctx, "type", t, `function () { return this.value; }`)
	if err != nil {
		return err
	}
	got := v.Str()
	norm := func(s string) string {
		s = strings.Replace(s, " ", "T", 1)
		s = strings.TrimSuffix(s, ".000")
		if kind == "time" || kind == "datetime-local" {
			if strings.Count(s, ":") == 2 {
				s = strings.TrimSuffix(s, ":00")
			}
		}
		return s
	}
	if norm(got) != norm(want) {
		return failure("type", t.handle, InvalidValue,
			fmt.Sprintf("typed %s but the field holds %s (its min, max or step may refuse it)", quote(want, 40), quote(got, 40)), nil)
	}
	return nil
}

const rangeJS = `function () { return {min: this.min, max: this.max, step: this.step, value: this.value}; }`

// setRange moves a range input to value with the arrow keys, from where it
// is or from Home or End, whichever takes fewer presses.
func (p *Page) setRange(ctx context.Context, t *target, verb, value string) error {
	v, err := p.callOn(ctx, verb, t, rangeJS)
	if err != nil {
		return err
	}
	num := func(s string, def float64) float64 {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return def
		}
		return f
	}
	lo, hi := num(v.Get("min").Str(), 0), num(v.Get("max").Str(), 100)
	step := num(v.Get("step").Str(), 1)
	if step <= 0 {
		step = 1
	}
	cur := num(v.Get("value").Str(), lo)
	want, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	if err != nil || want < lo || want > hi {
		return failure(verb, t.handle, InvalidValue, fmt.Sprintf("%s is not a number from %g to %g", quote(value, 40), lo, hi), nil)
	}
	k := int(math.Round((want - lo) / step))
	k0 := int(math.Round((cur - lo) / step))
	kmax := int(math.Floor((hi - lo) / step))
	start, from := "", k0
	if k < abs(k-k0) {
		start, from = "Home", 0
	}
	if kmax-k < abs(k-from) {
		start, from = "End", kmax
	}
	if err := (proto.DOMFocus{BackendNodeID: t.elem.Node}).Call(t.sess.Bind(ctx)); err != nil {
		return err
	}
	if start != "" {
		key, _, _ := input.ParseKey(start)
		if err := input.Press(ctx, p.main, key, 0); err != nil {
			return err
		}
	}
	// Up and Down move a range the same way whatever its direction.
	key, _, _ := input.ParseKey("ArrowUp")
	if k < from {
		key, _, _ = input.ParseKey("ArrowDown")
	}
	for i := 0; i < abs(k-from); i++ {
		if err := input.Press(ctx, p.main, key, 0); err != nil {
			return err
		}
	}
	got, err := p.callOn(ctx, verb, t, rangeJS)
	if err != nil {
		return err
	}
	if g := num(got.Get("value").Str(), math.NaN()); math.Abs(g-(lo+float64(k)*step)) > step/2 {
		return failure(verb, t.handle, InvalidValue, fmt.Sprintf("moved it, but it holds %s", quote(got.Get("value").Str(), 20)), nil)
	}
	return nil
}

// ariaValueJS reads the value and bounds of a slider or spinbutton drawn
// with ARIA (aria-valuenow), which no input element holds.
const ariaValueJS = `function () {
	const g = a => this.getAttribute(a);
	return {now: g('aria-valuenow'), min: g('aria-valuemin'), max: g('aria-valuemax')};
}`

// ariaPressCap bounds the keys setARIAValue presses for one value.
const ariaPressCap = 400

// setARIAValue moves an ARIA slider or spinbutton to value as a person does
// with the keyboard: it has focus, then arrow keys, with Page Up / Page Down
// for a long way and Home / End for a bound, until aria-valuenow says value
// or the nearest step to it. The widget's step is not written anywhere, so
// it is learnt from what one press does. handled is false when the widget
// shows no aria-valuenow (then it takes no value this way).
func (p *Page) setARIAValue(ctx context.Context, t *target, verb, value string) (bool, error) {
	read := func() (now, lo, hi float64, err error) {
		v, err := p.callOn(ctx, verb, t, ariaValueJS)
		if err != nil {
			return 0, 0, 0, err
		}
		f := func(k string, def float64) float64 {
			x, err := strconv.ParseFloat(strings.TrimSpace(v.Get(k).Str()), 64)
			if err != nil {
				return def
			}
			return x
		}
		return f("now", math.NaN()), f("min", math.Inf(-1)), f("max", math.Inf(1)), nil
	}
	now, lo, hi, err := read()
	if err != nil {
		return true, err
	}
	if math.IsNaN(now) {
		return false, nil
	}
	want, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	if err != nil || want < lo || want > hi {
		return true, failure(verb, t.handle, InvalidValue, fmt.Sprintf("%s is not a number from %g to %g", quote(value, 40), lo, hi), nil)
	}
	if err := (proto.DOMFocus{BackendNodeID: t.elem.Node}).Call(t.sess.Bind(ctx)); err != nil {
		return true, err
	}
	press := func(name string, n int) error {
		key, _, _ := input.ParseKey(name)
		for i := 0; i < n; i++ {
			if err := input.Press(ctx, p.main, key, 0); err != nil {
				return err
			}
		}
		return nil
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	// A bound is one key away, where the widget has it.
	if bound := map[float64]string{lo: "Home", hi: "End"}[want]; bound != "" && !near(now, want) {
		if err := press(bound, 1); err != nil {
			return true, err
		}
		if now, _, _, err = read(); err != nil {
			return true, err
		}
	}
	var step, page float64 // what one arrow and one page key move it, once seen
	noPage := false
	for presses := 0; presses < ariaPressCap && !near(now, want); {
		dist := math.Abs(want - now)
		up := want > now
		key, n := map[bool]string{true: "ArrowUp", false: "ArrowDown"}[up], 1
		switch {
		case step == 0:
		case dist < step/2+1e-9:
			return true, nil // the nearest step to value
		case !noPage && page == 0 && dist >= 10*step:
			key = map[bool]string{true: "PageUp", false: "PageDown"}[up]
		case page > step && dist >= page:
			key, n = map[bool]string{true: "PageUp", false: "PageDown"}[up], int(dist/page)
		default:
			n = max(1, int(math.Round(dist/step)))
		}
		n = min(n, ariaPressCap-presses)
		if err := press(key, n); err != nil {
			return true, err
		}
		presses += n
		before := now
		if now, _, _, err = read(); err != nil {
			return true, err
		}
		moved := math.Abs(now-before) / float64(n)
		switch {
		case strings.HasPrefix(key, "Page"):
			if moved <= step+1e-9 {
				noPage = true // no page key, or one no bigger than an arrow
			} else {
				page = moved
			}
		case moved == 0:
			return true, failure(verb, t.handle, NotChanged, fmt.Sprintf("pressed %s, but it still says %g: it does not move with the arrow keys", key, now)+p.stillLoading(), nil)
		case step == 0:
			step = moved
		}
	}
	if !near(now, want) && (step == 0 || math.Abs(now-want) > step/2+1e-9) {
		return true, failure(verb, t.handle, InvalidValue, fmt.Sprintf("moved it, but it says %g", now), nil)
	}
	return true, nil
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// setColorJS sets a colour input as the browser's picker does.
const setColorJS = `function (v) {
	this.value = v;
	this.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
	this.dispatchEvent(new Event('change', {bubbles: true}));
	return this.value;
}`

// setColor sets a colour input to a #rrggbb value.
func (p *Page) setColor(ctx context.Context, t *target, value string) error {
	v := strings.ToLower(strings.TrimSpace(value))
	ok := len(v) == 7 && v[0] == '#'
	for _, c := range v[min(1, len(v)):] {
		ok = ok && strings.ContainsRune("0123456789abcdef", c)
	}
	if !ok {
		return failure("type", t.handle, InvalidValue, quote(value, 40)+" is not a colour: want #rrggbb", nil)
	}
	_, err := p.callOn(ctx, "type", t, setColorJS, v)
	return err
}
