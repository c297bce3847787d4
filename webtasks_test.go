package rodagent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// Web tasks (suggestion menus, file trees) put clickables inside other
// clickables: a focusable suggestion list whose items the list's listener
// serves, a tree whose items each listen. A person clicks the item, not the
// list, so every item a person sees is a ref, on both read paths; a folded
// folder is named by what shows of it, not by its hidden children.
func TestWebtasksNestedClickables(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"fast", "ax"} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			p := open(t, "webtasks-nested-clickables.html")
			if path == "ax" {
				rodagent.UseAXTree(p)
			}
			ctx := testCtx(t, 30*time.Second)
			s := snapshot(t, p)
			apricot := refByName(t, s, "Apricot")
			recipes := refByName(t, s, "Recipes")
			if _, ok := refWithName(s, "Pie"); ok {
				t.Errorf("a folded folder's file is a ref:\n%s", s)
			}
			if _, err := p.Click(ctx, apricot); err != nil {
				t.Fatalf("Click %s: %v", apricot, err)
			}
			s = snapshot(t, p)
			if !strings.Contains(s.String(), `"picked Apricot"`) {
				t.Errorf("the pick's outcome is not in the delta:\n%s", s)
			}
			if _, err := p.Click(ctx, recipes); err != nil {
				t.Fatalf("Click %s: %v", recipes, err)
			}
			s = snapshot(t, p)
			jam := refByName(t, s, "Jam")
			if !strings.Contains(s.String(), "+ "+jam) {
				t.Errorf("the opened folder's file is not added in the delta:\n%s", s)
			}
			if _, err := p.Click(ctx, jam); err != nil {
				t.Fatalf("Click %s: %v", jam, err)
			}
			s = snapshot(t, p)
			if !strings.Contains(s.String(), `"opened Jam"`) {
				t.Errorf("clicking the file did not open it:\n%s", s)
			}
		})
	}
}

// refByName is the handle of the ref named name, whatever its role.
func refByName(t *testing.T, s *rodagent.Snapshot, name string) string {
	t.Helper()
	ref, ok := refWithName(s, name)
	if !ok {
		t.Fatalf("no ref named %q:\n%s", name, s.FullText())
	}
	return ref
}

func refWithName(s *rodagent.Snapshot, name string) (string, bool) {
	for _, r := range s.Refs {
		if r.Name == name {
			return r.Ref, true
		}
	}
	return "", false
}

// An icon a page draws as the element's own content (content: url(…), as
// mail apps draw their search and reply buttons) names the clickable after
// the image, as a background image does, on both read paths.
func TestWebtasksIconFromContentImage(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"fast", "ax"} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			p := open(t, "webtasks-nested-clickables.html")
			if path == "ax" {
				rodagent.UseAXTree(p)
			}
			s := snapshot(t, p)
			find := refByName(t, s, "icon button (search)")
			if _, err := p.Click(testCtx(t, 30*time.Second), find); err != nil {
				t.Fatalf("Click %s: %v", find, err)
			}
			if s = snapshot(t, p); !strings.Contains(s.String(), `"find opened"`) {
				t.Errorf("clicking the icon did not reach it:\n%s", s)
			}
		})
	}
}
