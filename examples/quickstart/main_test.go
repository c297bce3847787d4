package main

import "testing"

// The quickstart loop runs end to end against a real browser and succeeds.
func TestQuickstart(t *testing.T) {
	if err := run(); err != nil {
		t.Fatal(err)
	}
}
