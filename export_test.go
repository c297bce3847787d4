package rodagent

// Test hooks for the read paths (see inventory.go).

// UseComputedRoles makes p read roles and names from Chromium's
// computedRole/computedName (the cross-check path) instead of accname.js.
func UseComputedRoles(p *Page, on bool) {
	p.mu.Lock()
	p.path.computed = on
	p.mu.Unlock()
}

// UseAXTree makes p read every frame from the AX tree.
func UseAXTree(p *Page) {
	p.mu.Lock()
	p.noFast = true
	p.mu.Unlock()
}
