package main

import "testing"

// The adapter script runs end to end against a real browser and succeeds.
func TestAdapter(t *testing.T) {
	if err := run(); err != nil {
		t.Fatal(err)
	}
}
