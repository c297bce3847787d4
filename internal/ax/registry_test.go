package ax

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"testing"

	"github.com/go-rod/rod/lib/proto"
)

func ref(node int, role, name string) *Element {
	return &Element{Item: Item{Kind: KindRef, Role: role, Name: name, Node: proto.DOMBackendNodeID(node), Landmark: "main"},
		Frame: "F", Doc: "D"}
}

func handles(es []*Element) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Handle
	}
	return out
}

func TestRegistryDeltas(t *testing.T) {
	r := NewRegistry()
	first := []*Element{ref(1, "button", "Add item"), ref(2, "button", "Edit"), ref(3, "button", "Edit"), ref(4, "checkbox", "Remember me")}
	first[3].State.Checked = "false"
	d := r.Update(first)
	if !d.Full {
		t.Errorf("the first snapshot of a document is a full inventory")
	}
	if got := fmt.Sprint(handles(first)); got != "[btn-add-item btn-edit btn-edit-1 chk-remember-me]" {
		t.Errorf("handles = %s", got)
	}

	// Same nodes, one new button, a checkbox ticked.
	second := []*Element{ref(1, "button", "Add item"), ref(2, "button", "Edit"), ref(3, "button", "Edit"), ref(4, "checkbox", "Remember me"), ref(5, "button", "Remove item 3")}
	second[3].State.Checked = "true"
	d = r.Update(second)
	if d.Full || fmt.Sprint(d.Added) != "[btn-remove-item-3]" || len(d.Removed) != 0 || len(d.Rebound) != 0 {
		t.Errorf("delta = %+v", d)
	}
	if len(d.Changed) != 1 || d.Changed[0].Handle != "chk-remember-me" || d.Changed[0].Fields[0] != (Field{"checked", "false", "true"}) {
		t.Errorf("changed = %+v", d.Changed)
	}

	// Node 1 re-rendered as node 11: the handle moves, reported as rebound.
	third := []*Element{ref(11, "button", "Add item"), ref(2, "button", "Edit"), ref(3, "button", "Edit"), ref(4, "checkbox", "Remember me")}
	third[3].State.Checked = "true"
	d = r.Update(third)
	if fmt.Sprint(d.Rebound) != "[btn-add-item]" || fmt.Sprint(d.Removed) != "[btn-remove-item-3]" || len(d.Added) != 0 {
		t.Errorf("delta = %+v", d)
	}
	if third[0].Handle != "btn-add-item" {
		t.Errorf("rebound element's handle = %q", third[0].Handle)
	}

	// A removed handle is never given out again, even to an element with the same name.
	fourth := append(third, ref(6, "button", "Remove item 3"))
	d = r.Update(fourth)
	if fmt.Sprint(d.Added) != "[btn-remove-item-3-1]" {
		t.Errorf("re-added element must get a fresh handle, got %v", d.Added)
	}

	// Half the page new: the delta gives way to a full inventory.
	fifth := []*Element{ref(2, "button", "Edit"), ref(20, "link", "A"), ref(21, "link", "B")}
	if d = r.Update(fifth); !d.Full {
		t.Errorf("with most refs new, the snapshot should be full: %+v", d)
	}
}

func TestRegistryDuplicatesDoNotSwap(t *testing.T) {
	// Two identical Edit buttons both re-rendered: neither can be told from the
	// other, so neither handle may move to a node it might not have been.
	r := NewRegistry()
	r.Update([]*Element{ref(1, "button", "Edit"), ref(2, "button", "Edit")})
	d := r.Update([]*Element{ref(3, "button", "Edit"), ref(4, "button", "Edit")})
	if len(d.Rebound) != 0 || len(d.Added) != 2 || len(d.Removed) != 2 {
		t.Errorf("indistinguishable twins must not be re-bound: %+v", d)
	}
}

