package rodagent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// A submit the browser refuses (constraint validation: required, type,
// min, a page's setCustomValidity) changes no DOM: a person reads the
// browser's bubble and sees the fields marked. The look after it names each
// field that failed and the browser's message for it, and a field put right
// is no longer invalid once the person leaves it. Both read paths say so:
// the AX tree carries no message, so its path takes the in-page read's.
func TestRefusedSubmitShowsWhyFieldsFailed(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"inventory", "ax_tree"} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			p := open(t, "validation.html")
			if path == "ax_tree" {
				rodagent.UseAXTree(p)
			}
			refusedSubmit(t, p)
		})
	}
}

func refusedSubmit(t *testing.T, p *rodagent.Page) {
	ctx := testCtx(t, 60*time.Second)
	s := snapshot(t, p)
	for _, r := range s.Refs {
		if r.State.Invalid || r.State.Error != "" {
			t.Errorf("before any input %s is shown invalid: %+v", r.Ref, r.State)
		}
	}
	email, age, nick := refNamed(t, s, "textbox", "Email"), refNamed(t, s, "spinbutton", "Age"), refNamed(t, s, "textbox", "Nickname")
	terms, plan := refNamed(t, s, "checkbox", "I accept the terms"), refNamed(t, s, "combobox", "Plan")
	submit := refNamed(t, s, "button", "Create account")
	// message is the browser's own text for a field now, in its locale,
	// its white space folded as the look folds it.
	message := func(name string) string {
		t.Helper()
		v, err := p.Eval(ctx, `n => document.querySelector('[name="' + n + '"]').validationMessage`, name)
		if err != nil || v.Str() == "" {
			t.Fatalf("validationMessage of %s: %q, %v", name, v.Str(), err)
		}
		return strings.Join(strings.Fields(v.Str()), " ")
	}
	click := func(ref string) {
		t.Helper()
		if st, err := p.Click(ctx, ref); err != nil || !st.OK() {
			t.Fatalf("Click(%s) = %s, %v", ref, st, err)
		}
	}
	typeIn := func(ref, text string) {
		t.Helper()
		if st, err := p.Type(ctx, ref, text); err != nil || !st.OK() {
			t.Fatalf("Type(%s) = %s, %v", ref, st, err)
		}
	}

	click(submit)
	look := snapshot(t, p)
	if look.Navigated != "" {
		t.Fatalf("the refused submit navigated to %s", look.Navigated)
	}
	text := look.String()
	for _, c := range []struct{ ref, name string }{{email, "email"}, {terms, "terms"}, {plan, "plan"}} {
		if want := "~ " + c.ref + " invalid error=" + rodagent.Quote(message(c.name), 160); !strings.Contains(text, want) {
			t.Errorf("the look after the refused submit lacks %q:\n%s", want, text)
		}
	}
	for _, ref := range []string{age, nick} {
		if strings.Contains(text, "~ "+ref) {
			t.Errorf("a field with nothing wrong changed in the look:\n%s", text)
		}
	}

	// A wrong value is marked once the person leaves the field, not while typing.
	typeIn(email, "ada")
	typeIn(age, "12")
	typeIn(nick, "admin")
	click(submit)
	text = snapshot(t, p).String()
	for _, c := range []struct{ ref, name string }{{email, "email"}, {age, "age"}, {nick, "nick"}} {
		if want := rodagent.Quote(message(c.name), 160); !strings.Contains(text, c.ref) || !strings.Contains(text, want) {
			t.Errorf("the look lacks %s's message %s:\n%s", c.ref, want, text)
		}
	}
	if strings.Contains(text, "\nbtn-delete-account") {
		t.Errorf("a page-made message starts a line of its own:\n%s", text)
	}

	typeIn(email, "ada@example.com")
	click(terms)
	full := snapshot(t, p, rodagent.WithFull())
	for _, r := range full.Refs {
		if r.Ref == email && (r.State.Invalid || r.State.Error != "") {
			t.Errorf("the email put right is still invalid: %+v\n%s", r.State, full)
		}
		if r.Ref == plan && (!r.State.Invalid || r.State.Error != message("plan")) {
			t.Errorf("the plan still unchosen is not shown invalid with its message: %+v", r.State)
		}
	}
	if !strings.Contains(full.String(), plan) || !strings.Contains(full.String(), "invalid error=") {
		t.Errorf("the full look does not carry the messages:\n%s", full)
	}
}