// FuzzDelta: for any two inventories, handles stay unique, a surviving node
// keeps its handle, and the delta applied to the old inventory gives the new.
func FuzzDelta(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, []byte{3, 4, 5, 6, 200, 100, 7, 8})
	f.Add([]byte{}, []byte{1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		gen := func(data []byte) []*Element {
			roles := []string{"button", "link", "checkbox", "textbox"}
			names := []string{"Edit", "Save", "Delete", "Edit", "Go"}
			var out []*Element
			seen := map[int]bool{}
			for i := 0; i+1 < len(data) && len(out) < 40; i += 2 {
				node := int(data[i] % 32)
				if seen[node] {
					continue
				}
				seen[node] = true
				// role and name are a function of the node, so a node never changes role
				e := ref(node+1, roles[node%len(roles)], names[(node/4)%len(names)])
				if data[i+1]&1 == 1 {
					e.State.Checked = "true"
				}
				if data[i+1]&2 == 2 {
					e.State.Value = fmt.Sprint(binary.LittleEndian.Uint16([]byte{data[i+1], 0}))
				}
				e.State.Disabled = data[i+1]&4 == 4
				if data[i+1]&8 == 8 {
					e.Name += " now"
				}
				out = append(out, e)
			}
			return out
		}
		r := NewRegistry()
		old := gen(a)
		r.Update(old)
		before := map[proto.DOMBackendNodeID]string{}
		oldF := map[string]Fields{}
		for _, e := range old {
			before[e.Node] = e.Handle
			oldF[e.Handle] = FieldsOf(e)
		}
		now := gen(b)
		d := r.Update(now)
		newF := map[string]Fields{}
		for _, e := range now {
			if _, dup := newF[e.Handle]; dup {
				t.Fatalf("handle %q given twice", e.Handle)
			}
			newF[e.Handle] = FieldsOf(e)
			if h, ok := before[e.Node]; ok && h != e.Handle {
				t.Fatalf("node %d changed handle %q → %q", e.Node, h, e.Handle)
			}
		}
		if got := Apply(oldF, d, newF); !reflect.DeepEqual(got, newF) {
			t.Fatalf("delta applied to old inventory:\n%v\nwant\n%v\ndelta %+v", got, newF, d)
		}
	})
}

// A table row that leads with a selection control (AG Grid's "Press Space to
// toggle row selection", MUI DataGrid's "Select row") is minted a handle
// from its data; its name keeps the control's label. A row without one, a
// control that does not start the row's name, or a row that is nothing but
// the control keep the handle of their whole name.
func TestRowHandleSkipsSelectionControl(t *testing.T) {
	for _, tc := range []struct {
		name, control, controlName, want string
	}{
		{"Press Space to toggle row selection (unchecked) Tesla Model Y 64950", "checkbox", "Press Space to toggle row selection (unchecked)", "row-tesla-model-y-64950"},
		{"Select row Alice Smith 42", "checkbox", "Select row", "row-alice-smith-42"},
		{"Tesla Model Y 64950", "", "", "row-tesla-model-y-64950"},
		{"Tesla Model Y Select", "checkbox", "Select", "row-tesla-model-y-select"},
		{"Edit Tesla Model Y", "button", "Edit", "row-edit-tesla-model-y"},
		{"Select row", "checkbox", "Select row", "row-select-row"},
	} {
		row := ref(1, "row", tc.name)
		elems := []*Element{row}
		if tc.control != "" {
			cell := ref(2, "gridcell", tc.controlName)
			cell.Parent = row
			ctl := ref(3, tc.control, tc.controlName)
			ctl.Parent = cell
			elems = append(elems, cell, ctl)
		}
		NewRegistry().Update(elems)
		if row.Handle != tc.want || row.Name != tc.name {
			t.Errorf("row %q with %s %q: handle %s, name %q; want %s and the name kept", tc.name, tc.control, tc.controlName, row.Handle, row.Name, tc.want)
		}
	}
}
